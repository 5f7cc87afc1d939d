import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';

export const metadata: Metadata = { title: 'Not found' };

export default function PersonNotFound() {
  return <NotFoundPage message="There is no one of this name here. Usernames are spelled as in their profile's address, /~name/." />;
}
