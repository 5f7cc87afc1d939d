// What each column of some grids holds (numbers, dates, categories, countries, coordinates): read off
// all the values of a grid of at most WHOLE_FACTS_VALUES (so that rows of a few categories are known
// as such: a line for each), else off the first values every column keeps for previews, without
// reading any column's data. Either way enough to choose a first chart and fit columns to roles.
import 'server-only';
import { asc, inArray } from 'drizzle-orm';
import { columnTextList } from './column-reads';
import type { Db } from '@/db/client';
import { gridColumns } from '@/db/schema';
import { columnFacts, type ColumnFacts } from '@/lib/shared/figures/column-facts';
import { placeModeOf } from '../figures/places';

/** Values of a grid (all its columns) read whole for its facts: beyond, the previews are. */
export const WHOLE_FACTS_VALUES = 200_000;

/** Each grid's (by file id) columns' facts, by column uid. */
export async function listColumnFacts(db: Db, gridIds: number[]): Promise<Map<number, Record<string, ColumnFacts>>> {
  const out = new Map<number, Record<string, ColumnFacts>>(gridIds.map((id) => [id, {}]));
  if (!gridIds.length) return out;
  const rows = await db
    .select({
      id: gridColumns.id,
      gridId: gridColumns.gridId,
      uid: gridColumns.uid,
      name: gridColumns.name,
      preview: gridColumns.preview,
      length: gridColumns.length,
    })
    .from(gridColumns)
    .where(inArray(gridColumns.gridId, gridIds))
    .orderBy(asc(gridColumns.gridId), asc(gridColumns.ord));
  for (const gridId of gridIds) {
    const cols = rows.filter((r) => r.gridId === gridId);
    const whole = cols.reduce((sum, c) => sum + Number(c.length), 0) <= WHOLE_FACTS_VALUES;
    const texts = whole
      ? await columnTextList(
          db,
          cols.map((c) => c.id),
        )
      : [];
    const facts = out.get(gridId)!;
    cols.forEach(({ uid, name, preview }, i) => {
      const values: unknown = whole ? JSON.parse(texts[i]) : preview;
      facts[uid] = columnFacts(name, Array.isArray(values) ? values : [], placeModeOf, whole);
    });
  }
  return out;
}
