// The bounds of "Bring your charts" (docs/limits.md): what one file, one zip and one page may hold; the page checks a file's size before sending it.
const MiB = 1024 * 1024;

export const IMPORT_LIMITS = {
  /** One file (a web upload, a CLI file, a zip's entry). */
  maxSourceBytes: 20 * MiB,
  /** Files in one zip. */
  maxZipEntries: 1000,
  /** Bytes a zip unpacks to, in all. */
  maxZipBytes: 100 * MiB,
  /** Unpacked bytes per byte of the zip, once past 1 MiB. */
  maxZipRatio: 100,
  /** Figures read from one file (a page's Plotly.newPlot calls, a notebook's outputs). */
  maxFiguresPerFile: 200,
} as const;
