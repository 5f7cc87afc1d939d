// The plots endpoints over HTTP against the OpenAPI document (/v2/openapi.json) and docs/api.md:
// POST /v2/plots (create rules).
// Suites share one server and database: every test makes its own users and looks only at its own files.
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { files, plots, users } from '@/db/schema';
import { appDatabase, baseUrl, call, createPlot, expectError, newUser, uploadGrid, type Answer, type TestUser } from '../support/api';
import { AUTH_REQUIRED, mine, n, scatter, typedF8, walk, type Grid, type Rec } from '../support/plots';

/** How many files (of any type, live or trashed) and plots a user owns in the database. */
async function counts(user: TestUser): Promise<{ files: number; plots: number }> {
  const { db } = await appDatabase();
  const [f] = await db
    .select({ c: sql<number>`count(*)::int` })
    .from(files)
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(eq(users.username, user.username));
  const [p] = await db
    .select({ c: sql<number>`count(*)::int` })
    .from(plots)
    .innerJoin(files, eq(files.id, plots.fileId))
    .innerJoin(users, eq(users.id, files.ownerId))
    .where(eq(users.username, user.username));
  return { files: Number(f.c), plots: Number(p.c) };
}

describe('POST /v2/plots: create rules', () => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Grid;
  let bobPrivate: Grid;
  let bobPublic: Grid;
  let deletedGrid: Grid;
  let bobPrivatePlot: Rec;
  let bobPublicPlot: Rec;
  let alicePlot: Rec;

  beforeAll(async () => {
    alice = await newUser('create');
    bob = await newUser('createb');
    grid = await uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6], c: [7, 8, 9] });
    deletedGrid = await uploadGrid(alice, { x: [1], y: [2] });
    expect((await call('DELETE', `/v2/grids/${deletedGrid.fid}`, { user: alice })).status).toBe(204);
    bobPrivate = await uploadGrid(bob, { x: [1], y: [2] }, { world_readable: false });
    bobPublic = await uploadGrid(bob, { x: [1], y: [2] });
    bobPrivatePlot = await createPlot(bob, { figure: { data: [scatter(bobPublic)], layout: {} }, world_readable: false });
    bobPublicPlot = await createPlot(bob, { figure: { data: [scatter(bobPublic)], layout: {} } });
    alicePlot = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} } });
  });

  /** A failed create: the status, the error body naming every needle, and nothing created. */
  async function rejected(user: TestUser, body: unknown, statusCode: number, ...needles: string[]): Promise<Answer> {
    const before = await counts(user);
    const res = await call('POST', '/v2/plots', { user, body });
    expectError(res, statusCode);
    for (const needle of needles) expect(res.json.detail, `message names ${needle}`).toContain(needle);
    expect(await counts(user)).toEqual(before);
    return res;
  }

  it('no figure (an empty body object) is 400 with message "figure: This field is required."', async () => {
    const res = await rejected(alice, {}, 400);
    expect(res.json.detail).toBe('figure: This field is required.');
    expect(res.json.errors).toHaveLength(1);
    expect(res.json.errors[0]).toMatchObject({ code: 'INVALID', message: 'figure: This field is required.', field: 'figure' });
  });

  it("no figure: the body is exactly the contract's example error body", async () => {
    const res = await call('POST', '/v2/plots', { user: alice, body: {} });
    expect(res.json).toEqual({
      errors: [{ code: 'INVALID', message: 'figure: This field is required.', path: null, field: 'figure' }],
      detail: 'figure: This field is required.',
    });
  });

  it('a body with other fields but no figure is 400 "figure: This field is required."', async () => {
    const res = await rejected(alice, { filename: 'nofig', title: 't' }, 400);
    expect(res.json.detail).toBe('figure: This field is required.');
  });

  const shapes: { name: string; figure: unknown; needle: string }[] = [
    { name: 'figure a string', figure: 'data', needle: 'figure' },
    { name: 'figure a number', figure: 5, needle: 'figure' },
    { name: 'figure an array', figure: [{ data: [] }], needle: 'figure' },
    { name: 'figure null', figure: null, needle: 'figure' },
    { name: 'figure true', figure: true, needle: 'figure' },
    { name: 'figure {} (no data)', figure: {}, needle: 'figure.data' },
    { name: 'figure with layout only', figure: { layout: { title: 'x' } }, needle: 'figure.data' },
    { name: 'data a string', figure: { data: 'scatter' }, needle: 'figure.data' },
    { name: 'data an object', figure: { data: { type: 'scatter' } }, needle: 'figure.data' },
    { name: 'data null', figure: { data: null }, needle: 'figure.data' },
    { name: 'data holding a number', figure: { data: [1] }, needle: 'figure.data[0]' },
    { name: 'data holding null', figure: { data: [null] }, needle: 'figure.data[0]' },
    { name: 'data holding a string', figure: { data: ['scatter'] }, needle: 'figure.data[0]' },
    { name: 'data holding an array', figure: { data: [[{ type: 'scatter' }]] }, needle: 'figure.data[0]' },
    { name: 'second trace not an object', figure: { data: [{ type: 'scatter' }, 7] }, needle: 'figure.data[1]' },
    { name: 'layout an array', figure: { data: [], layout: [] }, needle: 'figure.layout' },
    { name: 'layout a string', figure: { data: [], layout: 'big' }, needle: 'figure.layout' },
    { name: 'frames an object', figure: { data: [], frames: { data: [] } }, needle: 'figure.frames' },
    { name: 'frame not an object', figure: { data: [], frames: [3] }, needle: 'figure.frames[0]' },
    { name: 'frame data not an array', figure: { data: [], frames: [{ data: 'x' }] }, needle: 'figure.frames[0].data' },
  ];

  it.each(shapes)('figure shape: $name → 400 naming $needle', async ({ figure, needle }) => {
    await rejected(alice, { figure }, 400, needle);
  });

  const raw: { name: string; figure: (g: Grid) => Rec; path: string }[] = [
    { name: 'y at top level', path: 'figure.data[0].y', figure: () => ({ data: [{ type: 'scatter', y: [1, 2, 3] }] }) },
    { name: 'x in a trace without type (scatter)', path: 'figure.data[0].x', figure: () => ({ data: [{ x: [1, 2] }] }) },
    { name: 'raw y next to a valid xsrc', path: 'figure.data[0].y', figure: (g) => ({ data: [{ type: 'scatter', xsrc: g.src('x'), y: [1] }] }) },
    { name: 'raw x in the second trace', path: 'figure.data[1].x', figure: (g) => ({ data: [scatter(g), { type: 'bar', x: ['a'], ysrc: g.src('y') }] }) },
    { name: 'empty raw array', path: 'figure.data[0].y', figure: () => ({ data: [{ type: 'scatter', y: [] }] }) },
    { name: 'text array (arrayOk)', path: 'figure.data[0].text', figure: (g) => ({ data: [scatter(g, { text: ['a', 'b', 'c'] })] }) },
    { name: 'customdata', path: 'figure.data[0].customdata', figure: (g) => ({ data: [scatter(g, { customdata: [1, 2, 3] })] }) },
    {
      name: 'nested marker.color',
      path: 'figure.data[0].marker.color',
      figure: (g) => ({ data: [scatter(g, { marker: { color: ['red', 'blue', 'green'] } })] }),
    },
    { name: 'nested marker.size', path: 'figure.data[0].marker.size', figure: (g) => ({ data: [scatter(g, { marker: { size: [1, 2, 3] } })] }) },
    { name: 'nested textfont.size', path: 'figure.data[0].textfont.size', figure: (g) => ({ data: [scatter(g, { textfont: { size: [10, 12, 14] } })] }) },
    {
      name: 'nested error_y.array',
      path: 'figure.data[0].error_y.array',
      figure: (g) => ({ data: [scatter(g, { error_y: { type: 'data', array: [0.1, 0.2, 0.3] } })] }),
    },
    {
      name: 'deep marker.line.color',
      path: 'figure.data[0].marker.line.color',
      figure: (g) => ({ data: [scatter(g, { marker: { line: { color: ['red'] } } })] }),
    },
    { name: 'pie values', path: 'figure.data[0].values', figure: (g) => ({ data: [{ type: 'pie', labelssrc: g.src('x'), values: [1, 2, 3] }] }) },
    {
      name: 'heatmap z (2-d)',
      path: 'figure.data[0].z',
      figure: () => ({
        data: [
          {
            type: 'heatmap',
            z: [
              [1, 2],
              [3, 4],
            ],
          },
        ],
      }),
    },
    { name: 'candlestick open', path: 'figure.data[0].open', figure: (g) => ({ data: [{ type: 'candlestick', xsrc: g.src('x'), open: [1, 2, 3] }] }) },
    { name: 'choropleth locations', path: 'figure.data[0].locations', figure: () => ({ data: [{ type: 'choropleth', locations: ['FRA'] }] }) },
    { name: 'scatter3d z', path: 'figure.data[0].z', figure: (g) => ({ data: [{ type: 'scatter3d', xsrc: g.src('x'), ysrc: g.src('y'), z: [1, 2, 3] }] }) },
    { name: 'in frames', path: 'figure.frames[0].data[0].y', figure: (g) => ({ data: [scatter(g)], frames: [{ name: 'f0', data: [{ y: [1, 2, 3] }] }] }) },
    {
      name: 'in a later frame, nested',
      path: 'figure.frames[1].data[0].marker.color',
      figure: (g) => ({ data: [scatter(g)], frames: [{ data: [{ ysrc: g.src('y') }] }, { data: [{ marker: { color: [1, 2] } }] }] }),
    },
    {
      name: 'parcoords dimensions[0].values',
      path: 'figure.data[0].dimensions[0].values',
      figure: () => ({ data: [{ type: 'parcoords', dimensions: [{ label: 'a', values: [1, 2, 3] }] }] }),
    },
    {
      name: 'parcoords dimensions[1].values',
      path: 'figure.data[0].dimensions[1].values',
      figure: (g) => ({ data: [{ type: 'parcoords', dimensions: [{ valuessrc: g.src('x') }, { values: [4, 5, 6] }] }] }),
    },
    { name: 'typed array y (f8)', path: 'figure.data[0].y', figure: (g) => ({ data: [{ type: 'scatter', xsrc: g.src('x'), y: typedF8([1, 2, 3]) }] }) },
    {
      name: 'typed array nested marker.color',
      path: 'figure.data[0].marker.color',
      figure: (g) => ({ data: [scatter(g, { marker: { color: { dtype: 'i4', bdata: 'AQAAAAIAAAA=' } } })] }),
    },
    {
      name: 'typed array with shape (z)',
      path: 'figure.data[0].z',
      figure: () => ({ data: [{ type: 'heatmap', z: { ...typedF8([1, 2, 3, 4]), shape: '2, 2' } }] }),
    },
    { name: 'typed array in frames', path: 'figure.frames[0].data[0].x', figure: (g) => ({ data: [scatter(g)], frames: [{ data: [{ x: typedF8([1]) }] }] }) },
  ];

  it.each(raw)('raw data: $name → 400 naming $path', async ({ figure, path }) => {
    await rejected(alice, { figure: figure(grid) }, 400, path);
  });

  it('raw data: the message explains the src reference form', async () => {
    const res = await rejected(alice, { figure: { data: [{ type: 'scatter', y: [1, 2] }] } }, 400, 'figure.data[0].y');
    expect(res.json.detail).toMatch(/ysrc/);
  });

  const accepted: { name: string; figure: (g: Grid) => Rec }[] = [
    { name: 'srcs only', figure: (g) => ({ data: [scatter(g)], layout: {} }) },
    { name: 'empty data', figure: () => ({ data: [] }) },
    { name: 'a trace without src (empty scatter)', figure: () => ({ data: [{ type: 'scatter', mode: 'markers', name: 'n' }] }) },
    {
      name: 'marker.colorscale (settings array)',
      figure: (g) => ({
        data: [
          scatter(g, {
            marker: {
              colorsrc: g.src('c'),
              colorscale: [
                [0, 'red'],
                [1, 'blue'],
              ],
            },
          }),
        ],
      }),
    },
    {
      name: 'heatmap colorscale',
      figure: (g) => ({
        data: [
          {
            type: 'heatmap',
            zsrc: g.src('x'),
            colorscale: [
              [0, '#000'],
              [1, '#fff'],
            ],
          },
        ],
      }),
    },
    { name: 'scalar marker.color and textfont.size', figure: (g) => ({ data: [scatter(g, { marker: { color: 'red', size: 6 }, textfont: { size: 12 } })] }) },
    {
      name: 'layout xaxis.range and tickvals',
      figure: (g) => ({ data: [scatter(g)], layout: { xaxis: { range: [0, 10], tickvals: [1, 2, 3], ticktext: ['a', 'b', 'c'] } } }),
    },
    {
      name: 'layout.template with arrays',
      figure: (g) => ({
        data: [scatter(g)],
        layout: { template: { data: { scatter: [{ type: 'scatter', marker: { color: ['red', 'blue'] } }] }, layout: { colorway: ['#111', '#222'] } } },
      }),
    },
    {
      name: 'layout annotations and shapes',
      figure: (g) => ({ data: [scatter(g)], layout: { annotations: [{ x: 1, y: 2, text: 'a' }], shapes: [{ type: 'line', x0: 0, x1: 1 }] } }),
    },
    {
      name: 'nested srcs (marker.colorsrc, textfont.sizesrc, error_y.arraysrc)',
      figure: (g) => ({ data: [scatter(g, { marker: { colorsrc: g.src('c') }, textfont: { sizesrc: g.src('x') }, error_y: { arraysrc: g.src('y') } })] }),
    },
    { name: 'multi-uid srcs', figure: (g) => ({ data: [{ type: 'heatmap', zsrc: g.src('x', 'y', 'c') }, scatter(g, { xsrc: g.src('y', 'x') })] }) },
    {
      name: 'parcoords with valuessrc and a range setting',
      figure: (g) => ({ data: [{ type: 'parcoords', dimensions: [{ label: 'a', valuessrc: g.src('x'), range: [0, 5] }] }] }),
    },
    {
      name: 'frames with srcs',
      figure: (g) => ({ data: [scatter(g)], frames: [{ name: 'f', data: [{ ysrc: g.src('c') }], layout: { xaxis: { range: [0, 1] } } }] }),
    },
    { name: 'pie labelssrc/valuessrc', figure: (g) => ({ data: [{ type: 'pie', labelssrc: g.src('x'), valuessrc: g.src('y') }] }) },
    {
      name: 'candlestick open/high/low/close srcs',
      figure: (g) => ({
        data: [{ type: 'candlestick', xsrc: g.src('x'), opensrc: g.src('x'), highsrc: g.src('y'), lowsrc: g.src('x'), closesrc: g.src('c') }],
      }),
    },
  ];

  it.each(accepted)('accepted: $name → 200, figure stored as given', async ({ figure }) => {
    const fig = figure(grid);
    const res = await call('POST', '/v2/plots', { user: alice, body: { figure: fig } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file.figure).toEqual({ layout: {}, ...fig });
    const content = await call('GET', `/v2/plots/${res.json.file.fid}/content`);
    expect(content.json).toEqual({ layout: {}, ...fig });
  });

  it("accepted: a src into another user's public grid and into one's own private grid", async () => {
    const own = await uploadGrid(alice, { x: [1], y: [2] }, { world_readable: false });
    const res = await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [scatter(bobPublic), scatter(own)] } } });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
  });

  const srcs: { name: string; trace: () => Rec; path: string; src?: () => string }[] = [
    { name: 'malformed (no colons)', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: 'nonsense' }), src: () => 'nonsense' },
    { name: 'grid fid without a column', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: grid.fid }), src: () => grid.fid },
    {
      name: 'non-numeric grid number',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: `${alice.username}:one:abcdef` }),
      src: () => `${alice.username}:one:abcdef`,
    },
    { name: 'empty uid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:` }), src: () => `${grid.fid}:` },
    { name: 'trailing comma', path: 'figure.data[0].xsrc', trace: () => ({ type: 'scatter', xsrc: `${grid.src('x')},` }), src: () => `${grid.src('x')},` },
    { name: 'a number', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: 42 }) },
    { name: 'an array', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: [grid.src('y')] }) },
    {
      name: "another user's private grid",
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: bobPrivate.src('y') }),
      src: () => bobPrivate.src('y'),
    },
    {
      name: 'a missing grid',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: `${alice.username}:99999:abcdef` }),
      src: () => `${alice.username}:99999:abcdef`,
    },
    {
      name: 'a missing owner',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: 'nosuchowner00:1:abcdef' }),
      src: () => 'nosuchowner00:1:abcdef',
    },
    { name: 'a deleted grid', path: 'figure.data[0].ysrc', trace: () => ({ type: 'scatter', ysrc: deletedGrid.src('y') }), src: () => deletedGrid.src('y') },
    {
      name: 'a plot, not a grid',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: `${alicePlot.fid}:abcdef` }),
      src: () => `${alicePlot.fid}:abcdef`,
    },
    {
      name: 'a missing column uid',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:zzzzzz` }),
      src: () => `${grid.fid}:zzzzzz`,
    },
    {
      name: 'multi-uid with one missing column',
      path: 'figure.data[0].xsrc',
      trace: () => ({ type: 'scatter', xsrc: `${grid.src('x', 'y')},zzzzzz` }),
      src: () => `${grid.src('x', 'y')},zzzzzz`,
    },
    {
      name: 'nested marker.colorsrc to a missing grid',
      path: 'figure.data[0].marker.colorsrc',
      trace: () => scatter(grid, { marker: { colorsrc: `${alice.username}:88888:abcdef` } }),
      src: () => `${alice.username}:88888:abcdef`,
    },
    {
      name: 'a column of another grid',
      path: 'figure.data[0].ysrc',
      trace: () => ({ type: 'scatter', ysrc: `${grid.fid}:${bobPublic.file.cols[0].uid}` }),
      src: () => `${grid.fid}:${bobPublic.file.cols[0].uid}`,
    },
  ];

  it.each(srcs)('bad src: $name → 400 naming $path and the src', async ({ trace, path, src }) => {
    await rejected(alice, { figure: { data: [trace()] } }, 400, path, ...(src ? [src()] : []));
  });

  it('bad src in a frame → 400 naming figure.frames[0].data[0].ysrc', async () => {
    const bad = `${alice.username}:77777:abcdef`;
    await rejected(alice, { figure: { data: [scatter(grid)], frames: [{ data: [{ ysrc: bad }] }] } }, 400, 'figure.frames[0].data[0].ysrc', bad);
  });

  it('bad src in the second trace → 400 naming figure.data[1].ysrc', async () => {
    await rejected(alice, { figure: { data: [scatter(grid), { type: 'bar', ysrc: bobPrivate.src('y') }] } }, 400, 'figure.data[1].ysrc', bobPrivate.src('y'));
  });

  it('source_fid naming a readable plot is kept and echoed canonically in the detail', async () => {
    const res = await call('POST', '/v2/plots', {
      user: alice,
      body: { figure: { data: [scatter(grid)] }, source_fid: bobPublicPlot.fid.toUpperCase() },
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.json.file.source_fid).toBe(bobPublicPlot.fid);
    expect((await call('GET', `/v2/plots/${res.json.file.fid}`)).json.source_fid).toBe(bobPublicPlot.fid);
    const own = await createPlot(alice, { figure: { data: [scatter(grid)] }, source_fid: alicePlot.fid });
    expect(own.source_fid).toBe(alicePlot.fid);
    const none = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect(none.source_fid).toBeNull();
    const nullSource = await createPlot(alice, { figure: { data: [scatter(grid)] }, source_fid: null });
    expect(nullSource.source_fid).toBeNull();
  });

  it('source_fid: the owner may name their own private plot', async () => {
    const rec = await createPlot(bob, { figure: { data: [scatter(bobPublic)] }, source_fid: bobPrivatePlot.fid });
    expect(rec.source_fid).toBe(bobPrivatePlot.fid);
  });

  it.each([
    ['a malformed fid', () => 'nope'],
    ['a missing plot', () => `${bob.username}:99999`],
    ["another user's private plot", () => bobPrivatePlot.fid],
    ['a grid', () => grid.fid],
    ['a missing owner', () => 'nosuchowner00:1'],
  ])('source_fid naming %s → 400 naming source_fid', async (_name, value) => {
    await rejected(alice, { figure: { data: [scatter(grid)] }, source_fid: value() }, 400, 'source_fid');
  });

  it('source_fid naming a trashed plot → 400', async () => {
    const gone = await createPlot(alice, { figure: { data: [scatter(grid)] } });
    expect((await call('POST', `/v2/plots/${gone.fid}/trash`, { user: alice })).status).toBe(200);
    await rejected(alice, { figure: { data: [scatter(grid)] }, source_fid: gone.fid }, 400, 'source_fid');
  });

  it('1000 traces are accepted; 1001 are 400 naming figure.data and the limit', async () => {
    const ok = await call('POST', '/v2/plots', { user: alice, body: { figure: { data: Array.from({ length: 1000 }, () => ({ type: 'scatter' })) } } });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    await rejected(alice, { figure: { data: Array.from({ length: 1001 }, () => ({ type: 'scatter' })) } }, 400, 'figure.data', '1000');
  });

  it("a duplicate filename is 400 \"Sorry, a file named '...' already exists\"; also against a grid's name", async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'dup name' });
    const res = await rejected(alice, { figure: { data: [scatter(grid)] }, filename: 'dup name' }, 400, 'already exists');
    expect(res.json.detail).toContain("Sorry, a file named 'dup name' already exists");
    await uploadGrid(alice, { a: [1] }, { filename: 'grid name' });
    await rejected(alice, { figure: { data: [scatter(grid)] }, filename: 'grid name' }, 400, 'already exists');
  });

  it('the same filename is fine for another owner, in another folder, and after the old one is trashed', async () => {
    await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'shared name' });
    expect((await call('POST', '/v2/plots', { user: bob, body: { figure: { data: [scatter(bobPublic)] }, filename: 'shared name' } })).status).toBe(200);
    expect((await call('POST', '/v2/folders', { user: alice, body: { path: 'elsewhere' } })).status).toBe(201);
    const other = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'shared name', parent_path: 'elsewhere' });
    expect(other.filename).toBe('shared name');
    const first = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'reused name' });
    expect((await call('POST', `/v2/plots/${first.fid}/trash`, { user: alice })).status).toBe(200);
    const again = await createPlot(alice, { figure: { data: [scatter(grid)] }, filename: 'reused name' });
    expect(again.filename).toBe('reused name');
  });

  it('parent_path to a missing folder → 400 naming parent_path, nothing created', async () => {
    await rejected(alice, { figure: { data: [scatter(grid)] }, parent_path: 'no/such/folder' }, 400, 'parent_path');
  });

  it("parent_path to another user's folder name → 400 (folders are per owner)", async () => {
    expect((await call('POST', '/v2/folders', { user: bob, body: { path: 'bobs folder' } })).status).toBe(201);
    await rejected(alice, { figure: { data: [scatter(grid)] }, parent_path: 'bobs folder' }, 400, 'parent_path');
  });

  it("parent_path to a folder made by POST /v2/folders → 200 with parent = the folder's number", async () => {
    const folder = await call('POST', '/v2/folders', { user: alice, body: { path: 'reports/q1' } });
    expect(folder.status).toBe(201);
    const q1 = n(folder.json.file.fid);
    const rec = await createPlot(alice, { figure: { data: [scatter(grid)] }, parent_path: 'reports/q1', filename: 'in q1' });
    expect(rec.parent).toBe(q1);
    expect(rec.parented).toBe(true);
    expect(rec.api_urls.parent).toBe(`${baseUrl()}/v2/folders/${alice.username}:${q1}`);
    const lookup = await call('GET', `/v2/files/lookup?path=${encodeURIComponent('reports/q1/in q1')}`, { user: alice });
    expect(lookup.status).toBe(200);
    expect(lookup.json.fid).toBe(rec.fid);
    const reports = await call('GET', `/v2/files/lookup?path=reports`, { user: alice });
    const top = await createPlot(alice, { figure: { data: [scatter(grid)] }, parent_path: 'reports' });
    expect(top.parent).toBe(n(reports.json.fid));
  });

  it('anonymous create → 401 "Authentication credentials were not provided."', async () => {
    const res = await call('POST', '/v2/plots', { body: { figure: { data: [] } } });
    expectError(res, 401, AUTH_REQUIRED);
    expect(res.json.detail).toBe(AUTH_REQUIRED);
  });

  it('anonymous create without a figure is still 401 (authentication first)', async () => {
    expectError(await call('POST', '/v2/plots', { body: {} }), 401, AUTH_REQUIRED);
  });

  it('a wrong API key → 401 "Bad API key", nothing created', async () => {
    const before = await counts(alice);
    const res = await call('POST', '/v2/plots', {
      headers: { Authorization: `Basic ${Buffer.from(`${alice.username}:wrongwrongwrongwrong`).toString('base64')}` },
      body: { figure: { data: [] } },
    });
    expectError(res, 401, 'Bad API key');
    expect(await counts(alice)).toEqual(before);
  });

  it('Plotly-Authorization is accepted as the credential', async () => {
    const res = await call('POST', '/v2/plots', {
      headers: { 'Plotly-Authorization': alice.auth, 'Plotly-Client-Platform': 'python 5.0' },
      body: { figure: { data: [] } },
    });
    expect(res.status).toBe(200);
    expect(res.json.file.owner).toBe(alice.username);
  });

  it.each([
    ['malformed JSON', '{"figure": {', 400],
    ['a JSON array body', '[]', 400],
    ['a JSON null body', 'null', 400],
    ['an empty body', '', 400],
  ] as const)('%s → %i, nothing created', async (_name, raw, code) => {
    const before = await counts(alice);
    expectError(await call('POST', '/v2/plots', { user: alice, raw, headers: { 'Content-Type': 'application/json' } }), code);
    expect(await counts(alice)).toEqual(before);
  });

  it('a non-JSON content type → 415', async () => {
    expectError(await call('POST', '/v2/plots', { user: alice, raw: 'figure=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }), 415);
  });

  it('a body over 10 MiB → 413 naming the limit', async () => {
    const big = JSON.stringify({ figure: { data: [], layout: { pad: 'x'.repeat(10 * 1024 * 1024 + 10) } } });
    const res = await call('POST', '/v2/plots', { user: alice, raw: big, headers: { 'Content-Type': 'application/json' } });
    expectError(res, 413, '10 MiB');
  });

  it('nesting deeper than 100 levels → 400', async () => {
    let deep: Rec = {};
    for (let i = 0; i < 150; i++) deep = { a: deep };
    expectError(await call('POST', '/v2/plots', { user: alice, body: { figure: { data: [], layout: deep } } }), 400);
  });

  it('wrong field types (world_readable, title, filename) → 400 naming the field', async () => {
    await rejected(alice, { figure: { data: [] }, world_readable: 'yes' }, 400, 'world_readable');
    await rejected(alice, { figure: { data: [] }, title: 5 }, 400, 'title');
    await rejected(alice, { figure: { data: [] }, filename: '' }, 400, 'filename');
  });

  it('fids count per owner across grids and plots: grid owner:1, plot owner:2, plot owner:3', async () => {
    const carol = await newUser('fids');
    const g = await uploadGrid(carol, { x: [1], y: [2] });
    expect(g.fid).toBe(`${carol.username}:1`);
    const p1 = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(p1.fid).toBe(`${carol.username}:2`);
    const p2 = await createPlot(carol, { figure: { data: [scatter(g)] } });
    expect(p2.fid).toBe(`${carol.username}:3`);
    const g2 = await uploadGrid(carol, { x: [1], y: [2] });
    expect(g2.fid).toBe(`${carol.username}:4`);
    const p3 = await createPlot(carol, { figure: { data: [scatter(g2)] } });
    expect(p3.fid).toBe(`${carol.username}:5`);
  });

  it("a new owner's first plot (no grid) is owner:1", async () => {
    const dave = await newUser('first');
    const p = await createPlot(dave, { figure: { data: [] } });
    expect(p.fid).toBe(`${dave.username}:1`);
  });

  it('concurrent creates by one owner get distinct numbers', async () => {
    const erin = await newUser('conc');
    const results = await Promise.all(Array.from({ length: 12 }, () => call('POST', '/v2/plots', { user: erin, body: { figure: { data: [] } } })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const nums = results.map((r) => n(r.json.file.fid));
    expect(new Set(nums).size).toBe(12);
    expect(new Set(results.map((r) => r.json.file.filename)).size).toBe(12);
  });

  it('failed creates leave nothing behind: a fresh user who only failed has no files, and their first plot is number 1', async () => {
    const frank = await newUser('fail');
    await rejected(frank, {}, 400);
    await rejected(frank, { figure: { data: [{ y: [1] }] } }, 400, 'figure.data[0].y');
    await rejected(frank, { figure: { data: [{ ysrc: bobPrivate.src('y') }] } }, 400, 'figure.data[0].ysrc');
    await rejected(frank, { figure: { data: [] }, parent_path: 'x' }, 400, 'parent_path');
    await rejected(frank, { figure: { data: [] }, source_fid: 'x:1' }, 400, 'source_fid');
    expect(await counts(frank)).toEqual({ files: 0, plots: 0 });
    const all = await walk('/v2/plots?page_size=100');
    expect(mine(all, frank.username)).toEqual([]);
    const first = await call('POST', '/v2/plots', { user: frank, body: { figure: { data: [scatter(grid)] } } });
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    expect(first.json.file.fid).toBe(`${frank.username}:1`);
  });
});
