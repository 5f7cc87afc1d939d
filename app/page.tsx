import { headers } from 'next/headers';
import Link from 'next/link';
import { getDb } from '@/db/client';
import { originFrom } from '@/lib/http';
import { listPlots } from '@/lib/plots';

export const dynamic = 'force-dynamic';

interface Card {
  fid: string;
  title: string;
  filename: string;
  owner: string;
  views: number;
  web_url: string;
  img_url: string;
}

// The gallery's first cut: the newest public plots, server-rendered from lib/ (no HTTP round trip).
export default async function Gallery() {
  const db = await getDb();
  const origin = originFrom(await headers(), new URL('http://localhost'));
  const page = await listPlots(db, null, { page_size: 24 }, origin, new URL('/v2/plots', origin));
  const { results } = JSON.parse(page.text) as { results: Card[] };
  return (
    <main>
      <h1>Plot Files</h1>
      <p className="muted">Public plots, newest first.</p>
      <ul className="cards">
        {results.map((plot) => (
          <li key={plot.fid} className="card">
            <Link href={plot.web_url}>
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src={plot.img_url} alt={`Thumbnail of ${plot.title || plot.filename}`} width={200} height={150} />
              <strong>{plot.title || plot.filename}</strong>
            </Link>
            <div className="muted">
              by <Link href={`/~${plot.owner}/`}>{plot.owner}</Link> · {plot.views} views
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
