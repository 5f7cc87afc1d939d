import { create as contentDisposition } from 'content-disposition';
import { CSV_MAX_BYTES, CsvBusyError, CsvTooLargeError } from '@/lib/web/csv';
import { shareKeyOf } from '@/lib/web/file-head';
import { fileCsv } from '@/lib/web/plot-page';

export const dynamic = 'force-dynamic';

// `/~owner/n.csv`: the data behind a plot (columns the visitor may read) or a whole grid.
const text = (status: number, body: string, headers: Record<string, string> = {}) =>
  new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', ...headers } });

export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  let csv: Awaited<ReturnType<typeof fileCsv>>;
  try {
    csv = await fileCsv(await params, shareKeyOf(new URL(req.url).searchParams.get('share_key') ?? undefined));
  } catch (error) {
    if (error instanceof CsvTooLargeError) {
      return text(
        400,
        `This data is too large for a CSV download (${error.message}; at most ${CSV_MAX_BYTES / 2 ** 20} MiB). Download the figure and data as JSON instead.`,
      );
    }
    if (error instanceof CsvBusyError) return text(503, 'Too many CSV downloads are being prepared; try again in a few seconds.', { 'Retry-After': '5' });
    throw error;
  }
  if (!csv) return text(404, 'Not found.');
  const encoder = new TextEncoder();
  const chunks = csv.chunks;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return();
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      // A name that is not plain ASCII goes in filename* (RFC 8187 UTF-8), with an ASCII fallback.
      'Content-Disposition': contentDisposition(csv.filename),
      // Who may read which grid decides the columns: never share a cached copy between visitors.
      'Cache-Control': 'private, no-cache',
    },
  });
}
