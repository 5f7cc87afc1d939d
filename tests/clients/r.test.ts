// The official R client, plotly (Debian's r-cran-plotly), against the built app on PostgreSQL and on
// PGlite: each test checks what one scenario of r_client.R returned (each run as a new user; one R
// start runs them all, before the tests) and what the service holds, over HTTP. plotly.R builds every API URL as
// https://{plotly_domain}, so it reaches the app through a TLS front with a throwaway certificate
// (tests/support/tls-front.ts), as users reach a deployment behind nginx.
// Not here: save_image()/orca()/kaleido() (local exporters that never call the API), dashboards.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Answer, TestUser } from '../support/api';
import { rscripts } from '../support/clients';
import { servers } from '../support/servers';
import { startTlsFront, type TlsFront } from '../support/tls-front';

const MAGIC: Record<string, (hex: string) => boolean> = {
  png: (h) => h.startsWith('89504e470d0a1a0a'),
  jpeg: (h) => h.startsWith('ffd8ff'),
  pdf: (h) => Buffer.from(h, 'hex').toString('latin1').startsWith('%PDF-'),
  svg: (h) => /^(<\?xml[^>]*>\s*)?<svg[\s>]/.test(Buffer.from(h, 'hex').toString('utf8')),
};

const SCENARIOS = ['create_twice', 'secret', 'private', 'download_plot', 'grid', 'image', 'api_root'];

describe.each(servers())('plotly (R) on $name', (s) => {
  let front: TlsFront;
  const users = new Map<string, TestUser>();
  let outcomes: Map<string, Promise<any>>;
  beforeAll(async () => {
    front = await startTlsFront(s.url);
    for (const scenario of SCENARIOS) users.set(scenario, await s.newUser('r'));
    outcomes = await rscripts(
      front,
      SCENARIOS.map((scenario) => ({ scenario, user: users.get(scenario)! })),
    );
  });
  afterAll(() => front?.stop());

  async function run<T = any>(scenario: string): Promise<{ user: TestUser; result: T }> {
    return { user: users.get(scenario)!, result: (await outcomes.get(scenario)) as T };
  }
  const ok = (res: Answer, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: expected 200, got ${res.status} ${res.text.slice(0, 500)}`);
    return res.json;
  };
  /** A file's web_url: on the front's https origin, which the app learnt from X-Forwarded-Proto. */
  const webUrl = (user: TestUser, fid: string) => `${front.url}/~${user.username}/${fid.split(':')[1]}/`;

  it('api_create(p, filename) twice: the second PATCHes the same plot, its grid grows the new columns', async () => {
    const { user, result } = await run('create_twice');
    const fid = result.first.fid as string;
    expect(fid).toMatch(new RegExp(`^${user.username}:\\d+$`));
    expect(result.first).toMatchObject({ filename: 'r overwrite', filetype: 'plot', web_url: webUrl(user, fid), world_readable: true });
    expect(result.second.fid).toBe(fid);
    expect(result.second.web_url).toBe(webUrl(user, fid));
    const content = ok(await s.call('GET', `/v2/plots/${fid}/content?inline_data=true`), 'content');
    expect(content.data[0]).toMatchObject({ type: 'scatter', x: [1, 2, 3], y: [3, 1, 3] });
    // R overwrites a grid by appending the columns again as "{name}-{id}" and pointing the plot there
    const grid = ok(await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent('r overwrite Grid')}`, { user }), 'grid lookup');
    const cols = ok(await s.call('GET', `/v2/grids/${grid.fid}`), 'grid').cols as { name: string; uid: string }[];
    expect(cols).toHaveLength(4);
    expect(cols[2].name.startsWith(`${cols[0].name}-`) && cols[3].name.startsWith(`${cols[1].name}-`), JSON.stringify(cols)).toBe(true);
    const srcs = ok(await s.call('GET', `/v2/plots/${fid}/content`), 'content').data[0];
    expect([srcs.xsrc, srcs.ysrc]).toEqual([`${grid.fid}:${cols[2].uid}`, `${grid.fid}:${cols[3].uid}`]);
  });

  it('api_create(p, sharing = "secret"): a share key that lets anyone read the plot and its data', async () => {
    const { user, result } = await run('secret');
    expect(result).toMatchObject({ web_url: webUrl(user, result.fid), world_readable: false, share_key_enabled: true });
    const key = result.share_key as string;
    expect(key).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect((await s.call('GET', `/v2/plots/${result.fid}`)).status).toBe(404);
    expect(ok(await s.call('GET', `/v2/plots/${result.fid}?share_key=${key}`), 'with the key').world_readable).toBe(false);
    const content = ok(await s.call('GET', `/v2/plots/${result.fid}/content?inline_data=true&share_key=${key}`), 'content with the key');
    expect(content.data[0]).toMatchObject({ x: [1, 2, 3], y: [7, 8, 9] });
  });

  it('api_create(p, sharing = "private"): only the owner reads it', async () => {
    const { user, result } = await run('private');
    expect(result).toMatchObject({ filename: 'r private', world_readable: false, web_url: webUrl(user, result.fid) });
    expect((await s.call('GET', `/v2/plots/${result.fid}`)).status).toBe(404);
    expect(ok(await s.call('GET', `/v2/plots/${result.fid}`, { user }), 'owner').world_readable).toBe(false);
  });

  it('api_download_plot gives back the plot with its data', async () => {
    const { result } = await run('download_plot');
    expect(result).toMatchObject({ x: [1, 2, 3], y: [5, 1, 5], type: 'scatter', title: 'Downloaded' });
  });

  it('api_create(data frame) makes a grid; again appends its columns; api_download_grid reads it', async () => {
    const { user, result } = await run('grid');
    const fid = result.first.fid as string;
    expect(result.first).toMatchObject({ filename: 'r grid', filetype: 'grid', web_url: webUrl(user, fid), world_readable: true });
    expect(result.first_cols.map((c: { name: string }) => c.name)).toEqual(['x', 'label']);
    expect(result.second.fid).toBe(fid);
    const added = result.second_cols.map((c: { name: string }) => c.name) as string[];
    expect(added).toHaveLength(2);
    expect(added[0].startsWith('x-') && added[1].startsWith('label-'), added.join()).toBe(true);
    expect(result.downloaded.fid).toBe(fid);
    expect(result.downloaded_cols.map((c: { name: string }) => c.name)).toEqual(['x', 'label', ...added]);
    expect(result.preview).toEqual({ x: [1, 2, 3], label: ['a', 'b', 'c'], [added[0]]: [4, 5, 6], [added[1]]: ['d', 'e', 'f'] });
  });

  it('plotly_IMAGE(p, format, out_file) writes png, jpeg, svg and pdf (1000 x 500 by default)', async () => {
    const { result } = await run<Record<string, { length: number; head: string }>>('image');
    expect(Object.keys(result).sort()).toEqual(Object.keys(MAGIC).sort());
    for (const [format, image] of Object.entries(result)) expect(MAGIC[format](image.head), `${format}: ${image.head}`).toBe(true);
    expect([parseInt(result.png.head.slice(32, 40), 16), parseInt(result.png.head.slice(40, 48), 16)]).toEqual([1000, 500]);
  });

  it('api() lists the API root on the https origin; api("users/current") is the caller', async () => {
    const { user, result } = await run('api_root');
    for (const key of ['files', 'folders', 'grids', 'images', 'plots', 'users']) expect(result.root[key]).toBe(`${front.url}/v2/${key}`);
    expect(result.me).toBe(user.username);
  });
});
