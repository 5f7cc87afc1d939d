// A profile's public dashboards and presentations: a card each (its picture, name and kind), linking
// to its page. The picture is its card image (lib/web/document-page.ts documentImage).
import { CARD_SIZE } from '@/lib/shared/figures/card-figure';
import type { DocumentCardRow } from '@/lib/core/documents/document-cards';
import { filePath, imagePath } from '@/lib/shared/urls';
import './documents.css';

const KIND = { dashboard: 'Dashboard', spectacle_presentation: 'Presentation' } as const;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** The cards; `byline` names each one's owner (where they are not all one person's). */
export function DocumentCards({ rows, byline = false }: { rows: DocumentCardRow[]; byline?: boolean }) {
  if (!rows.length) return null;
  return (
    <section className="document-cards" aria-labelledby="document-cards-heading">
      <h2 id="document-cards-heading">Dashboards and presentations</h2>
      <ul className="document-card-list">
        {rows.map((row) => (
          <li key={`${row.owner}:${row.n}`} className="document-card" data-fid={`${row.owner}:${row.n}`}>
            <img src={imagePath(row.owner, row.n, 'card')} alt="" width={CARD_SIZE[0]} height={CARD_SIZE[1]} loading="lazy" decoding="async" />
            <h3 className="document-card-title">
              <a href={filePath(row.owner, row.n)}>{row.filename}</a>
            </h3>
            <p className="document-card-meta">
              {KIND[row.filetype]}
              {byline && ` by ${row.owner}`} · updated <time dateTime={row.updatedAt.toISOString()}>{dateFormat.format(row.updatedAt)}</time>
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
