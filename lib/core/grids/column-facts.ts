// What each column of some grids holds (numbers, dates, categories, countries, coordinates), read off
// the first values every column keeps for previews: enough to choose a first chart and to fit columns
// to a chart's roles, without reading any column's data.
import 'server-only';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { gridColumns } from '@/db/schema';
import { columnFacts, type ColumnFacts } from '@/lib/shared/figures/column-facts';
import { placeModeOf } from '../figures/places';

/** Each grid's (by file id) columns' facts, by column uid. */
export async function listColumnFacts(db: Db, gridIds: number[]): Promise<Map<number, Record<string, ColumnFacts>>> {
  const out = new Map<number, Record<string, ColumnFacts>>(gridIds.map((id) => [id, {}]));
  if (!gridIds.length) return out;
  const rows = await db
    .select({ gridId: gridColumns.gridId, uid: gridColumns.uid, name: gridColumns.name, preview: gridColumns.preview })
    .from(gridColumns)
    .where(inArray(gridColumns.gridId, gridIds))
    .orderBy(asc(gridColumns.gridId), asc(gridColumns.ord));
  for (const { gridId, uid, name, preview } of rows) {
    const facts = out.get(gridId);
    if (facts) facts[uid] = columnFacts(name, Array.isArray(preview) ? preview : [], placeModeOf);
  }
  return out;
}
