// The hostile corpus run by hostile-input.test.ts: requests against every write endpoint and the
// query parameters of the read endpoints (docs/api.md "Authentication and errors", docs/limits.md), each with the 4xx it must
// answer. A case names its path and body from the suite's fixtures (`Ctx`), made before it runs.
import type { TestUser } from '../support/api';

export const SQL1 = "' OR 1=1 --";
export const SQL2 = "'; DROP TABLE files; --";
export const HTML = '<script>alert(1)</script>';

export interface Ctx {
  alice: TestUser;
  bob: TestUser;
  /** alice's public grid with columns x, y */
  gridFid: string;
  src: (...names: string[]) => string;
  gridN: number;
  /** alice's public plots */
  plotFid: string;
  plotN: number;
  /** decoys the fid-form cases aim at (a wrongly decoded fid would hit these, never the fixtures above) */
  decoyGridN: number;
  decoyPlotN: number;
  /** bob's private grid and private plot */
  bobGridSrc: (...names: string[]) => string;
  bobGridFid: string;
  bobPlotFid: string;
  /** cursors the service issued */
  listCursor: string;
  viewsCursor: string;
  feedCursor: string;
}

export type Who = 'alice' | 'bob' | 'anon' | 'badkey';

export interface Case {
  name: string;
  method: string;
  path: (c: Ctx) => string;
  as?: Who;
  /** A JSON value, sent with JSON.stringify. */
  json?: (c: Ctx) => unknown;
  /** Exact body text or bytes. */
  raw?: (c: Ctx) => string | Uint8Array;
  /** Content-Type of the body (default application/json; null sends none). */
  type?: string | null;
  /** Expected status (or the statuses the contract leaves open). */
  status: number | number[];
  needle?: string | RegExp;
  /** Expected `Allow` header (405). */
  allow?: string;
  /** A web page, not the API: only the status is checked. */
  page?: boolean;
}

/** One write endpoint and the ways to put hostile text in its body. */
interface Target {
  label: string;
  method: string;
  path: (c: Ctx) => string;
  valid: (c: Ctx) => unknown;
  /** JSON text with `inner` (already JSON-escaped) inside a string value. */
  withString: (inner: string) => string;
  /** Nesting `depth` levels deep in total. */
  nested: (depth: number) => string;
  proto: string;
  ctor: string;
}

const objects = (m: number) => `${'{"a":'.repeat(m)}{}${'}'.repeat(m)}`;
const arrays = (m: number) => `${'['.repeat(m)}${']'.repeat(m)}`;

export const TARGETS: Target[] = [
  {
    label: 'POST /v2/plots',
    method: 'POST',
    path: () => '/v2/plots',
    valid: (c) => ({ figure: { data: [{ type: 'scatter', xsrc: c.src('x'), ysrc: c.src('y') }] } }),
    withString: (s) => `{"figure":{"data":[]},"title":"a${s}b"}`,
    nested: (d) => `{"figure":{"data":[],"layout":${objects(d - 3)}}}`,
    proto: '{"figure":{"data":[]},"__proto__":{"polluted":true}}',
    ctor: '{"figure":{"data":[],"layout":{"constructor":{"prototype":{"polluted":true}}}}}',
  },
  {
    label: 'PUT /v2/plots/{fid}',
    method: 'PUT',
    path: (c) => `/v2/plots/${c.plotFid}`,
    valid: () => ({ title: 'a valid new title' }),
    withString: (s) => `{"title":"a${s}b"}`,
    nested: (d) => `{"figure":{"data":[],"layout":${objects(d - 3)}}}`,
    proto: '{"__proto__":{"polluted":true},"title":"x"}',
    ctor: '{"constructor":{"prototype":{"polluted":true}},"title":"x"}',
  },
  {
    label: 'POST /v2/grids',
    method: 'POST',
    path: () => '/v2/grids',
    valid: () => ({ data: { cols: { a: { data: [1, 2], order: 0 } } } }),
    withString: (s) => `{"data":{"cols":{"a":{"data":["a${s}b"],"order":0}}}}`,
    nested: (d) => `{"data":{"cols":{"a":{"order":0,"data":${arrays(d - 4)}}}}}`,
    proto: '{"data":{"cols":{"__proto__":{"data":[1],"order":0}}}}',
    ctor: '{"data":{"cols":{"a":{"data":[1],"order":0}}},"constructor":{"prototype":{"polluted":true}}}',
  },
  {
    label: 'POST /v2/plots/{fid}/comments',
    method: 'POST',
    path: (c) => `/v2/plots/${c.plotFid}/comments`,
    valid: () => ({ text: 'a valid comment' }),
    withString: (s) => `{"text":"a${s}b"}`,
    nested: (d) => `{"text":${arrays(d - 1)}}`,
    proto: '{"text":"x","__proto__":{"polluted":true}}',
    ctor: '{"text":"x","constructor":{"prototype":{"polluted":true}}}',
  },
  {
    label: 'POST /v2/folders',
    method: 'POST',
    path: () => '/v2/folders',
    valid: () => ({ path: 'hostile-never-created' }),
    withString: (s) => `{"path":"a${s}b"}`,
    nested: (d) => `{"path":${arrays(d - 1)}}`,
    proto: '{"path":"x","__proto__":{"polluted":true}}',
    ctor: '{"path":"x","constructor":{"prototype":{"polluted":true}}}',
  },
];

/** JSON text with raw bytes spliced inside a string value. */
const withBytes = (t: Target, bytes: number[]) => {
  const [before, after] = t.withString('\u0001').split('\u0001');
  return Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)]);
};

const PARSE = /JSON parse error/;

function genericCases(t: Target): Case[] {
  const base = { method: t.method, path: t.path };
  const valid = (c: Ctx) => JSON.stringify(t.valid(c));
  const cases: Omit<Case, 'method' | 'path'>[] = [
    { name: 'truncated JSON', raw: (c) => valid(c).slice(0, Math.ceil(valid(c).length / 2)), status: 400, needle: PARSE },
    { name: 'JSON missing its last brace', raw: (c) => valid(c).slice(0, -1), status: 400, needle: PARSE },
    { name: 'unterminated string', raw: () => '{"title": "abc', status: 400, needle: PARSE },
    { name: 'single-quoted JSON', raw: () => "{'figure': {'data': []}}", status: 400, needle: PARSE },
    { name: 'trailing comma', raw: () => '{"a": 1,}', status: 400, needle: PARSE },
    { name: 'JSON with a comment', raw: () => '{/* hi */ "a": 1}', status: 400, needle: PARSE },
    { name: 'NaN literal', raw: () => '{"a": NaN}', status: 400, needle: PARSE },
    { name: 'empty body', raw: () => '', status: 400, needle: PARSE },
    { name: 'whitespace-only body', raw: () => ' \n\t ', status: 400, needle: PARSE },
    { name: 'body `null`', raw: () => 'null', status: 400 },
    { name: 'body `[]`', raw: () => '[]', status: 400 },
    { name: 'body: an array holding a valid body', raw: (c) => `[${valid(c)}]`, status: 400 },
    { name: 'body `42`', raw: () => '42', status: 400 },
    { name: 'body `"text"`', raw: () => '"text"', status: 400 },
    { name: 'body `true`', raw: () => 'true', status: 400 },
    { name: 'text/plain', raw: valid, type: 'text/plain', status: 415, needle: 'Unsupported media type' },
    { name: 'text/plain;charset=utf-8', raw: valid, type: 'text/plain;charset=UTF-8', status: 415, needle: 'Unsupported media type' },
    { name: 'form-urlencoded', raw: () => 'figure=1&filename=x', type: 'application/x-www-form-urlencoded', status: 415, needle: 'Unsupported media type' },
    { name: 'multipart/form-data', raw: valid, type: 'multipart/form-data; boundary=xyz', status: 415, needle: 'Unsupported media type' },
    { name: 'application/xml', raw: () => '<figure/>', type: 'application/xml', status: 415, needle: 'Unsupported media type' },
    { name: 'application/javascript', raw: valid, type: 'application/javascript', status: 415, needle: 'Unsupported media type' },
    { name: 'nesting 101 levels', raw: () => t.nested(101), status: 400, needle: /nesting.*100/ },
    { name: 'nesting 1,000 levels', raw: () => t.nested(1000), status: 400, needle: /nesting.*100/ },
    { name: 'nesting 10,000 levels', raw: () => t.nested(10_000), status: 400, needle: /nesting.*100/ },
    { name: '__proto__ key', raw: () => t.proto, status: 400, needle: PARSE },
    { name: 'constructor.prototype keys', raw: () => t.ctor, status: 400, needle: PARSE },
    { name: '\\u0000 in a string', raw: () => t.withString('\\u0000'), status: 400, needle: PARSE },
    { name: 'lone high surrogate \\ud800', raw: () => t.withString('\\ud800'), status: 400, needle: PARSE },
    { name: 'lone low surrogate \\udc00', raw: () => t.withString('\\udc00'), status: 400, needle: PARSE },
    { name: 'reversed surrogate pair \\ude00\\ud83d', raw: () => t.withString('\\ude00\\ud83d'), status: 400, needle: PARSE },
    { name: 'invalid UTF-8 bytes 0xff 0xfe', raw: () => withBytes(t, [0xff, 0xfe]), status: 400, needle: 'UTF-8' },
    { name: 'overlong UTF-8 0xc0 0xaf', raw: () => withBytes(t, [0xc0, 0xaf]), status: 400, needle: 'UTF-8' },
    { name: 'UTF-8-encoded surrogate 0xed 0xa0 0x80', raw: () => withBytes(t, [0xed, 0xa0, 0x80]), status: 400, needle: 'UTF-8' },
    { name: 'truncated UTF-8 sequence 0xe2 0x82', raw: () => withBytes(t, [0xe2, 0x82]), status: 400, needle: 'UTF-8' },
    { name: 'a raw NUL byte inside a string', raw: () => withBytes(t, [0x00]), status: 400, needle: PARSE },
    { name: 'anonymous (valid body)', json: t.valid, as: 'anon', status: 401, needle: 'Authentication credentials were not provided.' },
    { name: 'wrong API key (valid body)', json: t.valid, as: 'badkey', status: 401, needle: 'Bad API key' },
  ];
  return cases.map((k) => ({ ...base, ...k, name: `${t.label}: ${k.name}` }));
}

const plot = (c: Ctx, extra: Record<string, unknown> = {}, trace: Record<string, unknown> = {}) => ({
  figure: { data: [{ type: 'scatter', xsrc: c.src('x'), ysrc: c.src('y'), ...trace }] },
  ...extra,
});
const big = (n: number) => 'x'.repeat(n);

function plotCases(): Case[] {
  const post = (name: string, json: (c: Ctx) => unknown, status: number | number[], needle?: string | RegExp): Case => ({
    name: `POST /v2/plots: ${name}`,
    method: 'POST',
    path: () => '/v2/plots',
    json,
    status,
    needle,
  });
  const srcCase = (name: string, src: (c: Ctx) => unknown, needle = 'figure.data[0].ysrc') =>
    post(`ysrc ${name}`, (c) => ({ figure: { data: [{ type: 'scatter', xsrc: c.src('x'), ysrc: src(c) }] } }), 400, needle);
  return [
    post('{} (no figure)', () => ({}), 400, 'figure: This field is required.'),
    post('only a filename', () => ({ filename: 'no figure' }), 400, 'figure'),
    post('figure a string', () => ({ figure: '{"data":[]}' }), 400, 'figure'),
    post('figure an array', () => ({ figure: [] }), 400, 'figure'),
    post('figure null', () => ({ figure: null }), 400, 'figure'),
    post('figure a number', () => ({ figure: 7 }), 400, 'figure'),
    post('figure without data', () => ({ figure: { layout: {} } }), 400, 'figure.data'),
    post('figure.data an object', () => ({ figure: { data: {} } }), 400, 'figure.data'),
    post('figure.data a string', () => ({ figure: { data: 'scatter' } }), 400, 'figure.data'),
    post('figure.data [1]', () => ({ figure: { data: [1] } }), 400, 'figure.data[0]'),
    post('figure.data [null]', () => ({ figure: { data: [null] } }), 400, 'figure.data[0]'),
    post('figure.data [[]]', () => ({ figure: { data: [[]] } }), 400, 'figure.data[0]'),
    post('figure.layout a string', () => ({ figure: { data: [], layout: 'wide' } }), 400, 'figure.layout'),
    post('figure.layout an array', () => ({ figure: { data: [], layout: [] } }), 400, 'figure.layout'),
    post('figure.frames an object', () => ({ figure: { data: [], frames: {} } }), 400, 'figure.frames'),
    post('figure.frames [1]', () => ({ figure: { data: [], frames: [1] } }), 400, 'figure.frames[0]'),
    post('figure.frames[0].data an object', () => ({ figure: { data: [], frames: [{ data: {} }] } }), 400, 'figure.frames[0].data'),
    post('raw y array', (c) => plot(c, {}, { ysrc: undefined, y: [1, 2, 3] }), 400, 'figure.data[0].y'),
    post('raw marker.color array', (c) => plot(c, {}, { marker: { color: ['red', 'blue'] } }), 400, 'figure.data[0].marker.color'),
    post(
      'raw data in a frame',
      (c) => ({ figure: { data: [{ type: 'scatter', xsrc: c.src('x') }], frames: [{ data: [{ type: 'scatter', y: [1, 2] }] }] } }),
      400,
      'figure.frames[0].data[0].y',
    ),
    post('typed array in y', () => ({ figure: { data: [{ type: 'scatter', y: { dtype: 'f8', bdata: 'AAAAAAAA8D8=' } }] } }), 400, 'figure.data[0].y'),
    post(
      'malformed typed array in y (bad base64)',
      () => ({ figure: { data: [{ type: 'scatter', y: { dtype: 'f8', bdata: '!!!!' } }] } }),
      400,
      'figure.data[0].y',
    ),
    post('1,001 traces', () => ({ figure: { data: Array.from({ length: 1001 }, () => ({ type: 'scatter' })) } }), 400, /1,?000/),
    post('filename a number', (c) => plot(c, { filename: 123 }), 400, 'filename'),
    post('filename null', (c) => plot(c, { filename: null }), 400, 'filename'),
    post('filename empty', (c) => plot(c, { filename: '' }), 400, 'filename'),
    post('filename blank', (c) => plot(c, { filename: '   ' }), 400, 'filename'),
    post('filename with a slash', (c) => plot(c, { filename: 'a/b' }), 400, 'filename'),
    post('filename of 5 MB', (c) => plot(c, { filename: big(5_000_000) }), 400, 'filename'),
    post('filename with a control character', (c) => plot(c, { filename: 'a\u0007b' }), 400, 'filename'),
    post('filename an HTML tag with a slash', (c) => plot(c, { filename: HTML }), 400, 'filename'),
    post('world_readable "yes"', (c) => plot(c, { world_readable: 'yes' }), 400, 'world_readable'),
    post('world_readable 1', (c) => plot(c, { world_readable: 1 }), 400, 'world_readable'),
    post('world_readable "true"', (c) => plot(c, { world_readable: 'true' }), 400, 'world_readable'),
    post('share_key_enabled "true"', (c) => plot(c, { share_key_enabled: 'true' }), 400, 'share_key_enabled'),
    post('share_key_enabled 0', (c) => plot(c, { share_key_enabled: 0 }), 400, 'share_key_enabled'),
    post('parent_path a number', (c) => plot(c, { parent_path: 5 }), 400, 'parent_path'),
    post('parent_path an array', (c) => plot(c, { parent_path: ['a'] }), 400, 'parent_path'),
    post('parent_path missing folder', (c) => plot(c, { parent_path: 'no/such/folder' }), 400, 'parent_path'),
    post('parent_path ../..', (c) => plot(c, { parent_path: '../..' }), 400, 'parent_path'),
    post('parent_path SQL', (c) => plot(c, { parent_path: SQL2 }), 400, 'parent_path'),
    post('parent_path HTML', (c) => plot(c, { parent_path: HTML }), 400, 'parent_path'),
    post('source_fid an object', (c) => plot(c, { source_fid: {} }), 400, 'source_fid'),
    post('source_fid a number', (c) => plot(c, { source_fid: 5 }), 400, 'source_fid'),
    post('source_fid SQL', (c) => plot(c, { source_fid: SQL1 }), 400, 'source_fid'),
    post('source_fid SQL drop', (c) => plot(c, { source_fid: SQL2 }), 400, 'source_fid'),
    post('source_fid HTML', (c) => plot(c, { source_fid: HTML }), 400, 'source_fid'),
    post("source_fid another user's private plot", (c) => plot(c, { source_fid: c.bobPlotFid }), 400, 'source_fid'),
    post('source_fid a missing plot', (c) => plot(c, { source_fid: `${c.alice.username}:99999` }), 400, 'source_fid'),
    post('source_fid a grid', (c) => plot(c, { source_fid: c.gridFid }), 400, 'source_fid'),
    post('title an array', (c) => plot(c, { title: ['a'] }), 400, 'title'),
    post('title a number', (c) => plot(c, { title: 1 }), 400, 'title'),
    post('title of 5 MB', (c) => plot(c, { title: big(5_000_000) }), 400, 'title'),
    post('caption an object', (c) => plot(c, { caption: {} }), 400, 'caption'),
    post('caption of 5 MB', (c) => plot(c, { caption: big(5_000_000) }), 400, 'caption'),
    srcCase('SQL', () => SQL1),
    srcCase('SQL drop', () => SQL2),
    srcCase('HTML', () => HTML),
    srcCase('with a SQL uid', (c) => `${c.gridFid}:${SQL1}`),
    srcCase('with a HTML uid', (c) => `${c.gridFid}:${HTML}`),
    srcCase('a number', () => 5),
    srcCase('an array', (c) => [c.src('y')]),
    srcCase('an object', () => ({ src: 'x' })),
    srcCase('empty', () => ''),
    srcCase('of 5 MB', () => big(5_000_000)),
    srcCase("on another user's private grid", (c) => c.bobGridSrc('x')),
    srcCase("on another user's private grid (several uids)", (c) => c.bobGridSrc('x', 'y')),
    srcCase('on a missing grid', (c) => `${c.alice.username}:99999:abcdef`),
    srcCase('on a missing column', (c) => `${c.gridFid}:ffffff`),
    srcCase('on a plot, not a grid', (c) => `${c.plotFid}:abcdef`),
    srcCase('with grid number 0', (c) => `${c.alice.username}:0:abcdef`),
    srcCase('with a huge grid number', (c) => `${c.alice.username}:99999999999999:abcdef`),
    srcCase('with a trailing comma', (c) => `${c.src('y')},`),
    srcCase('with ../ in the owner', (c) => `../${c.alice.username}:${c.gridN}:abcdef`),
    post(
      "marker.colorsrc on another user's private grid",
      (c) => plot(c, {}, { marker: { colorsrc: c.bobGridSrc('x') } }),
      400,
      'figure.data[0].marker.colorsrc',
    ),
    post(
      "frame src on another user's private grid",
      (c) => ({ figure: { data: [{ type: 'scatter', xsrc: c.src('x') }], frames: [{ data: [{ type: 'scatter', ysrc: c.bobGridSrc('y') }] }] } }),
      400,
      'figure.frames[0].data[0].ysrc',
    ),
    {
      name: 'POST /v2/plots: \\u0000 in a layout key',
      method: 'POST',
      path: () => '/v2/plots',
      raw: () => '{"figure":{"data":[],"layout":{"a\\u0000b":1}}}',
      status: 400,
      needle: PARSE,
    },
    {
      name: 'POST /v2/plots: lone surrogate in a trace key',
      method: 'POST',
      path: () => '/v2/plots',
      raw: () => '{"figure":{"data":[{"type":"scatter","\\udbff":1}]}}',
      status: 400,
      needle: PARSE,
    },
    {
      name: 'POST /v2/plots: nested __proto__ in layout',
      method: 'POST',
      path: () => '/v2/plots',
      raw: () => '{"figure":{"data":[],"layout":{"__proto__":{"isAdmin":true}}}}',
      status: 400,
      needle: PARSE,
    },
    {
      name: 'POST /v2/plots/ (trailing slash): figure a string',
      method: 'POST',
      path: () => '/v2/plots/',
      json: () => ({ figure: 'x' }),
      status: 400,
      needle: 'figure',
    },
  ];
}

function putCases(): Case[] {
  const put = (name: string, json: (c: Ctx) => unknown, status: number, needle?: string | RegExp, as: Who = 'alice', path?: (c: Ctx) => string): Case => ({
    name: `PUT /v2/plots/{fid}: ${name}`,
    method: 'PUT',
    path: path ?? ((c) => `/v2/plots/${c.plotFid}`),
    json,
    status,
    needle,
    as,
  });
  return [
    put('figure a string', () => ({ figure: 'x' }), 400, 'figure'),
    put('figure null', () => ({ figure: null }), 400, 'figure'),
    put('figure.data not an array', () => ({ figure: { data: {} } }), 400, 'figure.data'),
    put('raw y array', () => ({ figure: { data: [{ type: 'bar', y: [1, 2] }] } }), 400, 'figure.data[0].y'),
    put("ysrc on another user's private grid", (c) => ({ figure: { data: [{ type: 'bar', ysrc: c.bobGridSrc('y') }] } }), 400, 'figure.data[0].ysrc'),
    put('ysrc SQL', () => ({ figure: { data: [{ type: 'bar', ysrc: SQL2 }] } }), 400, 'figure.data[0].ysrc'),
    put('filename a number', () => ({ filename: 5 }), 400, 'filename'),
    put('filename empty', () => ({ filename: '' }), 400, 'filename'),
    put('filename of 5 MB', () => ({ filename: big(5_000_000) }), 400, 'filename'),
    put('world_readable "yes"', () => ({ world_readable: 'yes' }), 400, 'world_readable'),
    put('share_key_enabled "no"', () => ({ share_key_enabled: 'no' }), 400, 'share_key_enabled'),
    put('parent_path a number', () => ({ parent_path: 5 }), 400, 'parent_path'),
    put('parent_path SQL', () => ({ parent_path: SQL1 }), 400, 'parent_path'),
    put('source_fid an object', () => ({ source_fid: {} }), 400, 'source_fid'),
    put("source_fid another user's private plot", (c) => ({ source_fid: c.bobPlotFid }), 400, 'source_fid'),
    put('title an array', () => ({ title: [] }), 400, 'title'),
    put('caption a number', () => ({ caption: 5 }), 400, 'caption'),
    put('title of 5 MB', () => ({ title: big(5_000_000) }), 400, 'title'),
    put('by another user who can read it', () => ({ title: 'hijacked' }), 403, undefined, 'bob'),
    put(
      'by another user, on a private plot they cannot read',
      () => ({ title: 'hijacked' }),
      404,
      undefined,
      'alice',
      (c) => `/v2/plots/${c.bobPlotFid}`,
    ),
    put(
      'on a missing plot',
      () => ({ title: 'x' }),
      404,
      undefined,
      'alice',
      (c) => `/v2/plots/${c.alice.username}:99999`,
    ),
    put(
      'on a grid fid',
      () => ({ title: 'x' }),
      404,
      undefined,
      'alice',
      (c) => `/v2/plots/${c.gridFid}`,
    ),
  ];
}

function gridCases(): Case[] {
  const post = (name: string, json: (c: Ctx) => unknown, status: number | number[], needle?: string | RegExp): Case => ({
    name: `POST /v2/grids: ${name}`,
    method: 'POST',
    path: () => '/v2/grids',
    json,
    status,
    needle,
  });
  const col = (data: unknown, extra: Record<string, unknown> = {}) => ({ data: { cols: { a: { data, order: 0, ...extra } } } });
  const typed = (dtype: unknown, bdata: unknown, shape?: unknown) => col({ dtype, bdata, ...(shape !== undefined ? { shape } : {}) });
  const stringData = (name: string, text: string): Case => ({
    name: `POST /v2/grids: data as a JSON string, ${name}`,
    method: 'POST',
    path: () => '/v2/grids',
    json: () => ({ data: text }),
    status: 400,
  });
  return [
    post('{} (no data)', () => ({}), 400, 'data'),
    post('data null', () => ({ data: null }), 400, 'data'),
    post('data a number', () => ({ data: 5 }), 400, 'data'),
    post('data an array', () => ({ data: [[1, 2]] }), 400, 'data'),
    post('data {} (no cols)', () => ({ data: {} }), 400, 'data'),
    post('data.cols an array', () => ({ data: { cols: [{ data: [1] }] } }), 400, 'data.cols'),
    post('data.cols a string', () => ({ data: { cols: 'a,b' } }), 400, 'data.cols'),
    post('a column that is a string', () => ({ data: { cols: { a: 'x' } } }), 400, 'data.cols'),
    post('a column that is an array', () => ({ data: { cols: { a: [1, 2] } } }), 400, 'data.cols'),
    post('column data an object', () => col({}), 400, 'data.cols.a.data'),
    post('column data an object with only dtype', () => col({ dtype: 'f8' }), 400, 'data.cols.a.data'),
    post('order -1', () => col([1], { order: -1 }), 400, 'order'),
    post('order 1.5', () => col([1], { order: 1.5 }), 400, 'order'),
    post('order "0"', () => col([1], { order: '0' }), 400, 'order'),
    post('empty column name', () => ({ data: { cols: { '': { data: [1], order: 0 } } } }), 400, 'data.cols'),
    post('column name of 2,000 characters', () => ({ data: { cols: { [big(2000)]: { data: [1], order: 0 } } } }), 400, 'data.cols'),
    post('filename a number', () => ({ ...col([1]), filename: 5 }), 400, 'filename'),
    post('filename empty', () => ({ ...col([1]), filename: '' }), 400, 'filename'),
    post('filename of 5 MB', () => ({ ...col([1]), filename: big(5_000_000) }), 400, 'filename'),
    post('filename an HTML tag with a slash', () => ({ ...col([1]), filename: HTML }), 400, 'filename'),
    post('world_readable "yes"', () => ({ ...col([1]), world_readable: 'yes' }), 400, 'world_readable'),
    post('parent_path a number', () => ({ ...col([1]), parent_path: 5 }), 400, 'parent_path'),
    post('parent_path missing folder', () => ({ ...col([1]), parent_path: 'nope/nope' }), 400, 'parent_path'),
    post('parent_path SQL', () => ({ ...col([1]), parent_path: SQL2 }), 400, 'parent_path'),
    post('parent_path ..', () => ({ ...col([1]), parent_path: '..' }), 400, 'parent_path'),
    post('typed array with bad base64', () => typed('f8', '!!!!!!!!'), 400, 'data.cols.a.data'),
    post('typed array with base64 junk inside', () => typed('f8', 'AAAA AAAA*AAA8D8='), 400, 'data.cols.a.data'),
    post('typed array f8 with 3 bytes', () => typed('f8', 'AAAA'), 400, 'data.cols.a.data'),
    post('typed array with an unknown dtype', () => typed('f16', 'AAAAAAAAAAA='), 400, 'data.cols.a.data'),
    post('typed array with dtype "constructor"', () => typed('constructor', 'AAAAAAAAAAA='), 400, 'data.cols.a.data'),
    post('typed array with dtype "toString"', () => typed('toString', 'AAAAAAAAAAA='), 400, 'data.cols.a.data'),
    post('typed array with bdata a number', () => typed('f8', 12345678), 400, 'data.cols.a.data'),
    post('typed array with dtype a number', () => typed(8, 'AAAAAAAA8D8='), 400, 'data.cols.a.data'),
    post('typed array whose shape does not match', () => typed('i4', 'AQAAAAIAAAA=', '3,4'), 400, 'data.cols.a.data'),
    post('typed array with a negative shape', () => typed('i4', 'AQAAAAIAAAA=', '-2'), 400, 'data.cols.a.data'),
    post('a column of 10,000,001 values', () => col(new Array(10_000_001).fill(0)), 400, /10,?000,?000/),
    stringData('truncated', '{"cols":{"a":{"data":[1'),
    stringData('nested 101 levels', `{"cols":{"a":{"order":0,"data":${arrays(98)}}}}`),
    stringData('with __proto__', '{"cols":{"__proto__":{"data":[1],"order":0}}}'),
    stringData('with constructor.prototype', '{"cols":{"a":{"data":[1],"order":0}},"constructor":{"prototype":{"x":1}}}'),
    stringData('with \\u0000', '{"cols":{"a":{"data":["\\u0000"],"order":0}}}'),
    stringData('with a lone surrogate', '{"cols":{"a":{"data":["\\ud800"],"order":0}}}'),
    stringData('empty', ''),
    stringData('"null"', 'null'),
    stringData('a number', '5'),
    stringData('SQL', SQL2),
    {
      name: 'POST /v2/grids: \\u0000 in a column name',
      method: 'POST',
      path: () => '/v2/grids',
      raw: () => '{"data":{"cols":{"a\\u0000":{"data":[1],"order":0}}}}',
      status: 400,
      needle: PARSE,
    },
    {
      name: 'POST /v2/grids: a lone surrogate in a repeated column name',
      method: 'POST',
      path: () => '/v2/grids',
      raw: () => '{"data":{"cols":{"\\ud800":{"data":[1],"order":0},"\\ud800":{"data":[2],"order":1}}}}',
      status: 400,
      needle: PARSE,
    },
    {
      name: 'POST /v2/grids: a repeated __proto__ column',
      method: 'POST',
      path: () => '/v2/grids',
      raw: () => '{"data":{"cols":{"__proto__":{"data":[1],"order":0},"__proto__":{"data":[2],"order":1}}}}',
      status: 400,
    },
  ];
}

function folderCases(): Case[] {
  const post = (name: string, json: (c: Ctx) => unknown, status: number | number[], needle?: string | RegExp): Case => ({
    name: `POST /v2/folders: ${name}`,
    method: 'POST',
    path: () => '/v2/folders',
    json,
    status,
    needle,
  });
  return [
    post('{} (no path)', () => ({}), 400, 'path'),
    post('path null', () => ({ path: null }), 400, 'path'),
    post('path a number', () => ({ path: 5 }), 400, 'path'),
    post('path an array', () => ({ path: ['a', 'b'] }), 400, 'path'),
    post('path an object', () => ({ path: { a: 1 } }), 400, 'path'),
    post('path empty', () => ({ path: '' }), 400, 'path'),
    post('path "/"', () => ({ path: '/' }), 400, 'path'),
    post('path "../x"', () => ({ path: '../x' }), 400, 'path'),
    post('path "a/../b"', () => ({ path: 'a/../b' }), 400, 'path'),
    post('path "."', () => ({ path: '.' }), 400, 'path'),
    post('path with a control character', () => ({ path: 'a\u0001b' }), 400, 'path'),
    post('path of 1,025 characters', () => ({ path: big(1025) }), 400, 'path'),
    post('path of 21 levels', () => ({ path: Array.from({ length: 21 }, (_, i) => `l${i}`).join('/') }), 400, 'path'),
    post('a folder name of 256 characters', () => ({ path: big(256) }), 400, 'path'),
    post('path of 5 MB', () => ({ path: big(5_000_000) }), [400, 413]),
    post('an existing folder', () => ({ path: 'existing' }), 400, 'already exists'),
    post('an existing folder with slashes around', () => ({ path: '/existing/' }), 400, 'already exists'),
    post('the name of an existing plot', () => ({ path: 'hostile plot' }), 400, 'already exists'),
  ];
}

function queryCases(): Case[] {
  const get = (path: (c: Ctx) => string, status: number | number[], needle?: string | RegExp, as: Who = 'anon', name?: string): Case => ({
    name: `GET ${name ?? path({ alice: { username: '{owner}' }, plotFid: '{plot}' } as unknown as Ctx)}${as === 'anon' ? '' : ` as ${as}`}`,
    method: 'GET',
    path,
    status,
    needle,
    as,
  });
  const q = encodeURIComponent;
  const tamper = (cursor: string) => {
    const [payload, mac] = cursor.split('.');
    const value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    value.k = value.k.map((k: unknown) => (typeof k === 'number' ? k + 1 : k));
    return `${Buffer.from(JSON.stringify(value)).toString('base64url')}.${mac}`;
  };
  const unsigned = (cursor: string) => cursor.split('.')[0];
  const forged = Buffer.from(JSON.stringify({ o: '-creation_time', d: 'n', k: ["2020-01-01T00:00:00.000000Z'; DROP TABLE files; --", 1] })).toString(
    'base64url',
  );
  return [
    get(() => '/v2/plots?order_by=title', 400, 'order_by'),
    get(() => '/v2/plots?order_by=creation_time', 400, 'order_by'),
    get(() => '/v2/plots?order_by=', 400, 'order_by'),
    get(() => `/v2/plots?order_by=${q(SQL1)}`, 400, 'order_by'),
    get(() => `/v2/plots?order_by=${q('views; DROP TABLE files')}`, 400, 'order_by'),
    get(() => `/v2/plots?order_by=${q(HTML)}`, 400, 'order_by'),
    get(() => '/v2/plots?min_quality=abc', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=1.5', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=1e3', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=0x10', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=%201', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=99999999999999999999', 400, 'min_quality'),
    get(() => '/v2/plots?min_quality=NaN', 400, 'min_quality'),
    get(() => `/v2/plots?min_quality=${q(SQL1)}`, 400, 'min_quality'),
    get(() => `/v2/plots?max_quality=${q('1; DROP TABLE files')}`, 400, 'max_quality'),
    get(() => `/v2/plots?max_quality=${q(HTML)}`, 400, 'max_quality'),
    get(() => '/v2/plots?max_quality=true', 400, 'max_quality'),
    get(() => '/v2/plots?page_size=0', 400, 'page_size'),
    get(() => '/v2/plots?page_size=101', 400, 'page_size'),
    get(() => '/v2/plots?page_size=-1', 400, 'page_size'),
    get(() => '/v2/plots?page_size=2.5', 400, 'page_size'),
    get(() => '/v2/plots?page_size=abc', 400, 'page_size'),
    get(() => '/v2/plots?cursor=abc', 400, 'cursor'),
    get(() => '/v2/plots?cursor=a.b', 400, 'cursor'),
    get(() => '/v2/plots?cursor=a.b.c', 400, 'cursor'),
    get(() => `/v2/plots?cursor=${q(SQL1)}`, 400, 'cursor'),
    get(() => `/v2/plots?cursor=${q(HTML)}`, 400, 'cursor'),
    get(() => `/v2/plots?cursor=${'A'.repeat(600)}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<600 characters>'),
    get(() => `/v2/plots?cursor=${forged}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<forged payload with SQL, no signature>'),
    get(() => `/v2/plots?cursor=${forged}.AAAAAAAAAAAAAAAAAAAAAA`, 400, 'cursor', 'anon', '/v2/plots?cursor=<forged payload, zero signature>'),
    get((c) => `/v2/plots?cursor=${c.listCursor.slice(0, -1)}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<issued cursor minus its last character>'),
    get((c) => `/v2/plots?cursor=${c.listCursor.slice(0, 10)}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<first 10 characters of an issued cursor>'),
    get((c) => `/v2/plots?cursor=${unsigned(c.listCursor)}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<issued payload without its signature>'),
    get((c) => `/v2/plots?cursor=${tamper(c.listCursor)}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<issued cursor with a tampered key>'),
    get(
      (c) => `/v2/plots?order_by=-views&cursor=${c.listCursor}`,
      400,
      'cursor',
      'anon',
      '/v2/plots?order_by=-views&cursor=<cursor issued for the default order>',
    ),
    get((c) => `/v2/plots?cursor=${c.viewsCursor}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<cursor issued for order_by=-views>'),
    get((c) => `/v2/plots?cursor=${c.feedCursor}`, 400, 'cursor', 'anon', '/v2/plots?cursor=<cursor issued by the feed>'),
    get(() => '/v2/plots/feed?page_size=0', 400, 'page_size'),
    get(() => '/v2/plots/feed?page_size=1000', 400, 'page_size'),
    get(() => '/v2/plots/feed?cursor=abc', 400, 'cursor'),
    get(() => `/v2/plots/feed?cursor=${q(SQL2)}`, 400, 'cursor'),
    get((c) => `/v2/plots/feed?cursor=${c.listCursor}`, 400, 'cursor', 'anon', '/v2/plots/feed?cursor=<cursor issued by the list>'),
    get((c) => `/v2/plots/feed?cursor=${c.feedCursor.slice(0, -2)}`, 400, 'cursor', 'anon', '/v2/plots/feed?cursor=<issued feed cursor, truncated>'),
    get((c) => `/v2/plots/feed?cursor=${tamper(c.feedCursor)}`, 400, 'cursor', 'anon', '/v2/plots/feed?cursor=<issued feed cursor with a tampered key>'),
    get((c) => `/v2/plots/${c.plotFid}/content?inline_data=yes`, 400, 'inline_data'),
    get((c) => `/v2/plots/${c.plotFid}/content?inline_data=${q(SQL1)}`, 400, 'inline_data'),
    get((c) => `/v2/plots/${c.plotFid}/content?map_data=all`, 400, 'map_data'),
    get((c) => `/v2/plots/${c.plotFid}/content?map_data=${q(HTML)}`, 400, 'map_data'),
    get(
      (c) => `/v2/plots/${c.plotFid}/content?share_key=${'k'.repeat(300)}`,
      [400, 404],
      undefined,
      'anon',
      '/v2/plots/{plot}/content?share_key=<300 characters>',
    ),
    get(() => '/v2/files/lookup', 400, 'path'),
    get(() => '/v2/files/lookup?path=..%2Fx', [400, 404]),
    get(() => '/v2/files/lookup?path=a%00b', [400, 404]),
    get(() => `/v2/files/lookup?path=${big(1100)}`, [400, 404], undefined, 'anon', '/v2/files/lookup?path=<1,100 characters>'),
    get(() => `/v2/files/lookup?path=x&user=${q(SQL1)}`, [400, 404]),
    get(() => `/v2/files/lookup?path=x&user=${q(HTML)}`, [400, 404]),
    get(() => `/v2/files/lookup?path=x&user=${big(60)}`, [400, 404], undefined, 'anon', '/v2/files/lookup?path=x&user=<60 characters>'),
    get((c) => `/v2/files/lookup?path=${q(SQL1)}&user=${c.alice.username}`, 404),
    get((c) => `/v2/files/lookup?path=${q(HTML)}&user=${c.alice.username}`, 404),
    get(() => `/v2/files/lookup?path=${q(SQL2)}`, 404, undefined, 'alice'),
    get(() => `/v2/folders/home?user=${q(SQL1)}`, [400, 404]),
    get(() => `/v2/folders/home?user=${q(HTML)}`, [400, 404]),
  ];
}

/** Fids that are not `owner:n`, aimed at decoys so that a wrong decoding hits nothing that matters. */
function fidCases(): Case[] {
  const q = encodeURIComponent;
  const forms: [string, (c: Ctx, n: number) => string][] = [
    ['owner:..', (c) => `${c.alice.username}:..`],
    ['../../etc/passwd encoded', () => '..%2F..%2Fetc%2Fpasswd'],
    ['a trailing %00', (c, n) => `${c.alice.username}:${n}%00`],
    ['%2F for the colon', (c, n) => `${c.alice.username}%2F${n}`],
    ['a trailing %2F..', (c, n) => `${c.alice.username}:${n}%2F..`],
    ['a double-encoded colon %253A', (c, n) => `${c.alice.username}%253A${n}`],
    ['a 10,000-character owner', () => `${'a'.repeat(10_000)}:1`],
    ['a 5,000-digit number', (c) => `${c.alice.username}:${'9'.repeat(5000)}`],
    ['SQL', () => `${q(SQL1)}:1`],
    ['SQL drop', () => q(SQL2)],
    ['HTML', () => q(HTML)],
    ['number 0', (c) => `${c.alice.username}:0`],
    ['number -1', (c) => `${c.alice.username}:-1`],
    ['number 1e3', (c) => `${c.alice.username}:1e3`],
    ['a leading zero', (c, n) => `${c.alice.username}:0${n}`],
    ['a lone %', () => '%'],
    ['an invalid escape %ff', (c, n) => `${c.alice.username}:${n}%ff`],
  ];
  const endpoints: [string, string, 'plot' | 'grid', (fid: string) => string, unknown?][] = [
    ['GET', 'plot detail', 'plot', (f) => `/v2/plots/${f}`],
    ['GET', 'plot content', 'plot', (f) => `/v2/plots/${f}/content`],
    ['GET', 'grid detail', 'grid', (f) => `/v2/grids/${f}`],
    ['GET', 'grid content', 'grid', (f) => `/v2/grids/${f}/content`],
    ['GET', 'file detail', 'plot', (f) => `/v2/files/${f}`],
    ['GET', 'folder detail', 'plot', (f) => `/v2/folders/${f}`],
    ['PUT', 'plot update', 'plot', (f) => `/v2/plots/${f}`, { title: 'hijacked by a fid trick' }],
    ['DELETE', 'grid delete', 'grid', (f) => `/v2/grids/${f}`],
    ['POST', 'plot trash', 'plot', (f) => `/v2/plots/${f}/trash`],
  ];
  const out: Case[] = [];
  for (const [method, label, kind, path, body] of endpoints) {
    for (const [form, fid] of forms) {
      const malformedEscape = form.includes('%') && (form.startsWith('a lone') || form.startsWith('an invalid'));
      out.push({
        name: `${method} ${label} with a fid of ${form}`,
        method,
        path: (c) => path(fid(c, kind === 'grid' ? c.decoyGridN : c.decoyPlotN)),
        json: body === undefined ? undefined : () => body,
        // A malformed fid is the 404 of a missing one; a URL that cannot be decoded may be a 400.
        status: malformedEscape ? [400, 404] : 404,
      });
    }
  }
  return out;
}

function otherCases(): Case[] {
  const m = (method: string, path: string, allow?: string): Case => ({
    name: `${method} ${path} (not allowed)`,
    method,
    path: () => path,
    json: method === 'GET' ? undefined : () => ({ figure: { data: [] } }),
    status: 405,
    allow,
  });
  const page = (name: string, path: (c: Ctx) => string): Case => ({ name: `page ${name}`, method: 'GET', path, status: [400, 404], page: true, as: 'anon' });
  return [
    m('PATCH', '/v2/plots', 'GET, POST, HEAD, OPTIONS'),
    m('DELETE', '/v2/plots', 'GET, POST, HEAD, OPTIONS'),
    m('PUT', '/v2/plots', 'GET, POST, HEAD, OPTIONS'),
    m('POST', '/v2/plots/feed'),
    m('PUT', '/v2/grids'),
    m('GET', '/v2/folders'),
    m('POST', '/v2/files/lookup'),
    page('/~owner/% (undecodable)', (c) => `/~${c.alice.username}/%`),
    page('/~%/1/ (undecodable owner)', () => '/~%/1/'),
    page('/~%ff/1.embed (invalid escape in the owner)', () => '/~%ff/1.embed'),
    page('/~owner/n%00/', (c) => `/~${c.alice.username}/${c.plotN}%00/`),
    page('/~owner/<5,000 digits>/', (c) => `/~${c.alice.username}/${'9'.repeat(5000)}/`),
    page('/~<script>/1/', () => `/~${encodeURIComponent(HTML)}/1/`),
    page("/~' OR 1=1 --/1.png", () => `/~${encodeURIComponent(SQL1)}/1.png`),
    page('/~owner/0.json', (c) => `/~${c.alice.username}/0.json`),
  ];
}

/** What issue "nothing one request can break" found: amplification, values JSON cannot carry, oversized figures, verbs on others' grids. */
function budgetCases(): Case[] {
  const post = (path: (c: Ctx) => string, name: string, raw: (c: Ctx) => string, status: number, needle?: string | RegExp, as: Who = 'alice'): Case => ({
    name: `POST ${name}`,
    method: 'POST',
    path,
    as,
    raw,
    status,
    needle,
  });
  const uid = (c: Ctx) => c.src('y').split(':')[2];
  const plots = () => '/v2/plots';
  return [
    post(
      plots,
      '/v2/plots: a src naming one column 1,000 times',
      (c) => JSON.stringify({ figure: { data: [{ type: 'scatter', ysrc: `${c.gridFid}:${Array(1000).fill(uid(c)).join(',')}` }] } }),
      400,
      'more than once',
    ),
    post(
      plots,
      '/v2/plots: a src naming one column twice among others',
      (c) => JSON.stringify({ figure: { data: [{ type: 'scatter', ysrc: `${c.src('x', 'y')},${uid(c)}` }] } }),
      400,
      'more than once',
    ),
    post(
      plots,
      '/v2/plots: a layout over 1 MiB',
      () => JSON.stringify({ figure: { data: [], layout: { meta: 'x'.repeat(1_100_000) } } }),
      400,
      'at most 1 MiB',
    ),
    post(plots, '/v2/plots: 1e400 in the layout', () => '{"figure": {"data": [], "layout": {"width": 1e400}}}', 400, 'figure.layout.width'),
    post(
      () => '/v2/grids',
      '/v2/grids: 1e400 in a column',
      () => '{"data": {"cols": {"a": {"data": [1, 1e400], "order": 0}}}}',
      400,
      'data.cols.a.data[1]',
    ),
    post(
      () => '/v2/grids',
      '/v2/grids: -1e400 in a column given as a string',
      () => JSON.stringify({ data: '{"cols": {"a": {"data": [-1e400], "order": 0}}}' }),
      400,
      'data.cols.a.data[0]',
    ),
    post(
      (c) => `/v2/grids/${c.gridFid}/row`,
      '/v2/grids/{fid}/row: 1e400 in a row',
      () => '{"rows": [[1, 1e400]]}',
      400,
      'rows[0][1]',
    ),
    // Cells of many bytes: one text value over the cap, however it arrives (plain, nested, as a string, appended, replaced).
    post(
      () => '/v2/grids',
      '/v2/grids: a 5 MiB text cell',
      () => JSON.stringify({ data: { cols: { a: { data: [1, 'x'.repeat(5 * 2 ** 20)], order: 0 } } } }),
      400,
      'data.cols.a.data[1]',
    ),
    post(
      () => '/v2/grids',
      '/v2/grids: a cell just over 64 KiB of multi-byte text',
      () => JSON.stringify({ data: { cols: { a: { data: ['é'.repeat(32 * 1024 + 1)], order: 0 } } } }),
      400,
      '64 KiB',
    ),
    post(
      () => '/v2/grids',
      '/v2/grids: a long text inside a nested value',
      () => JSON.stringify({ data: { cols: { a: { data: [[1, ['x'.repeat(70_000)]]], order: 0 } } } }),
      400,
      'data.cols.a.data[0]',
    ),
    post(
      () => '/v2/grids',
      '/v2/grids: a long cell in data given as a string',
      () => JSON.stringify({ data: JSON.stringify({ cols: { a: { data: ['x'.repeat(70_000)], order: 0 } } }) }),
      400,
      'data.cols.a.data[0]',
    ),
    post(
      (c) => `/v2/grids/${c.gridFid}/row`,
      '/v2/grids/{fid}/row: a long cell in a row',
      () =>
        JSON.stringify({
          rows: [
            [1, 2],
            [3, 'x'.repeat(70_000)],
          ],
        }),
      400,
      'rows[1][1]',
    ),
    post(
      (c) => `/v2/grids/${c.gridFid}/col`,
      "/v2/grids/{fid}/col: columns appended to another's grid",
      () => JSON.stringify({ cols: '[{"name": "z", "data": [1]}]' }),
      403,
      undefined,
      'bob',
    ),
    post(
      (c) => `/v2/grids/${c.bobGridFid}/col`,
      "/v2/grids/{fid}/col: columns appended to another's private grid",
      () => JSON.stringify({ cols: '[{"name": "z", "data": [1]}]' }),
      404,
    ),
    post(
      (c) => `/v2/files/${c.bobPlotFid}/restore`,
      "/v2/files/{fid}/restore: another's private plot",
      () => '{}',
      404,
    ),
  ];
}

/** Stars and comments (docs/api.md "People"): bad text, others' private plots, unknown ids, bad orders. */
function peopleCases(): Case[] {
  const comments = (c: Ctx) => `/v2/plots/${c.plotFid}/comments`;
  const comment = (name: string, json: (c: Ctx) => unknown, needle: string | RegExp = 'text'): Case => ({
    name: `POST /v2/plots/{fid}/comments: ${name}`,
    method: 'POST',
    path: comments,
    json,
    status: 400,
    needle,
  });
  return [
    comment('{} (no text)', () => ({}), 'text: This field is required.'),
    comment('empty text', () => ({ text: '' }), 'text: A comment cannot be empty.'),
    comment('only white space', () => ({ text: ' \n\t\r\n ' }), 'text: A comment cannot be empty.'),
    comment('5,001 characters', () => ({ text: big(5001) }), 'text: A comment can be at most 5,000 characters.'),
    comment('text a number', () => ({ text: 42 })),
    comment('text null', () => ({ text: null })),
    comment('text an array', () => ({ text: ['a'] })),
    comment('text an object', () => ({ text: { html: HTML } })),
    comment('a control character', () => ({ text: 'bell \u0007' }), 'control characters'),
    {
      name: "POST comments on another's private plot",
      method: 'POST',
      path: (c) => `/v2/plots/${c.bobPlotFid}/comments`,
      json: () => ({ text: HTML }),
      status: 404,
    },
    { name: 'POST comments on a grid', method: 'POST', path: (c) => `/v2/plots/${c.gridFid}/comments`, json: () => ({ text: SQL1 }), status: 404 },
    { name: 'GET comments of a private plot', method: 'GET', path: (c) => `/v2/plots/${c.bobPlotFid}/comments`, status: 404 },
    {
      name: 'GET comments with a forged cursor',
      method: 'GET',
      path: (c) => `${comments(c)}?cursor=${encodeURIComponent(c.listCursor)}`,
      status: 400,
      needle: 'cursor',
    },
    { name: 'GET comments page_size 0', method: 'GET', path: (c) => `${comments(c)}?page_size=0`, status: 400, needle: 'page_size' },
    ...['999999999', '0', 'abc', '1%00', SQL1, '99999999999999999999'].flatMap((id): Case[] => [
      { name: `PATCH comment ${id}`, method: 'PATCH', path: (c) => `${comments(c)}/${encodeURIComponent(id)}`, json: () => ({ text: 'x' }), status: 404 },
      { name: `DELETE comment ${id}`, method: 'DELETE', path: (c) => `${comments(c)}/${encodeURIComponent(id)}`, status: 404 },
    ]),
    { name: 'PATCH a comment anonymously', method: 'PATCH', path: (c) => `${comments(c)}/1`, json: () => ({ text: 'x' }), as: 'anon', status: 401 },
    { name: "POST a star on another's private plot", method: 'POST', path: (c) => `/v2/files/${c.bobPlotFid}/stars`, status: 404 },
    { name: 'POST a star on a grid', method: 'POST', path: (c) => `/v2/files/${c.gridFid}/stars`, status: 404 },
    {
      name: 'POST a star anonymously',
      method: 'POST',
      path: (c) => `/v2/files/${c.plotFid}/stars`,
      as: 'anon',
      status: 401,
      needle: 'Authentication credentials',
    },
    { name: 'DELETE a star with a wrong key', method: 'DELETE', path: (c) => `/v2/files/${c.plotFid}/stars`, as: 'badkey', status: 401, needle: 'Bad API key' },
    { name: 'PUT stars', method: 'PUT', path: (c) => `/v2/files/${c.plotFid}/stars`, status: 405, allow: 'GET, POST, DELETE, HEAD, OPTIONS' },
    { name: 'order_by=-star', method: 'GET', path: () => '/v2/plots?order_by=-star', status: 400, needle: 'order_by' },
    { name: 'order_by with SQL', method: 'GET', path: () => `/v2/plots?order_by=${encodeURIComponent(`-stars${SQL1}`)}`, status: 400, needle: 'order_by' },
    {
      name: 'a views cursor on order_by=-stars',
      method: 'GET',
      path: (c) => `/v2/plots?order_by=-stars&cursor=${encodeURIComponent(c.viewsCursor)}`,
      status: 400,
      needle: 'cursor',
    },
    {
      name: 'PATCH comments_enabled a string',
      method: 'PATCH',
      path: (c) => `/v2/plots/${c.plotFid}`,
      json: () => ({ comments_enabled: 'false' }),
      status: 400,
      needle: 'comments_enabled',
    },
    {
      name: "PATCH comments_enabled on another's plot",
      method: 'PATCH',
      path: (c) => `/v2/plots/${c.plotFid}`,
      as: 'bob',
      json: () => ({ comments_enabled: false }),
      status: 403,
    },
  ];
}

export const CORPUS: Case[] = [
  ...TARGETS.flatMap(genericCases),
  ...budgetCases(),
  ...plotCases(),
  ...putCases(),
  ...gridCases(),
  ...folderCases(),
  ...queryCases(),
  ...fidCases(),
  ...otherCases(),
  ...peopleCases(),
];

// ---------------------------------------------------------------------------------------------
// Sign-in redirects (issue 22, point 7): `next` values of /signin that a browser would follow off the
// site, by class: dot segments (plain and %-encoded) that climb to `//`, backslashes, encoded slashes
// and backslashes (once or twice), tabs and line breaks the URL parser drops, scheme-relative and
// absolute URLs, and a long value. Each must be refused: the sign-in goes to the person's profile.
// Run by tests/hardening/sign-in-abuse.test.ts, tests/unit/safe-next.test.ts and e2e/accounts.spec.ts.

export const HOSTILE_NEXT: string[] = [
  '/..//evil.example/phish',
  '/./..//evil.example/phish',
  '/a/../..//evil.example/phish',
  '/a/b/../../..//evil.example/phish',
  '/.//evil.example/phish',
  '/%2e%2e//evil.example/phish',
  '/%2E%2E//evil.example/phish',
  '/.%2e//evil.example/phish',
  '/%2e.//evil.example/phish',
  '/a/%2e%2e/%2E%2e//evil.example/phish',
  '/%252e%252e//evil.example/phish',
  '/\\evil.example/phish',
  '/\\/evil.example/phish',
  '/\\\\evil.example/phish',
  '/..\\/evil.example/phish',
  '/%5c%5cevil.example/phish',
  '/%5C%5Cevil.example/phish?',
  '/%5c/evil.example/phish',
  '/%255c%255cevil.example/phish',
  '/%2f%2fevil.example/phish',
  '/%2F/evil.example/phish',
  '/..%2f/evil.example/phish',
  '/%2e%2e%2f/evil.example/phish',
  '/%252f%252fevil.example/phish',
  '/\t/evil.example/phish',
  '/\n/evil.example/phish',
  '/\r\n/evil.example/phish',
  '/\t\\evil.example/phish',
  '/%09/evil.example/phish',
  '/%0d%0a/evil.example/phish',
  '//evil.example/phish',
  '///evil.example/phish',
  '////evil.example/phish',
  '/\\t/evil.example',
  '\\/evil.example/phish',
  ' //evil.example/phish',
  '\t//evil.example/phish',
  'http://evil.example/phish',
  'https:evil.example/phish',
  'HTTPS://evil.example/phish',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  `/${'a'.repeat(5000)}`,
];
