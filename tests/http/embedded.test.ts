// The README's first command: no DATABASE_URL, so the app runs on embedded PGlite and seeds the demo
// gallery on first start. Started here on a throwaway data directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '@/harness/server';

describe('the service on its embedded database', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-pglite-'));
  let server: Awaited<ReturnType<typeof startServer>>;

  beforeAll(async () => {
    const env: Record<string, string> = { PGLITE_DIR: path.join(dir, 'data', 'pglite') };
    server = await startServer({ ...env, DATABASE_URL: '' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seeds a lively demo gallery on first start', async () => {
    const fids: string[] = [];
    for (let url: string | null = `${server.url}/v2/plots?page_size=100`; url; ) {
      const page = await (await fetch(url)).json();
      fids.push(...page.results.map((r: { fid: string }) => r.fid));
      url = page.next;
    }
    // ~90 mocks, some private or secret: most of them are public.
    expect(fids.length).toBeGreaterThan(60);
    expect(new Set(fids).size).toBe(fids.length);
    const feed = await (await fetch(`${server.url}/v2/plots/feed?page_size=100`)).json();
    expect(feed.results.length).toBeGreaterThan(5);
    const byViews = await (await fetch(`${server.url}/v2/plots?order_by=-views&page_size=5`)).json();
    const views = byViews.results.map((r: { views: number }) => r.views);
    expect(views).toEqual([...views].sort((a, b) => b - a));
    expect(views[0]).toBeGreaterThan(0);
  });

  it('serves a demo plot with its data inlined', async () => {
    const page = await (await fetch(`${server.url}/v2/plots?page_size=100`)).json();
    const plot = page.results.find((r: { figure: { data: { ysrc?: string }[] } }) => r.figure.data.some((t) => t.ysrc));
    const content = await (await fetch(`${server.url}/v2/plots/${plot.fid}/content?inline_data=true`)).json();
    const trace = content.data.find((t: { y?: unknown[] }) => Array.isArray(t.y));
    expect(trace.y.length).toBeGreaterThan(0);
    expect(JSON.stringify(content)).not.toContain('"ysrc"');
  });

  it('renders the gallery page', async () => {
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/~');
  });
});
