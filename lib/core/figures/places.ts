// Which of plotly's choropleth location modes names a column's values: plotly resolves country names
// with Plotly's own country-iso-search (ISO 3166 and UN M49 names, aliases such as "Ivory Coast"), so
// the same library decides here what a map of regions can draw.
import { byAlpha3, lookupAlpha3 } from 'country-iso-search';
import type { PlaceMode } from '@/lib/shared/figures/column-facts';

/** Values that are nearly all ISO-3 codes ('ISO-3', plotly's default) or country names; else undefined. */
export function placeModeOf(values: string[]): PlaceMode | undefined {
  if (!values.length) return undefined;
  const share = (test: (v: string) => boolean) => values.filter(test).length / values.length;
  if (share((v) => /^[A-Z]{3}$/.test(v.trim()) && byAlpha3.has(v.trim())) >= 0.9) return 'ISO-3';
  // A few names plotly cannot place (a "Total" row, a typo) do not make it another kind of column.
  if (share((v) => lookupAlpha3(v) !== undefined) >= 0.8) return 'country names';
  return undefined;
}
