// Themes and templates as files (lib/core/plots/themes.ts) on real databases: saved through createPlot's
// rules, flagged truly, listed for their owner only, and a template's roles re-mapped to new data.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { trashFile } from '@/lib/core/files/file-changes';
import { createGrid } from '@/lib/core/grids/grids';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid, type PlotRecord } from '@/lib/core/records';
import { figureFromTemplate } from '@/lib/shared/figures/theme-figures';
import { getTemplate, listTemplates, listThemes, saveTemplate, saveTheme, templateColumns } from '@/lib/core/plots/themes';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, ORIGIN, people } from './_helpers';

const fid = (text: string): Fid => parseFid(text)!;

describe.each(SQL_DRIVER)('themes and templates (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  let chart: string;
  let privateChart: string;

  async function plotOf(owner: Viewer, filename: string, worldReadable: boolean): Promise<string> {
    const { file: grid } = await createGrid(
      db,
      owner,
      { world_readable: worldReadable, data: { cols: { month: { data: ['jan', 'feb'] }, sales: { data: [3, 4] } } } },
      ORIGIN,
    );
    const [m, s] = grid.cols.map((c) => `${grid.fid}:${c.uid}`);
    const text = await createPlot(
      db,
      owner,
      {
        filename,
        world_readable: worldReadable,
        figure: {
          data: [{ type: 'bar', name: 'sales', xsrc: m, ysrc: s, marker: { color: '#ff8800' } }],
          layout: { title: { text: 'Sales' }, plot_bgcolor: '#102030', annotations: [{ text: 'note' }] },
        },
      },
      ORIGIN,
    );
    return (JSON.parse(text) as { file: { fid: string } }).file.fid;
  }

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob } = await people(db));
    chart = await plotOf(alice, 'sales', true);
    privateChart = await plotOf(alice, 'secret sales', false);
  });

  const flags = async (f: string) =>
    (
      await queryRows<{ is_theme: boolean | null; is_template: boolean | null }>(
        db,
        sql`SELECT p.is_theme, p.is_template FROM plots p JOIN files f ON f.id = p.file_id JOIN users u ON u.id = f.owner_id
            WHERE u.username = ${fid(f).owner} AND f.n = ${fid(f).n}`,
      )
    )[0];

  it('an ordinary plot is neither, truly false', async () => {
    expect(await flags(chart)).toEqual({ is_theme: false, is_template: false });
    const record = JSON.parse(await getPlot(db, alice, fid(chart), ORIGIN)) as Record<string, unknown>;
    expect([record.is_theme, record.is_template]).toEqual([false, false]);
  });

  it('saves a theme: a private plot of styling only, flagged is_theme', async () => {
    const saved = await saveTheme(db, alice, fid(chart), 'Night', ORIGIN);
    expect(saved.web_url).toBe(`${ORIGIN}/~alice/${fid(saved.fid).n}/`);
    expect(await flags(saved.fid)).toEqual({ is_theme: true, is_template: false });
    const record = JSON.parse(await getPlot(db, alice, fid(saved.fid), ORIGIN)) as Record<string, unknown> & { figure: Record<string, unknown> };
    expect(record).toMatchObject({ is_theme: true, is_template: false, world_readable: false, filename: 'Night', title: 'Night' });
    expect(record.figure).toEqual({
      data: [],
      layout: { title: { text: 'Night' }, template: { data: { bar: [{ marker: { color: '#ff8800' } }] }, layout: { plot_bgcolor: '#102030' } } },
    });
    // Others cannot read it: the 404 of a missing fid.
    await expectApiError(getPlot(db, bob, fid(saved.fid), ORIGIN), 404);
  });

  it('saves a theme of a plot someone else may read, never of one they may not (404), nor under a taken name (400)', async () => {
    const saved = await saveTheme(db, bob, fid(chart), 'Borrowed', ORIGIN);
    expect(saved.fid).toMatch(/^bob:/);
    await expectApiError(saveTheme(db, bob, fid(privateChart), 'Nope', ORIGIN), 404);
    await expectApiError(saveTheme(db, bob, fid('bob:999'), 'Nope', ORIGIN), 404);
    await expectApiError(saveTheme(db, bob, fid(chart), 'Borrowed', ORIGIN), 400, /already exists/);
  });

  it('saves a template: the whole chart, its srcs and their column roles, flagged is_template', async () => {
    const saved = await saveTemplate(db, alice, fid(chart), 'Bars by month', ORIGIN);
    expect(await flags(saved.fid)).toEqual({ is_theme: false, is_template: true });
    const original = JSON.parse(await getPlot(db, alice, fid(chart), ORIGIN)) as PlotRecord;
    const template = await getTemplate(db, alice, fid(saved.fid));
    expect(template.figure).toEqual(original.figure);
    expect(template.roles).toEqual([
      { path: ['data', 0, 'xsrc'], cols: [{ name: 'month', position: 0, kind: 'text' }] },
      { path: ['data', 0, 'ysrc'], cols: [{ name: 'sales', position: 1, kind: 'number' }] },
    ]);
    // A plot that is no template is no template to start from; others' private ones are missing.
    await expectApiError(getTemplate(db, alice, fid(chart)), 404);
    await expectApiError(getTemplate(db, bob, fid(saved.fid)), 404);
  });

  it("a template's roles map to a new grid's columns: by name, else by place and kind", async () => {
    const { file: grid } = await createGrid(
      db,
      bob,
      { world_readable: false, data: { cols: { when: { data: ['q1', 'q2'] }, sales: { data: [7, 8] }, extra: { data: [1, 1] } } } },
      ORIGIN,
    );
    const saved = await saveTemplate(db, alice, fid(chart), 'For bob', ORIGIN);
    const template = await getTemplate(db, alice, fid(saved.fid));
    const [row] = await queryRows<{ id: string | number }>(db, sql`SELECT id FROM files WHERE owner_id = ${bob.id} AND filetype = 'grid'`);
    const columns = await templateColumns(db, Number(row.id));
    expect(columns.map((c) => [c.name, c.kind])).toEqual([
      ['when', 'text'],
      ['sales', 'number'],
      ['extra', 'number'],
    ]);
    const figure = figureFromTemplate(template, grid.fid, columns);
    const [when, sales] = grid.cols.map((c) => `${grid.fid}:${c.uid}`);
    expect(figure.data[0]).toMatchObject({ xsrc: when, ysrc: sales, name: 'sales' });
    // Bob may make a plot of it: his grid, the template's styling.
    const made = JSON.parse(await createPlot(db, bob, { figure }, ORIGIN)) as { file: { figure: { data: { xsrc: string }[] } } };
    expect(made.file.figure.data[0].xsrc).toBe(when);
  });

  it('lists each person their own live themes and templates (latest first) and every built-in theme', async () => {
    const themes = await listThemes(db, alice);
    expect(themes.own.map((t) => t.name)).toEqual(['Night']);
    expect(themes.builtin.map((t) => t.label)).toContain('Dark');
    expect((await listThemes(db, bob)).own.map((t) => t.name)).toEqual(['Borrowed']);
    expect((await listTemplates(db, alice)).map((t) => t.name)).toEqual(['For bob', 'Bars by month']);
    expect(await listTemplates(db, bob)).toEqual([]);
    const [latest] = await listTemplates(db, alice);
    await trashFile(db, alice, fid(latest.fid));
    expect((await listTemplates(db, alice)).map((t) => t.name)).toEqual(['Bars by month']);
  });
});
