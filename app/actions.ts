'use server';
// "Load more" on the gallery, the feed and the search: the next page of cards, read as the pages read them (a
// few columns a card, never whole figures).
import type { NextPage } from '@/components/load-more';
import { feedPage, galleryPage, galleryQuery, searchPage } from '@/lib/web/gallery';
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
