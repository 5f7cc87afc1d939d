import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Not found' };

// The one 404 page: missing, deleted and private-to-others files all land here.
export default function NotFound() {
  return (
    <main className="narrow center">
      <h1>Not found</h1>
      <p className="muted">There is no plot here, or it is not shared with you.</p>
      <p>
        <Link href="/">Back to the gallery</Link> · <Link href="/signin">Sign in</Link>
      </p>
    </main>
  );
}
