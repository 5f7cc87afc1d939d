// What every page of a file (`/~owner/n/`, its embed and data table) starts from: the file looked up
// and checked once a request, and what its head and share links show this visitor. The pages'
// loaders (plot-page.ts, document-page.ts) read the rest "of an already-checked file".
import 'server-only';
import { cache } from 'react';
import { z } from 'zod';
import type { OwnedFile } from '@/lib/core/files/files';
import { canWrite, carriedShareKey, fileVisibility, isOwner, type Readable, shareUrl, shownShareKey, type Visibility } from '@/lib/core/permissions';
import { fileUrls, withShareKey } from '@/lib/shared/urls';
import { pageContext, readableFile, type PageContext } from './page-context';

/** `?share_key=`: a repeated or oversized value is ignored rather than an error page. */
const shareKeySchema = z.string().min(1).max(200).optional().catch(undefined);
export const shareKeyOf = (value: unknown): string | undefined => shareKeySchema.parse(value);

export interface FileHead {
  ctx: PageContext;
  file: Readable<OwnedFile>;
  visibility: Visibility;
  /** The visitor owns it (its owner's forms show). */
  own: boolean;
  /** The visitor changes its content: its owner and its writers (edit and history links). */
  writes: boolean;
  /** The share key to carry on this page's own requests and links: only when the file needs it to be read. */
  shareKey: string | null;
  /** The link to hand out (shareUrl: with a secret file's key for its owner and for a request that came with it). */
  shareUrl: string;
  /** The embed's address for the embed code, with the same key as the share link. */
  embedUrl: string;
  urls: ReturnType<typeof fileUrls>;
}

/**
 * The file at `/~owner/n/` if the visitor may read it, with its head; null for the one 404 page (a
 * folder has no page). Once a request: a page's metadata and its body share it.
 */
export const fileHead = cache(async (owner: string, n: string, shareKey: string | undefined): Promise<FileHead | null> => {
  const ctx = await pageContext();
  const file = await readableFile(ctx, { owner, n }, shareKey);
  if (!file || file.filetype === 'fold') return null;
  const urls = fileUrls(ctx.origin, file.owner, file.n);
  return {
    ctx,
    file,
    visibility: fileVisibility(file),
    own: isOwner(ctx.viewer, file),
    writes: canWrite(file, ctx.viewer),
    shareKey: carriedShareKey(file, shareKey),
    shareUrl: shareUrl(urls.web_url, file, ctx.viewer, shareKey),
    embedUrl: withShareKey(urls.embed_url, shownShareKey(file, ctx.viewer, shareKey)),
    urls,
  };
});
