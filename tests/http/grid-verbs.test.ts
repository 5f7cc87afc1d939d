// The grid verbs over HTTP on both databases (docs/api.md "Endpoints" and "Grids", docs/limits.md): columns
// appended, read, replaced and deleted, rows appended, metadata, trash, in the exact shapes the
// official Python and R clients send; every bad input a 4xx that changes nothing; permissions; and
// plots on a changed column showing its new data (content, ETag, a new image).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, RENDER_WAIT_MS, type Answer, type TestUser } from '../support/api';
import { servers } from '../support/servers';

const UID = /^[0-9a-f]{6}$/;
const b64 = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
/** What Python's `json.dumps` writes (", " and ": " separators). */
const pyDumps = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(pyDumps).join(', ')}]`
    : value && typeof value === 'object'
      ? `{${Object.entries(value)
          .map(([k, v]) => `${JSON.stringify(k)}: ${pyDumps(v)}`)
          .join(', ')}}`
      : JSON.stringify(value);
const JSON_HEADERS = { 'Content-Type': 'application/json' };

describe.each(servers())('grid verbs on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await s.newUser('gv');
    bob = await s.newUser('gvother');
  });

  /** A grid of alice's; `src(name)` gives a src reference to a column. */
  const grid = (cols: Record<string, unknown[]> = { x: [1, 2, 3], y: [4, 5, 6] }, extra: Record<string, unknown> = {}) => s.uploadGrid(alice, cols, extra);
  const uidsOf = (answer: Answer) => (answer.json.cols as { uid: string }[]).map((c) => c.uid).join(',');

  /** Everything a caller can read of a grid: its record and its content. */
  async function readBack(fid: string) {
    const record = await s.call('GET', `/v2/grids/${fid}`, { user: alice });
    const content = await s.call('GET', `/v2/grids/${fid}/content`, { user: alice });
    expect(record.status).toBe(200);
    expect(content.status).toBe(200);
    return { record: record.json, content: content.json };
  }

  /** The columns' data in column order (names with data). */
  async function columns(fid: string): Promise<[string, unknown][]> {
    const { content } = await readBack(fid);
    return Object.entries(content.cols as Record<string, { data: unknown; order: number }>)
      .sort((a, b) => a[1].order - b[1].order)
      .map(([name, c]) => [name, c.data]);
  }

  describe('POST /v2/grids/{fid}/col', () => {
    it("Python's append_columns (cols as a json.dumps string): 201 with the new columns only, in the order sent, after the existing ones", async () => {
      const g = await grid({ time: [1, 2, 3] });
      const raw = pyDumps({
        cols: pyDumps([
          { name: 'voltage', data: [4, 2, 5] },
          { name: 'current', data: [0.5, 0.25, 1] },
        ]),
      });
      expect(raw).toContain('"cols": "[{\\"name\\": \\"voltage\\", \\"data\\": [4, 2, 5]}');
      const res = await s.call('POST', `/v2/grids/${g.fid}/col`, { user: alice, raw, headers: JSON_HEADERS });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json.cols.map((c: { name: string }) => c.name)).toEqual(['voltage', 'current']);
      for (const col of res.json.cols) {
        expect(Object.keys(col).sort()).toEqual(['name', 'uid']);
        expect(col.uid).toMatch(UID);
      }
      expect(await columns(g.fid)).toEqual([
        ['time', [1, 2, 3]],
        ['voltage', [4, 2, 5]],
        ['current', [0.5, 0.25, 1]],
      ]);
      const { record } = await readBack(g.fid);
      expect(record.cols).toEqual([g.file.cols[0], ...res.json.cols]);
      // The new columns are src-able at once.
      const plot = await s.createPlot(alice, { figure: { data: [{ type: 'scatter', xsrc: g.src('time'), ysrc: `${g.fid}:${res.json.cols[0].uid}` }] } });
      const content = await s.call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`);
      expect(content.json.data[0]).toMatchObject({ x: [1, 2, 3], y: [4, 2, 5] });
    });

    it("R's overwrite (to_JSON of a string of unboxed columns named {name}-{id}): the answer's cols by position", async () => {
      const g = await grid({ x: [1, 2], y: [3, 4] });
      // jsonlite with auto_unbox: no spaces, and a length-1 vector is a scalar.
      const colString = JSON.stringify([
        { name: 'y-3f9a2cb01d7e', data: [30, 40] },
        { name: 'x-77ab01c2d3e4', data: 7 },
        { name: 'marker.color-a1b2c3d4e5f6', data: ['red', 'blue'] },
      ]);
      const res = await s.call('POST', `/v2/grids/${g.fid}/col`, { user: alice, raw: JSON.stringify({ cols: colString }), headers: JSON_HEADERS });
      expect(res.status, res.text).toBe(201);
      expect(res.json.cols.map((c: { name: string }) => c.name)).toEqual(['y-3f9a2cb01d7e', 'x-77ab01c2d3e4', 'marker.color-a1b2c3d4e5f6']);
      const got = await s.call('GET', `/v2/grids/${g.fid}/col?uid=${uidsOf(res)}`);
      expect(got.json.cols.map((c: { data: unknown }) => c.data)).toEqual([[30, 40], [7], ['red', 'blue']]);
    });

    it('takes cols as a plain JSON array too, with typed arrays and scalars', async () => {
      const g = await grid({ a: [1] });
      const res = await s.call('POST', `/v2/grids/${g.fid}/col`, {
        user: alice,
        body: {
          cols: [
            { name: 'f8', data: { dtype: 'f8', bdata: b64(new Float64Array([1.5, -2.25])) }, ignored: true },
            { name: 'i2', data: { dtype: 'i2', bdata: b64(new Int16Array([-3, 300])) } },
            { name: 'one', data: 'solo' },
            { name: 'none', data: null },
          ],
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(await columns(g.fid)).toEqual([
        ['a', [1]],
        ['f8', [1.5, -2.25]],
        ['i2', [-3, 300]],
        ['one', ['solo']],
        ['none', [null]],
      ]);
    });
  });

  describe('GET /v2/grids/{fid}/col', () => {
    it('answers the columns asked for, in the order asked, with name, uid, order and data', async () => {
      const g = await grid({ x: [1, 2, 3], y: ['a', 'b'], z: [[1, 2], [3]] });
      const [x, y, z] = g.file.cols.map((c: { uid: string }) => c.uid);
      const res = await s.call('GET', `/v2/grids/${g.fid}/col?uid=${z},${x}`);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.json).toEqual({
        cols: [
          { name: 'z', uid: z, order: 2, data: [[1, 2], [3]] },
          { name: 'x', uid: x, order: 0, data: [1, 2, 3] },
        ],
      });
      expect((await s.call('GET', `/v2/grids/${g.fid}/col?uid=${y}`)).json.cols).toEqual([{ name: 'y', uid: y, order: 1, data: ['a', 'b'] }]);
    });

    it("follows the grid's read rules: private is 404 to others, its share key opens a secret one", async () => {
      const priv = await grid({ x: [1] }, { world_readable: false });
      const path = `/v2/grids/${priv.fid}/col?uid=${priv.file.cols[0].uid}`;
      expectError(await s.call('GET', path), 404);
      expectError(await s.call('GET', path, { user: bob }), 404);
      expect((await s.call('GET', path, { user: alice })).json.cols[0].data).toEqual([1]);

      const secret = await grid({ x: [2] }, { world_readable: false, share_key_enabled: true });
      const key = (await s.call('GET', `/v2/grids/${secret.fid}`, { user: alice })).json.share_key;
      expect(key).toBeTruthy();
      const spath = `/v2/grids/${secret.fid}/col?uid=${secret.file.cols[0].uid}`;
      expectError(await s.call('GET', spath), 404);
      expectError(await s.call('GET', `${spath}&share_key=wrong`), 404);
      expect((await s.call('GET', `${spath}&share_key=${key}`)).json.cols[0].data).toEqual([2]);
    });
  });

  describe('PUT /v2/grids/{fid}/col', () => {
    it('replaces data, renames when a name is given, keeps uid and order', async () => {
      const g = await grid({ x: [1, 2, 3], y: [4, 5, 6], z: [7] });
      const [x, y, z] = g.file.cols.map((c: { uid: string }) => c.uid);
      const res = await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${z},${x}`, {
        user: alice,
        body: { cols: JSON.stringify([{ name: 'zed', data: [70, 80] }, { data: { dtype: 'u1', bdata: b64(new Uint8Array([9, 8])) } }]) },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toEqual({
        cols: [
          { name: 'zed', uid: z },
          { name: 'x', uid: x },
        ],
      });
      const { record, content } = await readBack(g.fid);
      expect(record.cols).toEqual([
        { name: 'x', uid: x },
        { name: 'y', uid: y },
        { name: 'zed', uid: z },
      ]);
      expect(content.cols).toEqual({
        x: { data: [9, 8], order: 0, uid: x },
        y: { data: [4, 5, 6], order: 1, uid: y },
        zed: { data: [70, 80], order: 2, uid: z },
      });
      expect(record.preview).toEqual({ x: [9, 8, null], y: [4, 5, 6], zed: [70, 80, null] });
      // Two columns may swap names in one call.
      const swap = await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${x},${y}`, {
        user: alice,
        body: {
          cols: [
            { name: 'y', data: [1] },
            { name: 'x', data: [2] },
          ],
        },
      });
      expect(swap.status, swap.text).toBe(200);
      expect((await readBack(g.fid)).record.cols).toEqual([
        { name: 'y', uid: x },
        { name: 'x', uid: y },
        { name: 'zed', uid: z },
      ]);
    });
  });

  describe('DELETE /v2/grids/{fid}/col', () => {
    it('answers 204 and the columns are gone; the others keep their order', async () => {
      const g = await grid({ a: [1], b: [2], c: [3], d: [4] });
      const [a, b, c, d] = g.file.cols.map((col: { uid: string }) => col.uid);
      const res = await s.call('DELETE', `/v2/grids/${g.fid}/col?uid=${c},${a}`, { user: alice });
      expect(res.status, res.text).toBe(204);
      expect(res.text).toBe('');
      expect((await readBack(g.fid)).record.cols).toEqual([
        { name: 'b', uid: b },
        { name: 'd', uid: d },
      ]);
      expectError(await s.call('GET', `/v2/grids/${g.fid}/col?uid=${a}`), 400, 'uid');
    });
  });

  describe('POST /v2/grids/{fid}/row', () => {
    it('Python\'s append_rows: shorter columns padded with "" to the longest, then the rows; 200 with the grid record', async () => {
      const g = await grid({ time: [1, 2, 3], voltage: [5], note: [] });
      const raw = pyDumps({
        rows: [
          [4, 7, 'late'],
          [5, 8, null],
        ],
      });
      const res = await s.call('POST', `/v2/grids/${g.fid}/row`, { user: alice, raw, headers: JSON_HEADERS });
      expect(res.status, res.text).toBe(200);
      expect(res.json).toMatchObject({ fid: g.fid, filetype: 'grid', cols: g.file.cols, metadata: null });
      expect(res.json.preview).toEqual({ time: [1, 2, 3, 4, 5], voltage: [5, '', '', 7, 8], note: ['', '', '', 'late', null] });
      expect(await columns(g.fid)).toEqual([
        ['time', [1, 2, 3, 4, 5]],
        ['voltage', [5, '', '', 7, 8]],
        ['note', ['', '', '', 'late', null]],
      ]);
    });

    it('keeps the preview to the first 20 values of each column', async () => {
      const g = await grid({ long: Array.from({ length: 25 }, (_, i) => i), short: [0] });
      const res = await s.call('POST', `/v2/grids/${g.fid}/row`, { user: alice, body: { rows: [[25, 'r']] } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.preview.long).toEqual(Array.from({ length: 20 }, (_, i) => i));
      expect(res.json.preview.short).toEqual([0, ...Array(19).fill('')]);
      expect(await columns(g.fid)).toEqual([
        ['long', [...Array.from({ length: 25 }, (_, i) => i), 25]],
        ['short', [0, ...Array(24).fill(''), 'r']],
      ]);
    });
  });

  describe('grid record: metadata and preview', () => {
    it("Python's upload with meta (data.metadata, then meta_ops.upload PUTs it); PATCH too; null clears", async () => {
      const meta = { 'experiment name': 'GaAs', runs: [1, 2] };
      const raw = pyDumps({
        data: { cols: { time: { data: [1, 2, 3], order: 0 }, voltage: { data: [4, 2], order: 1 } }, metadata: meta },
        world_readable: true,
        filename: 'gaas',
      });
      const created = await s.call('POST', '/v2/grids', { user: alice, raw, headers: JSON_HEADERS });
      expect(created.status, created.text).toBe(201);
      expect(created.json.file).toMatchObject({ metadata: meta, preview: { time: [1, 2, 3], voltage: [4, 2, null] } });
      const fid = created.json.file.fid;
      expect((await s.call('GET', `/v2/grids/${fid}`)).json).toMatchObject({ metadata: meta, preview: { time: [1, 2, 3], voltage: [4, 2, null] } });

      const put = await s.call('PUT', `/v2/grids/${fid}`, { user: alice, raw: pyDumps({ metadata: { experment: 'GaAs' } }), headers: JSON_HEADERS });
      expect(put.status, put.text).toBe(200);
      expect(put.json).toMatchObject({ fid, filetype: 'grid', metadata: { experment: 'GaAs' }, cols: created.json.file.cols });
      expect(Date.parse(put.json.date_modified)).toBeGreaterThanOrEqual(Date.parse(created.json.file.date_modified));
      const patch = await s.call('PATCH', `/v2/grids/${fid}`, { user: alice, body: { metadata: 'a string' } });
      expect(patch.json.metadata).toBe('a string');
      expect((await s.call('PATCH', `/v2/grids/${fid}`, { user: alice, body: {} })).json.metadata).toBe('a string');
      expect((await s.call('PUT', `/v2/grids/${fid}`, { user: alice, body: { metadata: null } })).json.metadata).toBeNull();
      expect((await s.call('GET', `/v2/grids/${fid}`)).json.metadata).toBeNull();
    });

    it('preview keys follow column order, integer-like names included', async () => {
      const res = await s.call('POST', '/v2/grids', {
        user: alice,
        body: { data: { cols: { b: { data: [1], order: 0 }, '10': { data: [2, 3], order: 1 }, '2': { data: [], order: 2 } } } },
      });
      expect(res.status, res.text).toBe(201);
      const record = await s.call('GET', `/v2/grids/${res.json.file.fid}`);
      expect(record.text).toContain('"preview":{"b":[1,null],"10":[2,3],"2":[null,null]}');
    });
  });

  describe('trash, restore and permanent delete under /v2/grids', () => {
    it("Python's grid_ops.delete (trash, then permanent_delete); restore brings a trashed grid back", async () => {
      const g = await grid({ x: [1] });
      expect((await s.call('POST', `/v2/grids/${g.fid}/trash`, { user: alice })).json).toEqual({});
      expectError(await s.call('GET', `/v2/grids/${g.fid}`, { user: alice }), 404);
      const restored = await s.call('POST', `/v2/grids/${g.fid}/restore`, { user: alice });
      expect(restored.status, restored.text).toBe(200);
      expect((await s.call('GET', `/v2/grids/${g.fid}`, { user: alice })).status).toBe(200);

      expect((await s.call('POST', `/v2/grids/${g.fid}/trash`, { user: alice })).status).toBe(200);
      const del = await s.call('DELETE', `/v2/grids/${g.fid}/permanent_delete`, { user: alice });
      expect(del.status, del.text).toBe(204);
      expectError(await s.call('POST', `/v2/grids/${g.fid}/restore`, { user: alice }), 404);
      // A plot's fid on the grids path is a missing grid.
      const other = await grid({ y: [1] });
      const plot = await s.createPlot(alice, { figure: { data: [{ type: 'bar', ysrc: other.src('y') }] } });
      expectError(await s.call('POST', `/v2/grids/${plot.fid}/trash`, { user: alice }), 404);
    });
  });

  describe('bad input: a 4xx with the error body, and nothing changed', () => {
    const MANY = 10_001;
    type Case = [name: string, method: string, path: (uids: string[]) => string, body: unknown, status: number, needle: string | RegExp];
    const col = (uids: string[]) => `col?uid=${uids.join(',')}`;
    const cases: Case[] = [
      ['POST col: no cols', 'POST', () => 'col', {}, 400, 'cols: This field is required.'],
      ['POST col: empty array', 'POST', () => 'col', { cols: [] }, 400, 'cols: expected at least one column'],
      ['POST col: empty array in a string', 'POST', () => 'col', { cols: '[]' }, 400, 'cols: expected at least one column'],
      ['POST col: empty string', 'POST', () => 'col', { cols: '' }, 400, 'cols'],
      ['POST col: a string that is not JSON', 'POST', () => 'col', { cols: '[{"name": "a", "data": [1]' }, 400, 'JSON parse error'],
      ['POST col: an object, not an array', 'POST', () => 'col', { cols: { a: { data: [1] } } }, 400, 'cols: expected an array'],
      ['POST col: an item without a name', 'POST', () => 'col', { cols: [{ name: 'ok', data: [1] }, { data: [1] }] }, 400, 'cols[1].name'],
      ['POST col: an item without data', 'POST', () => 'col', { cols: JSON.stringify([{ name: 'a' }]) }, 400, 'cols[0].data: This field is required.'],
      ['POST col: data neither array nor typed array', 'POST', () => 'col', { cols: [{ name: 'a', data: { a: 1 } }] }, 400, 'cols[0].data: expected an array'],
      ['POST col: a malformed typed array', 'POST', () => 'col', { cols: [{ name: 'a', data: { dtype: 'f8', bdata: 'AAA' } }] }, 400, 'cols[0].data'],
      [
        'POST col: a name sent twice',
        'POST',
        () => 'col',
        {
          cols: [
            { name: 'n', data: [1] },
            { name: 'n', data: [2] },
          ],
        },
        400,
        "cols[0].name: a column named 'n' already exists",
      ],
      [
        'POST col: an existing name',
        'POST',
        () => 'col',
        {
          cols: [
            { name: 'fresh', data: [1] },
            { name: 'x', data: [2] },
          ],
        },
        400,
        "cols[1].name: a column named 'x' already exists",
      ],
      ['POST col: an empty name', 'POST', () => 'col', { cols: [{ name: '', data: [1] }] }, 400, 'cols[0].name'],
      ['POST col: a name over 1024 characters', 'POST', () => 'col', { cols: [{ name: 'n'.repeat(1025), data: [1] }] }, 400, 'cols[0].name: at most 1024'],
      [
        'POST col: over 10,000,000 values',
        'POST',
        () => 'col',
        { cols: [{ name: 'big', data: new Array(10_000_001).fill(0) }] },
        400,
        'cols[0].data: at most 10000000 values',
      ],
      [
        'POST col: over 10,000 columns',
        'POST',
        () => 'col',
        { cols: Array.from({ length: MANY }, (_, i) => ({ name: `c${i}`, data: [i] })) },
        400,
        'cols: at most 10000 columns',
      ],
      ['POST col: a body that is not JSON', 'POST', () => 'col', '{"cols": [', 400, 'JSON parse error'],
      ['GET col: no uid', 'GET', () => 'col', undefined, 400, 'uid: This field is required.'],
      ['GET col: an unknown uid', 'GET', (u) => col([u[0], 'abcdef']), undefined, 400, "uid: the grid has no column 'abcdef'"],
      ['GET col: an empty uid', 'GET', (u) => col([u[0], '']), undefined, 400, 'uid'],
      ['GET col: a uid twice', 'GET', (u) => col([u[0], u[1], u[0]]), undefined, 400, 'is given twice'],
      [
        'GET col: over 1,000 uids',
        'GET',
        () => col(Array.from({ length: 1001 }, (_, i) => i.toString(16).padStart(6, '0'))),
        undefined,
        400,
        'uid: at most 1000',
      ],
      ['PUT col: no uid', 'PUT', () => 'col', { cols: [{ data: [1] }] }, 400, 'uid: This field is required.'],
      ['PUT col: an unknown uid', 'PUT', () => col(['abcdef']), { cols: [{ data: [1] }] }, 400, 'uid'],
      ['PUT col: a uid twice', 'PUT', (u) => col([u[0], u[0]]), { cols: [{ data: [1] }, { data: [2] }] }, 400, 'uid'],
      ['PUT col: fewer cols than uids', 'PUT', (u) => col(u), { cols: [{ data: [1] }] }, 400, 'cols: expected 2 columns'],
      ['PUT col: more cols than uids', 'PUT', (u) => col([u[0]]), { cols: JSON.stringify([{ data: [1] }, { data: [2] }]) }, 400, 'cols: expected 1 column'],
      ['PUT col: no cols', 'PUT', (u) => col([u[0]]), {}, 400, 'cols: This field is required.'],
      ['PUT col: empty cols', 'PUT', (u) => col([u[0]]), { cols: [] }, 400, 'cols: expected at least one column'],
      [
        'PUT col: a rename onto another column',
        'PUT',
        (u) => col([u[0]]),
        { cols: [{ name: 'y', data: [1] }] },
        400,
        "cols[0].name: a column named 'y' already exists",
      ],
      ['PUT col: bad data', 'PUT', (u) => col([u[0]]), { cols: [{ data: { dtype: 'nope', bdata: '' } }] }, 400, 'cols[0].data'],
      ['DELETE col: no uid', 'DELETE', () => 'col', undefined, 400, 'uid: This field is required.'],
      ['DELETE col: an unknown uid', 'DELETE', (u) => col([u[0], 'abcdef']), undefined, 400, 'uid'],
      ['DELETE col: a uid twice', 'DELETE', (u) => col([u[1], u[1]]), undefined, 400, 'uid'],
      ['POST row: no rows', 'POST', () => 'row', {}, 400, 'rows'],
      ['POST row: empty rows', 'POST', () => 'row', { rows: [] }, 400, 'rows: expected at least one row'],
      ['POST row: a row too short', 'POST', () => 'row', { rows: [[1, 2], [3]] }, 400, 'rows[1]: expected 2 values'],
      ['POST row: a row too long', 'POST', () => 'row', { rows: [[1, 2, 3]] }, 400, 'rows[0]: expected 2 values'],
      ['POST row: a row that is not an array', 'POST', () => 'row', { rows: [[1, 2], 'x'] }, 400, 'rows[1]'],
      ['POST row: rows as a string', 'POST', () => 'row', { rows: '[[1, 2]]' }, 400, 'rows'],
      ['PUT grid: metadata over 1 MiB', 'PUT', () => '', { metadata: { big: 'x'.repeat(1024 * 1024) } }, 400, 'metadata: at most 1 MiB'],
      ['PATCH grid: metadata over 1 MiB', 'PATCH', () => '', { metadata: ['x'.repeat(1024 * 1024)] }, 400, 'metadata'],
    ];

    it.each(cases)('%s', async (_name, method, path, body, status, needle) => {
      const g = await grid({ x: [1, 2], y: ['a', 'b'] }, { filename: `bad ${Math.random()}` });
      const uids = g.file.cols.map((c: { uid: string }) => c.uid);
      const before = await readBack(g.fid);
      const sub = path(uids);
      const url = `/v2/grids/${g.fid}${sub ? `/${sub}` : ''}`;
      const res = await s.call(method, url, typeof body === 'string' ? { user: alice, raw: body, headers: JSON_HEADERS } : { user: alice, body });
      expectError(res, status, needle);
      expect(await readBack(g.fid)).toEqual(before);
    });

    it('POST /v2/grids: metadata over 1 MiB is 400 naming it', async () => {
      const res = await s.call('POST', '/v2/grids', { user: alice, body: { data: { cols: { x: { data: [1] } }, metadata: 'x'.repeat(1024 * 1024 + 1) } } });
      expectError(res, 400, 'data.metadata: at most 1 MiB');
    });
  });

  describe('permissions: writes are the owner’s', () => {
    const writes: [string, string, (uids: string[]) => string, (uids: string[]) => unknown][] = [
      ['POST col', 'POST', () => 'col', () => ({ cols: [{ name: 'new', data: [1] }] })],
      ['PUT col', 'PUT', (u) => `col?uid=${u[0]}`, () => ({ cols: [{ data: [9] }] })],
      ['DELETE col', 'DELETE', (u) => `col?uid=${u[0]}`, () => undefined],
      ['POST row', 'POST', () => 'row', () => ({ rows: [[1, 2]] })],
      ['PUT grid', 'PUT', () => '', () => ({ metadata: { m: 1 } })],
      ['PATCH grid', 'PATCH', () => '', () => ({ metadata: { m: 1 } })],
      ['POST trash', 'POST', () => 'trash', () => undefined],
      ['DELETE permanent_delete', 'DELETE', () => 'permanent_delete', () => undefined],
    ];
    it.each(writes)('%s: anonymous 401, another user 404 on a private grid and 403 on a public one', async (_name, method, path, body) => {
      for (const worldReadable of [true, false]) {
        const g = await grid({ x: [1, 2], y: [3, 4] }, { world_readable: worldReadable });
        const uids = g.file.cols.map((c: { uid: string }) => c.uid);
        const before = await readBack(g.fid);
        const url = `/v2/grids/${g.fid}${path(uids) ? `/${path(uids)}` : ''}`;
        expectError(await s.call(method, url, { body: body(uids) }), 401, 'Authentication credentials were not provided.');
        expectError(await s.call(method, url, { user: bob, body: body(uids) }), worldReadable ? 403 : 404);
        expect(await readBack(g.fid)).toEqual(before);
      }
    });

    it('a trashed public grid is a missing one to another user: restore and permanent_delete 404', async () => {
      const g = await grid({ x: [1] });
      expect((await s.call('POST', `/v2/grids/${g.fid}/trash`, { user: alice })).status).toBe(200);
      expectError(await s.call('POST', `/v2/grids/${g.fid}/restore`, { user: bob }), 404);
      expectError(await s.call('DELETE', `/v2/grids/${g.fid}/permanent_delete`, { user: bob }), 404);
      expectError(await s.call('POST', `/v2/grids/${g.fid}/restore`), 401);
      expect((await s.call('POST', `/v2/grids/${g.fid}/restore`, { user: alice })).status).toBe(200);
    });
  });

  describe('plots on a changed column show its new data', () => {
    const imagePath = (fid: string) => `/~${fid.replace(':', '/')}.png?size=list-thumb`;

    async function image(path: string) {
      const res = await fetch(`${s.url}${path}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      return { state: res.headers.get('x-image-state'), etag: res.headers.get('etag') };
    }

    /** Polls the image URL until it answers a rendered image other than `not`. */
    async function renderedImage(path: string, not?: string | null) {
      const deadline = Date.now() + RENDER_WAIT_MS;
      for (;;) {
        const answer = await image(path);
        if (answer.state === 'rendered' && answer.etag !== not) return answer;
        if (Date.now() > deadline) throw new Error(`${path}: no new rendered image (last ${JSON.stringify(answer)})`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    async function content(fid: string, etag?: string) {
      const res = await s.call('GET', `/v2/plots/${fid}/content?inline_data=true`, { headers: etag ? { 'If-None-Match': etag } : {} });
      return { status: res.status, etag: res.headers.get('etag')!, data: res.json?.data };
    }

    it(
      'after PUT col and a row append: new content, a new ETag, a new date_modified and a new image',
      async () => {
        const g = await grid({ x: ['a', 'b', 'c'], y: [1, 2, 3], unused: [0] });
        const plot = await s.createPlot(alice, { figure: { data: [{ type: 'bar', xsrc: g.src('x'), ysrc: g.src('y') }] } });
        const first = await content(plot.fid);
        expect(first.data[0]).toMatchObject({ x: ['a', 'b', 'c'], y: [1, 2, 3] });
        expect((await content(plot.fid, first.etag)).status).toBe(304);
        const firstImage = await renderedImage(imagePath(plot.fid));

        const put = await s.call('PUT', `/v2/grids/${g.fid}/col?uid=${g.file.cols[1].uid}`, {
          user: alice,
          body: { cols: JSON.stringify([{ data: [3, 1, 2] }]) },
        });
        expect(put.status, put.text).toBe(200);
        const second = await content(plot.fid);
        expect(second.data[0]).toMatchObject({ x: ['a', 'b', 'c'], y: [3, 1, 2] });
        expect(second.etag).not.toBe(first.etag);
        expect((await content(plot.fid, first.etag)).status).toBe(200);
        // Straight after the change the old image is never served: the new one, or the placeholder until it is drawn.
        const straightAfter = await image(imagePath(plot.fid));
        expect(straightAfter.state === 'pending' || straightAfter.etag !== firstImage.etag, JSON.stringify(straightAfter)).toBe(true);
        const secondImage = await renderedImage(imagePath(plot.fid), firstImage.etag);
        const record = await s.call('GET', `/v2/plots/${plot.fid}`);
        expect(Date.parse(record.json.date_modified)).toBeGreaterThan(Date.parse(plot.date_modified));

        const row = await s.call('POST', `/v2/grids/${g.fid}/row`, { user: alice, body: { rows: [['d', 4, 1]] } });
        expect(row.status, row.text).toBe(200);
        const third = await content(plot.fid);
        expect(third.data[0]).toMatchObject({ x: ['a', 'b', 'c', 'd'], y: [3, 1, 2, 4] });
        expect(new Set([first.etag, second.etag, third.etag]).size).toBe(3);
        await renderedImage(imagePath(plot.fid), secondImage.etag);
      },
      2 * RENDER_WAIT_MS,
    );

    it('a deleted column, a trashed grid and a deleted grid leave the src; a restored grid inlines again', async () => {
      const g = await grid({ x: [1, 2], y: [3, 4] });
      const plot = await s.createPlot(alice, { figure: { data: [{ type: 'scatter', xsrc: g.src('x'), ysrc: g.src('y') }] } });
      const etags = [(await content(plot.fid)).etag];
      const step = async (expected: Record<string, unknown>) => {
        const c = await content(plot.fid);
        expect(c.data[0]).toEqual({ type: 'scatter', ...expected });
        expect(etags).not.toContain(c.etag);
        etags.push(c.etag);
      };
      expect((await s.call('DELETE', `/v2/grids/${g.fid}/col?uid=${g.file.cols[0].uid}`, { user: alice })).status).toBe(204);
      await step({ xsrc: g.src('x'), y: [3, 4] });
      expect((await s.call('POST', `/v2/grids/${g.fid}/trash`, { user: alice })).status).toBe(200);
      await step({ xsrc: g.src('x'), ysrc: g.src('y') });
      expect((await s.call('POST', `/v2/grids/${g.fid}/restore`, { user: alice })).status).toBe(200);
      await step({ xsrc: g.src('x'), y: [3, 4] });
      expect((await s.call('DELETE', `/v2/grids/${g.fid}`, { user: alice })).status).toBe(204);
      await step({ xsrc: g.src('x'), ysrc: g.src('y') });
    });

    it("another user's plot on a public grid sees the owner's new values too", async () => {
      const g = await grid({ v: [1, 1] });
      const plot = await s.createPlot(bob, { figure: { data: [{ type: 'bar', ysrc: g.src('v') }] } });
      expect((await s.call('POST', `/v2/grids/${g.fid}/row`, { user: alice, body: { rows: [[2]] } })).status).toBe(200);
      expect((await content(plot.fid)).data[0].y).toEqual([1, 1, 2]);
    });
  });
});
