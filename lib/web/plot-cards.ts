// What a plot card shows (gallery, feed, profiles). Browser-safe on purpose: the server builds the
// first page's cards, and "Load more" gets its cards from a server action; no figure ever travels.
import type { Visibility } from '@/lib/core/permissions';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';

export interface PlotCardData {
  fid: string;
  title: string;
  href: string;
  owner: string;
  /** The owner's page and avatar. */
  ownerHref: string;
  avatar: string;
  views: number;
  created: string;
  age: string;
  traceTypes: string[];
  /** The card image (size=card), versioned. */
  image: string;
  contentUrl: string;
  /** The plotly.js bundle its live chart loads, from its trace types. */
  bundle: PlotlyBundle;
  visibility: Visibility;
  /** False for a plot that could not be drawn or holds many values: its card only shows its image. */
  live: boolean;
}

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
