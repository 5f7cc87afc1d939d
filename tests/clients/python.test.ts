// The official Python client, chart_studio (vendored unmodified in tests/clients/vendor), against the
// built app on PostgreSQL and on PGlite: each test runs one scenario of python_client.py (the calls
// a user makes, configured as a user does: set_config_file / set_credentials_file) as a new user,
// then checks what the client returned and what the service holds, over HTTP.
// Not here: py.iplot (plot() plus a notebook IFrame), streaming.
import { describe, expect, it } from 'vitest';
import type { Answer, TestUser } from '../support/api';
import { python } from '../support/clients';
import { servers } from '../support/servers';

const MAGIC: Record<string, (hex: string) => boolean> = {
  png: (h) => h.startsWith('89504e470d0a1a0a'),
  jpeg: (h) => h.startsWith('ffd8ff'),
  pdf: (h) => Buffer.from(h, 'hex').toString('latin1').startsWith('%PDF-'),
  svg: (h) => /^(<\?xml[^>]*>\s*)?<svg[\s>]/.test(Buffer.from(h, 'hex').toString('utf8')),
  // EMR_HEADER: record type 1, and " EMF" at byte 40
  emf: (h) => h.startsWith('01000000') && h.slice(80, 88) === '20454d46',
};

interface Image {
  length: number;
  head: string;
}

/** The width and height in a PNG's IHDR. */
const pngSize = (head: string) => [parseInt(head.slice(32, 40), 16), parseInt(head.slice(40, 48), 16)];

describe.each(servers())('chart_studio (Python) on $name', (s) => {
  async function run<T = any>(scenario: string, timeoutMs?: number): Promise<{ user: TestUser; result: T }> {
    const user = await s.newUser('py');
    return { user, result: await python<T>(s.url, user, scenario, timeoutMs) };
  }
  const ok = (res: Answer, what: string) => {
    if (res.status !== 200) throw new Error(`${what}: expected 200, got ${res.status} ${res.text.slice(0, 500)}`);
    return res.json;
  };
  const lookup = async (user: TestUser, path: string) =>
    ok(await s.call('GET', `/v2/files/lookup?path=${encodeURIComponent(path)}`, { user }), `lookup ${path}`);
  const plotUrl = (user: TestUser) => new RegExp(`^${s.url}/~${user.username}/(\\d+)/$`);
  const fid = (user: TestUser, url: string) => `${user.username}:${plotUrl(user).exec(url)![1]}`;
  /** The grid fid a plot's first trace takes its x from. */
  const gridOf = async (user: TestUser, plot: string) => {
    const content = ok(await s.call('GET', `/v2/plots/${plot}/content`, { user }), 'content');
    return (content.data[0].xsrc as string).split(':').slice(0, 2).join(':');
  };

  it('py.plot twice with one filename updates the one plot (and replaces its grid)', async () => {
    const { user, result } = await run('plot_overwrite');
    expect(result.first).toMatch(plotUrl(user));
    expect(result.second).toBe(result.first);
    expect(result.figure).toEqual({ data: [{ type: 'scatter', x: [1, 2, 3], y: [3, 1, 3], name: 'Second' }], title: 'Second' });
    const plot = fid(user, result.second);
    expect(await lookup(user, 'overwrite me')).toMatchObject({ fid: plot, filetype: 'plot' });
    const grid = await lookup(user, 'overwrite me_grid');
    expect(grid.filetype).toBe('grid');
    expect(await gridOf(user, plot)).toBe(grid.fid);
  });

  it("py.plot(sharing='private'): the owner reads it back, nobody else sees the plot or its grid", async () => {
    const { user, result } = await run('plot_private');
    expect(result.url).toMatch(plotUrl(user));
    expect(result.figure.data).toEqual([{ type: 'scatter', x: [1, 2, 3], y: [5, 6, 7], name: 'Private' }]);
    const plot = fid(user, result.url);
    expect(ok(await s.call('GET', `/v2/plots/${plot}`, { user }), 'owner').world_readable).toBe(false);
    expect((await s.call('GET', `/v2/plots/${plot}`)).status).toBe(404);
    expect((await fetch(result.url)).status).toBe(404);
    expect((await s.call('GET', `/v2/grids/${await gridOf(user, plot)}`)).status).toBe(404);
  });

  it("py.plot(sharing='secret') gives a share_key URL that works anonymously, and get_embed keeps the key", async () => {
    const { user, result } = await run('plot_secret');
    const match = new RegExp(`^${s.url}/~${user.username}/(\\d+)\\?share_key=([A-Za-z0-9_-]{16,})$`).exec(result.url);
    expect(match, result.url).not.toBeNull();
    const [, n, key] = match!;
    const plot = `${user.username}:${n}`;
    expect(ok(await s.call('GET', `/v2/plots/${plot}`, { user }), 'owner')).toMatchObject({ world_readable: false, share_key_enabled: true, share_key: key });
    expect((await s.call('GET', `/v2/plots/${plot}`)).status).toBe(404);
    expect(ok(await s.call('GET', `/v2/plots/${plot}?share_key=${key}`), 'anonymous with the key').fid).toBe(plot);
    const content = ok(await s.call('GET', `/v2/plots/${plot}/content?inline_data=true&share_key=${key}`), 'content with the key');
    expect(content.data).toEqual([{ type: 'scatter', x: [1, 2, 3], y: [7, 8, 9], name: 'Secret' }]);
    expect((await fetch(result.url)).status).toBe(200);
    const src = /src="([^"]+)"/.exec(result.embed)![1];
    expect(src).toBe(`${s.url}/~${user.username}/${n}.embed?share_key=${key}`);
    const embed = await fetch(src);
    expect(embed.status).toBe(200);
    expect(embed.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('tools.get_embed of a public plot (by URL and by owner and id) names an embed page that answers', async () => {
    const { user, result } = await run('plot_public_embed');
    const n = plotUrl(user).exec(result.url)![1];
    const src = `${s.url}/~${user.username}/${n}.embed`;
    expect(result.embed).toContain(`src="${src}"`);
    expect(result.embed_by_id).toContain(`src="${src}" height="400" width="600"`);
    expect((await fetch(src)).status).toBe(200);
    expect(result.figure_by_id.data).toEqual([{ type: 'scatter', x: [1, 2, 3], y: [1, 2, 1], name: 'Public' }]);
  });

  it('py.get_figure gives back the figure py.plot sent (scatter with nested arrays, bar, pie, heatmap)', async () => {
    const { result } = await run('get_figure_round_trip');
    expect(result.raw).toEqual(result.sent);
    expect(result.figure.data).toEqual(result.sent.data);
    expect(result.figure.title).toBe('Round trip');
  });

  it('grid_ops.upload, py.get_grid, and a plot made from the grid columns', async () => {
    const { user, result } = await run('grid_upload');
    expect(result.url).toMatch(plotUrl(user));
    const grid = fid(user, result.url);
    expect(result.ids).toEqual([expect.stringMatching(new RegExp(`^${grid}:[0-9a-f]{6}$`)), expect.stringMatching(new RegExp(`^${grid}:[0-9a-f]{6}$`))]);
    expect(result.columns).toEqual({ time: [1, 2, 3], label: ['a', 'b', 'c'] });
    const [time, label] = result.ids.map((id: string) => id.split(':')[2]);
    expect(result.raw).toEqual({ cols: { time: { data: [1, 2, 3], order: 0, uid: time }, label: { data: ['a', 'b', 'c'], order: 1, uid: label } } });
    expect(result.figure.data).toEqual([{ type: 'scatter', x: [1, 2, 3], y: ['a', 'b', 'c'] }]);
    expect((await fetch(result.url)).status).toBe(200);
  });

  it('grid_ops.upload with the name of an existing grid replaces it', async () => {
    const { user, result } = await run('grid_overwrite');
    expect(result.second).toMatch(plotUrl(user));
    expect(result.second).not.toBe(result.first);
    expect(result.columns).toEqual({ other: [9, 8] });
    expect((await s.call('GET', `/v2/grids/${fid(user, result.first)}`, { user })).status).toBe(404);
    expect((await lookup(user, 'grid twice')).fid).toBe(fid(user, result.second));
  });

  it('grid_ops.append_columns (by grid and by grid_url) adds columns after the others', async () => {
    const { user, result } = await run('grid_append_columns');
    const grid = fid(user, result.url);
    expect(result.columns).toEqual({ time: [1, 2, 3], label: ['a', 'b', 'c'], voltage: [10, 20, 30], ok: [true, false, true], 'by url': ['x'] });
    expect(Object.keys(result.columns)).toEqual(['time', 'label', 'voltage', 'ok', 'by url']);
    expect(result.ids).toHaveLength(4);
    expect(new Set(result.ids).size).toBe(4);
    for (const id of result.ids) expect(id).toMatch(new RegExp(`^${grid}:[0-9a-f]{6}$`));
  });

  it('grid_ops.append_rows adds rows (shorter columns padded with "" first)', async () => {
    const { result } = await run('grid_append_rows');
    expect(result.local).toEqual({ time: [1, 2, 3, 4, 5], label: ['a', 'b', 'c', 'd', 'e'] });
    expect(result.columns).toEqual(result.local);
    expect(result.uneven).toEqual({ long: [1, 2, 3, 4], short: [1, '', '', 2] });
  });

  // Once (its cost is the upload's, the same on both drivers): on PostgreSQL.
  it.skipIf(s.name !== 'postgres')(
    'grid_ops.upload and append_columns of 1,000,000 rows read back exactly as sent',
    async () => {
      // About 40 s on a loaded 2-core machine (the client makes, sends, reads and compares 4,000,000 values).
      const { result } = await run('grid_million_rows', 300_000);
      expect(result).toMatchObject({ names: ['time', 'a', 'b', 'c'], rows: [1_000_000, 1_000_000, 1_000_000, 1_000_000], equal: true });
    },
    320_000,
  );

  it('api.v2.grids column calls: col_retrieve, col_update (rename and new data), col_delete', async () => {
    const { result } = await run('grid_columns_api');
    const [time, label] = result.uids;
    expect(result.read).toEqual({
      cols: [
        { name: 'label', uid: label, order: 1, data: ['a', 'b', 'c'] },
        { name: 'time', uid: time, order: 0, data: [1, 2, 3] },
      ],
    });
    expect(result.updated).toEqual({ cols: [{ name: 'label2', uid: label }] });
    expect(result.columns).toEqual({ label2: ['p', 'q'] });
  });

  it('meta_ops.upload and grid_ops.upload(meta=...) store the grid metadata', async () => {
    const { user, result } = await run('grid_meta');
    const meta = { settings: { scope1: { model: 'Unicorn Finder', voltage: 4 } } };
    expect(ok(await s.call('GET', `/v2/grids/${result.with_meta}`, { user }), 'grid').metadata).toEqual(meta);
    expect(result.answer).toMatchObject({ fid: result.later, metadata: { experiment: 'GaAs' } });
    expect(ok(await s.call('GET', `/v2/grids/${result.later}`), 'grid').metadata).toEqual({ experiment: 'GaAs' });
  });

  it('grid_ops.delete removes the grid for good and frees its name', async () => {
    const { user, result } = await run('grid_delete');
    expect((await s.call('GET', `/v2/grids/${result.deleted}`, { user })).status).toBe(404);
    expect((await s.call('GET', `/v2/files/${result.deleted}`, { user })).status).toBe(404);
    expect(fid(user, result.again)).not.toBe(result.deleted);
  });

  it('py.image.get and py.image.save_as export png, jpeg, svg, pdf and emf', async () => {
    const { result } = await run<{ get: Record<string, Image>; sized: Image; saved: Record<string, Image> }>('images');
    for (const [format, image] of Object.entries(result.get)) expect(MAGIC[format](image.head), `${format}: ${image.head}`).toBe(true);
    expect(Object.keys(result.get).sort()).toEqual(Object.keys(MAGIC).sort());
    expect(pngSize(result.get.png.head)).toEqual([700, 500]);
    expect(pngSize(result.sized.head)).toEqual([600, 400]);
    expect(Object.keys(result.saved)).toEqual(['x.png', 'y.jpeg', 'z.pdf']);
    expect(MAGIC.png(result.saved['x.png'].head)).toBe(true);
    expect(MAGIC.jpeg(result.saved['y.jpeg'].head)).toBe(true);
    expect(MAGIC.pdf(result.saved['z.pdf'].head)).toBe(true);
  });

  it('file_ops.mkdirs makes nested folders (twice: "already exists"), and py.plot files into them', async () => {
    const { user, result } = await run('folders');
    expect(result.created).toBe(201);
    expect(result.again.status).toBe(400);
    expect(result.again.message).toContain('already exists');
    expect(result.url).toMatch(plotUrl(user));
    const folder = await lookup(user, 'reports/2026');
    expect(folder.filetype).toBe('fold');
    expect(await lookup(user, 'reports/2026/q1')).toMatchObject({ fid: fid(user, result.url), filetype: 'plot', parent: Number(folder.fid.split(':')[1]) });
    expect((await lookup(user, 'reports/2026/q1_grid')).filetype).toBe('grid');
    expect((await lookup(user, 'reports/2027')).filetype).toBe('fold');
  });

  it('dashboard_ops: upload, get_dashboard_names, get_dashboard equal, overwrite by name, secret and private sharing', async () => {
    const { user, result } = await run('dashboards');
    const boardUrl = new RegExp(`^${s.url}/~${user.username}/(\\d+)/$`);
    expect(result.url).toMatch(boardUrl);
    expect(result.names).toEqual(['my board']);
    expect(result.first_got).toEqual(result.first_sent);
    // The same name again updates the one dashboard.
    expect(result.again).toBe(result.url);
    expect(result.second_got).toEqual(result.second_sent);
    expect(result.second_got).not.toEqual(result.first_got);
    expect([...result.names_after].sort()).toEqual(['my board', 'private board', 'secret board']);
    // A plot of that name is not overwritten: the client refuses from the lookup's filetype.
    expect(result.clash).toContain("'dash a' is already a plot");
    const board = fid(user, result.url);
    const detail = ok(await s.call('GET', `/v2/dashboards/${board}`), 'anonymous, public');
    expect(JSON.parse(detail.content)).toEqual(result.second_sent);
    const secret = new RegExp(`^${s.url}/~${user.username}/(\\d+)/\\?share_key=([A-Za-z0-9_-]{16,})$`).exec(result.secret);
    expect(secret, result.secret).not.toBeNull();
    const secretFid = `${user.username}:${secret![1]}`;
    expect((await s.call('GET', `/v2/dashboards/${secretFid}`)).status).toBe(404);
    expect(ok(await s.call('GET', `/v2/dashboards/${secretFid}?share_key=${secret![2]}`), 'with the key')).toMatchObject({
      world_readable: false,
      share_key_enabled: true,
    });
    const priv = fid(user, result.private);
    expect((await s.call('GET', `/v2/dashboards/${priv}`)).status).toBe(404);
    expect(ok(await s.call('GET', `/v2/dashboards/${priv}`, { user }), 'owner')).toMatchObject({ world_readable: false, share_key_enabled: false });
  });

  it('presentation_ops: upload, read back equal, overwrite by name, secret sharing', async () => {
    const { user, result } = await run('presentations');
    expect(result.url).toMatch(new RegExp(`^${s.url}/~${user.username}/(\\d+)/$`));
    expect(result.got).toEqual(result.sent);
    expect(result.again).toBe(result.url);
    expect(result.got_again).toEqual(result.sent_again);
    expect([...result.names].sort()).toEqual(['my deck', 'secret deck']);
    // The chart slide names the plot by its embed URL.
    expect(JSON.stringify(result.sent)).toContain(`${result.chart}.embed?link=false`);
    const secret = new RegExp(`^${s.url}/~${user.username}/(\\d+)/\\?share_key=([A-Za-z0-9_-]{16,})$`).exec(result.secret);
    expect(secret, result.secret).not.toBeNull();
    const deck = `${user.username}:${secret![1]}`;
    expect((await s.call('GET', `/v2/spectacle-presentations/${deck}`)).status).toBe(404);
    const read = ok(await s.call('GET', `/v2/spectacle-presentations/${deck}?share_key=${secret![2]}`), 'with the key');
    expect(JSON.parse(read.content)).toEqual(result.sent);
    expect(read.filetype).toBe('spectacle_presentation');
  });

  it('a wrong API key: PlotlyRequestError 401 "Bad API key", nothing written', async () => {
    const { user, result } = await run('bad_key');
    expect(result).toEqual({ status: 401, message: 'Bad API key' });
    expect((await s.call('GET', '/v2/files/lookup?path=never_grid', { user })).status).toBe(404);
    expect((await s.call('GET', '/v2/files/lookup?path=never', { user })).status).toBe(404);
  });
});
