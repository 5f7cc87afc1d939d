// API plot records (spec 2.1) turned into what a card shows. Browser-safe on purpose: the server
// maps its first page with it, and "Load more" maps the pages it fetches (importing it only when
// clicked, so zod stays out of the lists' first-load JavaScript).
import * as z from 'zod/mini';

/** The fields of an API plot record (spec 2.1) that a card shows. */
export const plotRecordSchema = z.object({
  fid: z.string(),
  title: z.string(),
  filename: z.string(),
  owner: z.string(),
  views: z.number(),
  creation_time: z.string(),
  date_modified: z.string(),
  web_url: z.string(),
  image_urls: z.object({ 'list-thumb': z.string() }),
  world_readable: z.boolean(),
  figure: z.object({ data: z.array(z.object({ type: z.optional(z.unknown()) })) }),
});
export type PlotRecord = z.infer<typeof plotRecordSchema>;

/** An API list page (`/v2/plots`, `/v2/plots/feed`). */
export const plotPageSchema = z.object({
  next: z.nullable(z.string()),
  previous: z.nullable(z.string()),
  results: z.array(plotRecordSchema),
});

export type Visibility = 'public' | 'private' | 'secret';

export interface PlotCardData {
  fid: string;
  title: string;
  href: string;
  owner: string;
  views: number;
  created: string;
  age: string;
  traceTypes: string[];
  thumbnail: string;
  contentUrl: string;
  visibility: Visibility;
}

// Records carry absolute URLs built from the public origin; the page links and fetches on its own
// origin, which is the same site but may be reached under another name (e.g. behind a proxy).
const pathOf = (url: string) => {
  const u = new URL(url, 'http://relative.invalid');
  return u.pathname + u.search;
};

/**
 * An image URL with a token of the record's last change: the server lets browsers keep such a URL
 * for good, and a changed plot gets a new URL.
 */
export function versionedImage(url: string, dateModified: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}v=${Date.parse(dateModified).toString(36)}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86400],
  ['month', 30 * 86400],
  ['week', 7 * 86400],
  ['day', 86400],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "3 days ago", in the largest whole unit. */
export function relativeAge(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const [unit, size] = UNITS.find(([, s]) => Math.abs(seconds) >= s) ?? UNITS[UNITS.length - 1];
  return relative.format(Math.trunc(seconds / size), unit);
}

export function cardFromRecord(record: PlotRecord, now: number, visibility?: Visibility): PlotCardData {
  // plotly.js draws a trace without a type as a scatter.
  const types = record.figure.data.map((t) => (typeof t.type === 'string' && t.type ? t.type : 'scatter'));
  return {
    fid: record.fid,
    title: record.title || record.filename || 'Untitled',
    href: pathOf(record.web_url),
    owner: record.owner,
    views: record.views,
    created: record.creation_time,
    age: relativeAge(record.creation_time, now),
    traceTypes: [...new Set(types)],
    thumbnail: versionedImage(pathOf(record.image_urls['list-thumb']), record.date_modified),
    contentUrl: `/v2/plots/${record.fid}/content?inline_data=true&map_data=unreadable`,
    visibility: visibility ?? (record.world_readable ? 'public' : 'private'),
  };
}

