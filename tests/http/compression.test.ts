// Compression of answers (scripts/serve.mjs): data answers in the encoding the client lists (br first,
// then gzip), decoding to exactly the plain answer; pages compressed; images, 304s and HEADs never.
// Bytes are read as they come over the wire (node:http), since fetch decodes on its own.
import http from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';
import { scatter } from '../support/plots';

interface Wire {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function wire(method: string, path: string, headers: Record<string, string>): Promise<Wire> {
  return new Promise((resolve, reject) => {
    http
      .request(`${baseUrl()}${path}`, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

const vary = (w: Wire) =>
  String(w.headers.vary ?? '')
    .split(/\s*,\s*/)
    .map((v) => v.toLowerCase());

/** A wrong Content-Length is worse than none: when one is sent it must be what came. */
function expectHonestLength(w: Wire) {
  if (w.headers['content-length'] !== undefined) expect(Number(w.headers['content-length'])).toBe(w.body.length);
}

describe('compression', () => {
  let alice: TestUser;
  let contentPath: string;
  let pagePath: string;
  let imagePath: string;
  let plain: Wire;

  beforeAll(async () => {
    alice = await newUser('gz');
    const n = 5000;
    const grid = await uploadGrid(alice, { x: Array.from({ length: n }, (_, i) => i / 7), y: Array.from({ length: n }, (_, i) => (i * 7919) % 1003) });
    const plot = await createPlot(alice, { figure: { data: [scatter(grid)], layout: {} }, filename: 'compressed' });
    contentPath = `/v2/plots/${plot.fid}/content?inline_data=true`;
    const url = new URL(plot.web_url);
    pagePath = url.pathname;
    const [owner, num] = plot.fid.split(':');
    imagePath = `/~${owner}/${num}.png`;
    plain = await wire('GET', contentPath, { Authorization: alice.auth });
  });

  it('without Accept-Encoding (or with identity) the answer is plain JSON', async () => {
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const data = JSON.parse(plain.body.toString('utf8'));
    expect(data.data[0].x).toHaveLength(5000);
    expectHonestLength(plain);
    const identity = await wire('GET', contentPath, { Authorization: alice.auth, 'Accept-Encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body.equals(plain.body)).toBe(true);
  });

  it('gzip when the client lists gzip but not br (Python requests): decodes to the identical JSON', async () => {
    const gz = await wire('GET', contentPath, { Authorization: alice.auth, 'Accept-Encoding': 'gzip, deflate' });
    expect(gz.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(vary(gz)).toContain('accept-encoding');
    // The contract's own Vary entries survive.
    expect(vary(gz)).toEqual(expect.arrayContaining(['accept', 'authorization', 'cookie']));
    expectHonestLength(gz);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it('br when the client lists it (browsers): decodes to the identical JSON', async () => {
    const br = await wire('GET', contentPath, { Authorization: alice.auth, 'Accept-Encoding': 'gzip, deflate, br, zstd' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(vary(br)).toContain('accept-encoding');
    expectHonestLength(br);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it('a 304 carries no body and no encoding', async () => {
    const etag = String(plain.headers.etag);
    const res = await wire('GET', contentPath, { Authorization: alice.auth, 'Accept-Encoding': 'gzip, br', 'If-None-Match': etag });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('a HEAD carries no body and no encoding', async () => {
    const res = await wire('HEAD', contentPath, { Authorization: alice.auth, 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('pages are compressed (br for browsers, gzip otherwise) and decode to the page', async () => {
    for (const [asked, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip, deflate', 'gzip', gunzipSync],
    ] as const) {
      const page = await wire('GET', pagePath, { 'Accept-Encoding': asked, Accept: 'text/html' });
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-encoding']).toBe(encoding);
      expect(vary(page)).toContain('accept-encoding');
      expectHonestLength(page);
      const html = decode(page.body).toString('utf8');
      expect(html).toMatch(/^<!DOCTYPE html>/i);
      expect(html).toContain('compressed');
    }
  });

  it('PNG images are sent as they are, never recompressed', async () => {
    const png = await wire('GET', imagePath, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(png.status).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expectHonestLength(png);
  });
});
