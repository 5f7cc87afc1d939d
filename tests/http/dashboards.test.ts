// Dashboards and spectacle presentations over HTTP (docs/api.md "Dashboards"), on PostgreSQL and on
// PGlite: every verb of both collections, the shapes Python's dashboard_ops reads, the sharing rules
// (401/403/404), what a write collaborator may do, and the bad inputs, each a clear 4xx naming its
// field that changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers } from '../support/servers';

type Rec = Record<string, any>;

describe.each(servers())('dashboards and presentations, on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let publicPlot: Rec;
  let privatePlot: Rec;
  let secretPlot: Rec;

  const box = (fileId: string, shareKey: string | null = null) => ({ type: 'box', boxType: 'plot', fileId, shareKey, title: `box ${fileId}` });
  const dashboard = (...boxes: unknown[]) =>
    JSON.stringify({
      layout: boxes.reduceRight<unknown>(
        (rest, b) => (rest ? { type: 'split', direction: 'vertical', size: 50, sizeUnit: '%', first: b, second: rest } : b),
        null,
      ),
      version: 2,
      settings: {},
    });
  const deck = (...srcs: string[]) =>
    JSON.stringify({
      presentation: { slides: srcs.map((src) => ({ children: [{ type: 'Plotly', props: { src, style: { left: 0, top: 0 } }, children: [] }] })) },
    });
  const create = async (collection: string, user: TestUser, body: Rec) => {
    const res = await s.call('POST', `/v2/${collection}`, { user, body });
    expect(res.status, res.text).toBe(201);
    return res.json.file as Rec;
  };
  const names = async (collection: string, user: TestUser) => {
    const res = await s.call('GET', `/v2/${collection}?page_size=100`, { user });
    expect(res.status, res.text).toBe(200);
    return (res.json.results as Rec[]).map((r) => r.filename);
  };

  beforeAll(async () => {
    alice = await s.newUser('dsh');
    bob = await s.newUser('dshb');
    carol = await s.newUser('dshc');
    const figure = (title: string) => ({ data: [{ type: 'bar', name: 'one' }], layout: { title: { text: title } } });
    publicPlot = await s.createPlot(alice, { figure: figure('Open chart'), title: 'Open chart' });
    privatePlot = await s.createPlot(alice, { figure: figure('Hidden chart'), title: 'Hidden chart', world_readable: false });
    secretPlot = await s.createPlot(alice, { figure: figure('Secret chart'), title: 'Secret chart', world_readable: false, share_key_enabled: true });
  });

  it('POST 201 {"file": detail}, GET the detail with content as sent, the list without it, the API root names both', async () => {
    const content = dashboard(box(publicPlot.fid), box(privatePlot.fid), box(secretPlot.fid, secretPlot.share_key));
    const file = await create('dashboards', alice, { content, filename: 'Board one', world_readable: true });
    expect(file).toMatchObject({
      filetype: 'dashboard',
      filename: 'Board one',
      owner: alice.username,
      deleted: false,
      world_readable: true,
      content,
      web_url: `${s.url}/~${alice.username}/${file.fid.split(':')[1]}/`,
      share_url: file.web_url,
      api_urls: { dashboards: `${s.url}/v2/dashboards/${file.fid}`, files: `${s.url}/v2/files/${file.fid}` },
      image_urls: { card: `${s.url}/~${alice.username}/${file.fid.split(':')[1]}.png?size=card` },
      current_user_permission: 'write',
    });
    const detail = await s.call('GET', `/v2/dashboards/${file.fid}`, { user: alice });
    expect(detail.status).toBe(200);
    expect(detail.json.content).toBe(content);
    // Anyone reads a public dashboard (its private boxes are the pages' business: they never draw them).
    const anon = await s.call('GET', `/v2/dashboards/${file.fid}`);
    expect(anon.json).toMatchObject({ content, current_user_permission: 'read' });
    const list = await s.call('GET', '/v2/dashboards', { user: alice });
    expect(list.json).toMatchObject({ next: null, previous: null });
    expect(list.json.results[0]).toMatchObject({ fid: file.fid, filename: 'Board one', deleted: false });
    expect(list.json.results[0]).not.toHaveProperty('content');
    const root = await s.call('GET', '/v2/');
    expect(root.json).toMatchObject({ dashboards: `${s.url}/v2/dashboards`, 'spectacle-presentations': `${s.url}/v2/spectacle-presentations` });
  });

  it('lists the caller\'s own only, newest first, paged by "next" (401 anonymous), each type in its collection', async () => {
    const dave = await s.newUser('dshd');
    for (const name of ['a', 'b', 'c']) await create('dashboards', dave, { content: dashboard(box(publicPlot.fid)), filename: name });
    await create('spectacle-presentations', dave, { content: deck('/not-a-plot.png'), filename: 'deck' });
    const first = await s.call('GET', '/v2/dashboards?page_size=2', { user: dave });
    expect(first.json.results.map((r: Rec) => r.filename)).toEqual(['c', 'b']);
    expect(first.json.next).toMatch(`${s.url}/v2/dashboards?page_size=2&cursor=`);
    const second = await s.call('GET', first.json.next.slice(s.url.length), { user: dave });
    expect(second.json.results.map((r: Rec) => r.filename)).toEqual(['a']);
    expect(second.json.next).toBeNull();
    expect(await names('spectacle-presentations', dave)).toEqual(['deck']);
    expect(await names('dashboards', bob)).not.toContain('a');
    expectError(await s.call('GET', '/v2/dashboards'), 401);
    expectError(await s.call('GET', '/v2/spectacle-presentations'), 401);
    expectError(await s.call('GET', '/v2/dashboards?cursor=forged'), 401);
    expectError(await s.call('GET', '/v2/dashboards?cursor=forged', { user: dave }), 400, 'cursor');
    expectError(await s.call('GET', '/v2/dashboards?page_size=1000', { user: dave }), 400, 'page_size');
  });

  it('PUT and PATCH change content and file fields; lookup finds it by path; /v2/files answers it', async () => {
    const file = await create('dashboards', alice, { content: dashboard(box(publicPlot.fid)), filename: 'Editable' });
    const next = dashboard({ type: 'box', boxType: 'text', text: 'Notes', title: 'Read me' }, box(privatePlot.fid));
    const put = await s.call('PUT', `/v2/dashboards/${file.fid}`, { user: alice, body: { content: next, filename: 'Edited', world_readable: false } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ content: next, filename: 'Edited', world_readable: false });
    const patched = await s.call('PATCH', `/v2/dashboards/${file.fid}`, { user: alice, body: { world_readable: true } });
    expect(patched.json).toMatchObject({ content: next, world_readable: true });
    const found = await s.call('GET', '/v2/files/lookup?path=Edited', { user: alice });
    expect(found.json).toMatchObject({ fid: file.fid, filetype: 'dashboard' });
    expect((await s.call('GET', '/v2/dashboards/lookup?path=Edited', { user: alice })).json.fid).toBe(file.fid);
    expectError(await s.call('GET', '/v2/spectacle-presentations/lookup?path=Edited', { user: alice }), 404);
    expectError(await s.call('GET', '/v2/plots/lookup?path=Edited', { user: alice }), 404);
    const viaFiles = await s.call('GET', `/v2/files/${file.fid}`, { user: alice });
    expect(viaFiles.json).toMatchObject({ filetype: 'dashboard', content: next });
    // Python's secret sharing: PUT /v2/files/{fid} then reads share_key, then polls share_key_enabled.
    const secret = await s.call('PUT', `/v2/files/${file.fid}`, { user: alice, body: { share_key_enabled: true, world_readable: false } });
    expect(secret.status, secret.text).toBe(200);
    expect(secret.json.share_key).toMatch(/^[\w-]{16,}$/);
    expect(secret.json.share_url).toBe(`${file.web_url}?share_key=${secret.json.share_key}`);
    expect((await s.call('GET', `/v2/files/${file.fid}`, { user: alice })).json.share_key_enabled).toBe(true);
    expect((await s.call('GET', `/v2/dashboards/${file.fid}?share_key=${secret.json.share_key}`)).json.content).toBe(next);
    expect((await s.call('GET', `/v2/dashboards/${file.fid}?share_key=${secret.json.share_key}`)).json).not.toHaveProperty('share_key');
    expectError(await s.call('GET', `/v2/dashboards/${file.fid}?share_key=wrong`), 404);
    // A folder's children name it, without content.
    const folder = await s.call('POST', '/v2/folders', { user: alice, body: { path: 'boards' } });
    await s.call('PATCH', `/v2/dashboards/${file.fid}`, { user: alice, body: { parent_path: 'boards' } });
    const children = await s.call('GET', `/v2/folders/${folder.json.file.fid}`, { user: alice });
    expect(children.json.children.results).toEqual([expect.objectContaining({ fid: file.fid, filetype: 'dashboard' })]);
    expect(children.json.children.results[0]).not.toHaveProperty('content');
  });

  it('trash, restore and permanent_delete as for other files; only the owner', async () => {
    const file = await create('spectacle-presentations', alice, {
      content: deck(`${s.url}/~${alice.username}/${publicPlot.fid.split(':')[1]}.embed?link=false`),
    });
    const path = `/v2/spectacle-presentations/${file.fid}`;
    expectError(await s.call('POST', `${path}/trash`, { user: bob }), 403);
    expectError(await s.call('POST', `/v2/dashboards/${file.fid}/trash`, { user: alice }), 404);
    expect((await s.call('POST', `${path}/trash`, { user: alice })).status).toBe(200);
    expectError(await s.call('GET', path, { user: alice }), 404);
    expect(await names('spectacle-presentations', alice)).not.toContain(file.filename);
    expect((await s.call('POST', `${path}/restore`, { user: alice })).status).toBe(200);
    expect((await s.call('GET', path, { user: alice })).status).toBe(200);
    expect((await s.call('DELETE', `${path}/permanent_delete`, { user: alice })).status).toBe(204);
    expectError(await s.call('GET', path, { user: alice }), 404);
  });

  it('private: 404 to others and anonymous callers; a write collaborator PUTs content but not trash; a reader neither', async () => {
    const file = await create('dashboards', alice, { content: dashboard(box(privatePlot.fid)), world_readable: false });
    const path = `/v2/dashboards/${file.fid}`;
    expectError(await s.call('GET', path), 404);
    expectError(await s.call('GET', path, { user: bob }), 404);
    expectError(await s.call('PUT', path, { user: bob, body: { content: dashboard() } }), 404);
    expectError(await s.call('PUT', path, { body: { content: dashboard() } }), 401);
    await s.call('POST', `/v2/files/${file.fid}/collaborators`, { user: alice, body: { username: bob.username, permission: 'write' } });
    await s.call('POST', `/v2/files/${file.fid}/collaborators`, { user: alice, body: { username: carol.username, permission: 'read' } });
    // bob keeps alice's private box (he cannot read that plot) and adds a public one.
    const bobs = dashboard(box(privatePlot.fid), box(publicPlot.fid));
    const put = await s.call('PUT', path, { user: bob, body: { content: bobs } });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ content: bobs, current_user_permission: 'write' });
    expectError(await s.call('PUT', path, { user: bob, body: { content: bobs, world_readable: true } }), 403, 'owner');
    expectError(await s.call('POST', `${path}/trash`, { user: bob }), 403);
    expectError(await s.call('PUT', path, { user: carol, body: { content: dashboard() } }), 403);
    expect((await s.call('GET', path, { user: carol })).json).toMatchObject({ content: bobs, current_user_permission: 'read' });
  });

  it('bad input: 400 naming the field, nothing changes', async () => {
    const file = await create('dashboards', alice, { content: dashboard(box(publicPlot.fid)), filename: 'Guarded' });
    const path = `/v2/dashboards/${file.fid}`;
    const before = await names('dashboards', alice);
    const bad = async (method: string, url: string, body: unknown, needle: string | RegExp, field = 'content', status = 400) => {
      const res = await s.call(method, url, { user: alice, body });
      expectError(res, status, needle);
      if (status === 400) expect(res.json.errors[0].field).toBe(field);
    };
    await bad('POST', '/v2/dashboards', {}, 'content: This field is required.');
    await bad('POST', '/v2/dashboards', { content: 'not json' }, /content: must be a string holding JSON/);
    await bad('POST', '/v2/dashboards', { content: '[1,2]' }, 'content: must be a string holding a JSON object');
    await bad('POST', '/v2/dashboards', { content: { layout: null } }, 'content:');
    await bad('POST', '/v2/dashboards', { content: dashboard(box('nobody:1')) }, "content.layout.fileId: 'nobody:1' is not a plot you can read");
    const bobs = await s.call('POST', '/v2/dashboards', { user: bob, body: { content: dashboard(box(publicPlot.fid), box(privatePlot.fid)) } });
    expectError(bobs, 400, 'content.layout.second.fileId');
    expect(bobs.json.errors[0]).toMatchObject({ field: 'content', path: 'content.layout.second.fileId' });
    await bad('POST', '/v2/dashboards', { content: dashboard({ type: 'box', boxType: 'movie' }) }, 'content.layout.boxType');
    await bad('POST', '/v2/dashboards', { content: dashboard(box(publicPlot.fid)), filename: 'Guarded' }, 'already exists', 'filename');
    await bad('POST', '/v2/dashboards', { content: dashboard(), world_readable: 'yes' }, 'world_readable', 'world_readable');
    await bad('POST', '/v2/dashboards', { content: JSON.stringify({ layout: null, pad: 'x'.repeat(1024 * 1024) }) }, 'at most 1 MiB');
    const huge = await s.call('POST', '/v2/dashboards', {
      user: alice,
      raw: JSON.stringify({ content: 'x'.repeat(11 * 1024 * 1024) }),
      headers: { 'Content-Type': 'application/json' },
    });
    expectError(huge, 413, '10 MiB');
    await bad('POST', '/v2/spectacle-presentations', { content: dashboard() }, 'content.presentation');
    await bad(
      'POST',
      '/v2/spectacle-presentations',
      { content: deck(`${s.url}/~${alice.username}/999999.embed`) },
      'content.presentation.slides[0].children[0].props.src',
    );
    await bad('PUT', path, { content: 'not json' }, 'content: must be a string holding JSON');
    await bad('PUT', path, { figure: { data: [] } }, 'not a field of a dashboard', 'figure');
    await bad('PUT', `/v2/plots/${publicPlot.fid}`, { content: dashboard() }, 'not a field of a plot');
    await bad('PUT', `/v2/files/${publicPlot.fid}`, { content: dashboard() }, 'not a field of a plot');
    // Unknown fields are ignored (as for every file type), not stored.
    const ignored = await s.call('PATCH', path, { user: alice, body: { colour: 'red' } });
    expect(ignored.status).toBe(200);
    expect(ignored.json).not.toHaveProperty('colour');
    expect((await s.call('GET', path, { user: alice })).json.content).toBe(dashboard(box(publicPlot.fid)));
    expect(await names('dashboards', alice)).toEqual(before);
    expectError(await s.call('GET', '/v2/dashboards/nobody:0', { user: alice }), 404);
    expectError(await s.call('GET', `/v2/dashboards/${publicPlot.fid}`, { user: alice }), 404);
    expectError(await s.call('DELETE', '/v2/dashboards', { user: alice }), 405);
  });

  it('GET schema: a JSON Schema document of each format with its limits', async () => {
    const d = await s.call('GET', '/v2/dashboards/schema');
    expect(d.status).toBe(200);
    expect(d.json).toMatchObject({ title: 'Dashboard content', type: 'object' });
    expect(d.json.description).toMatch(/1048576 bytes/);
    const p = await s.call('GET', '/v2/spectacle-presentations/schema');
    expect(p.json.title).toBe('Spectacle presentation content');
    expect(p.text).toContain('CodePane');
  });

  it("a presentation's page carries its first slide, the others come a few at a time from /slides with the page's permissions", async () => {
    const text = (k: number) => ({
      type: 'Text',
      props: { style: { left: `${k}%`, top: '10%', width: '50%', height: '20%' } },
      children: [`marker-slide-${k}`],
    });
    const slides = (n: number, shift = 0) =>
      JSON.stringify({ presentation: { slides: Array.from({ length: n }, (_, i) => ({ children: [text(i + 1 + shift)] })) } });
    const open = await create('spectacle-presentations', alice, { content: slides(5), filename: 'Lazy deck', world_readable: true });
    const [, n] = open.fid.split(':');
    const page = await s.call('GET', `/~${alice.username}/${n}/`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('marker-slide-1');
    expect(page.text).toContain('5 slides');
    for (const k of [2, 3, 4, 5]) expect(page.text).not.toContain(`marker-slide-${k}`);
    const more = await s.call('GET', `/~${alice.username}/${n}/slides?from=2`);
    expect(more.status, more.text).toBe(200);
    expect(more.headers.get('cache-control')).toBe('private, no-store');
    expect(more.json.count).toBe(5);
    expect(more.json.from).toBe(2);
    expect(more.json.slides.map((sl: Rec) => sl.items[0].lines[0])).toEqual(['marker-slide-2', 'marker-slide-3', 'marker-slide-4']);
    expect((await s.call('GET', `/~${alice.username}/${n}/slides?from=5`)).json.slides).toHaveLength(1);
    expect((await s.call('GET', `/~${alice.username}/${n}/slides?from=6`)).json.slides).toEqual([]);
    for (const bad of ['', '?from=0', '?from=abc', '?from=1.5']) expectError(await s.call('GET', `/~${alice.username}/${n}/slides${bad}`), 400, 'from');

    // A private deck: the 404 of a missing one to anyone who may not read it; its owner reads it.
    const closed = await create('spectacle-presentations', alice, { content: slides(3), filename: 'Closed deck', world_readable: false });
    const closedPath = `/~${alice.username}/${closed.fid.split(':')[1]}/slides?from=2`;
    const missing = await s.call('GET', `/~${alice.username}/999999/slides?from=2`);
    expectError(missing, 404);
    for (const user of [undefined, bob]) {
      const refused = await s.call('GET', closedPath, { user });
      expect([refused.status, refused.text]).toEqual([missing.status, missing.text]);
    }
    expect((await s.call('GET', closedPath, { user: alice })).json.slides).toHaveLength(2);
    // A dashboard is no presentation.
    const board = await create('dashboards', alice, { content: dashboard(box(publicPlot.fid)), world_readable: true });
    expectError(await s.call('GET', `/~${alice.username}/${board.fid.split(':')[1]}/slides?from=1`), 404);

    // Its card (no plot anyone may read): the same picture each time, another once its content changes.
    const card = async () => {
      const res = await fetch(`${s.url}/~${alice.username}/${n}.png?size=card`, { redirect: 'manual' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      return Buffer.from(await res.arrayBuffer()).toString('base64');
    };
    const first = await card();
    expect(await card()).toBe(first);
    const put = await s.call('PUT', `/v2/spectacle-presentations/${open.fid}`, { user: alice, body: { content: slides(5, 40) } });
    expect(put.status, put.text).toBe(200);
    expect(await card()).not.toBe(first);
    expect((await s.call('GET', `/~${alice.username}/${n}/slides?from=2`)).json.slides[0].items[0].lines[0]).toBe('marker-slide-42');
  });
});
