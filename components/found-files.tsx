// The grids and folders a search of one's own files found by name, above its plots: each linked (a
// folder opens in the workspace) with its kind and the folder it is in.
import type { NameMatch } from '@/lib/web/workspace';

export function FoundFiles({ rows }: { rows: NameMatch[] }) {
  if (!rows.length) return null;
  return (
    <section className="found-files" aria-labelledby="found-files-heading">
      <h2 id="found-files-heading">Grids and folders</h2>
      <ul>
        {rows.map((row) => (
          <li key={row.fid} data-fid={row.fid} data-kind={row.kind}>
            <a href={row.href}>{row.name}</a>{' '}
            <span className="muted">
              {row.kind === 'fold' ? 'Folder' : 'Grid'} in {row.where}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
