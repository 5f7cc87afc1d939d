// Stars and comments (docs/api.md "People") over HTTP, on PostgreSQL and on PGlite: every verb, the
// records' `stars` and `comments`, order_by=-stars, and each bad input a clear 4xx that changes nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMENT_MAX_CHARS } from '@/lib/shared/limits';
import { commentsPerHour } from '@/lib/core/accounts/rate-limit';
import { expectError, type TestUser } from '../support/api';
import { AUTH_REQUIRED, CREATION_TIME, DATE_MODIFIED, keysOf, pathOf } from '../support/plots';
import { servers, type Server } from '../support/servers';

type Rec = Record<string, any>;

describe.each(servers())('stars and comments, on $name', (s: Server) => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let figure: Rec;

  const newPlot = async (extra: Rec = {}) => (await s.createPlot(alice, { figure, ...extra })) as Rec;
  const detail = async (fid: string, user: TestUser | null = alice) => {
    const res = await s.call('GET', `/v2/plots/${fid}`, { user });
    expect(res.status, res.text).toBe(200);
    return res.json as Rec;
  };
  const comment = (fid: string, user: TestUser, text: unknown) => s.call('POST', `/v2/plots/${fid}/comments`, { user, body: { text } });
  const allComments = async (fid: string, user: TestUser | null) => {
    const out: Rec[] = [];
    for (let url: string | null = `/v2/plots/${fid}/comments?page_size=2`; url; ) {
      const res: { status: number; text: string; json: Rec } = await s.call('GET', url, { user });
      expect(res.status, res.text).toBe(200);
      out.push(...res.json.results);
      url = res.json.next ? pathOf(res.json.next) : null;
    }
    return out;
  };

  beforeAll(async () => {
    [alice, bob, carol] = [await s.newUser('sta'), await s.newUser('stb'), await s.newUser('stc')];
    const grid = await s.uploadGrid(alice, { x: [1, 2, 3], y: [4, 5, 6] });
    figure = { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }] };
  });

  it('stars: signed-in readers star and unstar (both idempotent); the record counts them exactly and names the newest', async () => {
    const plot = await newPlot();
    const star = (user: TestUser, method = 'POST') => s.call(method, `/v2/files/${plot.fid}/stars`, { user });
    expect((await star(bob)).json).toEqual({ starred: true, count: 1 });
    expect((await star(bob)).json).toEqual({ starred: true, count: 1 });
    // Concurrent stars count exactly.
    const many = await Promise.all([star(alice), star(carol), star(alice), star(carol)]);
    for (const res of many) expect(res.status, res.text).toBe(200);
    const rec = await detail(plot.fid, null);
    expect(rec.stars.count).toBe(3);
    expect(rec.stars.results.map((r: Rec) => r.username).sort()).toEqual([alice.username, bob.username, carol.username].sort());
    expect(rec.stars.results.every((r: Rec) => keysOf(r).join() === 'username')).toBe(true);

    const gazers = await s.call('GET', `/v2/files/${plot.fid}/stars?page_size=2`, {});
    expect(gazers.status).toBe(200);
    expect(gazers.json.results).toHaveLength(2);
    expect(keysOf(gazers.json.results[0])).toEqual(['date_starred', 'username']);
    const rest = await s.call('GET', pathOf(gazers.json.next), {});
    expect(rest.json.results).toHaveLength(1);
    expect(rest.json.next).toBeNull();

    expect((await star(bob, 'DELETE')).json).toEqual({ starred: false, count: 2 });
    expect((await star(bob, 'DELETE')).json).toEqual({ starred: false, count: 2 });
    expect((await detail(plot.fid)).stars.count).toBe(2);
  });

  it('stars: anonymous is 401, a private, trashed or missing plot the 404 of a missing one, and nothing changes', async () => {
    const priv = await newPlot({ world_readable: false });
    expectError(await s.call('POST', `/v2/files/${priv.fid}/stars`, {}), 401, AUTH_REQUIRED);
    const refused = await s.call('POST', `/v2/files/${priv.fid}/stars`, { user: bob });
    const missing = await s.call('POST', `/v2/files/${alice.username}:999999/stars`, { user: bob });
    expectError(refused, 404);
    expect(refused.text).toBe(missing.text);
    expectError(await s.call('GET', `/v2/files/${priv.fid}/stars`, { user: bob }), 404);
    // Its secret link lets its holder star it.
    const secret = await newPlot({ world_readable: false, share_key_enabled: true });
    const key = (await detail(secret.fid)).share_key;
    expect((await s.call('POST', `/v2/files/${secret.fid}/stars?share_key=${key}`, { user: bob })).json.count).toBe(1);
    const trashed = await newPlot();
    expect((await s.call('POST', `/v2/plots/${trashed.fid}/trash`, { user: alice })).status).toBe(200);
    expectError(await s.call('POST', `/v2/files/${trashed.fid}/stars`, { user: bob }), 404);
    expect((await detail(priv.fid)).stars).toEqual({ results: [], count: 0 });
  });

  it('order_by=-stars lists the most starred first (ties newest first), and stars the fewest first; pages keep the order', async () => {
    const [a, b, c] = [await newPlot(), await newPlot(), await newPlot()];
    for (const user of [alice, bob, carol]) await s.call('POST', `/v2/files/${b.fid}/stars`, { user });
    for (const user of [alice, bob]) await s.call('POST', `/v2/files/${a.fid}/stars`, { user });
    const fids = new Set([a.fid, b.fid, c.fid]);
    const walk = async (order: string) => {
      const out: Rec[] = [];
      for (let url: string | null = `/v2/plots?order_by=${order}&page_size=5`; url; ) {
        const res: { status: number; text: string; json: Rec } = await s.call('GET', url, {});
        expect(res.status, res.text).toBe(200);
        out.push(...res.json.results);
        url = res.json.next ? pathOf(res.json.next) : null;
      }
      return out;
    };
    const most = await walk('-stars');
    for (let i = 1; i < most.length; i++) expect(most[i - 1].stars.count).toBeGreaterThanOrEqual(most[i].stars.count);
    expect(most.filter((r) => fids.has(r.fid)).map((r) => r.fid)).toEqual([b.fid, a.fid, c.fid]);
    const fewest = await walk('stars');
    expect(fewest.filter((r) => fids.has(r.fid)).map((r) => r.fid)).toEqual([c.fid, a.fid, b.fid]);
    expect(fewest).toHaveLength(most.length);
    expectError(await s.call('GET', '/v2/plots?order_by=-comments', {}), 400, 'order_by');
  });

  it('comments: readers post, list newest first (paged), authors edit, authors and the owner delete; the record carries the newest', async () => {
    const plot = await newPlot();
    const first = await comment(plot.fid, bob, '  Nice chart!\r\nSee https://example.org/x?a=1  ');
    expect(first.status, first.text).toBe(201);
    expect(keysOf(first.json)).toEqual(['author', 'creation_time', 'date_modified', 'id', 'text']);
    expect(first.json).toMatchObject({ author: bob.username, text: 'Nice chart!\nSee https://example.org/x?a=1' });
    expect(first.json.creation_time).toMatch(CREATION_TIME);
    expect(first.json.date_modified).toMatch(DATE_MODIFIED);
    const ids = [first.json.id];
    for (const [user, text] of [
      [carol, 'second'],
      [alice, 'third, by the owner'],
      [bob, 'fourth'],
    ] as const)
      ids.push((await comment(plot.fid, user, text)).json.id);
    const listed = await allComments(plot.fid, null);
    expect(listed.map((c) => c.id)).toEqual([...ids].reverse());
    const rec = await detail(plot.fid, null);
    expect(rec.comments.count).toBe(4);
    expect(rec.comments.results.map((c: Rec) => c.id)).toEqual(ids.slice(1).reverse());

    const edited = await s.call('PATCH', `/v2/plots/${plot.fid}/comments/${ids[0]}`, { user: bob, body: { text: 'Edited' } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.json).toMatchObject({ id: ids[0], text: 'Edited', author: bob.username, creation_time: first.json.creation_time });
    // The author deletes their own; the owner deletes anyone's.
    expect((await s.call('DELETE', `/v2/plots/${plot.fid}/comments/${ids[0]}`, { user: bob })).status).toBe(204);
    expect((await s.call('DELETE', `/v2/plots/${plot.fid}/comments/${ids[1]}`, { user: alice })).status).toBe(204);
    expect((await allComments(plot.fid, bob)).map((c) => c.text)).toEqual(['fourth', 'third, by the owner']);
    expect((await detail(plot.fid)).comments.count).toBe(2);
  });

  it("comments: bad text, a reader touching someone else's comment, unknown ids and anonymous writers are each a clear 4xx that changes nothing", async () => {
    const plot = await newPlot();
    const own = (await comment(plot.fid, bob, 'mine')).json;
    const before = await allComments(plot.fid, alice);
    expectError(await comment(plot.fid, carol, ''), 400, 'text: A comment cannot be empty.');
    expectError(await comment(plot.fid, carol, ' \n\t '), 400, 'text: A comment cannot be empty.');
    expectError(await comment(plot.fid, carol, 'x'.repeat(COMMENT_MAX_CHARS + 1)), 400, `text: A comment can be at most`);
    expectError(await comment(plot.fid, carol, 'bell \u0007 rings'), 400, 'control characters');
    expectError(await comment(plot.fid, carol, 42), 400, 'text');
    expectError(await s.call('POST', `/v2/plots/${plot.fid}/comments`, { user: carol, body: {} }), 400, 'text: This field is required.');
    expectError(
      await s.call('POST', `/v2/plots/${plot.fid}/comments`, { user: carol, raw: '{"text": "x"', headers: { 'Content-Type': 'application/json' } }),
      400,
    );
    expectError(await comment(plot.fid, null as unknown as TestUser, 'anon'), 401, AUTH_REQUIRED);
    expect((await comment(plot.fid, carol, 'é'.repeat(COMMENT_MAX_CHARS))).status).toBe(201);

    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}/comments/${own.id}`, { user: carol, body: { text: 'hijack' } }), 403, 'Only its author');
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}/comments/${own.id}`, { user: alice, body: { text: 'owner edits' } }), 403, 'Only its author');
    expectError(await s.call('DELETE', `/v2/plots/${plot.fid}/comments/${own.id}`, { user: carol }), 403, "Only its author or the plot's owner");
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}/comments/${own.id}`, { user: bob, body: { text: '' } }), 400, 'text');
    for (const id of ['999999999', '0', 'abc', '1e3', '-1', '99999999999999999999'])
      expectError(await s.call('DELETE', `/v2/plots/${plot.fid}/comments/${id}`, { user: alice }), 404);
    // Another plot's comment id is a missing one here.
    const other = await newPlot();
    expectError(await s.call('DELETE', `/v2/plots/${other.fid}/comments/${own.id}`, { user: alice }), 404);
    expectError(await s.call('GET', `/v2/plots/${plot.fid}/comments/${own.id}`, { user: alice }), 405);

    const after = await allComments(plot.fid, alice);
    expect(after.slice(1)).toEqual(before);
    expect(after[0].text).toBe('é'.repeat(COMMENT_MAX_CHARS));
  });

  it("comments on a private plot are as private as the plot: others get the missing plot's 404 on every verb", async () => {
    const priv = await newPlot({ world_readable: false });
    const mine = (await comment(priv.fid, alice, 'private note')).json;
    const missing = await s.call('GET', `/v2/plots/${alice.username}:999998/comments`, { user: bob });
    for (const [method, path, body] of [
      ['GET', `/v2/plots/${priv.fid}/comments`, undefined],
      ['POST', `/v2/plots/${priv.fid}/comments`, { text: 'x' }],
      ['PATCH', `/v2/plots/${priv.fid}/comments/${mine.id}`, { text: 'x' }],
      ['DELETE', `/v2/plots/${priv.fid}/comments/${mine.id}`, undefined],
    ] as const) {
      const res = await s.call(method, path, { user: bob, body });
      expectError(res, 404);
      expect(res.text).toBe(missing.text);
      expectError(await s.call(method, path, { body }), method === 'GET' ? 404 : 401);
    }
    expect((await allComments(priv.fid, alice)).map((c) => c.text)).toEqual(['private note']);
  });

  it('comments turned off (PATCH comments_enabled): posting and editing are 403, the list stays readable, deleting still works; on again takes comments', async () => {
    const plot = await newPlot();
    const c = (await comment(plot.fid, bob, 'before')).json;
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: bob, body: { comments_enabled: false } }), 403);
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { comments_enabled: 'no' } }), 400, 'comments_enabled');
    const off = await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { comments_enabled: false } });
    expect(off.status, off.text).toBe(200);
    expect((await detail(plot.fid, null)).comments_enabled).toBe(false);
    expectError(await comment(plot.fid, bob, 'after'), 403, 'Comments are turned off for this plot.');
    expectError(await comment(plot.fid, alice, 'owner too'), 403, 'Comments are turned off');
    expectError(await s.call('PATCH', `/v2/plots/${plot.fid}/comments/${c.id}`, { user: bob, body: { text: 'edit' } }), 403, 'turned off');
    expect((await allComments(plot.fid, null)).map((x) => x.text)).toEqual(['before']);
    expect((await s.call('PATCH', `/v2/plots/${plot.fid}`, { user: alice, body: { comments_enabled: true } })).status).toBe(200);
    expect((await comment(plot.fid, bob, 'after')).status).toBe(201);
    expect((await s.call('DELETE', `/v2/plots/${plot.fid}/comments/${c.id}`, { user: bob })).status).toBe(204);
  });

  it("a comment flood is 429 with Retry-After once the person's hourly allowance is used, and adds nothing", async () => {
    const flooder = await s.newUser('flood');
    const plot = await newPlot();
    const limit = commentsPerHour();
    for (let i = 0; i < limit; i++) expect((await comment(plot.fid, flooder, `n${i}`)).status).toBe(201);
    const refused = await comment(plot.fid, flooder, 'one too many');
    expectError(refused, 429, `at most ${limit} comments an hour`);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await detail(plot.fid)).comments.count).toBe(limit);
    // Others still comment.
    expect((await comment(plot.fid, bob, 'still open')).status).toBe(201);
  });
});
