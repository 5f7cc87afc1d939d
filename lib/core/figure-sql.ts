// SQL twins of the pure trace rules (lib/shared/figures/trace-types.ts and plotly-bundles.ts), for the
// statements and the search index that read a figure in the database; tests/lib/trace-types.test.ts
// holds them to one table of cases.
import { sql, type SQL } from 'drizzle-orm';
import { SUBPLOT_PATTERN } from '@/lib/shared/figures/plotly-bundles';

/** namedTraceType in SQL, over a jsonb trace. */
export const namedTraceTypeSql = (trace: SQL) => sql`trace_named_type(${trace})`;

/** traceType in SQL, over a jsonb trace. */
export const traceTypeSql = (trace: SQL) => sql`trace_type(${trace})`;

/** SQL: whether the layout key `key` names a subplot that draws without traces (plotlyBundle's rule). */
export const bundleSubplotSql = (key: SQL) => sql`${key} ~ ${SUBPLOT_PATTERN}`;
