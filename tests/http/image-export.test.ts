// POST /v2/images over HTTP on both databases: every format decodes as what it claims at width x
// scale by height x scale (PDF as vector, EMF from Inkscape), the encoded form, every bad field a
// 400 naming it, the pixel cap, authentication, and the bounds: a figure whose drawing never ends
// answers 400 naming figure at the 30 s limit, while a third export of the same user is refused
// (429) and another user's export is drawn.
import { afterAll, describe, expect, it } from 'vitest';
import { appDatabase, expectError, type Answer, type TestUser } from '../support/api';
import { closeDecoder, decodeImage, emfInfo, MAGIC, pdfInfo, pxToMm, pxToPt } from '../support/image-formats';
import { servers, type Server } from '../support/servers';
import { sql } from 'drizzle-orm';
import { queryRows } from '@/db/client';
import { HANGING } from '../support/hostile-figures';

afterAll(() => closeDecoder());

const bars = (layout: Record<string, unknown> = {}) => ({
  data: [{ type: 'bar', x: ['a', 'b', 'c'], y: [3, 1, 2], name: 'Exported bars' }],
  layout: { title: { text: 'Export' }, ...layout },
});

const TYPES = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml', pdf: 'application/pdf', emf: 'image/emf' } as const;
type Format = keyof typeof TYPES;

/** POST /v2/images, the answer's bytes kept as bytes. */
async function exportImage(s: Server, user: TestUser | null, body: unknown): Promise<Answer & { bytes: Buffer }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (user) headers.Authorization = user.auth;
  const res = await fetch(`${s.url}/v2/images`, { method: 'POST', headers, body: JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    // an image
  }
  return { status: res.status, headers: res.headers, text: bytes.toString('utf8'), json, bytes };
}

/** Checks the bytes are a `format` image of `w` x `h` pixels. */
async function expectImage(format: Format, bytes: Buffer, w: number, h: number): Promise<void> {
  expect(MAGIC[format](bytes), `${format} signature`).toBe(true);
  if (format === 'pdf') {
    const info = pdfInfo(bytes);
    expect(info).toMatchObject({ pages: 1, images: 0, paths: true, text: true });
    expect(Math.abs(info.mediaBox[0] - pxToPt(w))).toBeLessThan(1);
    expect(Math.abs(info.mediaBox[1] - pxToPt(h))).toBeLessThan(1);
  } else if (format === 'emf') {
    const info = emfInfo(bytes);
    expect(info.declaredBytes).toBe(bytes.length);
    expect(info.endsWithEof).toBe(true);
    expect(Math.abs(info.frameMm[0] - pxToMm(w))).toBeLessThan(2);
    expect(Math.abs(info.frameMm[1] - pxToMm(h))).toBeLessThan(2);
  } else {
    if (format === 'svg') expect(bytes.toString('utf8')).toMatch(new RegExp(`^<svg[^>]* width="${w}" height="${h}"`));
    expect(await decodeImage(bytes, TYPES[format])).toEqual({ width: w, height: h });
  }
}

describe.each(servers())('image export on $name', (s) => {
  let user: TestUser;
  const userOf = async () => (user ??= await s.newUser('exp'));

  it.each([
    { format: 'png', width: 400, height: 300, scale: 1.5 },
    { format: 'jpeg', width: 500, height: 250, scale: 1 },
    { format: 'webp', width: 640, height: 480, scale: 0.5 },
    { format: 'svg', width: 300, height: 200, scale: 2 },
    { format: 'pdf', width: 600, height: 400, scale: 1.5 },
    { format: 'emf', width: 700, height: 500, scale: 1 },
  ] as const)('$format: the exact type, not cached, $width x $height at scale $scale', async ({ format, width, height, scale }) => {
    const res = await exportImage(s, await userOf(), { figure: bars(), format, width, height, scale });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe(TYPES[format]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    await expectImage(format, res.bytes, width * scale, height * scale);
  });

  it("png by default, at the layout's size, else 700x500; R's body (filename, every field) works", async () => {
    const u = await userOf();
    const own = await exportImage(s, u, { figure: bars({ width: 420, height: 310 }) });
    expect(own.headers.get('content-type')).toBe('image/png');
    await expectImage('png', own.bytes, 420, 310);
    const plain = await exportImage(s, u, { figure: { data: [{ y: [1, 3, 2] }] } });
    await expectImage('png', plain.bytes, 700, 500);
    const r = await exportImage(s, u, {
      figure: bars(),
      width: 1000,
      height: 500,
      format: 'png',
      scale: 1,
      encoded: false,
      filename: '2026-01-02 03:04:05.123456',
    });
    expect(r.status).toBe(200);
    await expectImage('png', r.bytes, 1000, 500);
  });

  it('encoded: JSON holding a data URL of the image', async () => {
    for (const format of ['png', 'svg'] as const) {
      const res = await exportImage(s, await userOf(), { figure: bars(), format, width: 300, height: 200, encoded: true });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const { image } = res.json as { image: string };
      const prefix = `data:${TYPES[format]};base64,`;
      expect(image.startsWith(prefix)).toBe(true);
      await expectImage(format, Buffer.from(image.slice(prefix.length), 'base64'), 300, 200);
    }
  });

  it('raw data is welcome, src keys are not resolved, frames are ignored', async () => {
    const res = await exportImage(s, await userOf(), {
      figure: { data: [{ type: 'scatter', x: [1, 2, 3], y: [2, 1, 3], ysrc: 'nobody:1:abc123' }], layout: {}, frames: [{ data: [{ y: [9, 9, 9] }] }] },
      width: 200,
      height: 100,
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    await expectImage('png', res.bytes, 200, 100);
  });

  it.each([
    { body: { figure: undefined, format: 'png' }, field: 'figure', needle: 'figure: This field is required.' },
    { body: { figure: [] }, field: 'figure', needle: 'figure: expected an object' },
    { body: { figure: { layout: {} } }, field: 'figure', needle: 'figure.data' },
    { body: { figure: { data: {} } }, field: 'figure', needle: 'figure.data: expected an array' },
    { body: { figure: { data: [5] } }, field: 'figure', needle: 'figure.data[0]: expected a trace object' },
    { body: { figure: { data: [], layout: [] } }, field: 'figure', needle: 'figure.layout: expected an object' },
    { body: { figure: { data: Array.from({ length: 1001 }, () => ({})) } }, field: 'figure', needle: 'at most 1000 traces' },
    { body: { format: 'eps' }, field: 'format', needle: 'format: expected one of png, jpeg, webp, svg, pdf, emf' },
    { body: { format: 'PNG' }, field: 'format', needle: 'format: expected one of' },
    { body: { format: 5 }, field: 'format', needle: 'format: expected one of' },
    { body: { width: 49 }, field: 'width', needle: 'width: expected an integer number of pixels, 50..4096' },
    { body: { width: 4097 }, field: 'width', needle: 'width: expected an integer' },
    { body: { width: 300.5 }, field: 'width', needle: 'width: expected an integer' },
    { body: { width: '300' }, field: 'width', needle: 'width: expected an integer' },
    { body: { height: 0 }, field: 'height', needle: 'height: expected an integer' },
    { body: { height: null }, field: 'height', needle: 'height: expected an integer' },
    { body: { scale: 0.05 }, field: 'scale', needle: 'scale: expected a number, 0.1..10' },
    { body: { scale: 11 }, field: 'scale', needle: 'scale: expected a number' },
    { body: { scale: '2' }, field: 'scale', needle: 'scale: expected a number' },
    { body: { encoded: 'yes' }, field: 'encoded', needle: 'encoded: expected true or false' },
    { body: { width: 4096, height: 4096, scale: 1.5 }, field: 'scale', needle: 'scale: the image would be 6144 x 6144' },
    { body: { width: 2000, height: 1000, scale: 3 }, field: 'scale', needle: '16,777,216' },
  ])('400 naming $field: $needle', async ({ body, field, needle }) => {
    const res = await exportImage(s, await userOf(), { figure: bars(), ...body });
    expectError(res, 400, needle);
    expect((res.json as { errors: { field: string }[] }).errors[0].field).toBe(field);
  });

  it('needs authentication (401), and a body of at most 10 MiB (413)', async () => {
    expectError(await exportImage(s, null, { figure: bars() }), 401, 'Authentication credentials were not provided.');
    expectError(await exportImage(s, { ...(await userOf()), auth: 'Basic eDp5' }, { figure: bars() }), 401, 'Bad API key');
    const big = await s.call('POST', '/v2/images', {
      user: await userOf(),
      raw: `{"figure": {"data": [{"y": [${'1,'.repeat(5.3 * 2 ** 20)}1]}]}}`,
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(big, 413, '10 MiB');
    expect((await s.call('GET', '/v2/images', { user: await userOf() })).status).toBe(405);
  });

  it('EMF of a figure plotly draws with text and WebGL-free paths converts, PDF of it too', async () => {
    const figure = {
      data: [{ type: 'scatter', mode: 'lines+markers+text', x: [1, 2, 3], y: [1, 4, 9], text: ['one', 'two', 'three'] }],
      layout: { title: { text: 'Squares' } },
    };
    for (const format of ['emf', 'pdf'] as const) {
      const res = await exportImage(s, await userOf(), { figure, format });
      expect(res.status, res.text.slice(0, 200)).toBe(200);
      await expectImage(format, res.bytes, 700, 500);
    }
  });
});

describe('bounds (both databases at once)', () => {
  // Outcomes only: each is decided by the leases and the queue, not by how fast this machine is. That
  // a hung page holds up no other page is shown without a clock in tests/lib/image-export.test.ts.
  it('a never-ending figure answers 400 naming figure at the 30 s limit; meanwhile a third export of that user is 429 and another user is served', async () => {
    await Promise.all(
      servers().map(async (s) => {
        const [busy, other] = [await s.newUser('hang'), await s.newUser('fair')];
        // Three at once: two claim the user's slots and hang, whichever arrive first; the third finds
        // none. Its 429 is the sign that both slots are held.
        const three = [1, 2, 3].map(() => exportImage(s, busy, { figure: HANGING }));
        const third = await Promise.any(three.map((p) => p.then((res) => (res.status === 429 ? res : Promise.reject(new Error(`${res.status}`))))));
        expectError(third, 429, 'at most 2 image exports');
        expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

        const served = await exportImage(s, other, { figure: bars(), width: 300, height: 200 });
        expect(served.status, served.text.slice(0, 300)).toBe(200);
        await expectImage('png', served.bytes, 300, 200);

        const answers = await Promise.all(three);
        expect(answers.filter((res) => res.status === 429)).toHaveLength(1);
        for (const res of answers.filter((r) => r.status !== 429)) expectError(res, 400, 'figure: drawing and converting the figure took over 30 s');
        // The slots are free again.
        const again = await exportImage(s, busy, { figure: bars(), format: 'svg' });
        expect(again.status, again.text.slice(0, 300)).toBe(200);
        if (s.name === 'postgres') {
          const { db } = await appDatabase();
          const left = await queryRows<{ n: number }>(
            db,
            sql`SELECT count(*)::int AS n FROM leases l JOIN users u ON l.key LIKE 'render:' || u.id || ':%' WHERE u.username IN (${busy.username}, ${other.username})`,
          );
          expect(left[0].n).toBe(0);
        }
      }),
    );
  }, 120_000);
});
