import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { pageContext, readableFile } from '@/lib/pages';

export const dynamic = 'force-dynamic';

type Props = { params: Promise<{ owner: string; n: string }>; searchParams: Promise<{ share_key?: string }> };

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const file = await readableFile(await pageContext(), await params, (await searchParams).share_key);
  return { title: file ? file.filename : 'Not found' };
}

// A file's web_url. The full plot page (interactive chart, downloads) is built on this route.
export default async function FilePage({ params, searchParams }: Props) {
  const file = await readableFile(await pageContext(), await params, (await searchParams).share_key);
  if (!file) notFound();
  return (
    <main>
      <h1>{file.filename}</h1>
      <p className="muted">
        {file.filetype} by <a href={`/~${file.owner}/`}>{file.owner}</a>
      </p>
      {file.filetype === 'plot' && (
        <p>
          <a href={`/v2/plots/${file.owner}:${file.n}/content?inline_data=true`}>Figure with data (JSON)</a>
        </p>
      )}
    </main>
  );
}
