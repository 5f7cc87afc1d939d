// A database outage answers 503 with Retry-After (never a hang), and the service recovers by itself.
// The app reaches Postgres through a TCP proxy this test cuts and restores, so the shared server
// other suites use is never stopped.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrl, createDatabase, createDatabaseName, dropDatabase } from '@/harness/postgres';
import { startServer } from '@/harness/server';

const target = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');

function startProxy(port = 0): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream).pipe(client);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port, sockets })));
}

function cut(proxy: { server: Server; sockets: Set<Socket> }): Promise<void> {
  for (const s of proxy.sockets) s.destroy();
  return new Promise((resolve) => proxy.server.close(() => resolve()));
}

describe('database outage', () => {
  const name = createDatabaseName('outage');
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let app: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    await createDatabase(name);
    proxy = await startProxy();
    const url = new URL(adminUrl(name));
    url.host = `127.0.0.1:${proxy.port}`;
    app = await startServer({ DATABASE_URL: url.toString(), DEMO_SEED: 'false' });
  });
  afterAll(async () => {
    await app?.stop();
    if (proxy?.server.listening) await cut(proxy);
    await dropDatabase(name);
  });

  it('answers 503 with Retry-After while the database is away, then serves again', async () => {
    expect((await fetch(`${app.url}/v2/plots`)).status).toBe(200);
    await cut(proxy);

    for (const path of ['/v2/plots', '/v2/plots/feed', '/v2/plots/nobody:1']) {
      const res = await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body.errors[0].code).toBe('SERVICE_UNAVAILABLE');
      expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/i);
    }
    // Writes meet the rate limiter's query (or the key check) first: still 503, never 500.
    for (const auth of [null, `Basic ${Buffer.from('someone:some-key-0123456789').toString('base64')}`]) {
      const res = await fetch(`${app.url}/v2/plots`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(auth ? { Authorization: auth } : {}) },
        body: JSON.stringify({ figure: { data: [] } }),
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status).toBe(503);
      expect((await res.json()).errors[0].code).toBe('SERVICE_UNAVAILABLE');
    }

    proxy = await startProxy(proxy.port);
    let status = 0;
    for (let i = 0; i < 60 && status !== 200; i++) {
      status = (await fetch(`${app.url}/v2/plots`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
  });
});
