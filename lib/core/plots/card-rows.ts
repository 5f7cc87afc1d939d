// The rows behind the web's plot cards (gallery, feed, search, profiles): each list's own pager (same
// orders, filters and cursors as the API's) with a card's few columns as the projection, so a list
// never carries (or parses) whole figures.
import 'server-only';
import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import type { Viewer } from '../accounts/auth';
import type { RowsPage } from '../cursors';
import { requestImagesFirst, undrawableSql } from '../images/images';
import { listStarredRows } from './stars';
import { type FeedQuery, GALLERY_PAGE_SIZE, listFeedRows, listOwnerPlotRows, listPlotRows, type ListQuery, type PageRow } from './plot-lists';
import { isoText } from '../records';
import { searchPlotRows, type SearchScope } from './search';
import { traceTypeSql } from '../figure-sql';

/** What a card shows, as columns over `p` (plots), `f` (files) and `u` (users): a few short values,
 * the trace types read in the database. */
const CARD_SELECT = sql`u.username AS owner, f.n, f.filename, p.title, ${isoText(sql`f.created_at`, 'micros')} AS created_at,
  ${isoText(sql`f.updated_at`, 'micros')} AS modified_at, f.world_readable, f.share_key IS NOT NULL AS keyed, ${undrawableSql} AS undrawable, p.data_values, p.data_bytes,
  (SELECT coalesce(json_agg(t ORDER BY i), '[]'::json)::text FROM (
     SELECT ${traceTypeSql(sql`e`)} AS t, min(i) AS i
     FROM jsonb_array_elements(CASE WHEN jsonb_typeof(p.figure->'data') = 'array' THEN p.figure->'data' ELSE '[]'::jsonb END)
       WITH ORDINALITY AS x(e, i)
     GROUP BY 1) types) AS types`;

export interface CardRow {
  owner: string;
  n: number;
  filename: string;
  title: string;
  views: string | number;
  created_at: string;
  modified_at: string;
  world_readable: boolean;
  keyed: boolean;
  undrawable: boolean;
  data_values: string | number;
  data_bytes: string | number;
  /** The distinct trace types, in order of first use, as JSON text. */
  types: string;
}

/** Public plots in the API list's order and filter (the gallery). */
export function listGalleryCards(db: Db, q: ListQuery, origin: string): Promise<RowsPage<CardRow & PageRow>> {
  return listPlotRows<CardRow>(db, CARD_SELECT, q, origin);
}

/** Handpicked plots in the random order the cursors carry (the feed). */
export function listFeedCards(db: Db, q: FeedQuery, origin: string): Promise<RowsPage<CardRow & PageRow>> {
  return listFeedRows<CardRow>(db, CARD_SELECT, q, origin);
}

/** Plots matching `q`: public ones, or with scope 'own' the viewer's own (lib/core/plots/search.ts). */
export function searchCards(db: Db, viewer: Viewer | null, q: FeedQuery & { q: string }, origin: string, scope: SearchScope) {
  return searchPlotRows<CardRow>(db, viewer, CARD_SELECT, q, origin, { scope });
}

/** An owner's plots, newest first: public ones, and to the owner their private and secret ones too. */
export function listOwnerCards(db: Db, viewer: Viewer | null, ownerId: number, q: FeedQuery, origin: string): Promise<RowsPage<CardRow & PageRow>> {
  return listOwnerPlotRows<CardRow>(db, viewer, ownerId, CARD_SELECT, q, origin);
}

/** The projection of `queueGalleryImagesFirst` (one object: list statements are kept per projection). */
const FILE_ID_SELECT = sql`f.id`;

/**
 * The gallery's first page gets the first renders, in its order: on a fresh install (the demo seed
 * queues every plot) and after an upgrade (plots without card images), what a first visitor sees
 * is drawn before the rest.
 */
export async function queueGalleryImagesFirst(db: Db): Promise<void> {
  const page = await listPlotRows<{ id: string | number }>(db, FILE_ID_SELECT, { page_size: GALLERY_PAGE_SIZE }, '');
  await requestImagesFirst(
    db,
    page.rows.map((r) => Number(r.id)),
  );
}

/** Plots a person starred, newest star first: those the viewer may read (a profile's "Starred"). */
export function listStarredCards(db: Db, viewer: Viewer | null, userId: number, q: FeedQuery, origin: string): Promise<RowsPage<CardRow & PageRow>> {
  return listStarredRows<CardRow>(db, viewer, userId, CARD_SELECT, q, origin);
}
