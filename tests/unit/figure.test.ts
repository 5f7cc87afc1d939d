import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { decodeTypedArray } from '@/lib/shared/column-values';
import { checkFigure, figureMeta, parseSrc, setAt, splitFigure } from '@/lib/core/figures/figure';
import { traceNode } from '@/lib/core/figures/plot-schema';

const SRC = 'alice:1:abc123';
const RAW = (key: string) => `raw data arrays are not allowed; upload the values to a grid and reference them with ${key}src`;

/** The messages of the 400 checkFigure throws ([] when it accepts). */
function problems(figure: unknown): string[] {
  try {
    checkFigure(figure);
    return [];
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    expect(e.status).toBe(400);
    return e.errors.map((x) => x.message);
  }
}

const b64 = (buf: ArrayBufferView) => Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('base64');

describe('parseSrc', () => {
  it('accepts owner:n:uid and several uids', () => {
    expect(parseSrc('alice:1:abc123')).toEqual({ owner: 'alice', n: 1, uids: ['abc123'] });
    expect(parseSrc('a.b-c_d:42:abc123,def456,abc123')).toEqual({ owner: 'a.b-c_d', n: 42, uids: ['abc123', 'def456', 'abc123'] });
    expect(parseSrc(`u:${2 ** 31 - 1}:A_z-9`)?.n).toBe(2 ** 31 - 1);
    expect(parseSrc(`u:1:${Array(1000).fill('abc').join(',')}`)?.uids).toHaveLength(1000);
  });
  it.each([
    '',
    'alice',
    'alice:1',
    'alice:1:',
    ':1:abc',
    '_alice:1:abc',
    'alice:0:abc',
    'alice:01:abc',
    'alice:-1:abc',
    'alice:1.5:abc',
    `alice:${2 ** 31}:abc`,
    'alice:1:abc,',
    'alice:1:,abc',
    'alice:1:ab c',
    'alice:1:abc:def',
    `alice:1:${'a'.repeat(65)}`,
    `${'a'.repeat(51)}:1:abc`,
    `u:1:${Array(1001).fill('a').join(',')}`,
    'alice:1:abc\n',
  ])('refuses %j', (s) => expect(parseSrc(s)).toBeNull());
  it('refuses non-strings', () => expect(parseSrc(42 as unknown as string)).toBeNull());
});

describe('checkFigure', () => {
  it('accepts scalars in data attributes and returns src refs with their paths', () => {
    const refs = checkFigure({
      data: [
        { x: 1, ysrc: SRC, text: 'hi', marker: { color: 'red', size: 5, colorsrc: 'bob:2:aaaaaa,bbbbbb' } },
        { type: 'bar', textfont: { size: 12, sizesrc: SRC } },
      ],
      layout: {},
    });
    expect(refs).toEqual([
      { path: ['data', 0, 'ysrc'], src: SRC, owner: 'alice', n: 1, uids: ['abc123'] },
      { path: ['data', 0, 'marker', 'colorsrc'], src: 'bob:2:aaaaaa,bbbbbb', owner: 'bob', n: 2, uids: ['aaaaaa', 'bbbbbb'] },
      { path: ['data', 1, 'textfont', 'sizesrc'], src: SRC, owner: 'alice', n: 1, uids: ['abc123'] },
    ]);
  });

  it('refuses raw arrays at any depth, naming each path', () => {
    expect(
      problems({
        data: [
          { y: [1, 2], x: [], marker: { color: ['red', 'blue'] } },
          { type: 'bar', textfont: { size: [10, 12] }, error_y: { array: [1, 2], arrayminus: 1 } },
        ],
      }),
    ).toEqual([
      `figure.data[0].y: ${RAW('y')}`,
      `figure.data[0].x: ${RAW('x')}`,
      `figure.data[0].marker.color: ${RAW('color')}`,
      `figure.data[1].textfont.size: ${RAW('size')}`,
      `figure.data[1].error_y.array: ${RAW('array')}`,
    ]);
  });

  it('refuses typed arrays as raw data', () => {
    const spec = { dtype: 'f8', bdata: b64(new Float64Array([1, 2])) };
    expect(problems({ data: [{ y: spec, marker: { size: { ...spec, shape: '2' } } }] })).toEqual([
      `figure.data[0].y: ${RAW('y')}`,
      `figure.data[0].marker.size: ${RAW('size')}`,
    ]);
  });

  it("accepts plotly 2's aggregate, filter and sort transforms, their columns as srcs", () => {
    const refs = checkFigure({
      data: [
        {
          type: 'bar',
          xsrc: SRC,
          transforms: [
            { type: 'filter', targetsrc: 'alice:1:city', operation: '{}', value: ['Oslo', 'Rome'], preservegaps: false },
            { type: 'aggregate', groups: 'x', aggregations: [{ target: 'y', func: 'sum', enabled: true }], groupssrc: 'alice:1:grp' },
            { type: 'sort', target: 'y', order: 'descending', enabled: false, targetcalendar: 'gregorian' },
          ],
        },
      ],
    });
    expect(refs.map((r) => r.path.join('.'))).toEqual(['data.0.xsrc', 'data.0.transforms.0.targetsrc', 'data.0.transforms.1.groupssrc']);
  });

  it('refuses transforms it would not draw as plotly 2 does, or past their bounds, saying where', () => {
    const step = (t: Record<string, unknown>) => problems({ data: [{ transforms: [t] }] });
    expect(step({ type: 'groupby', groups: 'x' })).toEqual([
      'figure.data[0].transforms[0].type: "groupby" is not a transform this site draws (plotly.js 4 has none; it applies these itself): use "aggregate", "filter" or "sort"',
    ]);
    expect(step({ type: 'aggregate', aggregations: [{ target: 'y', func: 'total' }] })[0]).toMatch(
      /^figure\.data\[0\]\.transforms\[0\]\.aggregations\[0\]\.func: expected one of plotly’s aggregate functions: "count", "sum"/,
    );
    expect(step({ type: 'filter', operation: '~' })[0]).toMatch(/^figure\.data\[0\]\.transforms\[0\]\.operation: expected one of plotly’s filter operations/);
    expect(step({ type: 'filter', value: Array(1001).fill('a') })).toEqual(['figure.data[0].transforms[0].value: at most 1000 values to filter by']);
    expect(step({ type: 'filter', target: 'x; alert(1)' })).toEqual([
      'figure.data[0].transforms[0].target: expected the name of a trace attribute, such as "x" or "marker.color"',
    ]);
    expect(step({ type: 'sort', target: [3, 1, 2] })).toEqual([`figure.data[0].transforms[0].target: ${RAW('target')}`]);
    expect(problems({ data: [{ transforms: Array(11).fill({ type: 'sort' }) }] })).toEqual(['figure.data[0].transforms: at most 10 transforms a trace']);
    expect(problems({ data: [{ transforms: { type: 'sort' } }] })).toEqual(['figure.data[0].transforms: expected an array of transforms']);
  });

  it('walks object arrays such as parcoords dimensions', () => {
    const fig = {
      data: [{ type: 'parcoords', line: { color: [1, 2] }, dimensions: [{ values: [1, 2], range: [0, 3], label: 'a' }, { valuessrc: SRC }, 'junk'] }],
    };
    expect(problems(fig)).toEqual([`figure.data[0].line.color: ${RAW('color')}`, `figure.data[0].dimensions[0].values: ${RAW('values')}`]);
    fig.data[0].line = { color: 'blue' } as never;
    delete (fig.data[0].dimensions[0] as Record<string, unknown>).values;
    expect(checkFigure(fig).map((r) => r.path)).toEqual([['data', 0, 'dimensions', 1, 'valuessrc']]);
  });

  it('checks frames, typing frame traces by frame.traces or position', () => {
    const fig = {
      data: [{ type: 'scatter' }, { type: 'parcoords' }],
      frames: [
        { name: 'a', data: [{ y: [1] }], layout: { xaxis: { range: [0, 1] } } },
        { traces: [1], data: [{ dimensions: [{ values: [1] }] }] },
        { data: [{}, { dimensions: [{ valuessrc: SRC }] }] },
        { data: [{ type: 'bar', marker: { color: [1] } }] },
        {},
      ],
    };
    expect(problems(fig)).toEqual([
      `figure.frames[0].data[0].y: ${RAW('y')}`,
      `figure.frames[1].data[0].dimensions[0].values: ${RAW('values')}`,
      `figure.frames[3].data[0].marker.color: ${RAW('color')}`,
    ]);
    fig.frames = [fig.frames[2]];
    expect(checkFigure(fig).map((r) => r.path)).toEqual([['frames', 0, 'data', 1, 'dimensions', 0, 'valuessrc']]);
  });

  it('accepts settings arrays in traces and anything in layout', () => {
    expect(
      checkFigure({
        data: [
          {
            type: 'heatmap',
            zsrc: SRC,
            colorscale: [
              [0, 'red'],
              [1, 'blue'],
            ],
            xaxis: 'x',
          },
          { type: 'contour', contours: { value: [1, 2] }, unknown: [1, 2, 3], domain: { x: [0, 1] } },
          { type: 'indicator', gauge: { steps: [{ range: [0, 1] }] } },
        ],
        layout: { xaxis: { range: [0, 1], tickvals: [1, 2] }, template: { data: { scatter: [{ y: [1] }] } }, colorway: ['red'] },
      }),
    ).toHaveLength(1);
  });

  it('uses each trace type’s own schema, and the union of all types for an unknown type', () => {
    // marker.color is data for scatter but a plain color for box; zmax is a setting for image.
    expect(problems({ data: [{ type: 'box', marker: { color: ['red'] } }] })).toEqual([]);
    expect(problems({ data: [{ marker: { color: ['red'] } }] })).toEqual([`figure.data[0].marker.color: ${RAW('color')}`]);
    expect(problems({ data: [{ type: 'nope', marker: { color: ['red'] }, values: [1], zmax: [1, 2] }] })).toEqual([
      `figure.data[0].marker.color: ${RAW('color')}`,
      `figure.data[0].values: ${RAW('values')}`,
    ]);
    expect(traceNode(undefined)).toBe(traceNode('scatter'));
    expect(traceNode(7)).toBe(traceNode('nope'));
  });

  it('refuses bad src values', () => {
    expect(problems({ data: [{ ysrc: 'nope', xsrc: 3, marker: { colorsrc: 'a:1:' }, textsrc: null }] })).toEqual([
      'figure.data[0].ysrc: invalid src reference "nope"; expected "owner:grid_number:column_uid"',
      'figure.data[0].xsrc: expected a string of the form "owner:grid_number:column_uid"',
      'figure.data[0].marker.colorsrc: invalid src reference "a:1:"; expected "owner:grid_number:column_uid"',
      'figure.data[0].textsrc: expected a string of the form "owner:grid_number:column_uid"',
    ]);
    // Not the src of a data attribute: a free-form key.
    expect(problems({ data: [{ foosrc: 3, modesrc: 'x' }] })).toEqual([]);
  });

  it('refuses a src naming one column twice (its values would be served twice over)', () => {
    expect(problems({ data: [{ ysrc: `a:1:${Array(1000).fill('A').join(',')}`, textsrc: 'a:1:b,c,b' }] })).toEqual([
      "figure.data[0].ysrc: names the column 'A' more than once; each column at most once a src",
      "figure.data[0].textsrc: names the column 'b' more than once; each column at most once a src",
    ]);
    expect(problems({ data: [{ zsrc: 'a:1:b,c,d' }] })).toEqual([]);
  });

  it('refuses a missing or malformed figure and data', () => {
    expect(problems(undefined)).toEqual(['figure: expected an object']);
    expect(problems([])).toEqual(['figure: expected an object']);
    expect(problems({ layout: {} })).toEqual(['figure.data: This field is required.']);
    expect(problems({ data: {} })).toHaveLength(1);
    expect(problems({ data: [{}, 3, null, []], layout: [], frames: [1, { data: {} }] })).toEqual([
      'figure.data[1]: expected an object',
      'figure.data[2]: expected an object',
      'figure.data[3]: expected an object',
      'figure.layout: expected an object',
      'figure.frames[0]: expected an object',
      'figure.frames[1].data: expected an array',
    ]);
    expect(problems({ data: [], frames: {} })).toEqual(['figure.frames: expected an array']);
    expect(checkFigure({ data: [] })).toEqual([]);
  });

  it('refuses too many traces and caps the problems at 20', () => {
    expect(problems({ data: Array.from({ length: 1001 }, () => ({})) })).toEqual(['figure.data: at most 1000 traces a figure']);
    expect(checkFigure({ data: Array.from({ length: 1000 }, () => ({ ysrc: SRC })) })).toHaveLength(1000);
    expect(problems({ data: Array.from({ length: 50 }, () => ({ x: [1], y: [2] })) })).toHaveLength(20);
  });
});

describe('figureMeta', () => {
  it('reads title, size and autosize from the layout', () => {
    expect(figureMeta({ data: [], layout: { title: { text: 'T' }, width: 700.4, height: 500, autosize: false } })).toEqual({
      title: 'T',
      width: 700,
      height: 500,
      autosize: false,
    });
    expect(figureMeta({ data: [], layout: { title: 'S', width: -1, height: Infinity } })).toEqual({ title: 'S', width: null, height: null, autosize: true });
    expect(figureMeta({ data: [], layout: { title: { font: {} }, width: '700', height: 1e12, autosize: 'yes' } })).toEqual({
      title: '',
      width: null,
      height: null,
      autosize: true,
    });
    expect(figureMeta({ data: [] })).toEqual({ title: '', width: null, height: null, autosize: true });
  });
});

describe('decodeTypedArray', () => {
  it('decodes f8, i4, u1 (little-endian) to plain arrays', () => {
    expect(decodeTypedArray({ dtype: 'f8', bdata: b64(new Float64Array([1.5, -2, 1e300])) })).toEqual([1.5, -2, 1e300]);
    expect(decodeTypedArray({ dtype: 'i4', bdata: b64(new Int32Array([-1, 2 ** 31 - 1, 0])) })).toEqual([-1, 2 ** 31 - 1, 0]);
    expect(decodeTypedArray({ dtype: 'u1', bdata: 'AAH/' })).toEqual([0, 1, 255]);
    expect(decodeTypedArray({ dtype: 'i1', bdata: 'AAH/' })).toEqual([0, 1, -1]);
    expect(decodeTypedArray({ dtype: 'u2', bdata: 'AQI' })).toEqual([0x0201]); // unpadded base64 is fine
    expect(decodeTypedArray({ dtype: 'f4', bdata: b64(new Float32Array([0.5])) })).toEqual([0.5]);
    expect(decodeTypedArray({ dtype: 'f8', bdata: '' })).toEqual([]);
  });
  it('nests shaped arrays row-major', () => {
    const bdata = b64(new Int16Array([1, 2, 3, 4, 5, 6]));
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: '2, 3' })).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: [3, 2] })).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: [1, 2, 3] })).toEqual([
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ]);
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: '6' })).toEqual([1, 2, 3, 4, 5, 6]);
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: '4,2' })).toBeNull();
    expect(decodeTypedArray({ dtype: 'i2', bdata, shape: 'a,b' })).toBeNull();
  });
  it('returns null for anything else', () => {
    for (const v of [
      null,
      [1, 2],
      'AAAA',
      { dtype: 'f8' },
      { bdata: 'AAAA' },
      { dtype: 'f16', bdata: 'AAAA' },
      { dtype: 'toString', bdata: 'AAAA' },
      { dtype: 'f8', bdata: 'AAAA' } /* 3 bytes */,
      { dtype: 'u1', bdata: 'A$A=' },
      { dtype: 'u1', bdata: 'AA AA' },
      { dtype: 3, bdata: 'AAAA' },
    ])
      expect(decodeTypedArray(v)).toBeNull();
  });
});

describe('splitFigure', () => {
  it('moves raw arrays into columns named like the official client', () => {
    const typed = { dtype: 'f8', bdata: b64(new Float64Array([3, 4])) };
    const { figure, columns } = splitFigure({
      data: [
        { x: [1, 2], y: typed, marker: { color: ['a', 'b'], size: 3 } },
        { type: 'parcoords', dimensions: [{ values: [1], range: [0, 1] }] },
      ],
      frames: [{ data: [{ y: [5] }] }],
      layout: { xaxis: { range: [0, 1] } },
    });
    expect(columns).toEqual([
      { name: 'data.0.x', data: [1, 2], path: ['data', 0, 'xsrc'] },
      { name: 'data.0.y', data: [3, 4], path: ['data', 0, 'ysrc'] },
      { name: 'data.0.marker.color', data: ['a', 'b'], path: ['data', 0, 'marker', 'colorsrc'] },
      { name: 'data.1.dimensions.0.values', data: [1], path: ['data', 1, 'dimensions', 0, 'valuessrc'] },
      { name: 'frames.0.data.0.y', data: [5], path: ['frames', 0, 'data', 0, 'ysrc'] },
    ]);
    expect(figure).toEqual({
      data: [
        { xsrc: 'TBD', ysrc: 'TBD', marker: { colorsrc: 'TBD', size: 3 } },
        { type: 'parcoords', dimensions: [{ valuessrc: 'TBD', range: [0, 1] }] },
      ],
      frames: [{ data: [{ ysrc: 'TBD' }] }],
      layout: { xaxis: { range: [0, 1] } },
    });
  });
});

describe('plotly.js mocks', () => {
  const dir = path.resolve('fixtures/plotly-mocks');
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  // No raw data by plotly.js 4's schema: indicators hold only settings.
  const NO_DATA = new Set(['indicator_bignumber.json', 'indicator_bullet.json', 'indicator_grid_template.json']);

  it('are all present', () => expect(files.length).toBeGreaterThanOrEqual(90));

  it.each(files)('%s round-trips through splitFigure', (file) => {
    const text = readFileSync(`${dir}/${file}`, 'utf8');
    const mock = JSON.parse(text);
    const errors = problems(mock);
    if (NO_DATA.has(file)) expect(errors).toEqual([]);
    else {
      expect(errors.length).toBeGreaterThan(0);
      for (const m of errors) expect(m).toMatch(/^figure\.(data|frames)\[\d+\]\S*: raw data arrays are not allowed/);
    }

    const { figure, columns } = splitFigure(mock);
    for (const c of columns) setAt(figure, c.path, SRC);
    const refs = checkFigure(figure);
    expect(refs.length).toBe(columns.length);
    expect(refs.map((r) => r.path).sort()).toEqual(columns.map((c) => c.path).sort());
    expect(new Set(columns.map((c) => c.name)).size).toBe(columns.length);

    // Re-inline: put each column back at its key without `src`.
    for (const c of columns) {
      const key = c.path[c.path.length - 1] as string;
      setAt(figure, [...c.path.slice(0, -1), key.slice(0, -3)], c.data);
      let parent = figure as Record<string | number, unknown>;
      for (const p of c.path.slice(0, -1)) parent = parent[p] as Record<string | number, unknown>;
      delete parent[key];
    }
    expect(figure).toEqual(mock);
    expect(mock).toEqual(JSON.parse(text)); // splitFigure worked on a copy
  });
});

describe('numbers JSON cannot carry', () => {
  it('refuses a non-finite number anywhere in a figure, naming its path', () => {
    expect(problems({ data: [{ type: 'bar', marker: { line: { width: Infinity } } }] })).toEqual([
      'figure.data[0].marker.line.width: a number too large for JSON (e.g. 1e400, read as Infinity, would be stored as null); send a finite number',
    ]);
    expect(problems(JSON.parse('{"data": [], "layout": {"xaxis": {"range": [0, -1e400]}}}'))).toEqual([
      'figure.layout.xaxis.range[1]: a number too large for JSON (e.g. 1e400, read as Infinity, would be stored as null); send a finite number',
    ]);
    expect(problems({ data: [], layout: { xaxis: { range: [0, 1e300] } } })).toEqual([]);
  });
});
