// Themes and templates in the API's records: `is_theme` and `is_template` say truly what a plot is,
// false for every ordinary plot (in the detail and the public list alike).
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { parseFid } from '@/lib/core/records';
import { saveTemplate, saveTheme } from '@/lib/core/plots/themes';
import { appDatabase, baseUrl, call, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';

describe('is_theme and is_template in plot records', () => {
  let alice: TestUser;
  let plot: Record<string, any>;

  beforeAll(async () => {
    alice = await newUser('thm');
    const grid = await uploadGrid(alice, { month: ['jan', 'feb'], sales: [1, 2] });
    plot = await createPlot(alice, {
      filename: 'sales',
      figure: { data: [{ type: 'bar', xsrc: grid.src('month'), ysrc: grid.src('sales'), marker: { color: '#00aa00' } }], layout: { plot_bgcolor: '#eeeeee' } },
    });
  });

  const viewer = async (user: TestUser) => {
    const { db } = await appDatabase();
    const [row] = await queryRows<{ id: string | number }>(db, sql`SELECT id FROM users WHERE username = ${user.username}`);
    return { db, viewer: { id: Number(row.id), username: user.username } };
  };

  it('an ordinary plot is neither: false, not null, in its create answer, detail and the public list', async () => {
    expect([plot.is_theme, plot.is_template]).toEqual([false, false]);
    const detail = await call('GET', `/v2/plots/${plot.fid}`, { user: alice });
    expect([detail.json.is_theme, detail.json.is_template]).toEqual([false, false]);
    const list = await call('GET', '/v2/plots?page_size=100');
    const listed = (list.json.results as Record<string, unknown>[]).find((r) => r.fid === plot.fid);
    expect(listed && [listed.is_theme, listed.is_template]).toEqual([false, false]);
  });

  it('a saved theme says is_theme, a saved template is_template, each to its owner; to others both are missing', async () => {
    const { db, viewer: v } = await viewer(alice);
    const theme = await saveTheme(db, v, parseFid(plot.fid)!, undefined, baseUrl());
    const template = await saveTemplate(db, v, parseFid(plot.fid)!, undefined, baseUrl());
    expect([theme.filename, template.filename]).toEqual(['sales theme', 'sales template']);
    const themeRec = await call('GET', `/v2/plots/${theme.fid}`, { user: alice });
    expect(themeRec.status).toBe(200);
    expect(themeRec.json).toMatchObject({ is_theme: true, is_template: false, world_readable: false });
    expect(themeRec.json.figure.data).toEqual([]);
    expect(themeRec.json.figure.layout.template).toEqual({ data: { bar: [{ marker: { color: '#00aa00' } }] }, layout: { plot_bgcolor: '#eeeeee' } });
    const templateRec = await call('GET', `/v2/plots/${template.fid}`, { user: alice });
    expect(templateRec.json).toMatchObject({ is_theme: false, is_template: true, world_readable: false });
    expect(templateRec.json.figure).toEqual(plot.figure);
    // The files endpoint gives a plot's detail: the same.
    const file = await call('GET', `/v2/files/${template.fid}`, { user: alice });
    expect([file.json.is_theme, file.json.is_template]).toEqual([false, true]);
    const stranger = await newUser('thmx');
    expect((await call('GET', `/v2/plots/${theme.fid}`, { user: stranger })).status).toBe(404);
  });
});
