// Grid bodies over 1 MiB are parsed, and their columns' values made, in a worker thread
// (lib/http/body-workers.ts); smaller ones on the event loop. Every input gets the same answer either
// way: each case is sent twice, with a padding column (or padding rows) making it 9 bytes or 1.4 MB.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers } from '../support/servers';

const MiB = 1024 * 1024;
const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** A padding column's values as JSON text: one value, or ~1.4 MB of them. */
const PADS = { small: '[123456]', large: `[${Array(200_000).fill('123456').join(',')}]` };
/** Rows of padding after the rows a case is about (each as wide as the grid `x, y`). */
const PAD_ROWS = { small: '', large: `,${Array(100_000).fill('[123456,"abcdef"]').join(',')}` };
type Size = keyof typeof PADS;

/** `text` as the Python client sends it: a JSON string holding it. */
const asString = (text: string) => JSON.stringify(text);
/** Nested empty arrays, `levels` deep. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
/** A create's `data` with the padding column first and `cols` (raw JSON members) after it. */
const gridData = (pad: string, cols: string) => `{"cols":{"pad":{"data":${pad},"order":0},${cols}}}`;

describe.each(servers())('large grid bodies on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    alice = await s.newUser('lg');
    bob = await s.newUser('lgother');
  });

  const send = (method: string, path: string, raw: string | Uint8Array, user = alice) => s.call(method, path, { user, raw, headers: JSON_HEADERS });

  /** Sends the small and the large form of a body and answers both, checking the large one is over 1 MiB. */
  async function both(method: string, path: () => Promise<string> | string, body: (size: Size) => string | Uint8Array, user = alice) {
    const large = body('large');
    expect(large.length).toBeGreaterThan(MiB);
    expect(body('small').length).toBeLessThan(MiB);
    const small = await send(method, await path(), body('small'), user);
    const big = await send(method, await path(), large, user);
    return { small, large: big };
  }

  /** The one refusal both forms of a body get (the same status and error body). */
  const same = async (...args: Parameters<typeof both>) => {
    const { small, large } = await both(...args);
    expectError(small, small.status);
    expect(small.status).toBeGreaterThanOrEqual(400);
    expect({ status: large.status, body: large.json }).toEqual({ status: small.status, body: small.json });
    return small;
  };
  const names = (res: { json: { file: { cols: { name: string }[] } } }) => res.json.file.cols.map((c) => c.name);

  describe('POST /v2/grids', () => {
    // `depth`: the nesting of the text holding the columns (the body, or the data string) at a column's data.
    const cases: [string, (pad: string, depth: number) => string, string][] = [
      [
        'a non-finite number (1e400) in column 3, row 5',
        (pad) => gridData(pad, '"c1":{"data":[1]},"c2":{"data":["a"]},"c3":{"data":[0,1,2,3,4,1e400]}'),
        'data.cols.c3.data[5]: a number too large',
      ],
      ['a NUL escape in a value', (pad) => gridData(pad, '"c1":{"data":["a\\u0000b"]}'), 'may not contain \\u0000'],
      ['a lone surrogate escape in a name', (pad) => gridData(pad, '"\\ud800":{"data":[1]}'), 'lone surrogate'],
      ['a value nested 101 levels deep', (pad, depth) => gridData(pad, `"c1":{"data":${nested(101 - depth)}}`), 'deeper than 100'],
      ['a malformed typed array', (pad) => gridData(pad, '"c1":{"data":{"dtype":"f8","bdata":"!!"}}'), 'data.cols.c1.data: expected an array'],
      ['an order out of range beside a non-finite number', (pad) => gridData(pad, '"c1":{"data":[1e400],"order":-1}'), 'data.cols.c1.order'],
      ['cols that are not an object', (pad) => `{"cols":[${pad}]}`, 'data.cols'],
      ['not JSON (the error before the padding, so at the same position)', (pad) => `{"cols":{"a":{} "pad":{"data":${pad}}}}`, 'JSON parse error'],
    ];
    for (const [name, data, needle] of cases) {
      it(`data as an object: ${name}`, async () => {
        const res = await same(
          'POST',
          () => '/v2/grids',
          (size) => `{"data":${data(PADS[size], 4)}}`,
        );
        expectError(res, 400, needle);
      });
      it(`data as a string (the Python client): ${name}`, async () => {
        const res = await same(
          'POST',
          () => '/v2/grids',
          (size) => `{"data":${asString(data(PADS[size], 3))}}`,
        );
        expectError(res, 400, needle);
      });
    }

    it('a bad field of the body is named before the data string is read', async () => {
      const res = await same(
        'POST',
        () => '/v2/grids',
        (size) => `{"data":"{not json","world_readable":"yes","pad":${PADS[size]}}`,
      );
      expect(res.status).toBe(400);
      expect(res.json.errors.map((e: { field: string }) => e.field)).toEqual(['world_readable']);
    });

    it('a body nested too deep, a NUL escape in it, and bytes that are not UTF-8', async () => {
      const deep = await same(
        'POST',
        () => '/v2/grids',
        (size) => `{"pad":${PADS[size]},"data":${nested(100)}}`,
      );
      expect(deep.json.detail).toContain('deeper than 100');
      const nul = await same(
        'POST',
        () => '/v2/grids',
        (size) => `{"pad":${PADS[size]},"filename":"a\\u0000"}`,
      );
      expect(nul.json.detail).toContain('\\u0000');
      const bytes = (size: Size) => Buffer.concat([Buffer.from(`{"pad":${PADS[size]},"filename":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
      const utf8 = await same('POST', () => '/v2/grids', bytes);
      expect(utf8.json.detail).toContain('not valid UTF-8');
    });

    it('repeated column names, as the R client sends them, are all kept; typed arrays and scalars are decoded', async () => {
      const cols = '"x":{"data":[1,2],"order":1},"x":{"data":{"dtype":"i1","bdata":"AAH/"},"order":2},"y":{"data":7,"order":3}';
      const { small, large } = await both(
        'POST',
        () => '/v2/grids',
        (size) => `{"data":${gridData(PADS[size], cols)}}`,
      );
      expect(small.status, small.text).toBe(201);
      expect(large.status, large.text).toBe(201);
      expect(names(small)).toEqual(['pad', 'x', 'x (2)', 'y']);
      expect(names(large)).toEqual(names(small));
      for (const res of [small, large]) {
        const content = (await s.call('GET', `/v2/grids/${res.json.file.fid}/content`, { user: alice })).json.cols;
        expect([content.x.data, content['x (2)'].data, content.y.data]).toEqual([[1, 2], [0, 1, -1], [7]]);
      }
      expect(large.json.file.preview.pad).toHaveLength(20);
    });

    it('repeated column names inside a data string are kept too', async () => {
      const cols = '"x":{"data":[1]},"x":{"data":[2]}';
      const { small, large } = await both(
        'POST',
        () => '/v2/grids',
        (size) => `{"data":${asString(gridData(PADS[size], cols))},"filename":"${size} repeated"}`,
      );
      expect(large.status, large.text).toBe(201);
      expect(names(large)).toEqual(names(small));
      expect(names(large)).toEqual(['pad', 'x', 'x (2)']);
    });
  });

  describe('the column verbs', () => {
    /** The cols string the clients send: a padding item, then `items` (raw JSON). */
    const cols = (pad: string, items: string) => asString(`[{"name":"pad","data":${pad}},${items}]`);

    it('POST col: a non-finite number in item 3, value 5; a NUL escape; a value nested too deep', async () => {
      const g = await s.uploadGrid(alice, { x: [1, 2, 3] });
      const path = `/v2/grids/${g.fid}/col`;
      const bad = await same(
        'POST',
        () => path,
        (size) => `{"cols":${cols(PADS[size], '{"name":"a","data":[1]},{"name":"b","data":[0,1,2,3,4,-1e400]}')}}`,
      );
      expect(bad.json.errors[0].path).toBe('cols[2].data[5]');
      const nul = await same(
        'POST',
        () => path,
        (size) => `{"cols":${cols(PADS[size], '{"name":"a\\u0000","data":[1]}')}}`,
      );
      expect(nul.json.detail).toContain('\\u0000');
      const deep = await same(
        'POST',
        () => path,
        (size) => `{"cols":${cols(PADS[size], `{"name":"a","data":${nested(99)}}`)}}`,
      );
      expect(deep.json.detail).toContain('deeper than 100');
      // Nothing was added by any of them.
      const record = await s.call('GET', `/v2/grids/${g.fid}`, { user: alice });
      expect(record.json.cols).toHaveLength(1);
    });

    it("POST col by a reader: 403 before the cols string's error, as for a small body", async () => {
      const g = await s.uploadGrid(alice, { x: [1, 2, 3] });
      const res = await same(
        'POST',
        () => `/v2/grids/${g.fid}/col`,
        (size) => `{"cols":${asString(`[{"name":"pad","data":${PADS[size]}},{"name":`)}}`,
        bob,
      );
      expect(res.status).toBe(403);
      const own = await same(
        'POST',
        () => `/v2/grids/${g.fid}/col`,
        (size) => `{"cols":${asString(`[{"name":"pad","data":${PADS[size]}},{"name":`)}}`,
      );
      expect(own.json.detail).toContain('JSON parse error');
    });

    it('POST col and PUT col of valid columns: the same columns stored', async () => {
      const small = await s.uploadGrid(alice, { x: [1] });
      const large = await s.uploadGrid(alice, { x: [1] });
      const fidOf = { small: small.fid, large: large.fid };
      for (const size of ['small', 'large'] as const) {
        const res = await send(
          'POST',
          `/v2/grids/${fidOf[size]}/col`,
          `{"cols":${cols(PADS[size], '{"name":"a","data":["p",null,true]},{"name":"b","data":{"dtype":"f8","bdata":"AAAAAAAA+D8="}}')}}`,
        );
        expect(res.status, res.text).toBe(201);
        const uid = res.json.cols[1].uid;
        const put = await send('PUT', `/v2/grids/${fidOf[size]}/col?uid=${uid}`, `{"cols":[{"name":"a2","data":${PADS[size].replace('[', '["q",')}}]}`);
        expect(put.status, put.text).toBe(200);
      }
      const content = async (fid: string) => (await s.call('GET', `/v2/grids/${fid}/content`, { user: alice })).json.cols;
      const [a, b] = [await content(small.fid), await content(large.fid)];
      expect(Object.keys(b)).toEqual(['x', 'pad', 'a2', 'b']);
      expect(Object.keys(a)).toEqual(Object.keys(b));
      expect(b.a2.data.slice(0, 2)).toEqual(['q', 123456]);
      expect(b.b.data).toEqual([1.5]);
      expect(a.b.data).toEqual([1.5]);
    });

    it('PUT col: a non-finite number names the item and value', async () => {
      const g = await s.uploadGrid(alice, { x: [1, 2, 3] });
      const uid = g.file.cols[0].uid;
      const res = await same(
        'PUT',
        () => `/v2/grids/${g.fid}/col?uid=${uid}`,
        (size) => `{"cols":[{"data":${PADS[size].replace('[', '[1e400,')}}]}`,
      );
      expect(res.json.errors[0].path).toBe('cols[0].data[0]');
    });
  });

  describe('POST row', () => {
    const rows = (first: string, size: Size) => `{"rows":[${first}${PAD_ROWS[size]}]}`;

    it('a row of the wrong width, a non-finite number, rows that are not arrays: the same 400s', async () => {
      const g = await s.uploadGrid(alice, { x: [1], y: ['a'] });
      const path = () => `/v2/grids/${g.fid}/row`;
      const wide = await same('POST', path, (size) => rows('[1,"a"],[2]', size));
      expect(wide.json.errors[0].path).toBe('rows[1]');
      const first = await same('POST', path, (size) => rows('[1,"a",3]', size));
      expect(first.json.detail).toContain('rows[0]: expected 2 values');
      const overflow = await same('POST', path, (size) => rows('[1,"a"],[2,[3,1e400]]', size));
      expect(overflow.json.errors[0].path).toBe('rows[1][1]');
      const notArrays = await same('POST', path, (size) => rows('[1,"a"],"x"', size));
      expect(notArrays.json.errors[0].path).toBe('rows[1]');
      const nul = await same('POST', path, (size) => rows('[1,"a\\u0000"]', size));
      expect(nul.json.detail).toContain('\\u0000');
      const content = await s.call('GET', `/v2/grids/${g.fid}/content`, { user: alice });
      expect(content.json.cols.x.data).toEqual([1]);
    });

    it('valid rows: the same columns stored', async () => {
      const grids = { small: await s.uploadGrid(alice, { x: [1, 2], y: ['a'] }), large: await s.uploadGrid(alice, { x: [1, 2], y: ['a'] }) };
      for (const size of ['small', 'large'] as const) {
        const res = await send('POST', `/v2/grids/${grids[size].fid}/row`, rows('[3,"c"],[4,null]', size));
        expect(res.status, res.text).toBe(200);
        expect(res.json.preview).toEqual({
          x: [1, 2, 3, 4, ...(size === 'large' ? Array(16).fill(123456) : [])],
          y: ['a', '', 'c', null, ...(size === 'large' ? Array(16).fill('abcdef') : [])],
        });
      }
      const content = (await s.call('GET', `/v2/grids/${grids.large.fid}/content`, { user: alice })).json.cols;
      expect(content.x.data).toHaveLength(100_004);
      expect(content.y.data.slice(0, 5)).toEqual(['a', '', 'c', null, 'abcdef']);
    });
  });
});
