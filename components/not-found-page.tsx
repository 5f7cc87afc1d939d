import Link from 'next/link';

/** A 404 that says what was asked for and where to go next; a refused file is the 404 of a missing one. */
export function NotFoundPage({ message, next }: { message: string; next?: { href: string; label: string } }) {
  return (
    <main className="narrow center">
      <h1>Not found</h1>
      <p className="muted">{message}</p>
      <p>
        {next && (
          <>
            <Link href={next.href}>{next.label}</Link> ·{' '}
          </>
        )}
        <Link href="/">The gallery</Link> · <Link href="/signin">Sign in</Link>
      </p>
    </main>
  );
}
