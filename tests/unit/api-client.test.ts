// The browser's API client (components/api-client.ts) against a real HTTP server: a success's body,
// the contract's error items of a refusal, none from an answer that is not the contract's (a proxy's
// page), a "busy" answer waited out when asked to, and a request that never arrives thrown.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, problemText } from '@/components/api-client';

let server: Server;
let base = '';
const seen: { method: string; type: string | undefined; accept: string | undefined; body: string }[] = [];
let busy = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', type: req.headers['content-type'], accept: req.headers.accept, body });
      const answer = (status: number, text: string, type = 'application/json', headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'Content-Type': type, ...headers });
        res.end(text);
      };
      if (req.url === '/ok') answer(200, JSON.stringify({ file: { fid: 'alice:1' } }));
      else if (req.url === '/refused')
        answer(
          400,
          JSON.stringify({
            errors: [
              { code: 'INVALID', message: 'figure: bad', field: 'figure', path: 'figure.data[0].y' },
              { code: 'INVALID', message: 'title: too long', field: 'title', path: null },
            ],
            detail: 'figure: bad\ntitle: too long',
          }),
        );
      else if (req.url === '/proxy') answer(502, '<html>Bad gateway</html>', 'text/html');
      else if (req.url === '/gone') answer(204, '');
      else if (req.url === '/busy')
        answer(
          busy++ === 0 ? 429 : 201,
          JSON.stringify(busy === 1 ? { errors: [{ code: 'THROTTLED', message: 'busy', field: null, path: null }] } : {}),
          'application/json',
          { 'Retry-After': '1' },
        );
      else answer(404, JSON.stringify({ errors: [{ code: 'NOT_FOUND', message: 'Not found.', field: null, path: null }], detail: 'Not found.' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the API client', () => {
  it("answers a success's body, and sends a value as JSON", async () => {
    const answer = await callApi<{ file: { fid: string } }>(`${base}/ok`, { method: 'PATCH', body: { title: 'x' } });
    expect(answer).toEqual({ ok: true, status: 200, body: { file: { fid: 'alice:1' } } });
    expect(seen.at(-1)).toEqual({ method: 'PATCH', type: 'application/json', accept: 'application/json', body: '{"title":"x"}' });
    expect(await callApi(`${base}/gone`, { method: 'DELETE' })).toEqual({ ok: true, status: 204, body: null });
    expect(seen.at(-1)?.type).toBeUndefined();
  });

  it("answers a refusal's contract error items, in order", async () => {
    const answer = await callApi(`${base}/refused`, { method: 'POST', body: '{"figure":1}' });
    expect(answer).toEqual({
      ok: false,
      status: 400,
      errors: [
        { code: 'INVALID', message: 'figure: bad', field: 'figure', path: 'figure.data[0].y' },
        { code: 'INVALID', message: 'title: too long', field: 'title', path: null },
      ],
    });
    expect(seen.at(-1)?.body).toBe('{"figure":1}');
    if (answer.ok) throw new Error('refused');
    expect(problemText(answer, (status) => `HTTP ${status}`)).toBe('figure: bad title: too long');
  });

  it('answers no items for an answer that is not the contract’s, so the caller says the status', async () => {
    const answer = await callApi(`${base}/proxy`);
    expect(answer).toEqual({ ok: false, status: 502, errors: [] });
    if (answer.ok) throw new Error('refused');
    expect(problemText(answer, (status) => `HTTP ${status}`)).toBe('HTTP 502');
  });

  it('waits out a busy answer when asked to, and answers it when not', async () => {
    busy = 0;
    expect(await callApi(`${base}/busy`, { method: 'POST', body: new Uint8Array([123, 125]) })).toMatchObject({
      ok: false,
      status: 429,
      errors: [{ code: 'THROTTLED' }],
    });
    busy = 0;
    expect(await callApi(`${base}/busy`, { method: 'POST', body: new Uint8Array([123, 125]), busyRetries: 1 })).toEqual({ ok: true, status: 201, body: {} });
    expect(seen.at(-1)?.body).toBe('{}');
  });

  it('throws when the request never arrives', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(callApi(url)).rejects.toThrow();
  });
});
