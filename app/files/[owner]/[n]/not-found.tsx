import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';

export const metadata: Metadata = { title: 'Not found' };

// Missing, deleted and private-to-others files all land here, alike: it never says which.
export default function FileNotFound() {
  return (
    <NotFoundPage message="There is no chart, data file, dashboard or presentation at this address, or it is not shared with you. If it is yours or was shared with you, sign in." />
  );
}
