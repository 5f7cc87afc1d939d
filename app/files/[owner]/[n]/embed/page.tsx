import { notFound } from 'next/navigation';
import { pageContext, readableFile } from '@/lib/pages';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ owner: string; n: string }>; searchParams: Promise<{ share_key?: string }> };

export default async function EmbedPage({ params, searchParams }: Props) {
  const file = await readableFile(await pageContext(), await params, (await searchParams).share_key);
  if (!file || file.filetype !== 'plot') notFound();
  return <main>{file.filename}</main>;
}
