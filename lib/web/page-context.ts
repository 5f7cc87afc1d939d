// What every web page needs from the core: the database, who is viewing (API credentials or the
// session cookie), the public origin, and files with the same permissions as the API.
import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { getDb, type Db } from '@/db/client';
import { authenticate, type Viewer } from '@/lib/core/auth';
import { getFile, type OwnedFile } from '@/lib/core/files';
import { originFrom } from '@/lib/core/origin';
import { canRead } from '@/lib/core/permissions';
import { countAddressWrite } from '@/lib/core/rate-limit';
import { parseFid } from '@/lib/core/records';

export interface PageContext {
  db: Db;
  viewer: Viewer | null;
  origin: string;
}

/**
 * Once per request: the layout, the page and its metadata share one lookup of the viewer. Apart from
 * the saved queries, that fixes the order their parts stream in, so the 404 page of a file the viewer
 * may not read is byte for byte the 404 of a missing one (with a lookup each, the order raced).
 */
export const pageContext = cache(async (): Promise<PageContext> => {
  const h = await headers();
  const db = await getDb();
  const origin = originFrom(h, new URL('http://localhost'));
  let viewer: Viewer | null = null;
  try {
    viewer = await authenticate(db, { method: 'GET', headers: h, origin });
  } catch {
    // Bad credentials on a page: browse anonymously rather than fail, but count the attempt against
    // the address as the API does, so pages are no way around its throttling of key guessing.
    await countAddressWrite(db, h);
  }
  return { db, viewer, origin };
});

/** A file the visitor may read (`/~owner/n/` params), or null for the one 404 page. */
export async function readableFile(
  ctx: PageContext,
  params: { owner: string; n: string },
  shareKey?: string | null,
): Promise<OwnedFile | null> {
  const fid = parseFid(`${params.owner}:${params.n}`);
  if (!fid) return null;
  const file = await getFile(ctx.db, fid);
  return file && canRead(file, ctx.viewer, shareKey) ? file : null;
}
