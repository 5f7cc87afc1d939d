// What every web page needs from the core: the database, who is viewing (API credentials or the
// session cookie), the public origin, and files with the same permissions as the API.
import 'server-only';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type { Db } from '@/db/client';
import { getDb } from '@/lib/core/database';
import { authenticate, type Viewer } from '@/lib/core/accounts/auth';
import { getFile, type OwnedFile } from '@/lib/core/files/files';
import { originFrom } from '@/lib/http/request/origin';
import { readableAs, type Readable } from '@/lib/core/permissions';
import { countAddressWrite } from '@/lib/core/accounts/rate-limit';
import { parseFid } from '@/lib/core/records';
import { csrfToken, sessionToken } from '@/lib/core/accounts/sessions';
import { signInFirst } from '@/lib/shared/urls';

export interface PageContext {
  db: Db;
  viewer: Viewer | null;
  origin: string;
  /** The signed-in viewer's anti-forgery token, for the hidden `csrf` field of every form (lib/web/forms.ts). */
  csrf: string | null;
}

/**
 * Once per request: the layout, the page and its metadata share one lookup of the viewer. Apart from
 * the saved queries, that fixes the order their parts stream in, so the 404 page of a file the viewer
 * may not read is byte for byte the 404 of a missing one (with a lookup each, the order raced).
 */
export const pageContext = cache(async (): Promise<PageContext> => {
  // The cookies as Next keeps them, not the request's Cookie header: a form action that renewed the
  // session (settings: new key, new password) renders the page for the session it just set.
  const h = new Headers(await headers());
  const jar = (await cookies()).toString();
  if (jar) h.set('cookie', jar);
  else h.delete('cookie');
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
  const credential = h.get('plotly-authorization') ?? h.get('authorization') ?? sessionToken(h.get('cookie'));
  return { db, viewer, origin, csrf: viewer && credential ? csrfToken(credential) : null };
});

/** A page's context once its visitor is signed in: who they are and their forms' anti-forgery token. */
export type SignedInContext = PageContext & { viewer: Viewer; csrf: string };

export const isSignedIn = (ctx: PageContext): ctx is SignedInContext => ctx.viewer !== null && ctx.csrf !== null;

/** The context of a page for signed-in people; a signed-out visitor is sent to sign in first, coming back to `next` after. */
export async function signedInPage(next: string): Promise<SignedInContext> {
  const ctx = await pageContext();
  if (!isSignedIn(ctx)) redirect(signInFirst(next));
  return ctx;
}

/** A file the visitor may read (`/~owner/n/` params), or null for the one 404 page: looked up and checked once, then read "as already checked". */
export async function readableFile(ctx: PageContext, params: { owner: string; n: string }, shareKey?: string | null): Promise<Readable<OwnedFile> | null> {
  const fid = parseFid(`${params.owner}:${params.n}`);
  if (!fid) return null;
  return readableAs(await getFile(ctx.db, fid, ctx.viewer), ctx.viewer, shareKey) ?? null;
}
