// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// GET /v2/plots/{fid}/content.
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createPlot, expectError, newUser, uploadGrid, type TestUser } from '../support/api';
import { keysOf, scatter, type Grid, type Rec } from '../support/plots';

describe('GET /v2/plots/{fid}/content', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;

  beforeAll(async () => {
    alice = await newUser('content');
    bob = await newUser('contentb');
    grid = await uploadGrid(alice, { x: [1, 2, 3], y: [10, 20, 30], c: ['red', 'green', 'blue'], s: [5, 6, 7] });
  });

  it('default: {data, layout} with the srcs kept, application/json', async () => {
    const fig = { data: [scatter(grid, { name: 'n', marker: { colorsrc: grid.src('c') } })], layout: { title: { text: 'T' } } };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('GET', `/v2/plots/${rec.fid}/content`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(res.json).toEqual(fig);
    expect(keysOf(res.json)).toEqual(['data', 'layout']);
  });

  it('default: a figure given without layout answers layout {}', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual({ data: [scatter(grid)], layout: {} });
  });

  it('default: frames are present when the figure has them (also empty)', async () => {
    const fig = { data: [scatter(grid)], layout: {}, frames: [{ name: 'a', data: [{ ysrc: grid.src('s') }] }] };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('GET', `/v2/plots/${rec.fid}/content`)).json).toEqual(fig);
    const empty = await createPlot(alice, { figure: { data: [], layout: {}, frames: [] } });
    expect((await call('GET', `/v2/plots/${empty.fid}/content`)).json).toEqual({ data: [], layout: {}, frames: [] });
  });

  const inline: { name: string; trace: (g: Grid) => Rec; expected: Rec }[] = [
    {
      name: 'xsrc/ysrc',
      trace: (g) => ({ type: 'scatter', name: 'a', xsrc: g.src('x'), ysrc: g.src('y') }),
      expected: { type: 'scatter', name: 'a', x: [1, 2, 3], y: [10, 20, 30] },
    },
    {
      name: 'nested marker.colorsrc',
      trace: (g) => ({ type: 'scatter', xsrc: g.src('x'), marker: { colorsrc: g.src('c'), size: 4 } }),
      expected: { type: 'scatter', x: [1, 2, 3], marker: { color: ['red', 'green', 'blue'], size: 4 } },
    },
    {
      name: 'nested textfont.sizesrc',
      trace: (g) => ({ type: 'scatter', textfont: { sizesrc: g.src('s') } }),
      expected: { type: 'scatter', textfont: { size: [5, 6, 7] } },
    },
    {
      name: 'multi-uid in the listed order',
      trace: (g) => ({ type: 'heatmap', zsrc: g.src('y', 'x') }),
      expected: {
        type: 'heatmap',
        z: [
          [10, 20, 30],
          [1, 2, 3],
        ],
      },
    },
    {
      name: 'parcoords dimensions[].valuessrc',
      trace: (g) => ({
        type: 'parcoords',
        dimensions: [
          { label: 'a', valuessrc: g.src('x') },
          { label: 'b', valuessrc: g.src('s') },
        ],
      }),
      expected: {
        type: 'parcoords',
        dimensions: [
          { label: 'a', values: [1, 2, 3] },
          { label: 'b', values: [5, 6, 7] },
        ],
      },
    },
    {
      name: "plotly 2's transforms: a filter's targetsrc and an aggregate's groupssrc",
      trace: (g) => ({
        type: 'bar',
        xsrc: g.src('c'),
        ysrc: g.src('y'),
        transforms: [
          { type: 'filter', targetsrc: g.src('x'), operation: '>=', value: 2 },
          { type: 'aggregate', groupssrc: g.src('s'), aggregations: [{ target: 'y', func: 'sum' }] },
        ],
      }),
      expected: {
        type: 'bar',
        x: ['red', 'green', 'blue'],
        y: [10, 20, 30],
        transforms: [
          { type: 'filter', target: [1, 2, 3], operation: '>=', value: 2 },
          { type: 'aggregate', groups: [5, 6, 7], aggregations: [{ target: 'y', func: 'sum' }] },
        ],
      },
    },
    {
      name: 'pie labelssrc/valuessrc',
      trace: (g) => ({ type: 'pie', labelssrc: g.src('c'), valuessrc: g.src('x') }),
      expected: { type: 'pie', labels: ['red', 'green', 'blue'], values: [1, 2, 3] },
    },
  ];

  it.each(inline)('inline_data=true: $name', async ({ trace, expected }) => {
    const rec = await createPlot(alice, { figure: { data: [trace(grid)], layout: { xaxis: { range: [0, 1] } } } });
    const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(res.json).toEqual({ data: [expected], layout: { xaxis: { range: [0, 1] } } });
  });

  it('inline_data=true: frames too', async () => {
    const fig = { data: [scatter(grid)], layout: {}, frames: [{ name: 'f', data: [{ ysrc: grid.src('s'), marker: { colorsrc: grid.src('c') } }] }] };
    const rec = await createPlot(alice, { figure: fig });
    const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
    expect(res.json).toEqual({
      data: [{ type: 'scatter', x: [1, 2, 3], y: [10, 20, 30] }],
      layout: {},
      frames: [{ name: 'f', data: [{ y: [5, 6, 7], marker: { color: ['red', 'green', 'blue'] } }] }],
    });
  });

  it('a transform this site would not draw as plotly 2 does → 400 naming it', async () => {
    const figure = { data: [scatter(grid, { transforms: [{ type: 'aggregate', aggregations: [{ target: 'y', func: 'total' }] }] })] };
    const res = await call('POST', '/v2/plots', { user: alice, body: { filename: 'bad transform', figure } });
    expectError(res, 400, 'figure.data[0].transforms[0].aggregations[0].func: expected one of plotly’s aggregate functions');
  });

  it('inline_data=false is the default form', async () => {
    const fig = { data: [scatter(grid)], layout: {} };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('GET', `/v2/plots/${rec.fid}/content?inline_data=false`)).json).toEqual(fig);
  });

  it('inline_data: a value other than a boolean → 400', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expectError(await call('GET', `/v2/plots/${rec.fid}/content?inline_data=maybe`), 400, 'inline_data');
  });

  it('ETag present; If-None-Match with it → 304 without body; a changed figure changes the ETag', async () => {
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    for (const q of ['', '?inline_data=true']) {
      const first = await call('GET', `/v2/plots/${rec.fid}/content${q}`);
      const etag = first.headers.get('etag');
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      const again = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': etag! } });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      // Compared weakly (RFC 9110): the weak form of the tag, `*`, or a list naming it.
      for (const ifNoneMatch of [`W/${etag}`, '*', `"something-else", ${etag}`]) {
        const weak = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': ifNoneMatch } });
        expect(weak.status, ifNoneMatch).toBe(304);
      }
      const other = await call('GET', `/v2/plots/${rec.fid}/content${q}`, { headers: { 'If-None-Match': '"something-else"' } });
      expect(other.status).toBe(200);
    }
    const before = (await call('GET', `/v2/plots/${rec.fid}/content`)).headers.get('etag')!;
    const beforeInline = (await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`)).headers.get('etag')!;
    expect((await call('PUT', `/v2/plots/${rec.fid}`, { user: alice, body: { figure: { data: [scatter(grid, { ysrc: grid.src('s') })] } } })).status).toBe(200);
    const after = await call('GET', `/v2/plots/${rec.fid}/content`, { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(after.json.data[0].ysrc).toBe(grid.src('s'));
    const afterInline = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { headers: { 'If-None-Match': beforeInline } });
    expect(afterInline.status).toBe(200);
    expect(afterInline.json.data[0].y).toEqual([5, 6, 7]);
  });

  it('a src into a deleted grid is left as a src (never a 500), with and without inline_data/map_data', async () => {
    const doomed = await uploadGrid(alice, { x: [1, 2], y: [3, 4] });
    const fig = { data: [scatter(doomed), { type: 'bar', ysrc: grid.src('y') }], layout: {} };
    const rec = await createPlot(alice, { figure: fig });
    expect((await call('DELETE', `/v2/grids/${doomed.fid}`, { user: alice })).status).toBe(204);
    const plain = await call('GET', `/v2/plots/${rec.fid}/content`);
    expect(plain.status).toBe(200);
    expect(plain.json).toEqual(fig);
    for (const who of [null, alice, bob]) {
      const inl = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: who });
      expect(inl.status).toBe(200);
      expect(inl.json.data).toEqual([scatter(doomed), { type: 'bar', y: [10, 20, 30] }]);
      const mapped = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: who });
      expect(mapped.status).toBe(200);
      expect(mapped.json.data).toEqual([scatter(doomed), { type: 'bar', y: [10, 20, 30] }]);
      expect(mapped.json.map_data?.[doomed.src('x')]).toBeUndefined();
    }
    // The detail still answers too.
    expect((await call('GET', `/v2/plots/${rec.fid}`)).status).toBe(200);
  });

  it('404 for a private plot read by others, a missing plot and a malformed fid', async () => {
    const priv = await createPlot(alice, { figure: { data: [scatter(grid)] }, world_readable: false });
    expectError(await call('GET', `/v2/plots/${priv.fid}/content`), 404);
    expectError(await call('GET', `/v2/plots/${priv.fid}/content?inline_data=true`, { user: bob }), 404);
    expect((await call('GET', `/v2/plots/${priv.fid}/content`, { user: alice })).status).toBe(200);
    expectError(await call('GET', `/v2/plots/${alice.username}:99999/content`), 404);
    expectError(await call('GET', '/v2/plots/garbage/content'), 404);
  });

  describe("map_data=unreadable: a public plot on its owner's private grid", () => {
    let priv: Grid;
    let pub: Grid;
    let rec: Rec;
    let fig: Rec;

    beforeAll(async () => {
      priv = await uploadGrid(alice, { px: [101, 102], py: [201, 202], pc: ['a', 'b'], hidden: [987654321, 987654322] }, { world_readable: false });
      pub = await uploadGrid(alice, { q: [7, 8] });
      fig = {
        data: [
          { type: 'scatter', xsrc: priv.src('px'), ysrc: priv.src('py'), marker: { colorsrc: priv.src('pc') } },
          { type: 'bar', ysrc: pub.src('q') },
          { type: 'heatmap', zsrc: priv.src('py', 'px') },
        ],
        layout: { title: 'mixed' },
      };
      rec = await createPlot(alice, { figure: fig });
    });

    const readers: [string, () => TestUser | null][] = [
      ['anonymous', () => null],
      ['another user', () => bob],
    ];

    // The figure with every column it draws inlined.
    const everythingInlined = () => ({
      data: [
        { type: 'scatter', x: [101, 102], y: [201, 202], marker: { color: ['a', 'b'] } },
        { type: 'bar', y: [7, 8] },
        {
          type: 'heatmap',
          z: [
            [201, 202],
            [101, 102],
          ],
        },
      ],
      layout: { title: 'mixed' },
    });

    // What the chart draws, inlined (the Python client's get_figure); never the rest of the grid.
    it.each(readers)("%s, inline_data=true: every column the chart draws inlined, the private grid's too, no map_data", async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.json).toEqual(everythingInlined());
      expect(res.text).not.toContain('987654321');
    });

    // What map_data holds for the private grid's srcs (to every reader but its owner).
    const unreadableValues = () => ({
      [priv.src('px')]: [101, 102],
      [priv.src('py')]: [201, 202],
      [priv.src('pc')]: ['a', 'b'],
      [priv.src('py', 'px')]: [
        [201, 202],
        [101, 102],
      ],
    });

    it.each(readers)('%s, map_data=unreadable: srcs kept and map_data maps each unreadable src to its values', async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?map_data=unreadable`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
      expect(res.json).toEqual({
        ...fig,
        map_data: unreadableValues(),
      });
      expect(res.text).not.toContain('987654321');
    });

    it.each(readers)('%s, inline_data=true&map_data=unreadable: readable inlined, unreadable mapped', async (_n, who) => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: who() });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({
        data: [fig.data[0], { type: 'bar', y: [7, 8] }, fig.data[2]],
        layout: { title: 'mixed' },
        map_data: unreadableValues(),
      });
      expect(res.text).not.toContain('987654321');
    });

    it('the private grid itself stays unreadable to them', async () => {
      expectError(await call('GET', `/v2/grids/${priv.fid}/content`), 404);
      expectError(await call('GET', `/v2/grids/${priv.fid}/content`, { user: bob }), 404);
    });

    it('the owner gets everything inlined and no unreadable entries', async () => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: alice });
      expect(res.status).toBe(200);
      const { map_data: mapData, ...rest } = res.json;
      expect(mapData === undefined || (typeof mapData === 'object' && Object.keys(mapData).length === 0)).toBe(true);
      expect(rest).toEqual(everythingInlined());
      expect(res.text).not.toContain('987654321');
    });

    it('the owner with inline_data only gets it all inlined', async () => {
      const res = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: alice });
      expect(res.json.data[0]).toEqual({ type: 'scatter', x: [101, 102], y: [201, 202], marker: { color: ['a', 'b'] } });
      expect(res.json.map_data).toBeUndefined();
    });

    it('map_data with a value other than "unreadable" → 400', async () => {
      expectError(await call('GET', `/v2/plots/${rec.fid}/content?map_data=all`), 400, 'map_data');
    });

    it("the ETag differs between the owner's and a reader's mapped answers, and not between their inlined ones (the same data)", async () => {
      const own = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`, { user: alice });
      const anon = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true&map_data=unreadable`);
      expect(own.headers.get('etag')).not.toBe(anon.headers.get('etag'));
      const ownInline = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`, { user: alice });
      const anonInline = await call('GET', `/v2/plots/${rec.fid}/content?inline_data=true`);
      expect(ownInline.text).toBe(anonInline.text);
      expect(ownInline.headers.get('etag')).toBe(anonInline.headers.get('etag'));
    });
  });
});
