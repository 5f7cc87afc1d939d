import { imageSize, plotImage } from '@/lib/core/images';
import { pngResponse } from '@/lib/http/responses';
import { pageContext, readableFile } from '@/lib/web/page-context';

// `/~owner/n.png[?size=block-thumb|list-thumb]`: the plot's PNG with the plot's own permissions.
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const url = new URL(req.url);
  const ctx = await pageContext();
  const file = await readableFile(ctx, await params, url.searchParams.get('share_key'));
  if (file?.filetype !== 'plot') return new Response('Not found.', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return pngResponse(req, await plotImage(ctx.db, file, imageSize(url.searchParams.get('size'))));
}
