'use server';
// "Load more" on the gallery, the feed, the search and a profile: the next page of cards, read as the
// pages read them (a few columns a card, never whole figures). Profiles have no list API to fetch
// from; the viewer is read from the session exactly as on the page, so only the owner gets their
// private and secret cards.
import { z } from 'zod';
import type { NextPage } from '@/components/load-more';
import { getUserByUsername, usernameSchema } from '@/lib/core/accounts/users';
import { listQuerySchema } from '@/lib/http/request/queries';
import { feedPage, galleryPage, galleryQuery, listUserPlots, listUserStarred, searchPage } from '@/lib/web/gallery';
import { pageContext } from '@/lib/web/page-context';

/** The gallery's next page, for the gallery's own parameters (`order_by`, `min_quality`). */
export async function moreGalleryPlots(params: Record<string, string>, cursor: string): Promise<NextPage> {
  const { query } = galleryQuery({ ...params, cursor });
  const { db, origin } = await pageContext();
  const { cards, next } = await galleryPage(db, query, origin);
  return { cards, next };
}

export async function moreFeedPlots(cursor: string): Promise<NextPage> {
  const { db, origin } = await pageContext();
  const { cards, next } = await feedPage(db, { cursor }, origin);
  return { cards, next };
}

/** The search's next page, for its query (a cursor is bound to the query it was issued for). */
export async function moreSearchPlots(q: string, mine: boolean, cursor: string): Promise<NextPage> {
  const { db, origin, viewer } = await pageContext();
  const { cards, next } = await searchPage(db, viewer, { q, cursor, mine: mine === true }, origin);
  return { cards, next };
}

const profileSchema = z.object({ owner: usernameSchema, cursor: listQuerySchema.shape.cursor.unwrap() });

export async function moreUserPlots(owner: string, cursor: string): Promise<NextPage> {
  const input = profileSchema.parse({ owner, cursor });
  const { db, viewer, origin } = await pageContext();
  const user = await getUserByUsername(db, input.owner);
  if (!user) throw new Error('There is no such user.');
  const { cards, next } = await listUserPlots(db, viewer, user, { cursor: input.cursor }, origin);
  return { cards, next };
}

/** "Load more" on a profile's "Starred": plots the viewer may read only. */
export async function moreStarredPlots(owner: string, cursor: string): Promise<NextPage> {
  const input = profileSchema.parse({ owner, cursor });
  const { db, viewer, origin } = await pageContext();
  const user = await getUserByUsername(db, input.owner);
  if (!user) throw new Error('There is no such user.');
  const { cards, next } = await listUserStarred(db, viewer, user, { cursor: input.cursor }, origin);
  return { cards, next };
}
