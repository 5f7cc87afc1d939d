// Shared by the plots endpoint suites (tests/http/plot-*.test.ts): the records the contract fixes for a
// plot, walking the page lists, and arranging state the API does not expose in the app's database.
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { files, plots, users } from '@/db/schema';
import { appDatabase, baseUrl, call, type uploadGrid, type Answer, type TestUser } from './api';

export type Rec = Record<string, any>;
export type Grid = Awaited<ReturnType<typeof uploadGrid>>;

export const LIST_KEYS = [
  'creation_time',
  'date_modified',
  'comments',
  'stars',
  'comments_enabled',
  'collaborators',
  'parented',
  'embed_url',
  'fid',
  'filename',
  'filetype',
  'img_url',
  'image_urls',
  'api_urls',
  'owner',
  'parent',
  'preview',
  'referencers',
  'references',
  'references_hidden',
  'title',
  'views',
  'web_url',
  'world_readable',
  'share_key_enabled',
  'subfolder_count',
  'refresh_interval',
  'organize_view_url',
  'current_user_permission',
  'is_theme',
  'is_template',
  'autosize',
  'caption',
  'figure',
  'height',
  'width',
  'user',
].sort();
export const DETAIL_KEYS = [...LIST_KEYS, 'share_url', 'content_url', 'source_fid'].sort();
export const SECRET_DETAIL_KEYS = [...DETAIL_KEYS, 'share_key'].sort();
export const HIDDEN_USER_FIELDS = [
  'stream_tokens',
  'feature_set_id',
  'csrf_token',
  'map_access_tokens',
  'has_password',
  'email',
  'is_active',
  'readonly',
  'is_dash_creator',
  'dash_created_count',
  'is_chart_creator',
  'charts_created_count',
];

export const CREATION_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
export const DATE_MODIFIED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const DATE_JOINED = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const EMPTY = { results: [], count: 0 };
export const AUTH_REQUIRED = 'Authentication credentials were not provided.';

export const keysOf = (o: object) => Object.keys(o).sort();
export const n = (fid: string) => Number(fid.split(':')[1]);
/** A path (with query) from an absolute URL the service emitted. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** The grids a figure's srcs name (`owner:n`), once each, by owner and number: a record's `references` when the caller may read them all. */
export function gridsOf(figure: unknown): string[] {
  const found = new Map<string, [string, number]>();
  const walk = (value: unknown, key = ''): void => {
    if (typeof value === 'string' && key.endsWith('src')) {
      const [owner, num] = value.split(':');
      if (owner && /^\d+$/.test(num ?? '')) found.set(`${owner.toLowerCase()}:${num}`, [owner, Number(num)]);
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v);
    } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(figure);
  return [...found.values()].sort(([a, x], [b, y]) => a.toLowerCase().localeCompare(b.toLowerCase()) || x - y).map(([o, num]) => `${o}:${num}`);
}

/** The full record the contract fixes for a plot; `extra` holds the fields whose values the test knows. */
export function expectedRecord(
  owner: string,
  num: number,
  extra: {
    filename: string;
    figure: unknown;
    permission: 'read' | 'write';
    title?: string;
    caption?: string;
    parent?: number;
    worldReadable?: boolean;
    shareKeyEnabled?: boolean;
    views?: number;
    references?: string[];
    referencesHidden?: number;
    width?: number | null;
    height?: number | null;
    autosize?: boolean;
    isTheme?: unknown;
    isTemplate?: unknown;
  },
  origin = baseUrl(),
): Rec {
  const base = `${origin}/~${owner}/${num}`;
  const fid = `${owner}:${num}`;
  const parent = extra.parent ?? -1;
  return {
    creation_time: expect.stringMatching(CREATION_TIME),
    date_modified: expect.stringMatching(DATE_MODIFIED),
    comments: EMPTY,
    stars: EMPTY,
    comments_enabled: true,
    collaborators: EMPTY,
    parented: parent !== -1,
    embed_url: `${base}.embed`,
    fid,
    filename: extra.filename,
    filetype: 'plot',
    img_url: `${base}.png?size=list-thumb`,
    image_urls: { default: `${base}.png`, 'block-thumb': `${base}.png?size=block-thumb`, 'list-thumb': `${base}.png?size=list-thumb` },
    api_urls: {
      files: `${origin}/v2/files/${fid}`,
      plots: `${origin}/v2/plots/${fid}`,
      parent: parent === -1 ? `${origin}/v2/folders/home?user=${owner}` : `${origin}/v2/folders/${owner}:${parent}`,
    },
    owner,
    parent,
    preview: '',
    referencers: [],
    references: (extra.references ?? gridsOf(extra.figure)).map((fid) => ({ fid, filetype: 'grid' })),
    references_hidden: extra.referencesHidden ?? 0,
    title: extra.title ?? '',
    views: extra.views ?? 0,
    web_url: `${base}/`,
    world_readable: extra.worldReadable ?? true,
    share_key_enabled: extra.shareKeyEnabled ?? false,
    subfolder_count: null,
    refresh_interval: null,
    organize_view_url: `${origin}/~${owner}/`,
    current_user_permission: extra.permission,
    is_theme: extra.isTheme ?? false,
    is_template: extra.isTemplate ?? false,
    autosize: extra.autosize ?? expect.any(Boolean),
    caption: extra.caption ?? '',
    figure: extra.figure,
    height: extra.height === undefined ? null : extra.height,
    width: extra.width === undefined ? null : extra.width,
    user: expectedUser(owner, origin),
  };
}

function expectedUser(owner: string, origin = baseUrl()): Rec {
  return {
    username: owner,
    profile_url: `${origin}/~${owner}/`,
    avatar_url: expect.stringMatching(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/`)),
    background_url: expect.stringMatching(new RegExp(`^${origin.replace(/[.]/g, '\\.')}/`)),
    bio: '',
    nickname: '',
    website: '',
    date_joined: expect.stringMatching(DATE_JOINED),
    ...Object.fromEntries(HIDDEN_USER_FIELDS.map((k) => [k, null])),
  };
}

export function expectedDetail(
  owner: string,
  num: number,
  extra: Parameters<typeof expectedRecord>[2] & { sourceFid?: string | null; shareKey?: string },
  origin = baseUrl(),
): Rec {
  const rec = expectedRecord(owner, num, { shareKeyEnabled: extra.shareKey !== undefined, ...extra }, origin);
  const fid = `${owner}:${num}`;
  return {
    ...rec,
    share_url: extra.shareKey ? `${rec.web_url}?share_key=${extra.shareKey}` : rec.web_url,
    content_url: `${origin}/v2/plots/${fid}/content`,
    source_fid: extra.sourceFid ?? null,
    ...(extra.shareKey ? { share_key: extra.shareKey } : {}),
  };
}

/** Walks a page list from `path` along `next`, returning every record (at most `maxPages` pages). */
export async function walk(path: string, opts: { user?: TestUser | null; headers?: Record<string, string>; maxPages?: number } = {}): Promise<Rec[]> {
  const out: Rec[] = [];
  let next: string | null = path;
  for (let page = 0; next && page < (opts.maxPages ?? 1000); page++) {
    const res: Answer = await call('GET', next, { user: opts.user, headers: opts.headers });
    if (res.status !== 200) throw new Error(`walk ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    out.push(...res.json.results);
    next = res.json.next ? pathOf(res.json.next) : null;
  }
  return out;
}

export const mine = (records: Rec[], owner: string) => records.filter((r) => r.owner === owner).map((r) => r.fid);

/** The first list record with `fid`, walking from `path`. */
export async function findListed(path: string, fid: string, user?: TestUser | null, headers?: Record<string, string>): Promise<Rec | undefined> {
  let next: string | null = path;
  while (next) {
    const res: Answer = await call('GET', next, { user, headers });
    if (res.status !== 200) throw new Error(`list ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    const hit = res.json.results.find((r: Rec) => r.fid === fid);
    if (hit) return hit;
    next = res.json.next ? pathOf(res.json.next) : null;
  }
  return undefined;
}

export async function fileIdOf(fid: string): Promise<number> {
  const { db } = await appDatabase();
  const [owner, num] = fid.split(':');
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(and(eq(users.username, owner), eq(files.n, Number(num))));
  if (!row) throw new Error(`no file ${fid}`);
  return row.id;
}

export async function setPlot(fid: string, changes: Partial<{ views: number; quality: number; handpicked: boolean }>): Promise<void> {
  const { db } = await appDatabase();
  await db
    .update(plots)
    .set(changes)
    .where(eq(plots.fileId, await fileIdOf(fid)));
}

export async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(url, { redirect: 'manual', headers });
  await res.arrayBuffer();
  return res.status;
}

export const scatter = (g: Grid, extra: Rec = {}) => ({ type: 'scatter', xsrc: g.src('x'), ysrc: g.src('y'), ...extra });
export const typedF8 = (values: number[]) => ({ dtype: 'f8', bdata: Buffer.from(new Float64Array(values).buffer).toString('base64') });
