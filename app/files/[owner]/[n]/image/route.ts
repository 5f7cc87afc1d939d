import { isDocumentType } from '@/lib/core/documents/dashboards';
import { imageSize, plotImage } from '@/lib/core/images/images';
import { pngResponse } from '@/lib/http/responses';
import { documentImage } from '@/lib/web/document-card-image';
import { pageContext, readableFile } from '@/lib/web/page-context';

// `/~owner/n.png[?size=block-thumb|list-thumb|card]`: the plot's PNG with the plot's own permissions; a
// dashboard's or presentation's picture (its first public plot's image, else one of its boxes).
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const url = new URL(req.url);
  const ctx = await pageContext();
  const shareKey = url.searchParams.get('share_key');
  const file = await readableFile(ctx, await params, shareKey);
  const size = imageSize(url.searchParams.get('size'));
  if (file && isDocumentType(file.filetype)) {
    const image = await documentImage(ctx, { ...file, filetype: file.filetype }, size);
    // Which plot is first, and whether it is public, may change at any time: asked again each time.
    if ('redirect' in image) return new Response(null, { status: 302, headers: { Location: image.redirect, 'Cache-Control': 'no-store' } });
    return new Response(new Uint8Array(image.png), { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-store' } });
  }
  if (file?.filetype !== 'plot') return new Response('Not found.', { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return pngResponse(req, await plotImage(ctx.db, file, size));
}
