// The figure rules the app reads both in TypeScript and in SQL, each held to one table of cases on
// PostgreSQL and PGlite: a trace's type (lib/shared/figures/trace-types.ts and the SQL functions trace_type and
// trace_named_type), the search's `type:` filters (typeFilter, and the index's type lexemes), and the
// layout subplots that pick a plotly.js bundle (the browser's rule and the page's SQL).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { bundleSubplotSql, namedTraceTypeSql, traceTypeSql } from '@/lib/core/figure-sql';
import { plotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import { createPlot } from '@/lib/core/plots/plots';
import { typeFilter } from '@/lib/core/plots/search';
import { namedTraceType, traceType } from '@/lib/shared/figures/trace-types';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { fileIds, newViewer, ORIGIN } from './_helpers';

// [what, trace, the type it names (null: none, so scatter)]
const TRACES: [string, unknown, string | null][] = [
  ['no type', { name: 'a' }, null],
  ['type null', { type: null }, null],
  ['an empty type', { type: '' }, null],
  ['a number', { type: 5 }, null],
  ['a boolean', { type: true }, null],
  ['an array', { type: ['bar'] }, null],
  ['an object', { type: { name: 'bar' } }, null],
  ['bar', { type: 'bar' }, 'bar'],
  ['scatter, named', { type: 'scatter' }, 'scatter'],
  ['scattergl', { type: 'scattergl' }, 'scattergl'],
  ['Bar: its case kept (search lowercases it)', { type: 'Bar' }, 'Bar'],
  ['spaces kept', { type: ' bar ' }, ' bar '],
  ['a type plotly lacks', { type: 'nosuchtrace' }, 'nosuchtrace'],
  ['a name no type: filter takes', { type: "x'y" }, "x'y"],
  ['non-ASCII letters', { type: 'héatmap' }, 'héatmap'],
  ['40 characters', { type: 'a'.repeat(40) }, 'a'.repeat(40)],
  ['41 characters', { type: 'b'.repeat(41) }, 'b'.repeat(41)],
  ['not an object: a string', 'bar', null],
  ['not an object: null', null, null],
  ['not an object: a number', 7, null],
  ['not an object: an array', [{ type: 'bar' }], null],
];

// [layout key, whether it is a subplot that picks a bundle]
const LAYOUT_KEYS: [string, boolean][] = [
  ['scene', true],
  ['scene2', true],
  ['scene10', true],
  ['ternary', true],
  ['ternary3', true],
  ['geo', true],
  ['map', true],
  ['mapbox2', true],
  ['polar', true],
  ['smith', true],
  ['xaxis', false],
  ['yaxis2', false],
  ['geography', false],
  ['mapped', false],
  ['scenery', false],
  ['Scene', false],
  ['scene_2', false],
  ['polar2a', false],
  ['2scene', false],
  ['scene\u0663', false],
  ['', false],
];

describe.each(SQL_DRIVER)('figure rules in TypeScript and SQL (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let owner: Viewer;

  beforeAll(async () => {
    db = database.db;
    owner = await newViewer(db, 'types');
  });

  it('a trace’s type: the one it names, else scatter, alike in both', async () => {
    const rows = await queryRows<{ named: string | null; type: string }>(
      db,
      sql`SELECT ${namedTraceTypeSql(sql`t`)} AS named, ${traceTypeSql(sql`t`)} AS type
          FROM jsonb_array_elements(${JSON.stringify(TRACES.map(([, trace]) => trace))}::jsonb) WITH ORDINALITY AS x(t, i) ORDER BY i`,
    );
    expect(rows).toHaveLength(TRACES.length);
    TRACES.forEach(([what, trace, named], i) => {
      expect(namedTraceType(trace), what).toBe(named);
      expect(traceType(trace), what).toBe(named ?? 'scatter');
      expect(rows[i], what).toEqual({ named: namedTraceType(trace), type: traceType(trace) });
    });
  });

  it('a plot is found by the type: filters its traces’ types make, and by no other', async () => {
    // A checked figure's traces are objects.
    const traces = TRACES.map(([, trace]) => trace).filter((t) => t !== null && typeof t === 'object' && !Array.isArray(t));
    const fid = (JSON.parse(await createPlot(db, owner, { figure: { data: traces } }, ORIGIN)) as { file: { fid: string } }).file.fid;
    const [row] = await queryRows<{ lexemes: string[] }>(
      db,
      sql`SELECT coalesce(array_agg(s.lexeme ORDER BY s.lexeme), '{}') AS lexemes
          FROM plots p, unnest(p.search) s WHERE p.file_id = ${(await fileIds(db)).get(fid)!} AND s.lexeme LIKE 'type:%'`,
    );
    const filters = traces.map((t) => typeFilter(traceType(t))).filter((t) => t !== null);
    const want = [...new Set(filters.map((t) => `type:${t}`))].sort();
    expect(row.lexemes).toEqual(want);
    // The table reaches both sides of the rule: names with and without a filter, case folded.
    expect(want).toEqual(expect.arrayContaining(['type:bar', 'type:scatter', 'type:scattergl', `type:${'a'.repeat(40)}`]));
    expect(want).not.toEqual(expect.arrayContaining([`type:${'b'.repeat(41)}`]));
    expect(want.some((l) => /[^a-z0-9_:]/.test(l))).toBe(false);
  });

  it('the layout subplots that pick a plotly.js bundle, alike in both', async () => {
    const rows = await queryRows<{ subplot: boolean }>(
      db,
      sql`SELECT ${bundleSubplotSql(sql`k`)} AS subplot
          FROM jsonb_array_elements_text(${JSON.stringify(LAYOUT_KEYS.map(([key]) => key))}::jsonb) WITH ORDINALITY AS x(k, i) ORDER BY i`,
    );
    LAYOUT_KEYS.forEach(([key, subplot], i) => {
      expect(plotlyBundle([], [key]) !== 'basic', key).toBe(subplot);
      expect(rows[i].subplot, key).toBe(subplot);
    });
  });
});
