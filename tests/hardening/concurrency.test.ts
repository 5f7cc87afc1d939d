// Concurrency over HTTP against the running app: page views are counted exactly, one owner's
// concurrent creates get distinct gap-free numbers and lose nothing, and concurrent updates of one
// plot leave one of the written figures whole, never a mix.
import http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { appDatabase, baseUrl, call, createPlot, newUser } from '../support/api';

/** GETs `path` `count` times at once through one keep-alive agent (at most `sockets` connections). */
async function burst(path: string, count: number, sockets = 64): Promise<number[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  try {
    return await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<number>((resolve, reject) => {
            http
              .get(`${baseUrl()}${path}`, { agent }, (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode!));
              })
              .on('error', reject);
          }),
      ),
    );
  } finally {
    agent.destroy();
  }
}

const nOf = (fid: string) => Number(fid.split(':')[1]);

describe('concurrency over HTTP', () => {
  it('1,000 concurrent views of a plot page count exactly 1,000', async () => {
    const owner = await newUser('views');
    const plot = await createPlot(owner, { figure: { data: [{ type: 'bar', name: 'v' }] }, filename: 'viewed' });
    const statuses = await burst(`/~${owner.username}/${nOf(plot.fid)}/`, 1000);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const detail = await call('GET', `/v2/plots/${plot.fid}`);
    expect(detail.json.views).toBe(1000);
    // Reads of the API and the figure are not views.
    await burst(`/v2/plots/${plot.fid}/content`, 50);
    expect((await call('GET', `/v2/plots/${plot.fid}`)).json.views).toBe(1000);
  });

  it('200 concurrent creates by one owner get 200 distinct, gap-free fids and all are there', async () => {
    const owner = await newUser('many');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => call('POST', '/v2/plots', { user: owner, body: { figure: { data: [{ type: 'scatter', name: `t${i}` }] } } })),
    );
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);
    const numbers = answers.map((a) => nOf(a.json.file.fid)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // Each answer's plot holds what that request sent.
    const contents = await Promise.all(answers.map((a) => call('GET', `/v2/plots/${a.json.file.fid}/content`, { user: owner })));
    const names = contents.map((c) => c.json.data[0].name as string).sort();
    expect(names).toEqual(Array.from({ length: 200 }, (_, i) => `t${i}`).sort());
    const { db } = await appDatabase();
    const [{ count }] = await queryRows<{ count: number }>(
      db,
      sql`SELECT count(*)::int AS count FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${owner.username}`,
    );
    expect(count).toBe(200);
  });

  it('concurrent updates of one plot leave one of the written figures, whole, with its own title and size', async () => {
    const owner = await newUser('race');
    const plot = await createPlot(owner, { figure: { data: [{ type: 'bar', name: 'v0' }], layout: { title: { text: 'v0' } } }, filename: 'race' });
    const figures = Array.from({ length: 30 }, (_, i) => ({
      data: Array.from({ length: (i % 5) + 1 }, (_, k) => ({ type: i % 2 ? 'bar' : 'scatter', name: `v${i}.${k}` })),
      layout: { title: { text: `v${i}` }, width: 300 + i, height: 200 + i },
    }));
    const answers = await Promise.all(figures.map((figure) => call('PUT', `/v2/plots/${plot.fid}`, { user: owner, body: { figure } })));
    expect(answers.filter((a) => a.status !== 200).map((a) => `${a.status} ${a.text.slice(0, 200)}`)).toEqual([]);

    const content = (await call('GET', `/v2/plots/${plot.fid}/content`, { user: owner })).json;
    const k = figures.findIndex((f) => isDeepStrictEqual(f, content));
    expect(k, `stored figure ${JSON.stringify(content).slice(0, 300)} is none of the written ones`).toBeGreaterThanOrEqual(0);
    const detail = (await call('GET', `/v2/plots/${plot.fid}`, { user: owner })).json;
    expect(detail.figure).toStrictEqual(figures[k]);
    expect(detail.title).toBe(`v${k}`);
    expect([detail.width, detail.height]).toEqual([300 + k, 200 + k]);
  });
});
