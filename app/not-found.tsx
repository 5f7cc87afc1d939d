import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';

export const metadata: Metadata = { title: 'Not found' };

// Any address with no page; files, people and data files have their own (speaking of what was asked).
export default function NotFound() {
  return <NotFoundPage message="There is no page at this address. Check it for a typo, or start from the gallery." />;
}
