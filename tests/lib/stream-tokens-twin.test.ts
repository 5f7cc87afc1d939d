// A figure's stream tokens, taken out for anyone but its owner, in TypeScript (the content, copies:
// lib/shared/streams.ts dropStreamTokens) and in SQL (the plot records' figure:
// figure_without_stream_tokens): the same answer for every shape of figure.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { dropStreamTokens, figureTextWithoutTokens } from '@/lib/shared/streams';
import { SQL_DRIVER, useDatabase } from '../support/postgres';

const FIGURES: [string, unknown][] = [
  ['a streamed trace', { data: [{ y: [1], stream: { token: 'abc', maxpoints: 50 } }], layout: {} }],
  ['two, one without a token', { data: [{ stream: { token: 'a' } }, { stream: { maxpoints: 3 } }, { y: [2] }] }],
  ['no stream', { data: [{ x: [1], y: [1] }], layout: { title: { text: 'token' } } }],
  ['a stream that is not an object', { data: [{ stream: ['token'] }, { stream: 'token' }, { stream: null }] }],
  ['a token elsewhere is not a stream token', { data: [{ meta: { token: 'keep' } }], layout: { token: 'keep' } }],
  ['no data', { layout: {} }],
  ['data that is not a list', { data: {} }],
  ['traces that are not objects', { data: [1, 'two', null, { stream: { token: 't' } }] }],
];

describe.each(SQL_DRIVER)('stream tokens out of figures, TypeScript and SQL (%s)', (driver) => {
  const database = useDatabase(driver);

  it.each(FIGURES)('%s', async (_name, figure) => {
    const ts = structuredClone(figure);
    dropStreamTokens(ts);
    const [row] = await queryRows<{ f: unknown }>(database.db, sql`SELECT figure_without_stream_tokens(${JSON.stringify(figure)}::jsonb) AS f`);
    expect(row.f).toEqual(ts);
    expect(JSON.parse(figureTextWithoutTokens(JSON.stringify(figure)))).toEqual(ts);
    expect(JSON.stringify(ts)).not.toMatch(/"token":"(abc|a|t|x)"/);
  });
});
