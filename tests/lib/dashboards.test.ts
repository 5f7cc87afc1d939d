// Dashboards and presentations (lib/core/documents/dashboards.ts) on both databases: the one rule for which plots
// a document shows to whom (resolvePlotRefs), creates that check their plots, content kept as sent,
// reads by the sharing rules, content updates by owners and writers, the owner's paged list, and the
// trash. Each refusal changes nothing.
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import type { Viewer } from '@/lib/core/accounts/auth';
import { addCollaborator } from '@/lib/core/files/collaborators';
import { createDocument, getDocument, listOwnDocuments, resolvePlotRefs, updateDocumentContent } from '@/lib/core/documents/dashboards';
import { deleteFile, restoreFile, trashFile } from '@/lib/core/files/file-changes';
import { fileDetail, updateFileDetail } from '@/lib/core/workspace/file-detail';
import { getFile } from '@/lib/core/files/files';
import { createPlot } from '@/lib/core/plots/plots';
import { parseFid, type Fid } from '@/lib/core/records';
import { SQL_DRIVER, useDatabase } from '../support/postgres';
import { expectApiError, fileIds, newViewer, ORIGIN, people } from './_helpers';

describe.each(SQL_DRIVER)('dashboards (%s)', (driver) => {
  const database = useDatabase(driver);
  let db: Db;
  let alice: Viewer;
  let bob: Viewer;
  let carol: Viewer;
  // alice's plots: public, private, secret (with its key), trashed.
  let pub: string;
  let priv: string;
  let secret: string;
  let secretKey: string;
  let trashed: string;

  const plot = async (owner: Viewer, title: string, extra: Record<string, unknown> = {}) => {
    const { file } = JSON.parse(await createPlot(db, owner, { figure: { data: [{ type: 'bar', name: 'one' }] }, title, filename: title, ...extra }, ORIGIN));
    return file as { fid: string; share_key?: string };
  };
  const dashboard = (...fileIds: (string | [string, string | null])[]) =>
    JSON.stringify({
      layout: fileIds.reduceRight<unknown>((rest, id) => {
        const [fileId, shareKey] = Array.isArray(id) ? id : [id, null];
        const box = { type: 'box', boxType: 'plot', fileId, shareKey, title: `box ${fileId}` };
        return rest ? { type: 'split', direction: 'vertical', size: 50, sizeUnit: '%', first: box, second: rest } : box;
      }, null as unknown),
      version: 2,
      settings: { any: 'thing' },
    });
  const deck = (src: string) =>
    JSON.stringify({ presentation: { slides: [{ children: [{ type: 'Plotly', props: { src, style: { left: 0 } }, children: [] }] }] } });
  const count = async () => Number((await queryRows<{ n: string }>(db, sql`SELECT count(*) AS n FROM documents`))[0].n);
  const fidOf = (file: { owner: string; n: number }): Fid => ({ owner: file.owner, n: file.n });

  beforeAll(async () => {
    db = database.db;
    ({ alice, bob, carol } = await people(db, 'carol'));
    pub = (await plot(alice, 'Public plot')).fid;
    priv = (await plot(alice, 'Private plot', { world_readable: false })).fid;
    const s = await plot(alice, 'Secret plot', { world_readable: false, share_key_enabled: true });
    [secret, secretKey] = [s.fid, s.share_key!];
    trashed = (await plot(alice, 'Trashed plot')).fid;
    await trashFile(db, alice, parseFid(trashed)!);
  });

  it('resolvePlotRefs: existence, sharing, share keys, trash, type, as each viewer sees them', async () => {
    const grid = 'alice:999';
    const refs = [
      { fileId: pub, shareKey: null },
      { fileId: priv, shareKey: null },
      { fileId: secret, shareKey: 'wrong' },
      { fileId: secret, shareKey: secretKey },
      { fileId: trashed, shareKey: null },
      { fileId: grid, shareKey: null },
      { fileId: 'nobody:1', shareKey: null },
      { fileId: 'garbage', shareKey: null },
      { fileId: pub.toUpperCase(), shareKey: null },
    ];
    const anon = await resolvePlotRefs(db, null, refs);
    const ids = await fileIds(db);
    // A readable plot's database id comes with it (its chart is read by it); an unreadable one's never does.
    expect(anon.get(pub)).toEqual({ readable: true, id: ids.get(pub), owner: 'alice', n: parseFid(pub)!.n, title: 'Public plot', shareKey: null });
    // Another spelling of the owner's name finds the same plot, under the owner's own name.
    expect(anon.get(pub.toUpperCase())).toMatchObject({ readable: true, owner: 'alice', title: 'Public plot' });
    expect(anon.get(priv)).toEqual({ readable: false, id: null, owner: 'alice', n: parseFid(priv)!.n, title: '', shareKey: null });
    expect(anon.get(secret)).toMatchObject({ readable: true, id: ids.get(secret), title: 'Secret plot', shareKey: secretKey });
    for (const id of [trashed, grid, 'nobody:1', 'garbage']) expect(anon.get(id)).toMatchObject({ readable: false, id: null, title: '', shareKey: null });
    const own = await resolvePlotRefs(db, alice, [{ fileId: priv, shareKey: null }]);
    expect(own.get(priv)).toMatchObject({ readable: true, id: ids.get(priv), title: 'Private plot' });
    expect((await resolvePlotRefs(db, bob, [{ fileId: priv, shareKey: null }])).get(priv)?.readable).toBe(false);
    expect((await resolvePlotRefs(db, bob, [{ fileId: secret, shareKey: 'wrong' }])).get(secret)).toMatchObject({ readable: false, title: '', shareKey: null });
    expect(await resolvePlotRefs(db, bob, [])).toEqual(new Map());
  });

  it('creates a dashboard of plots its owner can read, content kept exactly as sent; refuses missing and unreadable plots', async () => {
    const content = `${dashboard(pub, priv, [secret, secretKey])}\n`;
    const made = await createDocument(db, alice, 'dashboard', { content, filename: 'Mine' });
    expect(made.content).toBe(content);
    expect(made.file.filetype).toBe('dashboard');
    expect((await getDocument(db, fidOf(made.file), alice)).content).toBe(content);
    const before = await count();
    // bob cannot read alice's private plot, nor a plot that does not exist; a secret one with its key he can.
    const refused = await expectApiError(createDocument(db, bob, 'dashboard', { content: dashboard(pub, priv) }), 400);
    expect(refused.errors[0]).toMatchObject({ field: 'content', path: 'content.layout.second.fileId' });
    expect(refused.message).toMatch(`'${priv}' is not a plot you can read`);
    await expectApiError(createDocument(db, bob, 'dashboard', { content: dashboard('alice:12345') }), 400, /content\.layout\.fileId/);
    await expectApiError(createDocument(db, bob, 'dashboard', { content: dashboard(trashed) }), 400);
    await expectApiError(createDocument(db, bob, 'dashboard', { content: dashboard([secret, 'wrong']) }), 400);
    await expectApiError(createDocument(db, bob, 'dashboard', { content: 'not json' }), 400, /^content: /);
    // A name clash is the contract's "already exists".
    await expectApiError(createDocument(db, alice, 'dashboard', { content: dashboard(pub), filename: 'Mine' }), 400, /already exists/);
    expect(await count()).toBe(before);
    await createDocument(db, bob, 'dashboard', { content: dashboard(pub, [secret, secretKey]) });
    expect(await count()).toBe(before + 1);
  });

  it('presentations: Plotly children of this origin are checked like boxes, other sites are not', async () => {
    const [pn, sn] = [parseFid(priv)!.n, parseFid(secret)!.n];
    await expectApiError(
      createDocument(db, bob, 'spectacle_presentation', { content: deck(`${ORIGIN}/~alice/${pn}.embed?link=false`) }, { origin: ORIGIN }),
      400,
      /content\.presentation\.slides\[0\]\.children\[0\]\.props\.src/,
    );
    const ok = await createDocument(db, bob, 'spectacle_presentation', { content: deck(`${ORIGIN}/~alice/${sn}/?share_key=${secretKey}`) }, { origin: ORIGIN });
    expect(ok.file.filetype).toBe('spectacle_presentation');
    // Unnamed, each gets its type's default name.
    expect(ok.file.filename).toBe(`presentation ${ok.file.n}`);
    const unnamed = await createDocument(db, bob, 'dashboard', { content: dashboard(pub) });
    expect(unnamed.file.filename).toBe(`dashboard ${unnamed.file.n}`);
    await createDocument(db, bob, 'spectacle_presentation', { content: deck(`https://plotly.com/~alice/${pn}.embed`) }, { origin: ORIGIN });
    // Read back through the dashboard type: another type is the 404 of a missing file.
    await expectApiError(getDocument(db, fidOf(ok.file), bob, null, 'dashboard'), 404);
    expect((await getDocument(db, fidOf(ok.file), bob, null, 'spectacle_presentation')).content).toBe(ok.content);
  });

  it('reads by the sharing rules: private to its owner and collaborators, secret by its key, 404 otherwise', async () => {
    const priv1 = await createDocument(db, alice, 'dashboard', { content: dashboard(pub), world_readable: false });
    const sec = await createDocument(db, alice, 'dashboard', { content: dashboard(pub), world_readable: false, share_key_enabled: true });
    await expectApiError(getDocument(db, fidOf(priv1.file), bob), 404);
    await expectApiError(getDocument(db, fidOf(priv1.file), null), 404);
    await expectApiError(getDocument(db, fidOf(sec.file), null), 404);
    await expectApiError(getDocument(db, fidOf(sec.file), null, 'wrong'), 404);
    expect((await getDocument(db, fidOf(sec.file), null, sec.file.shareKey)).content).toBe(sec.content);
    await addCollaborator(db, alice, fidOf(priv1.file), { username: 'bob', permission: 'read' });
    expect((await getDocument(db, fidOf(priv1.file), bob)).content).toBe(priv1.content);
    // A plot's fid is not a document.
    await expectApiError(getDocument(db, parseFid(pub)!, alice), 404);
    const detail = (await fileDetail(db, alice, (await getFile(db, fidOf(sec.file), alice))!, ORIGIN)) as Record<string, unknown>;
    expect(detail).toMatchObject({ filetype: 'dashboard', deleted: false, content: sec.content, share_key: sec.file.shareKey });
    expect(detail.share_url).toBe(`${ORIGIN}/~alice/${sec.file.n}/?share_key=${sec.file.shareKey}`);
    expect(detail.api_urls).toMatchObject({ dashboards: `${ORIGIN}/v2/dashboards/alice:${sec.file.n}` });
  });

  it('updates content: the owner and write collaborators (whose kept boxes pass), not readers; other types refuse it', async () => {
    const doc = await createDocument(db, alice, 'dashboard', { content: dashboard(pub, priv), world_readable: false });
    const fid = fidOf(doc.file);
    const version = async () => Number((await queryRows<{ v: number }>(db, sql`SELECT version AS v FROM documents WHERE file_id = ${doc.file.id}`))[0].v);
    const next = dashboard(priv, pub);
    expect((await updateDocumentContent(db, alice, fid, next)).content).toBe(next);
    expect(await version()).toBe(2);
    await addCollaborator(db, alice, fid, { username: 'bob', permission: 'write' });
    await addCollaborator(db, alice, fid, { username: 'carol', permission: 'read' });
    // bob cannot read alice's private plot, but the box was there: he may keep it; he may not add it anew elsewhere.
    const bobs = dashboard(priv, pub, [secret, secretKey]);
    expect((await updateDocumentContent(db, bob, fid, bobs)).content).toBe(bobs);
    await expectApiError(updateDocumentContent(db, carol, fid, dashboard(pub)), 403);
    await expectApiError(updateDocumentContent(db, null as unknown as Viewer, fid, dashboard(pub)), 401);
    await expectApiError(updateDocumentContent(db, bob, fid, 'nope'), 400, /^content: /);
    // A writer changes the content, never the name or the sharing.
    await expectApiError(updateFileDetail(db, bob, fid, { content: bobs, filename: 'x' }, ORIGIN), 403);
    expect(await version()).toBe(3);
    expect((await getDocument(db, fid, alice)).content).toBe(bobs);
    await expectApiError(updateFileDetail(db, alice, parseFid(pub)!, { content: bobs }, ORIGIN), 400, /not a field of a plot/);
    await expectApiError(updateFileDetail(db, alice, fid, { figure: {} }, ORIGIN), 400, /not a field of a dashboard/);
    // The files' update answers the detail with the content.
    expect(await updateFileDetail(db, alice, fid, { filename: 'Renamed' }, ORIGIN)).toMatchObject({ filename: 'Renamed', content: bobs });
  });

  it("lists the owner's live documents of one type, newest first, in keyset pages", async () => {
    const dave = await newViewer(db, 'dave');
    const made = [];
    for (const name of ['d1', 'd2', 'd3']) made.push(await createDocument(db, dave, 'dashboard', { content: dashboard(pub), filename: name }));
    await createDocument(db, dave, 'spectacle_presentation', { content: deck('/x.png'), filename: 'p1' });
    const first = await listOwnDocuments(db, dave, 'dashboard', { page_size: 2 }, ORIGIN);
    expect(first.rows.map((r) => r.filename)).toEqual(['d3', 'd2']);
    expect(first.rows[0]).not.toHaveProperty('content');
    expect(first.rows[0]).toMatchObject({ deleted: false, filetype: 'dashboard', image_urls: { card: `${ORIGIN}/~dave/${made[2].file.n}.png?size=card` } });
    const second = await listOwnDocuments(db, dave, 'dashboard', { page_size: 2, cursor: first.next! }, ORIGIN);
    expect(second.rows.map((r) => r.filename)).toEqual(['d1']);
    expect(second.next).toBeNull();
    const back = await listOwnDocuments(db, dave, 'dashboard', { page_size: 2, cursor: second.previous! }, ORIGIN);
    expect(back.rows.map((r) => r.filename)).toEqual(['d3', 'd2']);
    await expectApiError(listOwnDocuments(db, dave, 'spectacle_presentation', { cursor: first.next! }, ORIGIN), 400);
    expect((await listOwnDocuments(db, dave, 'spectacle_presentation', {}, ORIGIN)).rows.map((r) => r.filename)).toEqual(['p1']);
    await trashFile(db, dave, fidOf(made[1].file), 'dashboard');
    expect((await listOwnDocuments(db, dave, 'dashboard', {}, ORIGIN)).rows.map((r) => r.filename)).toEqual(['d3', 'd1']);
    await expectApiError(getDocument(db, fidOf(made[1].file), dave), 404);
    await restoreFile(db, dave, fidOf(made[1].file), 'dashboard');
    expect((await getDocument(db, fidOf(made[1].file), dave)).content).toBe(made[1].content);
    const before = await count();
    await deleteFile(db, dave, fidOf(made[1].file), 'dashboard');
    expect(await count()).toBe(before - 1);
  });
});
