// Where a view reads a column from (issue 39): its stored blocks when it has them (a range or a
// summary read without the rest), else its JSON text parsed once and kept (json-series.ts).
import 'server-only';
import type { Db } from '@/db/client';
import { blockSeries } from './column-blocks';
import { jsonSeries } from './json-series';
import type { SeriesSource } from './series-source';

/** The column_values row `valuesId` as a series; null when it is gone. */
export async function seriesOf(db: Db, valuesId: number): Promise<SeriesSource | null> {
  return (await blockSeries(db, valuesId)) ?? jsonSeries(db, valuesId);
}
