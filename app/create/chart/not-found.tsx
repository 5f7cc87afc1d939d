import type { Metadata } from 'next';
import { NotFoundPage } from '@/components/not-found-page';
import { NEW_CHART_PATH } from '@/lib/shared/urls';

export const metadata: Metadata = { title: 'Not found' };

export default function DataNotFound() {
  return (
    <NotFoundPage
      message="There is no data file at this address, or it is not shared with you. Import your data to make a chart of it."
      next={{ href: NEW_CHART_PATH, label: 'New chart' }}
    />
  );
}
