import { fileCsv, shareKeyOf } from '@/lib/plot-page';

export const dynamic = 'force-dynamic';

/** A name for Content-Disposition: an ASCII fallback and the exact name as RFC 5987 UTF-8. */
function disposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const utf8 = encodeURIComponent(filename).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${utf8}`;
}

// `/~owner/n.csv`: the data behind a plot (columns the visitor may read) or a whole grid.
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const csv = await fileCsv(await params, shareKeyOf(new URL(req.url).searchParams.get('share_key') ?? undefined));
  if (!csv) return new Response('Not found.', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const encoder = new TextEncoder();
  const chunks = csv.chunks;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8; header=present',
      'Content-Disposition': disposition(csv.filename),
      // Who may read which grid decides the columns: never share a cached copy between visitors.
      'Cache-Control': 'private, no-cache',
    },
  });
}
