// A grid's first rows and columns as a table (its page, a version's page), with a note when there is more.
import type { GridPageData } from '@/lib/web/plot-page';

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** `rest` says where the rows and columns not shown are. */
export function GridPreviewTable({ preview, label, rest }: { preview: GridPageData['preview']; label: string; rest: string }) {
  const { columns, columnCount, rowCount, shown } = preview;
  return (
    <>
      {(rowCount > shown || columnCount > columns.length) && (
        <p className="grid-note" id="grid-note">
          Showing the first {shown.toLocaleString('en')} of {rowCount.toLocaleString('en')} rows
          {columnCount > columns.length && ` and the first ${columns.length} of ${columnCount.toLocaleString('en')} columns`}. {rest}
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focus is what lets a keyboard scroll the overflowing table */}
      <section className="table-wrap" aria-label={label} tabIndex={0}>
        <table className="grid-table">
          <thead>
            <tr>
              <th scope="col" className="row-number">
                <span className="visually-hidden">Row</span>
              </th>
              {columns.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position in a table rendered once on the server, never reordered
                <th scope="col" key={i}>
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: shown }, (_, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a row is its number
              <tr key={r}>
                <th scope="row" className="row-number">
                  {r + 1}
                </th>
                {columns.map((c, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a cell is its column's position, as in the header
                  <td key={i}>{cellText(c.values[r])}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}
