'use server';
// "Load more" on the gallery and the feed: the next page of cards, read as the pages read them (a
// few columns a card, never whole figures).
import type { NextPage } from '@/components/load-more';
import { feedPage, galleryPage, galleryQuery } from '@/lib/web/gallery';
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
