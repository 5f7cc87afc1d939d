// Authentication (docs/api.md "Authentication and errors") and privacy: a private or secret file is,
// to anyone who may not read it, exactly a missing file on every URL that names it; share keys open
// one file only; lists and the feed hold public plots only; others' writes get 403 or 404.
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '@/db/client';
import { createUser } from '@/lib/core/accounts/users';
import { appDatabase, baseUrl, basic, call, canonical, createPlot, expectError, newUser, uploadGrid, type Answer, type TestUser } from '../support/api';

const NOT_PROVIDED = 'Authentication credentials were not provided.';
const BAD_KEY = 'Bad API key';
/** Distinctive file numbers (the owner's counter is moved here first), so pages can be compared with
 * the number masked: Next's pages echo the requested path. */
const BASE_N = 4_700_000;
const MISSING_N = 4_799_999;
const QUALITY = 7;

type Caller = 'anonymous' | 'other user' | 'owner';

interface Raw {
  status: number;
  type: string | null;
  text: string;
}

let alice: TestUser;
let bob: TestUser;
let files: {
  publicGrid: { fid: string; src: (...n: string[]) => string };
  privateGrid: { fid: string; n: number; filename: string };
  publicPlot: { fid: string; n: number; filename: string };
  privatePlot: { fid: string; n: number; filename: string };
  secretPlot: { fid: string; n: number; filename: string; shareKey: string; shareUrl: string; webUrl: string };
  otherSecretPlot: { fid: string; n: number; shareKey: string };
};

async function fetchRaw(path: string, auth?: string | null, headers: Record<string, string> = {}): Promise<Raw> {
  const res = await fetch(`${baseUrl()}${path}`, { headers: { ...(auth ? { Authorization: auth } : {}), ...headers }, redirect: 'manual' });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

const authOf = (caller: Caller) => (caller === 'owner' ? alice.auth : caller === 'other user' ? bob.auth : null);

/** The URLs that name one file, and the same URL for a missing file of the same owner. */
interface Url {
  label: string;
  of: (n: number, filename: string) => string;
  page?: boolean;
  /** What the owner's 200 looks like. */
  check?: (raw: Raw) => void;
}

const q = encodeURIComponent;
const json = (raw: Raw) => JSON.parse(raw.text);

const PLOT_URLS: Url[] = [
  { label: 'GET /v2/plots/{fid}', of: (n) => `/v2/plots/${alice.username}:${n}`, check: (r) => expect(json(r).fid).toMatch(/:\d+$/) },
  { label: 'GET /v2/plots/{fid}/content', of: (n) => `/v2/plots/${alice.username}:${n}/content`, check: (r) => expect(json(r).data).toHaveLength(1) },
  {
    label: 'GET /v2/plots/{fid}/content?inline_data=true',
    of: (n) => `/v2/plots/${alice.username}:${n}/content?inline_data=true`,
    check: (r) => expect(json(r).data[0].y).toEqual(expect.any(Array)),
  },
  { label: 'GET /v2/files/{fid}', of: (n) => `/v2/files/${alice.username}:${n}`, check: (r) => expect(json(r).filetype).toBe('plot') },
  {
    label: 'GET /v2/files/lookup?path=..&user=owner',
    of: (_n, f) => `/v2/files/lookup?path=${q(f)}&user=${alice.username}`,
    check: (r) => expect(json(r).filetype).toBe('plot'),
  },
  { label: 'page /~owner/n/', of: (n) => `/~${alice.username}/${n}/`, page: true, check: (r) => expect(r.type).toMatch(/text\/html/) },
  { label: 'page /~owner/n.embed', of: (n) => `/~${alice.username}/${n}.embed`, page: true, check: (r) => expect(r.type).toMatch(/text\/html/) },
  { label: 'image /~owner/n.png', of: (n) => `/~${alice.username}/${n}.png`, page: true, check: (r) => expect(r.type).toBe('image/png') },
  { label: 'json /~owner/n.json', of: (n) => `/~${alice.username}/${n}.json`, check: (r) => expect(json(r).data).toHaveLength(1) },
];

const GRID_URLS: Url[] = [
  { label: 'GET /v2/grids/{fid}', of: (n) => `/v2/grids/${alice.username}:${n}`, check: (r) => expect(json(r).cols).toHaveLength(2) },
  { label: 'GET /v2/grids/{fid}/content', of: (n) => `/v2/grids/${alice.username}:${n}/content`, check: (r) => expect(json(r).cols.a.data).toEqual([1, 2]) },
  { label: 'GET /v2/files/{fid}', of: (n) => `/v2/files/${alice.username}:${n}`, check: (r) => expect(json(r).filetype).toBe('grid') },
  {
    label: 'GET /v2/files/lookup?path=..&user=owner',
    of: (_n, f) => `/v2/files/lookup?path=${q(f)}&user=${alice.username}`,
    check: (r) => expect(json(r).filetype).toBe('grid'),
  },
  { label: 'page /~owner/n/', of: (n) => `/~${alice.username}/${n}/`, page: true, check: (r) => expect(r.type).toMatch(/text\/html/) },
];

const MISSING_FILENAME = 'no such file here';

/** Asserts the answer is byte for byte the 404 of the same URL naming a missing file. */
async function expectMissing(url: Url, n: number, filename: string, auth: string | null, query = '') {
  const join = (path: string) => (query ? `${path}${path.includes('?') ? '&' : '?'}${query}` : path);
  const [got, missing] = await Promise.all([fetchRaw(join(url.of(n, filename)), auth), fetchRaw(join(url.of(MISSING_N, MISSING_FILENAME)), auth)]);
  expect(missing.status).toBe(404);
  const view = (r: Raw) => ({ status: r.status, type: r.type, body: url.page ? canonical(r.text) : r.text });
  expect(view(got)).toEqual(view(missing));
  expect(got.text).not.toContain(filename);
}

async function walk(first: string, auth: string | null): Promise<string[]> {
  const fids: string[] = [];
  let path: string | null = first;
  for (let page = 0; path && page < 200; page++) {
    const res: Answer = await call('GET', path, { headers: auth ? { Authorization: auth } : {} });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    fids.push(...res.json.results.map((r: { fid: string }) => r.fid));
    path = res.json.next ? new URL(res.json.next).pathname + new URL(res.json.next).search : null;
  }
  expect(path).toBeNull();
  return fids;
}

beforeAll(async () => {
  alice = await newUser('privacy');
  bob = await newUser('snoop');
  const { db } = await appDatabase();
  await queryRows(db, sql`UPDATE users SET file_counter = ${BASE_N} WHERE username = ${alice.username}`);

  const publicGrid = await uploadGrid(alice, { x: [1, 2, 3], y: [10, 20, 30] }, { filename: 'public grid' });
  const privateGrid = await uploadGrid(alice, { a: [1, 2], b: [3, 4] }, { filename: 'private grid', world_readable: false });
  const figure = (src: (...n: string[]) => string, x: string, y: string) => ({ data: [{ type: 'scatter', xsrc: src(x), ysrc: src(y) }], layout: {} });
  const publicPlot = await createPlot(alice, { filename: 'public plot', figure: figure(publicGrid.src, 'x', 'y') });
  const privatePlot = await createPlot(alice, { filename: 'private plot', world_readable: false, figure: figure(privateGrid.src, 'a', 'b') });
  const secretPlot = await createPlot(alice, {
    filename: 'secret plot',
    world_readable: false,
    share_key_enabled: true,
    figure: figure(publicGrid.src, 'x', 'y'),
  });
  const otherSecret = await createPlot(alice, {
    filename: 'other secret plot',
    world_readable: false,
    share_key_enabled: true,
    figure: figure(publicGrid.src, 'x', 'y'),
  });
  expect(publicPlot.fid).toBe(`${alice.username}:${BASE_N + 3}`);
  expect(secretPlot.share_key).toEqual(expect.any(String));
  expect(otherSecret.share_key).not.toBe(secretPlot.share_key);
  const n = (fid: string) => Number(fid.split(':')[1]);
  files = {
    publicGrid,
    privateGrid: { fid: privateGrid.fid, n: n(privateGrid.fid), filename: 'private grid' },
    publicPlot: { fid: publicPlot.fid, n: n(publicPlot.fid), filename: 'public plot' },
    privatePlot: { fid: privatePlot.fid, n: n(privatePlot.fid), filename: 'private plot' },
    secretPlot: {
      fid: secretPlot.fid,
      n: n(secretPlot.fid),
      filename: 'secret plot',
      shareKey: secretPlot.share_key,
      shareUrl: secretPlot.share_url,
      webUrl: secretPlot.web_url,
    },
    otherSecretPlot: { fid: otherSecret.fid, n: n(otherSecret.fid), shareKey: otherSecret.share_key },
  };
  // Every plot of alice's is handpicked and of a quality nobody else uses, so lists can be narrowed.
  await queryRows(
    db,
    sql`UPDATE plots SET handpicked = true, quality = ${QUALITY}
        WHERE file_id IN (SELECT f.id FROM files f JOIN users u ON u.id = f.owner_id WHERE u.username = ${alice.username})`,
  );
});

// ---------------------------------------------------------------------------------------------

describe('authentication', () => {
  it('GET /v2/users/current: 401 anonymous', async () => {
    expectError(await call('GET', '/v2/users/current'), 401, NOT_PROVIDED);
  });

  it('GET /v2/users/current: the authenticated user, with email filled', async () => {
    const { db } = await appDatabase();
    const username = `mail${randomBytes(4).toString('hex')}`;
    const { apiKey } = await createUser(db, { username, email: `${username}@example.org` });
    const res = await call('GET', '/v2/users/current', { headers: { Authorization: basic(username, apiKey) } });
    expect(res.status).toBe(200);
    expect(res.json.username).toBe(username);
    expect(res.json.email).toBe(`${username}@example.org`);
    expect(res.json.profile_url).toBe(`${baseUrl()}/~${username}/`);
    expect(res.json.date_joined).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(res.text).not.toContain(apiKey);
  });

  it('HTTP Basic username:api_key authenticates (the record says write to the owner, read to others)', async () => {
    const own = await call('GET', `/v2/plots/${files.publicPlot.fid}`, { user: alice });
    expect(own.json.current_user_permission).toBe('write');
    const other = await call('GET', `/v2/plots/${files.publicPlot.fid}`, { user: bob });
    expect(other.json.current_user_permission).toBe('read');
    const anon = await call('GET', `/v2/plots/${files.publicPlot.fid}`);
    expect(anon.json.current_user_permission).toBe('read');
  });

  describe('Plotly-Authorization (the client behind a proxy)', () => {
    const proxyCredentials = [
      ['Basic proxy credentials', basic('proxyuser', 'proxy-password')],
      ['a Bearer token', 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl'],
      ['garbage', 'Negotiate !!!'],
    ];
    it.each(proxyCredentials)('is used when Authorization holds %s', async (_label, proxy) => {
      const res = await call('GET', '/v2/users/current', { headers: { Authorization: proxy, 'Plotly-Authorization': bob.auth } });
      expect(res.status, res.text).toBe(200);
      expect(res.json.username).toBe(bob.username);
    });

    it('creates as that user', async () => {
      const res = await call('POST', '/v2/plots', {
        headers: { Authorization: basic('proxyuser', 'proxy-password'), 'Plotly-Authorization': bob.auth, 'Plotly-Client-Platform': 'python 6.0.0' },
        body: { figure: { data: [{ type: 'bar', ysrc: files.publicGrid.src('y') }] } },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.file.owner).toBe(bob.username);
      expect(res.json.file.fid).toMatch(new RegExp(`^${bob.username}:\\d+$`));
    });

    it('a wrong key there is 401 Bad API key even with a valid Authorization', async () => {
      expectError(
        await call('GET', '/v2/users/current', {
          headers: { Authorization: alice.auth, 'Plotly-Authorization': basic(alice.username, 'wrong-key-wrong-key') },
        }),
        401,
        BAD_KEY,
      );
    });
  });

  describe('empty credentials (Basic base64(":")) are anonymous', () => {
    const empty = `Basic ${Buffer.from(':').toString('base64')}`;
    it('reads public plots', async () => {
      const res = await call('GET', `/v2/plots/${files.publicPlot.fid}`, { headers: { Authorization: empty } });
      expect(res.status).toBe(200);
      expect(res.json.current_user_permission).toBe('read');
      expect((await call('GET', '/v2/plots?page_size=1', { headers: { Authorization: empty } })).status).toBe(200);
    });
    it('does not read private plots (the 404 of a missing one)', async () => {
      await expectMissing(PLOT_URLS[0], files.privatePlot.n, files.privatePlot.filename, empty);
    });
    it('cannot write: 401 not provided', async () => {
      expectError(await call('POST', '/v2/plots', { headers: { Authorization: empty }, body: { figure: { data: [] } } }), 401, NOT_PROVIDED);
    });
    it('is nobody at /v2/users/current', async () => {
      expectError(await call('GET', '/v2/users/current', { headers: { Authorization: empty } }), 401, NOT_PROVIDED);
    });
    it('in Plotly-Authorization too', async () => {
      expectError(
        await call('GET', '/v2/users/current', { headers: { Authorization: basic('proxyuser', 'pw'), 'Plotly-Authorization': empty } }),
        401,
        NOT_PROVIDED,
      );
    });
  });

  describe('wrong credentials are 401 Bad API key on every endpoint', () => {
    const endpoints: [string, string, (() => unknown)?][] = [
      ['GET', '/v2/plots'],
      ['GET', '/v2/plots/'],
      ['GET', '/v2/plots/feed'],
      ['GET', '/v2/plots/{public}'],
      ['GET', '/v2/plots/{public}/content'],
      ['GET', '/v2/plots/{public}/content?inline_data=true'],
      ['GET', '/v2/grids/{grid}'],
      ['GET', '/v2/grids/{grid}/content'],
      ['GET', '/v2/files/{public}'],
      ['GET', '/v2/files/lookup?path=public%20plot&user={owner}'],
      ['GET', '/v2/folders/home?user={owner}'],
      ['GET', '/v2/users/current'],
      ['POST', '/v2/plots', () => ({ figure: { data: [] } })],
      ['PUT', '/v2/plots/{public}', () => ({ title: 'x' })],
      ['POST', '/v2/grids', () => ({ data: { cols: { a: { data: [1], order: 0 } } } })],
      ['POST', '/v2/folders', () => ({ path: 'nope' })],
      ['DELETE', '/v2/grids/{grid}'],
      ['POST', '/v2/plots/{public}/trash'],
      ['POST', '/v2/users/current/api_key'],
    ];
    const fill = (path: string) =>
      path.replaceAll('{public}', files.publicPlot.fid).replaceAll('{grid}', files.publicGrid.fid).replaceAll('{owner}', alice.username);

    it.each(endpoints)('%s %s with a wrong key', async (method, path, body) => {
      const res = await call(method, fill(path), { headers: { Authorization: basic(alice.username, 'this-is-not-the-key') }, body: body?.() });
      expectError(res, 401, BAD_KEY);
    });
    it.each(endpoints)('%s %s as an unknown user', async (method, path, body) => {
      const res = await call(method, fill(path), { headers: { Authorization: basic(`ghost${randomBytes(4).toString('hex')}`, alice.apiKey) }, body: body?.() });
      expectError(res, 401, BAD_KEY);
    });

    const malformed: [string, () => string][] = [
      ['a Bearer token', () => 'Bearer abcdef'],
      ['Basic with non-base64', () => 'Basic !!!not-base64!!!'],
      ['Basic without a colon', () => `Basic ${Buffer.from(alice.username).toString('base64')}`],
      ['Basic with an empty key', () => `Basic ${Buffer.from(`${alice.username}:`).toString('base64')}`],
      ['Basic with an empty username', () => `Basic ${Buffer.from(`:${alice.apiKey}`).toString('base64')}`],
      ['Digest', () => 'Digest username="x", realm="y"'],
      ['Basic with two tokens', () => `Basic ${Buffer.from(`${alice.username}:${alice.apiKey}`).toString('base64')} extra`],
      ["another user's key", () => basic(alice.username, bob.apiKey)],
      ['a 10,000-character username', () => basic('u'.repeat(10_000), 'k')],
    ];
    for (const [label, header] of malformed) {
      it.each([
        ['GET', '/v2/plots'],
        ['GET', '/v2/plots/{public}'],
        ['POST', '/v2/plots'],
      ])(`%s %s with ${label}`, async (method, path) => {
        const res = await call(method, fill(path), { headers: { Authorization: header() }, body: method === 'POST' ? { figure: { data: [] } } : undefined });
        expectError(res, 401, BAD_KEY);
      });
    }
  });

  it('anonymous writes are 401 not provided', async () => {
    expectError(await call('POST', '/v2/plots', { body: { figure: { data: [] } } }), 401, NOT_PROVIDED);
    expectError(await call('PUT', `/v2/plots/${files.publicPlot.fid}`, { body: { title: 'x' } }), 401, NOT_PROVIDED);
    expectError(await call('POST', '/v2/grids', { body: { data: { cols: { a: { data: [1] } } } } }), 401, NOT_PROVIDED);
    expectError(await call('POST', '/v2/folders', { body: { path: 'x' } }), 401, NOT_PROVIDED);
    expectError(await call('DELETE', `/v2/grids/${files.publicGrid.fid}`), 401, NOT_PROVIDED);
    expectError(await call('POST', `/v2/plots/${files.publicPlot.fid}/trash`), 401, NOT_PROVIDED);
    expectError(await call('POST', '/v2/users/current/api_key'), 401, NOT_PROVIDED);
  });

  it('POST /v2/users/current/api_key rotates the key: the old one is refused at once, the new one works', async () => {
    const carol = await newUser('rotate');
    const res = await call('POST', '/v2/users/current/api_key', { user: carol });
    expect(res.status).toBe(200);
    const fresh = res.json.api_key as string;
    expect(fresh).toEqual(expect.any(String));
    expect(fresh).not.toBe(carol.apiKey);
    expect(fresh.length).toBeGreaterThanOrEqual(22); // at least 128 random bits
    expectError(await call('GET', '/v2/users/current', { user: carol }), 401, BAD_KEY);
    expectError(await call('POST', '/v2/plots', { user: carol, body: { figure: { data: [] } } }), 401, BAD_KEY);
    const now = await call('GET', '/v2/users/current', { headers: { Authorization: basic(carol.username, fresh) } });
    expect(now.status).toBe(200);
    expect(now.json.username).toBe(carol.username);
    const again = await call('POST', '/v2/users/current/api_key', { headers: { Authorization: basic(carol.username, fresh) } });
    expect(again.status).toBe(200);
    expect(again.json.api_key).not.toBe(fresh);
  });
});

// ---------------------------------------------------------------------------------------------

describe('privacy', () => {
  const secretCases = () => [
    ['private plot', PLOT_URLS, files.privatePlot] as const,
    ['secret plot (no key)', PLOT_URLS, files.secretPlot] as const,
    ['private grid', GRID_URLS, files.privateGrid] as const,
  ];

  for (const kind of ['private plot', 'secret plot (no key)', 'private grid'] as const) {
    const urls = kind === 'private grid' ? GRID_URLS : PLOT_URLS;
    describe(kind, () => {
      const file = () => secretCases().find(([k]) => k === kind)![2];
      for (const url of urls) {
        for (const caller of ['anonymous', 'other user'] as const) {
          it(`${url.label}: ${caller} gets the 404 of a missing file`, async () => {
            await expectMissing(url, file().n, file().filename, authOf(caller));
          });
        }
        it(`${url.label}: the owner gets 200`, async () => {
          const res = await fetchRaw(url.of(file().n, file().filename), alice.auth);
          expect(res.status, res.text.slice(0, 200)).toBe(200);
          url.check?.(res);
        });
      }
    });
  }

  describe('share keys', () => {
    const withKey = (path: string, key: string) => `${path}${path.includes('?') ? '&' : '?'}share_key=${q(key)}`;
    const KEYED = PLOT_URLS.filter((u) => !u.label.includes('lookup'));

    for (const url of KEYED) {
      for (const caller of ['anonymous', 'other user'] as const) {
        it(`${url.label}?share_key=KEY: ${caller} reads the secret plot`, async () => {
          const res = await fetchRaw(withKey(url.of(files.secretPlot.n, files.secretPlot.filename), files.secretPlot.shareKey), authOf(caller));
          expect(res.status, res.text.slice(0, 200)).toBe(200);
          url.check?.(res);
        });
      }
      it(`${url.label}?share_key=WRONG: anonymous gets the 404 of a missing file`, async () => {
        await expectMissing(url, files.secretPlot.n, files.secretPlot.filename, null, `share_key=${q(`${files.secretPlot.shareKey.slice(0, -1)}x`)}`);
      });
      it(`${url.label}?share_key=KEY of another plot: anonymous gets the 404 of a missing file`, async () => {
        await expectMissing(url, files.secretPlot.n, files.secretPlot.filename, null, `share_key=${q(files.otherSecretPlot.shareKey)}`);
      });
      it(`${url.label}?share_key=KEY on the private plot: 404 of a missing file`, async () => {
        await expectMissing(url, files.privatePlot.n, files.privatePlot.filename, null, `share_key=${q(files.secretPlot.shareKey)}`);
      });
    }
    for (const url of GRID_URLS.filter((u) => !u.label.includes('lookup'))) {
      it(`${url.label}?share_key=KEY (the secret plot's) on the private grid: 404 of a missing file`, async () => {
        await expectMissing(url, files.privateGrid.n, files.privateGrid.filename, null, `share_key=${q(files.secretPlot.shareKey)}`);
      });
    }

    it('an empty share_key is no key', async () => {
      await expectMissing(PLOT_URLS[0], files.secretPlot.n, files.secretPlot.filename, null, 'share_key=');
    });

    it("the owner's detail carries share_key and a share_url that opens the plot anonymously", async () => {
      const own = await call('GET', `/v2/plots/${files.secretPlot.fid}`, { user: alice });
      expect(own.json.share_key).toBe(files.secretPlot.shareKey);
      expect(own.json.share_url).toBe(`${files.secretPlot.webUrl}?share_key=${files.secretPlot.shareKey}`);
      expect(files.secretPlot.shareUrl).toBe(own.json.share_url);
      const url = new URL(own.json.share_url);
      const page = await fetchRaw(url.pathname + url.search);
      expect(page.status).toBe(200);
    });

    it("the client's secret link (web_url[:-1] + '?share_key=' + key) opens the plot anonymously", async () => {
      const url = new URL(`${files.secretPlot.webUrl.slice(0, -1)}?share_key=${files.secretPlot.shareKey}`);
      const page = await fetchRaw(url.pathname + url.search);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/text\/html/);
    });

    it('a reader with the key does not get the key itself', async () => {
      const res = await call('GET', withKey(`/v2/plots/${files.secretPlot.fid}`, files.secretPlot.shareKey), { user: bob });
      expect(res.status).toBe(200);
      expect(res.json).not.toHaveProperty('share_key');
      expect(res.json.current_user_permission).toBe('read');
    });
  });

  it("a plot's source_fid names a private source only to those who may read it", async () => {
    const derived = await createPlot(alice, { filename: `derived ${randomBytes(3).toString('hex')}`, source_fid: files.privatePlot.fid, figure: { data: [] } });
    expect((await call('GET', `/v2/plots/${derived.fid}`, { user: alice })).json.source_fid).toBe(files.privatePlot.fid);
    for (const user of [null, bob]) expect((await call('GET', `/v2/plots/${derived.fid}`, { user })).json.source_fid).toBeNull();
    const fromPublic = await createPlot(alice, {
      filename: `derived ${randomBytes(3).toString('hex')}`,
      source_fid: files.publicPlot.fid,
      figure: { data: [] },
    });
    expect((await call('GET', `/v2/plots/${fromPublic.fid}`, { user: bob })).json.source_fid).toBe(files.publicPlot.fid);
  });

  describe('lists and the feed hold public plots only, for every caller', () => {
    for (const caller of ['anonymous', 'other user', 'owner'] as const) {
      it(`GET /v2/plots (quality ${QUALITY}) as ${caller}`, async () => {
        const fids = await walk(`/v2/plots?min_quality=${QUALITY}&max_quality=${QUALITY}&page_size=100`, authOf(caller));
        expect(fids).toContain(files.publicPlot.fid);
        for (const hidden of [files.privatePlot.fid, files.secretPlot.fid, files.otherSecretPlot.fid]) expect(fids).not.toContain(hidden);
        expect(fids.filter((f) => f.startsWith(`${alice.username}:`))).toEqual([files.publicPlot.fid]);
      });
      it(`GET /v2/plots/ ordered by views as ${caller}`, async () => {
        const fids = await walk(`/v2/plots/?order_by=-views&min_quality=${QUALITY}&max_quality=${QUALITY}&page_size=7`, authOf(caller));
        expect(fids.filter((f) => f.startsWith(`${alice.username}:`))).toEqual([files.publicPlot.fid]);
      });
      it(`GET /v2/plots/feed (every page) as ${caller}`, async () => {
        const fids = await walk('/v2/plots/feed?page_size=100', authOf(caller));
        expect(fids.filter((f) => f.startsWith(`${alice.username}:`))).toEqual([files.publicPlot.fid]);
      });
    }
  });

  describe('writes by other users: 403 when they can read the file, 404 when they cannot', () => {
    it('PUT /v2/plots/{fid}', async () => {
      expectError(await call('PUT', `/v2/plots/${files.publicPlot.fid}`, { user: bob, body: { title: 'mine now' } }), 403);
      for (const hidden of [files.privatePlot, files.secretPlot]) {
        const res = await call('PUT', `/v2/plots/${hidden.fid}`, { user: bob, body: { title: 'mine now' } });
        const missing = await call('PUT', `/v2/plots/${alice.username}:${MISSING_N}`, { user: bob, body: { title: 'mine now' } });
        expectError(res, 404);
        expect(res.text).toBe(missing.text);
      }
    });
    it('DELETE /v2/grids/{fid}', async () => {
      expectError(await call('DELETE', `/v2/grids/${files.publicGrid.fid}`, { user: bob }), 403);
      const res = await call('DELETE', `/v2/grids/${files.privateGrid.fid}`, { user: bob });
      const missing = await call('DELETE', `/v2/grids/${alice.username}:${MISSING_N}`, { user: bob });
      expectError(res, 404);
      expect(res.text).toBe(missing.text);
    });
    it('POST /v2/plots/{fid}/trash and DELETE /v2/plots/{fid}/permanent_delete', async () => {
      expectError(await call('POST', `/v2/plots/${files.publicPlot.fid}/trash`, { user: bob }), 403);
      expectError(await call('DELETE', `/v2/plots/${files.publicPlot.fid}/permanent_delete`, { user: bob }), 403);
      expectError(await call('POST', `/v2/plots/${files.privatePlot.fid}/trash`, { user: bob }), 404);
      expectError(await call('DELETE', `/v2/plots/${files.secretPlot.fid}/permanent_delete`, { user: bob }), 404);
    });
    it('nothing changed: the owner still has every file as it was', async () => {
      for (const f of [files.publicPlot, files.privatePlot, files.secretPlot]) {
        const res = await call('GET', `/v2/plots/${f.fid}`, { user: alice });
        expect(res.status).toBe(200);
        expect(res.json.filename).toBe(f.filename);
        expect(res.json.title).toBe('');
      }
      for (const g of [files.publicGrid.fid, files.privateGrid.fid]) expect((await call('GET', `/v2/grids/${g}`, { user: alice })).status).toBe(200);
    });
  });
});
