import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CELL_CHARS, TABLE_COLUMNS } from '@/lib/shared/figures/chart-table';
import { dataTablePath, filePath, withShareKey } from '@/lib/shared/urls';
import { shareKeyOf } from '@/lib/web/file-head';
import { loadDataTable, tablePageOf, type DataTablePageData } from '@/lib/web/plot-page';

export const dynamic = 'force-dynamic';

type Props = {
  params: Promise<{ owner: string; n: string }>;
  searchParams: Promise<{ share_key?: string | string[]; page?: string | string[] }>;
};

async function load({ params, searchParams }: Props): Promise<DataTablePageData | null> {
  const { owner, n } = await params;
  const search = await searchParams;
  return loadDataTable(owner, n, shareKeyOf(search.share_key), tablePageOf(search.page));
}

const nameOf = (data: DataTablePageData) => data.plot.record.title.trim() || data.plot.file.filename;

export async function generateMetadata(props: Props): Promise<Metadata> {
  const data = await load(props);
  if (!data) return { title: 'Not found' };
  // The plot page is the one to index; this is its data, page by page.
  return { title: `Data table: ${nameOf(data)}`, robots: { index: false, follow: data.plot.visibility === 'public' } };
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

// `/~owner/n/data-table?page=k`: the data the plot's chart draws, as a table screen readers can walk,
// a page of rows at a time (lib/shared/figures/chart-table.ts bounds it); plain links, no JavaScript needed.
export default async function DataTablePage(props: Props) {
  const data = await load(props);
  if (!data) notFound();
  const { plot, table, dataOmitted } = data;
  const { file, shareKey } = plot;
  const title = nameOf(data);
  const pageHref = (page: number) => withShareKey(dataTablePath(file.owner, file.n, page), shareKey);
  const lastRow = table.firstRow + table.rows.length - 1;
  return (
    <main className="file-page data-table-page">
      <header className="file-head">
        <h1>Data table: {title}</h1>
        <p>
          <Link href={withShareKey(filePath(file.owner, file.n), shareKey)}>Back to the chart</Link> ·{' '}
          <a download={`${file.filename}.csv`} href={withShareKey(filePath(file.owner, file.n, 'csv'), shareKey)}>
            Download its data (CSV)
          </a>
        </p>
      </header>
      {dataOmitted && <p className="grid-note">This chart&rsquo;s data is too large to show as a table here: the CSV download has it.</p>}
      {table.columnCount > table.columns.length && (
        <p className="grid-note">
          Showing the first {TABLE_COLUMNS} of {table.columnCount.toLocaleString('en')} columns. The CSV download has all the data.
        </p>
      )}
      {table.columns.length === 0 ? (
        !dataOmitted && <p className="grid-note">This chart has no data to show as a table.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: focus is what lets a keyboard scroll the overflowing table
        <section className="table-wrap" aria-labelledby="data-table-caption" tabIndex={0}>
          <table className="grid-table data-table">
            <caption id="data-table-caption">
              {title}: rows {table.firstRow.toLocaleString('en')}–{lastRow.toLocaleString('en')} of {count(table.rowCount, 'row', 'rows')}, one column per trace
              field. Values longer than {CELL_CHARS} characters are cut short.
            </caption>
            <thead>
              <tr>
                <th scope="col" className="row-number">
                  Row
                </th>
                {table.columns.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in a table rendered once on the server
                  <th scope="col" key={i}>
                    {c.trace} <span className="field-name">{c.field}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((cells, r) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a row is its number
                <tr key={r}>
                  <th scope="row" className="row-number">
                    {(table.firstRow + r).toLocaleString('en')}
                  </th>
                  {cells.map((cell, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column's position, as in the header
                    <td key={i}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {table.pageCount > 1 && (
        <nav className="pager" aria-label="Pages of the data table">
          {table.page > 1 && (
            <a rel="prev" href={pageHref(table.page - 1)} className="button secondary">
              <span aria-hidden="true">←</span> Previous rows
            </a>
          )}
          <span>
            Page {table.page.toLocaleString('en')} of {table.pageCount.toLocaleString('en')}
          </span>
          {table.page < table.pageCount && (
            <a rel="next" href={pageHref(table.page + 1)} className="button secondary">
              Next rows <span aria-hidden="true">→</span>
            </a>
          )}
        </nav>
      )}
    </main>
  );
}
