import { z } from 'zod';
import { invalid, notFound } from '@/lib/core/errors';
import { errorResponse, json, PRIVATE_CACHE } from '@/lib/http/responses';
import { presentationWindow } from '@/lib/web/document-page';
import { pageContext, readableFile } from '@/lib/web/page-context';

const fromSchema = z.coerce.number().int().min(1).max(100_000);

// `/~owner/n/slides?from=k[&share_key=]`: a few of a presentation's slides from the k-th, as its page
// shows them to this visitor (what its deck asks for as slides are shown), with the page's permissions:
// a file the visitor may not read is the 404 of a missing one.
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const url = new URL(req.url);
  const from = fromSchema.safeParse(url.searchParams.get('from') ?? undefined);
  if (!from.success) return errorResponse(invalid('from', 'a slide number, 1 or more'));
  const ctx = await pageContext();
  const file = await readableFile(ctx, await params, url.searchParams.get('share_key'));
  const window = file && (await presentationWindow(ctx, file, from.data));
  if (!window) return errorResponse(notFound());
  return json(window, { headers: { 'Cache-Control': PRIVATE_CACHE } });
}
