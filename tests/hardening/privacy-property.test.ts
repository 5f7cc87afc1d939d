// Privacy as a property: a random world of users, grids and plots (public, private, or secret with a
// share key; some shared by name with a friend to read or write, some shared and unshared again, some
// in a folder shared with the friend and some moved out of it), every URL that names a file asked by
// every kind of caller (anonymous, owner, another user, the friend, a wrong share key, the right one),
// plus the lists, the feed and the pages that gather files. Dashboards and presentations show plots
// of every visibility: their pages draw a plot only for a reader of that plot (or of a share key the
// document gives with it).
// Private files carry unique markers in their names, titles, captions and unreferenced columns:
// no answer may hold a marker its caller may not read, a refused file is byte for byte the 404 of a
// missing one, lists hold public plots only, and only the page views that were served are counted
// (once per visitor a day: each signed-in caller, and the signed-out callers, all of one address, as one).
// A secret file's key (its bearer link) is its owner's: no page or answer holds it for anyone else
// (collaborators included, direct or through a folder, and removed ones), bar the request that came with it.
// HARDENING_SEED=n replays one world.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { prng } from '@/lib/core/setup/demo';
import { appDatabase, baseUrl, call, canonical, createPlot, newUser, uploadGrid, type TestUser } from '../support/api';

const SEED = Number(process.env.HARDENING_SEED ?? randomBytes(4).readUInt32LE());
const USERS = 3;
/** File numbers in the range canonical() masks; the "missing" twin of every URL names MISSING_N. */
const BASE_N = 4_600_000;
const MISSING_N = 4_799_999;
const MISSING_NAME = 'no such file here';

// A seeded generator, so a failing world can be replayed.
const random = prng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
const marker = () =>
  `PRIV${Math.floor(random() * 2 ** 32)
    .toString(16)
    .padStart(8, '0')}X`;

type Visibility = 'public' | 'private' | 'secret';
interface World {
  users: (TestUser & { index: number })[];
  /** A user who owns nothing: some files are shared with them by name (FileInfo.shared). */
  friend: TestUser & { index: number };
  files: FileInfo[];
  /** Markers only their owner's workspace may show: a private folder's name, a trashed private plot's. */
  hidden: { owner: number; marker: string; folder: number }[];
}
interface FileInfo {
  kind: 'plot' | 'grid' | 'dashboard' | 'presentation';
  owner: number;
  fid: string;
  n: number;
  filename: string;
  visibility: Visibility;
  shareKey: string | null;
  /** The text that must never reach anyone who may not read this file (null for public files). */
  marker: string | null;
  /** What the friend may do with it by name (its own share or its folder's), null for nothing. */
  shared: 'read' | 'write' | null;
  /** How it came to be shared or not, for failure messages. */
  how: string;
  /** Its path among its owner's files (what a lookup names). */
  path: string;
  /** A document's secret plots given with their share keys: its readers may see those plots on its pages. */
  grants?: string[];
}

type Caller = { label: string; user: number | null; key: 'none' | 'wrong' | 'right' };

const visibilityBody = (v: Visibility) => (v === 'public' ? {} : { world_readable: false, ...(v === 'secret' ? { share_key_enabled: true } : {}) });

async function buildWorld(): Promise<World> {
  const { db } = await appDatabase();
  const users = [];
  for (let i = 0; i < USERS; i++) {
    const user = await newUser('prop');
    await queryRows(db, sql`UPDATE users SET file_counter = ${BASE_N + i * 1000} WHERE username = ${user.username}`);
    users.push({ ...user, index: i });
  }
  const friend = { ...(await newUser('friend')), index: USERS };
  // Shares some of a file with the friend (its owner's call), some of them taken back at once.
  const shareSome = async (owner: TestUser, fid: string): Promise<Pick<FileInfo, 'shared' | 'how'>> => {
    const roll = random();
    if (roll >= 0.6) return { shared: null, how: 'not shared' };
    const permission = roll < 0.25 ? 'read' : 'write';
    const added = await call('POST', `/v2/files/${fid}/collaborators`, { user: owner, body: { username: friend.username, permission } });
    expect(added.status, added.text).toBe(201);
    if (roll < 0.45) return { shared: permission, how: `shared to ${permission}` };
    expect((await call('DELETE', `/v2/files/${fid}/collaborators/${friend.username}`, { user: owner })).status).toBe(204);
    return { shared: null, how: 'shared, then unshared' };
  };
  const files: FileInfo[] = [];
  const grids: (FileInfo & { src: (...names: string[]) => string })[] = [];
  for (const user of users) {
    for (let g = 0; g < 3; g++) {
      const visibility = pick(['public', 'private', 'secret'] as const);
      const secret = visibility === 'public' ? null : marker();
      const filename = `grid ${g}${secret ? ` ${secret}` : ''}`;
      // x and y are what plots reference (their values become public with a public plot); `notes`
      // is referenced by no plot, so its values belong to the grid alone.
      const grid = await uploadGrid(
        user,
        { x: [1, 2, 3], y: [3, 1, 2], notes: [secret ?? 'public note', 'n2', 'n3'] },
        { filename, ...visibilityBody(visibility) },
      );
      const meta = await call('GET', `/v2/grids/${grid.fid}`, { user });
      const info = {
        kind: 'grid' as const,
        owner: user.index,
        fid: grid.fid,
        n: Number(grid.fid.split(':')[1]),
        filename,
        visibility,
        shareKey: meta.json.share_key ?? null,
        marker: secret,
        src: grid.src,
        path: filename,
        ...(await shareSome(user, grid.fid)),
      };
      if (visibility === 'secret') expect(info.shareKey, 'a secret grid has a share key').toEqual(expect.any(String));
      grids.push(info);
      files.push(info);
    }
  }
  for (const user of users) {
    for (let p = 0; p < 4; p++) {
      const visibility = pick(['public', 'private', 'secret'] as const);
      const secret = visibility === 'public' ? null : marker();
      // Own grids of any visibility, or another user's public grid (the only ones a figure may use).
      const usable = grids.filter((g) => g.owner === user.index || g.visibility === 'public');
      const grid = pick(usable);
      const filename = `plot ${p}${secret ? ` ${secret}` : ''}`;
      const plot = await createPlot(user, {
        filename,
        ...(secret ? { title: `title ${secret}`, caption: `caption ${secret}` } : {}),
        ...visibilityBody(visibility),
        figure: {
          data: [{ type: pick(['scatter', 'bar']), xsrc: grid.src('x'), ysrc: grid.src('y'), name: secret ? `trace ${secret}` : 'trace' }],
          layout: { title: { text: secret ? `layout ${secret}` : 'layout' } },
        },
      });
      // Its owner comments (the marker again: a comment is as private as its plot) and stars it.
      expect((await call('POST', `/v2/plots/${plot.fid}/comments`, { user, body: { text: `comment ${secret ?? 'in public'}` } })).status).toBe(201);
      expect((await call('POST', `/v2/files/${plot.fid}/stars`, { user })).status).toBe(200);
      files.push({
        kind: 'plot',
        owner: user.index,
        fid: plot.fid,
        n: Number(plot.fid.split(':')[1]),
        filename,
        visibility,
        shareKey: plot.share_key ?? null,
        marker: secret,
        path: filename,
        ...(await shareSome(user, plot.fid)),
      });
    }
  }
  // Where the friend writes a plot and reads a private grid of its owner, they chart that grid's
  // unreferenced column (its marker) beside what the plot drew: a writer's src publishes nothing of
  // the owner's, so the marker still reaches only those who may read the grid (lib/core/plots/srcs.ts).
  for (const plot of files.filter((f) => f.kind === 'plot' && f.shared === 'write')) {
    const grid = grids.find((g) => g.owner === plot.owner && g.marker && g.shared !== null);
    if (!grid) continue;
    const figure = (await call('GET', `/v2/plots/${plot.fid}/content`, { user: friend })).json;
    figure.data.push({ type: 'bar', name: 'added by a writer', ysrc: grid.src('notes') });
    const saved = await call('PATCH', `/v2/plots/${plot.fid}`, { user: friend, body: { figure } });
    expect(saved.status, saved.text).toBe(200);
    plot.how += `, charting ${grid.fid}'s notes`;
  }
  // A private folder of each owner shared with the friend: a private plot in it is theirs to see (or
  // edit), and one moved out of it is not any more.
  for (const user of users) {
    const team = `team ${user.index}`;
    const folder = await call('POST', '/v2/folders', { user, body: { path: team } });
    expect(folder.status).toBe(201);
    expect((await call('PATCH', `/v2/folders/${folder.json.file.fid}`, { user, body: { world_readable: false } })).status).toBe(200);
    const permission = pick(['read', 'write'] as const);
    expect((await call('POST', `/v2/files/${folder.json.file.fid}/collaborators`, { user, body: { username: friend.username, permission } })).status).toBe(201);
    const grid = grids.find((g) => g.owner === user.index)!;
    for (const stays of [true, false]) {
      const secret = marker();
      const filename = `${stays ? 'in team' : 'left team'} ${secret}`;
      // Some with a secret link: its key is the owner's, not the folder's collaborators'.
      const keyed = random() < 0.5;
      const plot = await createPlot(user, {
        filename,
        title: `title ${secret}`,
        world_readable: false,
        ...(keyed ? { share_key_enabled: true } : {}),
        parent_path: team,
        figure: { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }] },
      });
      if (!stays) expect((await call('PATCH', `/v2/plots/${plot.fid}`, { user, body: { parent: -1 } })).status).toBe(200);
      files.push({
        kind: 'plot',
        owner: user.index,
        fid: plot.fid,
        n: Number(plot.fid.split(':')[1]),
        filename,
        visibility: keyed ? 'secret' : 'private',
        shareKey: plot.share_key ?? null,
        marker: secret,
        shared: stays ? permission : null,
        how: stays ? `in a folder shared to ${permission}` : 'moved out of a shared folder',
        path: stays ? `${team}/${filename}` : filename,
      });
    }
  }
  // Each owner's dashboard and presentation, of any visibility, marked in their names and content,
  // showing the owner's plots of every visibility, a secret one sometimes with its share key.
  for (const user of users) {
    const own = files.filter((f) => f.kind === 'plot' && f.owner === user.index);
    for (const kind of ['dashboard', 'presentation'] as const) {
      const visibility = pick(['public', 'private', 'secret'] as const);
      const secret = visibility === 'public' ? null : marker();
      const filename = `${kind}${secret ? ` ${secret}` : ''}`;
      const shown = [pick(own), pick(own), pick(own)].map((plot) => ({ plot, key: plot.shareKey && random() < 0.5 ? plot.shareKey : null }));
      const note = `note ${secret ?? 'in public'}`;
      const content =
        kind === 'dashboard'
          ? {
              layout: shown.reduceRight<unknown>(
                (rest, { plot, key }, i) => {
                  const box = { type: 'box', boxType: 'plot', fileId: plot.fid, shareKey: key, title: `box ${i}` };
                  return { type: 'split', direction: 'horizontal', size: 50, sizeUnit: '%', first: box, second: rest };
                },
                { type: 'box', boxType: 'text', text: note, title: 'Notes' },
              ),
              version: 2,
              settings: {},
            }
          : {
              presentation: {
                slides: [
                  { children: [{ type: 'Text', children: [note], props: { style: { left: 0, top: 0 } } }] },
                  ...shown.map(({ plot, key }) => ({
                    children: [
                      {
                        type: 'Plotly',
                        children: [],
                        props: {
                          src: `${baseUrl()}/~${user.username}/${plot.n}${key ? `/?share_key=${key}` : '.embed?link=false'}`,
                          style: { left: 0, top: 0 },
                        },
                      },
                    ],
                  })),
                ],
              },
            };
      const made = await call('POST', `/v2/${kind === 'dashboard' ? 'dashboards' : 'spectacle-presentations'}`, {
        user,
        body: { filename, content: JSON.stringify(content), ...visibilityBody(visibility) },
      });
      expect(made.status, made.text).toBe(201);
      const file = made.json.file;
      files.push({
        kind,
        owner: user.index,
        fid: file.fid,
        n: Number(String(file.fid).split(':')[1]),
        filename,
        visibility,
        shareKey: file.share_key ?? null,
        marker: secret,
        path: filename,
        grants: shown.filter((s) => s.key).map((s) => s.plot.fid),
        ...(await shareSome(user, file.fid)),
      });
    }
  }
  // Each owner's workspace holds more: a private folder with a private plot in it, and a private plot
  // in the trash, all marked.
  const hidden: World['hidden'] = [];
  for (const user of users) {
    const folderMarker = marker();
    const folder = await call('POST', '/v2/folders', { user, body: { path: `folder ${folderMarker}` } });
    expect(folder.status).toBe(201);
    expect((await call('PATCH', `/v2/folders/${folder.json.file.fid}`, { user, body: { world_readable: false } })).status).toBe(200);
    const folderN = Number(String(folder.json.file.fid).split(':')[1]);
    const grid = grids.find((g) => g.owner === user.index)!;
    const insideMarker = marker();
    await createPlot(user, {
      filename: `inside ${insideMarker}`,
      world_readable: false,
      parent_path: `folder ${folderMarker}`,
      figure: { data: [{ xsrc: grid.src('x') }] },
    });
    const trashedMarker = marker();
    const trashed = await createPlot(user, { filename: `trashed ${trashedMarker}`, world_readable: false, figure: { data: [{ xsrc: grid.src('x') }] } });
    expect((await call('POST', `/v2/files/${trashed.fid}/trash`, { user })).status).toBe(200);
    for (const m of [folderMarker, insideMarker, trashedMarker]) hidden.push({ owner: user.index, marker: m, folder: folderN });
  }
  return { users, friend, files, hidden };
}

const PLOT_PATHS = [
  (o: string, n: number) => `/v2/plots/${o}:${n}`,
  (o: string, n: number) => `/v2/plots/${o}:${n}/content`,
  (o: string, n: number) => `/v2/plots/${o}:${n}/content?inline_data=true`,
  (o: string, n: number) => `/v2/plots/${o}:${n}/content?inline_data=true&map_data=unreadable`,
  (o: string, n: number) => `/v2/plots/${o}:${n}/content?map_data=unreadable`,
  (o: string, n: number) => `/v2/files/${o}:${n}`,
  (o: string, n: number) => `/v2/plots/${o}:${n}/comments`,
  (o: string, n: number) => `/v2/files/${o}:${n}/stars`,
  (o: string, n: number) => `/~${o}/${n}/`,
  (o: string, n: number) => `/~${o}/${n}.embed`,
  (o: string, n: number) => `/~${o}/${n}/data-table`,
  (o: string, n: number) => `/~${o}/${n}/data-table?page=2`,
  (o: string, n: number) => `/~${o}/${n}.json`,
  (o: string, n: number) => `/~${o}/${n}.csv`,
  (o: string, n: number) => `/~${o}/${n}.png`,
  (o: string, n: number) => `/~${o}/${n}.png?size=list-thumb`,
];
const DOCUMENT_PATHS = (collection: string) => [
  (o: string, n: number) => `/v2/${collection}/${o}:${n}`,
  (o: string, n: number) => `/v2/files/${o}:${n}`,
  (o: string, n: number) => `/~${o}/${n}/`,
  (o: string, n: number) => `/~${o}/${n}/embed`,
  (o: string, n: number) => `/~${o}/${n}.embed`,
  (o: string, n: number) => `/~${o}/${n}.png?size=card`,
];
const GRID_PATHS = [
  (o: string, n: number) => `/v2/grids/${o}:${n}`,
  (o: string, n: number) => `/v2/grids/${o}:${n}/content`,
  (o: string, n: number) => `/v2/files/${o}:${n}`,
  (o: string, n: number) => `/~${o}/${n}/`,
  (o: string, n: number) => `/~${o}/${n}.csv`,
];

const PATHS: Record<FileInfo['kind'], ((o: string, n: number) => string)[]> = {
  plot: PLOT_PATHS,
  grid: GRID_PATHS,
  dashboard: DOCUMENT_PATHS('dashboards'),
  // A presentation's slides after the first come from /slides, with the page's permissions.
  presentation: [...DOCUMENT_PATHS('spectacle-presentations'), (o: string, n: number) => `/~${o}/${n}/slides?from=1`],
};
const isDocument = (f: FileInfo) => f.kind === 'dashboard' || f.kind === 'presentation';

interface Reply {
  status: number;
  type: string | null;
  text: string;
}

async function ask(path: string, auth: string | null): Promise<Reply> {
  const res = await fetch(`${baseUrl()}${path}`, { headers: auth ? { Authorization: auth } : {}, redirect: 'manual' });
  const bytes = new Uint8Array(await res.arrayBuffer());
  // Images are compared as bytes; their text form is only searched for markers.
  return { status: res.status, type: res.headers.get('content-type'), text: Buffer.from(bytes).toString('latin1') };
}

const withKey = (path: string, key: string) => `${path}${path.includes('?') ? '&' : '?'}share_key=${encodeURIComponent(key)}`;
const isPage = (path: string) => path.startsWith('/~');

/** Runs `jobs` a few at a time (the app is one process on two cores). */
async function inBatches<T>(jobs: (() => Promise<T>)[], width = 8): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += width) out.push(...(await Promise.all(jobs.slice(i, i + width).map((j) => j()))));
  return out;
}

describe(`privacy property (HARDENING_SEED=${SEED})`, () => {
  let world: World;
  /** The visitors each plot's page was served to: a signed-in user, or `anonymous` (every signed-out caller comes from one address). */
  const servedPageViews = new Map<string, Set<string>>();

  beforeAll(async () => {
    console.log(`[privacy] HARDENING_SEED=${SEED}`);
    world = await buildWorld();
    expect(world.files.filter((f) => f.visibility !== 'public').length).toBeGreaterThan(0);
  });

  /** Markers the caller may not see in an answer to `path` (a share key opens only its own file). */
  const forbidden = (caller: Caller, path: string, key: string | null) => [
    ...world.files
      .filter(
        (f) =>
          f.marker &&
          f.owner !== caller.user &&
          !(key && f.shareKey === key && pathNames(path, f)) &&
          !sharedWith(caller, f) &&
          !grantedBy(caller, path, key, f),
      )
      .map((f) => f.marker!),
    ...world.hidden.filter((h) => h.owner !== caller.user).map((h) => h.marker),
  ];
  /** The share keys the caller may not be shown in an answer to `path`: every file's but their own, the
   * one they came with, and those a document they read gives with its plots. Being a collaborator does
   * not count: the key is the owner's. */
  const forbiddenKeys = (caller: Caller, path: string, key: string | null) =>
    world.files
      .filter((f) => f.shareKey && f.owner !== caller.user && f.shareKey !== key && !grantedBy(caller, path, key, f))
      .map((f) => ({ key: f.shareKey!, of: `${f.kind} ${f.fid} (${f.how})` }));
  /** The problems of an answer holding a key the caller may not see (a wrong key the caller sent is not searched). */
  const keyLeaks = (caller: Caller, path: string, key: string | null, text: string) => {
    const seen = key ? text.split(key).join('') : text;
    return forbiddenKeys(caller, path, key)
      .filter((k) => seen.includes(k.key))
      .map((k) => `holds the share key of ${k.of}`);
  };
  /** Whether `path` is the page of a document the caller reads that gives plot `f` with its share key. */
  const grantedBy = (caller: Caller, path: string, key: string | null, f: FileInfo) =>
    world.files.some(
      (d) =>
        d.grants?.includes(f.fid) &&
        pathNames(path, d) &&
        (d.visibility === 'public' || d.owner === caller.user || sharedWith(caller, d) || (key !== null && key === d.shareKey)),
    );
  /** Whether the caller is the friend and the file is shared with them by name. */
  const sharedWith = (caller: Pick<Caller, 'user'>, f: FileInfo) => caller.user === world.friend.index && f.shared !== null;
  const pathNames = (path: string, f: FileInfo) => {
    const owner = world.users[f.owner].username;
    return (
      path.includes(`${owner}:${f.n}`) ||
      path.startsWith(`/~${owner}/${f.n}/`) ||
      path.startsWith(`/~${owner}/${f.n}.`) ||
      path === `/v2/files/lookup?path=${encodeURIComponent(f.path)}&user=${owner}`
    );
  };

  it('every URL of every file, asked by every kind of caller: the readable get it, the rest get the 404 of a missing file, and no marker leaks', async () => {
    const checks: (() => Promise<string | null>)[] = [];
    let asked = 0;
    for (const file of world.files) {
      const owner = world.users[file.owner];
      const other = world.users[(file.owner + 1) % USERS];
      const callers: (Caller & { auth: string | null })[] = [
        { label: 'anonymous', user: null, key: 'none', auth: null },
        { label: 'owner', user: owner.index, key: 'none', auth: owner.auth },
        { label: 'other user', user: other.index, key: 'none', auth: other.auth },
        { label: `the friend (${file.how})`, user: world.friend.index, key: 'none', auth: world.friend.auth },
        { label: 'anonymous, wrong share key', user: null, key: 'wrong', auth: null },
        { label: 'other user, right share key', user: other.index, key: 'right', auth: other.auth },
        { label: 'anonymous, right share key', user: null, key: 'right', auth: null },
      ];
      const paths = [
        ...PATHS[file.kind].map((p) => ({ path: p(owner.username, file.n), missing: p(owner.username, MISSING_N) })),
        {
          path: `/v2/files/lookup?path=${encodeURIComponent(file.path)}&user=${owner.username}`,
          missing: `/v2/files/lookup?path=${encodeURIComponent(MISSING_NAME)}&user=${owner.username}`,
        },
      ];
      for (const caller of callers) {
        if (caller.key === 'right' && !file.shareKey) continue;
        const key = caller.key === 'none' ? null : caller.key === 'wrong' ? `wrong${file.shareKey ?? 'key'}` : file.shareKey;
        const lookup = (p: string) => p.startsWith('/v2/files/lookup');
        for (const { path, missing } of paths) {
          // A share key opens the file at its own URLs; a lookup by path takes none.
          const keyed = key && !lookup(path) ? key : null;
          const readable = file.visibility === 'public' || caller.user === file.owner || (!!keyed && keyed === file.shareKey) || sharedWith(caller, file);
          const url = keyed ? withKey(path, keyed) : path;
          asked++;
          checks.push(async () => {
            const got = await ask(url, caller.auth);
            const problems: string[] = [];
            if (url.match(/^\/~[^/]+\/\d+\/(\?|$)/) && got.status === 200 && file.kind === 'plot')
              servedPageViews.set(file.fid, (servedPageViews.get(file.fid) ?? new Set()).add(caller.user === null ? 'anonymous' : `user ${caller.user}`));
            // A document's card image may send its readers on to the image of a plot anyone may read.
            const redirected = got.status === 302 && isDocument(file) && path.includes('.png');
            if (readable && got.status !== 200 && !redirected) problems.push(`expected 200, got ${got.status}`);
            if (got.status >= 500) problems.push(`answered ${got.status}`);
            if (!readable) {
              const twin = await ask(keyed ? withKey(missing, keyed) : missing, caller.auth);
              const view = (r: Reply) => ({ status: r.status, type: r.type, body: isPage(path) ? canonical(r.text) : r.text });
              if (twin.status !== 404) problems.push(`the missing twin answered ${twin.status}`);
              const [a, b] = [view(got), view(twin)];
              if (a.status !== b.status || a.type !== b.type || a.body !== b.body) {
                let at = 0;
                while (at < a.body.length && a.body[at] === b.body[at]) at++;
                problems.push(
                  `differs from the 404 of a missing file: ${a.status} ${a.type} vs ${b.status} ${b.type}, bodies from ${at}: ${JSON.stringify(a.body.slice(at - 80, at + 120))} vs ${JSON.stringify(b.body.slice(at - 80, at + 120))}`,
                );
              }
            }
            for (const m of forbidden(caller, path, keyed)) if (got.text.includes(m)) problems.push(`holds the marker ${m}`);
            problems.push(...keyLeaks(caller, path, keyed, got.text));
            return problems.length ? `${file.kind} ${file.visibility} ${url} as ${caller.label}: ${problems.join('; ')}` : null;
          });
        }
      }
    }
    const failures = (await inBatches(checks)).filter(Boolean);
    console.log(`[privacy] ${asked} file URLs asked (each refused one twice, with its missing twin)`);
    expect(asked).toBeGreaterThan(500);
    expect(failures).toEqual([]);
    // Over two thousand requests: on a loaded two-core machine they take more than the suite's two minutes.
  }, 300_000);

  it("the chart editor's pages: a plot's editor is its owner's and writers' alone (anyone else: the 404 of a missing file), a grid's new chart its readers', and no marker leaks", async () => {
    const checks: (() => Promise<string | null>)[] = [];
    for (const file of world.files.filter((f) => !isDocument(f))) {
      const owner = world.users[file.owner];
      const other = world.users[(file.owner + 1) % USERS];
      const at = (n: number) => (file.kind === 'plot' ? `/~${owner.username}/${n}/edit` : `/create/chart?grid=${owner.username}:${n}`);
      const callers: (Caller & { auth: string | null })[] = [
        { label: 'anonymous', user: null, key: 'none', auth: null },
        { label: 'owner', user: owner.index, key: 'none', auth: owner.auth },
        { label: 'other user', user: other.index, key: 'none', auth: other.auth },
        { label: `the friend (${file.how})`, user: world.friend.index, key: 'none', auth: world.friend.auth },
      ];
      for (const caller of callers) {
        const friendOpens = sharedWith(caller, file) && (file.kind === 'grid' || file.shared === 'write');
        const opens = caller.user === file.owner || friendOpens || (file.kind === 'grid' && caller.user !== null && file.visibility === 'public');
        // The page carries the URL it was asked at (a query's number is not masked as a path's is): as the twin's.
        const asked = (text: string) => canonical(text.split(`${owner.username}%3A${file.n}`).join(`${owner.username}%3A${MISSING_N}`));
        checks.push(async () => {
          const [got, twin] = [await ask(at(file.n), caller.auth), await ask(at(MISSING_N), caller.auth)];
          const problems: string[] = [];
          if (caller.user === null) {
            // Signed out: sign in first, whatever is (or is not) there.
            if (got.status !== 307 || twin.status !== 307) problems.push(`expected the sign-in redirect, got ${got.status} (missing twin ${twin.status})`);
          } else if (opens) {
            if (got.status !== 200) problems.push(`expected 200, got ${got.status}`);
          } else if (got.status !== 404 || got.type !== twin.type || asked(got.text) !== canonical(twin.text)) {
            const [a, b] = [asked(got.text), canonical(twin.text)];
            let i = 0;
            while (i < a.length && a[i] === b[i]) i++;
            problems.push(
              `differs from the 404 of a missing file: ${got.status} vs ${twin.status}, from ${i}: ${JSON.stringify(a.slice(i - 60, i + 80))} vs ${JSON.stringify(b.slice(i - 60, i + 80))}`,
            );
          }
          for (const m of forbidden(caller, at(file.n), null)) if (got.text.includes(m)) problems.push(`holds the marker ${m}`);
          problems.push(...keyLeaks(caller, at(file.n), null, got.text));
          return problems.length ? `${file.kind} ${file.visibility} ${at(file.n)} as ${caller.label}: ${problems.join('; ')}` : null;
        });
      }
    }
    expect((await inBatches(checks)).filter(Boolean)).toEqual([]);
  });

  it("versions (the API's and the history pages) are their writers' alone (the owner and write collaborators): anyone else, a share key's holder and a reader too, gets the 404 of a missing file, and no marker leaks", async () => {
    const checks: (() => Promise<string | null>)[] = [];
    for (const file of world.files.filter((f) => !isDocument(f))) {
      const owner = world.users[file.owner];
      const other = world.users[(file.owner + 1) % USERS];
      const kind = file.kind === 'plot' ? 'plots' : 'grids';
      const paths = (n: number) => [
        `/v2/${kind}/${owner.username}:${n}/versions`,
        `/v2/${kind}/${owner.username}:${n}/versions/1`,
        ...(file.kind === 'plot'
          ? [
              `/v2/plots/${owner.username}:${n}/versions/1/content?inline_data=true&map_data=unreadable`,
              `/~${owner.username}/${n}/history`,
              `/~${owner.username}/${n}/history/1`,
            ]
          : []),
      ];
      const callers: (Caller & { auth: string | null })[] = [
        { label: 'anonymous', user: null, key: 'none', auth: null },
        { label: 'owner', user: owner.index, key: 'none', auth: owner.auth },
        { label: 'other user', user: other.index, key: 'none', auth: other.auth },
        { label: `the friend (${file.how})`, user: world.friend.index, key: 'none', auth: world.friend.auth },
        ...(file.shareKey ? [{ label: 'other user, right share key', user: other.index, key: 'right' as const, auth: other.auth }] : []),
      ];
      const mine = paths(file.n);
      const twins = paths(MISSING_N);
      for (const caller of callers) {
        for (const [i, path] of mine.entries()) {
          const keyed = caller.key === 'right' ? file.shareKey : null;
          checks.push(async () => {
            const [got, twin] = [
              await ask(keyed ? withKey(path, keyed) : path, caller.auth),
              await ask(keyed ? withKey(twins[i], keyed) : twins[i], caller.auth),
            ];
            const problems: string[] = [];
            if (caller.user === file.owner || (sharedWith(caller, file) && file.shared === 'write')) {
              if (got.status !== 200) problems.push(`expected 200, got ${got.status}`);
            } else {
              const view = (r: Reply) => ({ status: r.status, type: r.type, body: isPage(path) ? canonical(r.text) : r.text });
              const [a, b] = [view(got), view(twin)];
              if (a.status !== 404 || a.status !== b.status || a.type !== b.type || a.body !== b.body) {
                let at = 0;
                while (at < a.body.length && a.body[at] === b.body[at]) at++;
                problems.push(
                  `differs from the 404 of a missing file: ${a.status} vs ${b.status}, from ${at}: ${JSON.stringify(a.body.slice(at - 60, at + 80))} vs ${JSON.stringify(b.body.slice(at - 60, at + 80))}`,
                );
              }
            }
            for (const m of forbidden({ ...caller, key: 'none' }, path, null)) if (got.text.includes(m)) problems.push(`holds the marker ${m}`);
            return problems.length ? `${file.kind} ${file.visibility} ${path} as ${caller.label}: ${problems.join('; ')}` : null;
          });
        }
      }
      // A restore by anyone else changes nothing and answers as for a missing file.
      checks.push(async () => {
        const restore = (n: number) => call('POST', `/v2/${kind}/${owner.username}:${n}/versions/1/restore`, { user: other });
        const [got, twin] = [await restore(file.n), await restore(MISSING_N)];
        return got.status === 404 && got.text === twin.text ? null : `${file.fid} restore as other user: ${got.status} ${got.text.slice(0, 200)}`;
      });
    }
    expect((await inBatches(checks)).filter(Boolean)).toEqual([]);
  });

  it("who a file is shared with (the API's list and the people page) is its owner's and collaborators' to see; Shared with me holds only what was shared", async () => {
    const checks: (() => Promise<string | null>)[] = [];
    for (const file of world.files) {
      const owner = world.users[file.owner];
      const other = world.users[(file.owner + 1) % USERS];
      const paths = (n: number) => [`/v2/files/${owner.username}:${n}/collaborators`, `/~${owner.username}/${n}/people`];
      const callers: (Caller & { auth: string | null })[] = [
        { label: 'owner', user: owner.index, key: 'none', auth: owner.auth },
        { label: 'other user', user: other.index, key: 'none', auth: other.auth },
        { label: `the friend (${file.how})`, user: world.friend.index, key: 'none', auth: world.friend.auth },
      ];
      for (const caller of callers) {
        const sees = caller.user === file.owner || sharedWith(caller, file);
        for (const [i, path] of paths(file.n).entries()) {
          checks.push(async () => {
            const [got, twin] = [await ask(path, caller.auth), await ask(paths(MISSING_N)[i], caller.auth)];
            const problems: string[] = [];
            if (sees) {
              if (got.status !== 200) problems.push(`expected 200, got ${got.status}`);
            } else {
              const view = (r: Reply) => ({ status: r.status, type: r.type, body: isPage(path) ? canonical(r.text) : r.text });
              const [a, b] = [view(got), view(twin)];
              if (a.status !== 404 || a.status !== b.status || a.type !== b.type || a.body !== b.body)
                problems.push(`differs from the 404 of a missing file: ${a.status} vs ${b.status}`);
            }
            for (const m of forbidden(caller, path, null)) if (got.text.includes(m)) problems.push(`holds the marker ${m}`);
            problems.push(...keyLeaks(caller, path, null, got.text));
            return problems.length ? `${file.kind} ${file.visibility} ${path} as ${caller.label}: ${problems.join('; ')}` : null;
          });
        }
      }
    }
    expect((await inBatches(checks)).filter(Boolean)).toEqual([]);
    // Shared with me: the friend's lists what is shared with them (a folder's files under the folder), nobody else's lists any of it.
    const friendPage = await ask('/shared', world.friend.auth);
    expect(friendPage.status).toBe(200);
    expect(keyLeaks({ label: 'the friend', user: world.friend.index, key: 'none' }, '/shared', null, friendPage.text)).toEqual([]);
    for (const f of world.files.filter((f) => f.marker && !f.path.startsWith('team '))) {
      expect(friendPage.text.includes(f.marker!), `/shared as the friend and ${f.fid} (${f.how})`).toBe(f.shared !== null);
    }
    for (const user of world.users) {
      const page = await ask('/shared', user.auth);
      expect(page.status).toBe(200);
      for (const m of forbidden({ label: user.username, user: null, key: 'none' }, '/shared', null)) expect(page.text).not.toContain(m);
    }
  });

  it('lists, the feed and the gathering pages hold public plots only, for every caller, and no marker', async () => {
    const mine = new Set(world.users.map((u) => u.username));
    const publicPlots = world.files
      .filter((f) => f.kind === 'plot' && f.visibility === 'public')
      .map((f) => f.fid)
      .sort();
    const callers = [
      { label: 'anonymous', user: null as number | null, auth: null as string | null },
      ...[...world.users, world.friend].map((u) => ({ label: u.username, user: u.index, auth: u.auth })),
    ];
    for (const caller of callers) {
      for (const first of [
        '/v2/plots?page_size=100',
        '/v2/plots?page_size=100&order_by=-views',
        '/v2/plots?page_size=100&order_by=views',
        '/v2/plots?page_size=100&order_by=-stars',
        '/v2/plots?page_size=100&order_by=stars',
      ]) {
        const seen: string[] = [];
        for (let path: string | null = first, i = 0; path && i < 100; i++) {
          const got = await ask(path, caller.auth);
          expect(got.status).toBe(200);
          for (const m of forbidden({ label: caller.label, user: null, key: 'none' }, path, null))
            expect(got.text, `${path} as ${caller.label}`).not.toContain(m);
          const page = JSON.parse(got.text) as { next: string | null; results: { fid: string; world_readable: boolean }[] };
          for (const r of page.results) expect(r.world_readable, `${r.fid} in ${first}`).toBe(true);
          seen.push(...page.results.map((r) => r.fid).filter((fid) => mine.has(fid.split(':')[0])));
          path = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
        }
        expect(seen.sort(), `${first} as ${caller.label}`).toEqual(publicPlots);
      }
      // The document lists are each caller's own: nobody else's, and no marker of anyone else's.
      for (const collection of ['dashboards', 'spectacle-presentations']) {
        const got = await ask(`/v2/${collection}?page_size=100`, caller.auth);
        expect(got.status, `/v2/${collection} as ${caller.label}`).toBe(caller.auth ? 200 : 401);
        for (const m of forbidden({ label: caller.label, user: caller.user, key: 'none' }, `/v2/${collection}`, null)) expect(got.text).not.toContain(m);
        const kind = collection === 'dashboards' ? 'dashboard' : 'presentation';
        const own = world.files.filter((f) => f.kind === kind && f.owner === caller.user).map((f) => f.fid);
        if (caller.auth)
          expect((JSON.parse(got.text).results as { fid: string }[]).map((r) => r.fid).sort(), `/v2/${collection} as ${caller.label}`).toEqual(own.sort());
      }
      const feed = await ask('/v2/plots/feed?page_size=100', caller.auth);
      expect(feed.status).toBe(200);
      for (const r of JSON.parse(feed.text).results as { world_readable: boolean }[]) expect(r.world_readable).toBe(true);
      // A profile is its owner's workspace (every file, the trash, a folder): others get the public
      // profile. "Starred" (each owner starred their own plots) shows others the public ones only.
      const profiles = world.users.flatMap((u) => [
        `/~${u.username}/`,
        `/~${u.username}/?tab=starred`,
        `/~${u.username}/?view=trash`,
        `/~${u.username}/?folder=${world.hidden.find((h) => world.users[h.owner] === u)!.folder}`,
      ]);
      for (const path of ['/', '/feed', '/?order=views', '/?order_by=-stars', ...profiles]) {
        const got = await ask(path, caller.auth);
        expect(got.status, path).toBe(200);
        // The owner's own profile may show the owner's private plots; nothing else may.
        for (const m of forbidden({ label: caller.label, user: caller.user, key: 'none' }, path, null)) {
          expect(got.text.includes(m), `${path} as ${caller.label} holds ${m}`).toBe(false);
        }
        // And the owner's workspace does show them their own: the folder, what is in it, the trash.
        const owned = world.hidden.filter((h) => h.owner === caller.user && path.startsWith(`/~${world.users[h.owner].username}/?`));
        const shown = owned.filter((h) => got.text.includes(h.marker)).length;
        if (owned.length && (path.includes('view=trash') || path.includes('folder=')))
          expect(shown, `${path} as its owner shows their hidden files`).toBeGreaterThan(0);
      }
      // The new chart page lists the caller's own grids, private ones included, and nobody else's;
      // signed out it is the way to the sign-in page, and holds nothing.
      const create = await ask('/create', caller.auth);
      expect(create.status, '/create').toBe(caller.auth ? 200 : 307);
      for (const m of forbidden({ label: caller.label, user: caller.user, key: 'none' }, '/create', null)) {
        expect(create.text.includes(m), `/create as ${caller.label} holds ${m}`).toBe(false);
      }
      const ownGrids = world.files.filter((f) => f.kind === 'grid' && f.owner === caller.user && f.marker);
      for (const g of ownGrids) expect(create.text, `/create as ${caller.label} lists their grid ${g.fid}`).toContain(g.marker!);
    }
  });

  it('search (/v2/search, /search) finds public plots only, for every caller: a private or secret plot’s own words find nothing', async () => {
    const mine = new Set(world.users.map((u) => u.username));
    const callers = [
      { label: 'anonymous', user: null as number | null, auth: null as string | null },
      ...[...world.users, world.friend].map((u) => ({ label: u.username, user: u.index, auth: u.auth })),
    ];
    const hidden = world.files.filter((f) => f.kind === 'plot' && f.marker);
    for (const caller of callers) {
      // Each user's plots by the owner's name: exactly the public ones, and no marker in any page.
      for (const user of world.users) {
        const seen: string[] = [];
        for (let path: string | null = `/v2/search?q=${user.username}&page_size=2`, i = 0; path && i < 100; i++) {
          const got = await ask(path, caller.auth);
          expect(got.status, path).toBe(200);
          for (const m of forbidden({ label: caller.label, user: null, key: 'none' }, path, null))
            expect(got.text, `${path} as ${caller.label}`).not.toContain(m);
          const page = JSON.parse(got.text) as { next: string | null; results: { fid: string; world_readable: boolean }[] };
          for (const r of page.results) expect(r.world_readable, `${r.fid} in ${path}`).toBe(true);
          seen.push(...page.results.map((r) => r.fid).filter((fid) => mine.has(fid.split(':')[0])));
          path = page.next ? new URL(page.next).pathname + new URL(page.next).search : null;
        }
        const expected = world.files.filter((f) => f.kind === 'plot' && f.owner === user.index && f.visibility === 'public').map((f) => f.fid);
        expect(seen.sort(), `search for ${user.username} as ${caller.label}`).toEqual(expected.sort());
      }
      // A hidden plot's marker (in its filename, title and caption) finds nothing, even for its owner.
      for (const file of hidden) {
        const api = await ask(`/v2/search?q=${file.marker}`, caller.auth);
        expect(api.status).toBe(200);
        expect(JSON.parse(api.text), `search for ${file.marker} as ${caller.label}`).toEqual({ next: null, previous: null, results: [] });
        const page = await ask(`/search?q=${file.marker}`, caller.auth);
        expect(page.status).toBe(200);
        expect(page.text).toContain('No plots match');
        expect(page.text).not.toContain(`/~${world.users[file.owner].username}/${file.n}/`);
      }
    }
  });

  it('only served page views are counted, once per visitor: refused requests count nothing', async () => {
    for (const file of world.files.filter((f) => f.kind === 'plot')) {
      const owner = world.users[file.owner];
      // A view counts once its page is sent: polled until the last ones have landed.
      const views = async () => (await call('GET', `/v2/plots/${file.fid}`, { user: owner })).json.views;
      await expect.poll(views, { message: `${file.visibility} ${file.fid}`, timeout: 30_000 }).toBe(servedPageViews.get(file.fid)?.size ?? 0);
    }
  });
});
