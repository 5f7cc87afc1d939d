// Page data for the plot lists (gallery `/`, feed `/feed`, profiles `/~owner/`): query parameters,
// cards made of the rows lib/core/plots/card-rows.ts reads, and the links that page through them with and
// without JavaScript.
import 'server-only';
import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { listFeedCards, listGalleryCards, listOwnerCards, listStarredCards, searchCards, type CardRow } from '@/lib/core/plots/card-rows';
import { CursorRefused, type RowsPage } from '@/lib/core/cursors';
import { drawsLive } from '@/lib/core/images/images';
import { relativeAge, versionedImage, type PlotCardData } from './plot-cards';
import { visibilityOf } from '@/lib/core/permissions';
import { feedQuerySchema, listQuerySchema } from '@/lib/http/request/queries';
import { GALLERY_PAGE_SIZE } from '@/lib/core/plots/plot-lists';
import { fidOf } from '@/lib/core/records';
import { plotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { qSchema } from '@/lib/core/plots/search';
import { avatarPath, chartContentPath, filePath, imagePath, profilePath } from '@/lib/shared/urls';

/** Cards a page: divides evenly into rows of 2, 3, 4 and 6. */
export const PAGE_SIZE = GALLERY_PAGE_SIZE;

export interface CardPage {
  cards: PlotCardData[];
  /** Cursors of the following and preceding pages, null at either end. */
  next: string | null;
  previous: string | null;
}

type SearchParams = Record<string, string | string[] | undefined>;

/**
 * Each parameter parsed on its own, so that one bad value (a hand-edited link) is dropped and
 * reported while the others still apply. An empty value is an absent one (a form's blank choice).
 */
function parseParams<S extends Record<string, z.ZodType>>(fields: S, params: SearchParams): { query: { [K in keyof S]?: z.output<S[K]> }; invalid: boolean } {
  const query: { [K in keyof S]?: z.output<S[K]> } = {};
  let rejected = false;
  for (const key of Object.keys(fields) as (keyof S & string)[]) {
    const raw = params[key];
    if (raw === undefined || raw === '') continue;
    const parsed = fields[key].safeParse(raw);
    if (parsed.success) query[key] = parsed.data as z.output<S[typeof key]>;
    else rejected = true;
  }
  return { query, invalid: rejected };
}

const galleryFields = {
  order_by: listQuerySchema.shape.order_by,
  // Quality scores run 0..10 (the column's check); the filter offers exactly those.
  min_quality: listQuerySchema.shape.min_quality.refine((n) => n === undefined || (n >= 0 && n <= 10), 'min_quality must be 0..10'),
  cursor: listQuerySchema.shape.cursor,
};
export type GalleryQuery = { [K in keyof typeof galleryFields]?: z.output<(typeof galleryFields)[K]> };

export const galleryQuery = (params: SearchParams) => parseParams(galleryFields, params);
export const cursorQuery = (params: SearchParams) => parseParams({ cursor: feedQuerySchema.shape.cursor }, params);

/** The gallery's own parameters as links and the API carry them (min_quality 0 is no filter). */
export function galleryParams(q: GalleryQuery): Record<string, string | number | undefined> {
  return { order_by: q.order_by, min_quality: q.min_quality || undefined };
}

function cardOf(row: CardRow, now: number): PlotCardData {
  const types = JSON.parse(row.types) as string[];
  return {
    fid: fidOf(row.owner, row.n),
    title: row.title || row.filename || 'Untitled',
    href: filePath(row.owner, row.n),
    owner: row.owner,
    ownerHref: profilePath(row.owner),
    avatar: avatarPath(row.owner),
    views: Number(row.views),
    created: row.created_at,
    age: relativeAge(row.created_at, now),
    traceTypes: types,
    image: versionedImage(imagePath(row.owner, row.n, 'card'), row.modified_at),
    contentUrl: chartContentPath(row.owner, row.n),
    bundle: plotlyBundle(types, []),
    visibility: visibilityOf(row.world_readable, row.keyed),
    // Cards draw live only charts of modest data; the rest only show their images.
    live: !row.undrawable && drawsLive({ values: Number(row.data_values), bytes: Number(row.data_bytes) }),
  };
}

function cardPage(page: RowsPage<CardRow>): CardPage {
  const now = Date.now();
  return { cards: page.rows.map((row) => cardOf(row, now)), next: page.next, previous: page.previous };
}

/**
 * Runs a list with the visitor's cursor; a cursor the API refuses (forged, or from another list)
 * gets the first page instead, flagged so the page can say so rather than fail.
 */
export async function withCursorFallback<P extends object>(
  cursor: string | undefined,
  list: (cursor: string | undefined) => Promise<P>,
): Promise<P & { cursorRejected: boolean }> {
  try {
    return { ...(await list(cursor)), cursorRejected: false };
  } catch (error) {
    if (!cursor || !(error instanceof CursorRefused)) throw error;
    return { ...(await list(undefined)), cursorRejected: true };
  }
}

/** The gallery: public plots in the API list's order, filter and cursors. */
export function galleryPage(db: Db, q: GalleryQuery, origin: string) {
  return withCursorFallback(q.cursor, async (cursor) => {
    const query = { order_by: q.order_by, min_quality: q.min_quality, page_size: PAGE_SIZE, cursor };
    return cardPage(await listGalleryCards(db, query, origin));
  });
}

/** The feed: handpicked plots in the random order its cursors carry. */
export function feedPage(db: Db, q: { cursor?: string }, origin: string) {
  return withCursorFallback(q.cursor, async (cursor) => cardPage(await listFeedCards(db, { page_size: PAGE_SIZE, cursor }, origin)));
}

// ---------------------------------------------------------------------------------------------
// Search

/** `/search`'s parameters: `q` as the API checks it (its message shown when refused), and the cursor. */
export function searchQuery(params: SearchParams): { q: string; error: string | null; cursor?: string; mine: boolean } {
  const raw = typeof params.q === 'string' ? params.q : '';
  const { query } = cursorQuery(params);
  // `in=mine`: the signed-in person's own plots (the workspace's box), private and secret included.
  const mine = params.in === 'mine';
  if (!raw.trim()) return { q: raw, error: null, cursor: query.cursor, mine };
  const parsed = qSchema.safeParse(raw);
  return { q: raw, error: parsed.success ? null : parsed.error.issues[0].message, cursor: query.cursor, mine };
}

/**
 * Search results as cards, with the lists' cursor fallback: public plots matching `q`
 * (lib/core/plots/search.ts), or with `mine` the viewer's own plots (none when anonymous).
 */
export function searchPage(db: Db, viewer: Viewer | null, q: { q: string; cursor?: string; mine?: boolean }, origin: string) {
  const scope = q.mine ? 'own' : 'public';
  return withCursorFallback(q.cursor, async (cursor) => cardPage(await searchCards(db, viewer, { q: q.q, page_size: PAGE_SIZE, cursor }, origin, scope)));
}

// ---------------------------------------------------------------------------------------------
// Profiles

/** A user's plots, newest first: public ones, and to the user their private and secret ones too (marked). */
export async function listUserPlots(db: Db, viewer: Viewer | null, user: { id: number }, q: { cursor?: string }, origin: string): Promise<CardPage> {
  return cardPage(await listOwnerCards(db, viewer, user.id, { page_size: PAGE_SIZE, cursor: q.cursor }, origin));
}

/** A profile's page of plots, with the same fallback as the lists for a refused cursor. */
export function profilePage(db: Db, viewer: Viewer | null, user: { id: number }, q: { cursor?: string }, origin: string) {
  return withCursorFallback(q.cursor, (cursor) => listUserPlots(db, viewer, user, { cursor }, origin));
}

/** The plots a user starred, newest star first: those the viewer may read. */
export async function listUserStarred(db: Db, viewer: Viewer | null, user: { id: number }, q: { cursor?: string }, origin: string): Promise<CardPage> {
  return cardPage(await listStarredCards(db, viewer, user.id, { page_size: PAGE_SIZE, cursor: q.cursor }, origin));
}

/** A profile's "Starred" page, with the lists' fallback for a refused cursor. */
export function starredPage(db: Db, viewer: Viewer | null, user: { id: number }, q: { cursor?: string }, origin: string) {
  return withCursorFallback(q.cursor, (cursor) => listUserStarred(db, viewer, user, { cursor }, origin));
}
