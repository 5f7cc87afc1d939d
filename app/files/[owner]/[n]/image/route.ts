import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pageContext, readableFile } from '@/lib/pages';

const SIZES = new Set(['default', 'block-thumb', 'list-thumb']);

// Until images are rendered, every image URL answers a placeholder PNG with the plot's permissions.
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const url = new URL(req.url);
  const file = await readableFile(await pageContext(), await params, url.searchParams.get('share_key'));
  if (!file || file.filetype !== 'plot') return new Response('Not found.', { status: 404 });
  const size = url.searchParams.get('size') ?? 'default';
  const png = await readFile(path.join(process.cwd(), 'public/placeholders', `${SIZES.has(size) ? size : 'default'}.png`));
  return new Response(png, { headers: { 'Content-Type': 'image/png', 'Cache-Control': 'no-cache' } });
}
