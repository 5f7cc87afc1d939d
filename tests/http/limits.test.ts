// The limits that keep one plot from costing the service more than a bounded amount
// (docs/limits.md): each column once a src, 100,000,000 referenced values a plot (10,000,000 served inline), 1 MiB a stored figure.
// Each refusal is a 400 naming the field, and nothing is created.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers } from '../support/servers';

describe.each(servers())('plot limits on $name', (s) => {
  let owner: TestUser;
  let big: Awaited<ReturnType<typeof s.uploadGrid>>;

  beforeAll(async () => {
    owner = await s.newUser('lim');
    big = await s.uploadGrid(owner, { million: Array.from({ length: 1_000_000 }, (_, i) => i % 1000), small: [1, 2, 3] });
  });

  const plotCount = async () => {
    const home = await s.call('GET', `/v2/folders/home?user=${owner.username}`, { user: owner });
    return (home.json.children.results as { filetype: string }[]).filter((f) => f.filetype === 'plot').length;
  };

  it('a src naming one column twice is refused, however many times', async () => {
    const uid = big.src('small').split(':')[2];
    for (const times of [2, 1000]) {
      const res = await s.call('POST', '/v2/plots', {
        user: owner,
        body: { figure: { data: [{ type: 'bar', ysrc: `${big.fid}:${Array(times).fill(uid).join(',')}` }] } },
      });
      expectError(res, 400, `names the column '${uid}' more than once`);
      expect(res.json.errors[0].path).toBe('figure.data[0].ysrc');
    }
    expect(await plotCount()).toBe(0);
  });

  it('100,000,000 referenced values a plot, each reference counted', async () => {
    const ten = Array.from({ length: 100 }, () => ({ type: 'scatter', ysrc: big.src('million') }));
    const ok = await s.call('POST', '/v2/plots', { user: owner, body: { figure: { data: ten } } });
    expect(ok.status).toBe(200);
    const eleven = await s.call('POST', '/v2/plots', { user: owner, body: { figure: { data: [...ten, { type: 'bar', ysrc: big.src('small') }] } } });
    expectError(eleven, 400, 'reference 100,000,003 grid values; at most 100,000,000 a plot');
    expect(eleven.json.errors[0].field).toBe('figure');
    // An update is held to the same limit, and leaves the plot as it was.
    const put = await s.call('PUT', `/v2/plots/${ok.json.file.fid}`, { user: owner, body: { figure: { data: [...ten, ...ten] } } });
    expectError(put, 400, 'at most 100,000,000 a plot');
    const content = await s.call('GET', `/v2/plots/${ok.json.file.fid}/content`);
    expect(content.json.data).toHaveLength(100);
    expect(await plotCount()).toBe(1);
  });

  it('content inlines at most 10,000,000 values, even after the columns grew', async () => {
    const grid = await s.uploadGrid(owner, { million: Array.from({ length: 1_000_000 }, (_, i) => i % 7), grows: [1, 2, 3] });
    const data = [
      ...Array.from({ length: 9 }, () => ({ type: 'scatter', ysrc: grid.src('million') })),
      { type: 'bar', ysrc: grid.src('grows') },
      { type: 'bar', xsrc: grid.src('grows') },
    ];
    const plot = await s.call('POST', '/v2/plots', { user: owner, body: { figure: { data } } });
    expect(plot.status).toBe(200);
    const fid = plot.json.file.fid;
    expect((await s.call('GET', `/v2/plots/${fid}/content?inline_data=true`)).status).toBe(200);
    const uid = grid.src('grows').split(':')[2];
    const grown = await s.call('PUT', `/v2/grids/${grid.fid}/col?uid=${uid}`, {
      user: owner,
      body: { cols: JSON.stringify([{ name: 'grows', data: Array.from({ length: 600_000 }, () => 1) }]) },
    });
    expect(grown.status).toBe(200);
    const inline = await s.call('GET', `/v2/plots/${fid}/content?inline_data=true`);
    expectError(inline, 400, 'reference 10,200,000 grid values');
    expect(inline.json.errors[0].field).toBe('inline_data');
    // By reference it is served as ever.
    expect((await s.call('GET', `/v2/plots/${fid}/content`)).status).toBe(200);
  });

  it('a stored figure is at most 1 MiB', async () => {
    const layout = { annotations: [{ text: 'x'.repeat(1_100_000) }] };
    const res = await s.call('POST', '/v2/plots', { user: owner, body: { figure: { data: [{ type: 'bar', ysrc: big.src('small') }], layout } } });
    expectError(res, 400, 'at most 1 MiB');
    expect(res.json.errors[0].field).toBe('figure');
    const fits = { annotations: [{ text: 'x'.repeat(900_000) }] };
    expect(
      (await s.call('POST', '/v2/plots', { user: owner, body: { figure: { data: [{ type: 'bar', ysrc: big.src('small') }], layout: fits } } })).status,
    ).toBe(200);
  });

  it("a grid value JSON cannot carry (1e400, a typed array's Infinity or NaN) is refused naming its column and row, never stored as null", async () => {
    const raw = '{"data": {"cols": {"x": {"data": [1, 2, 3], "order": 0}, "y": {"data": [1, 1e400, 3], "order": 1}}}}';
    const res = await s.call('POST', '/v2/grids', { user: owner, raw, headers: { 'Content-Type': 'application/json' } });
    expectError(res, 400, 'too large for JSON');
    expect(res.json.errors[0].path).toBe('data.cols.y.data[1]');
    const nan = Buffer.alloc(16);
    nan.writeDoubleLE(1, 0);
    nan.writeDoubleLE(Number.NaN, 8);
    const typed = await s.call('POST', '/v2/grids', {
      user: owner,
      body: { data: { cols: { z: { data: { dtype: 'f8', bdata: nan.toString('base64') }, order: 0 } } } },
    });
    expectError(typed, 400, 'not a number');
    expect(typed.json.errors[0].path).toBe('data.cols.z.data[1]');

    const grid = await s.uploadGrid(owner, { a: [1], b: [2] });
    const rows = await s.call('POST', `/v2/grids/${grid.fid}/row`, {
      user: owner,
      raw: '{"rows": [[1, -1e400]]}',
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(rows, 400, 'too large for JSON');
    expect(rows.json.errors[0].path).toBe('rows[0][1]');
    const content = await s.call('GET', `/v2/grids/${grid.fid}/content`, { user: owner });
    expect(Object.values(content.json.cols).map((c: any) => c.data)).toEqual([[1], [2]]);
  });

  it('a chart of many values is drawn on request on its page and not at all on cards; the count follows its grid', async () => {
    const user = await s.newUser('many');
    const grid = await s.uploadGrid(user, { y: Array.from({ length: 150_000 }, (_, i) => i % 10), small: [1, 2] });
    // Bars (a line trace of many values would be drawn by the view: tests/lib/plot-views.test.ts).
    const few = await s.createPlot(user, { figure: { data: [{ type: 'bar', ysrc: grid.src('y') }] } });
    const many = await s.createPlot(user, {
      figure: {
        data: [
          { type: 'scattergl', ysrc: grid.src('y') },
          { type: 'scattergl', xsrc: grid.src('y') },
        ],
      },
    });
    const page = async (fid: string) => (await fetch(`${s.url}/~${user.username}/${fid.split(':')[1]}/`)).text();
    expect(await page(few.fid)).not.toContain('Draw the interactive chart');
    expect(await page(many.fid)).toContain('Draw the interactive chart');
    const profile = await (await fetch(`${s.url}/~${user.username}/`)).text();
    expect(profile).toContain(`data-fid="${many.fid}" data-live="false"`);
    expect(profile).toContain(`data-fid="${few.fid}" data-live="true"`);
    // The count follows the grid: rows appended to it make the first plot one of many values too.
    const uid = grid.src('y').split(':')[2];
    const grown = await s.call('PUT', `/v2/grids/${grid.fid}/col?uid=${uid}`, {
      user,
      body: { cols: JSON.stringify([{ name: 'y', data: Array.from({ length: 250_000 }, () => 1) }]) },
    });
    expect(grown.status).toBe(200);
    expect(await page(few.fid)).toContain('Draw the interactive chart');
  });
  it('a line chart of a million rows is drawn by the view: its views are bounded, checked, read by the reader rule and confirmed by ETag', async () => {
    const plot = await s.createPlot(owner, { world_readable: false, figure: { data: [{ type: 'scattergl', mode: 'lines', ysrc: big.src('million') }] } });
    const n = plot.fid.split(':')[1];
    const page = await s.call('GET', `/~${owner.username}/${n}/`, { user: owner });
    expect(page.text).not.toContain('Draw the interactive chart');
    const view = (query: string, opts = {}) => s.call('GET', `/~${owner.username}/${n}/view?${query}`, { user: owner, ...opts });
    expectError(await view('px=0'), 400, 'px must be between 1 and 4000');
    expectError(await view('x0=5&x1=1'), 400, 'x0 must not be after x1');
    const all = await view('px=100');
    expect(all.status).toBe(200);
    expect(all.json.traces[0]).toMatchObject({ index: 0, xDate: false, total: 1_000_000, whole: false });
    expect(all.json.traces[0].y.length).toBeLessThanOrEqual(202);
    const rows = await view('x0=10&x1=19&px=100');
    expect(rows.json.traces[0]).toMatchObject({ x: Array.from({ length: 12 }, (_, j) => 9 + j), y: Array.from({ length: 12 }, (_, j) => 9 + j), whole: true });
    const etag = rows.headers.get('etag')!;
    expect((await view('x0=10&x1=19&px=100', { headers: { 'If-None-Match': etag } })).status).toBe(304);
    // A private plot: nobody else's view.
    expect((await s.call('GET', `/~${owner.username}/${n}/view?px=100`)).status).toBe(404);
  });

  it('a chart of few values but many bytes is drawn on request and its card stays a picture; past what the renderer takes, its image fails at once', async () => {
    const user = await s.newUser('bytes');
    // 100 cells at the cell cap: ~6.4 MiB of column text in 100 values.
    const grid = await s.uploadGrid(user, { y: Array.from({ length: 100 }, () => 'w'.repeat(64 * 1024 - 8)) });
    // ~19.6 MiB: the renderer is never handed it, and its image is the failed one at once (no retry).
    // Made first, so its job is not queued behind the drawing of the 6.4 MiB one below.
    const three = await s.createPlot(user, { figure: { data: [1, 2, 3].map(() => ({ type: 'bar', ysrc: grid.src('y') })) } });
    const failed = readFileSync('public/placeholders/failed-default.png');
    // Until the render is settled (the queue is shared with the other files' plots): then it is the failed image.
    let answer: Response;
    for (;;) {
      answer = await fetch(`${s.url}/~${user.username}/${three.fid.split(':')[1]}.png`);
      if (answer.headers.get('x-image-state') !== 'pending') break;
      await answer.arrayBuffer();
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(answer.headers.get('x-image-state')).toBe('failed');
    const png = Buffer.from(await answer.arrayBuffer());
    expect(png.equals(failed)).toBe(true);
    const one = await s.createPlot(user, { figure: { data: [{ type: 'bar', ysrc: grid.src('y') }] } });
    const page = await (await fetch(`${s.url}/~${user.username}/${one.fid.split(':')[1]}/`)).text();
    expect(page).toContain('Draw the interactive chart');
    const profile = await (await fetch(`${s.url}/~${user.username}/`)).text();
    expect(profile).toContain(`data-fid="${one.fid}" data-live="false"`);
    // Its page still offers to draw it.
    expect(await (await fetch(`${s.url}/~${user.username}/${three.fid.split(':')[1]}/`)).text()).toContain('Draw the interactive chart');
  }, 300_000);
});
