// A secret file's key (its bearer link: the share link and embed code with `?share_key=`) is its
// owner's (seesShareKey in lib/core/permissions.ts). Over HTTP, for a secret plot, grid, dashboard and
// presentation shared by name (directly and through a folder): every page and answer that names the
// file, asked by every role, holds the key only for the owner and for a request that came with it.
// Collaborators, `read` or `write`, direct or through the folder, and removed ones, never receive it,
// in the HTML or the server components' payload.
import { beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, call, newUser, type TestUser } from '../support/api';

type Kind = 'plot' | 'grid' | 'dashboard' | 'presentation';
interface Secret {
  kind: Kind;
  fid: string;
  key: string;
}
interface Role {
  label: string;
  user: () => TestUser | null;
  /** Whether the role asks with the file's key in the URL. */
  withKey: boolean;
  /** Whether the role may be shown the key. */
  seesKey: boolean;
}

describe('share keys are shown to the owner and to the link’s holder only', () => {
  let owner: TestUser;
  const people = {} as Record<'reader' | 'writer' | 'folderReader' | 'folderWriter' | 'removed' | 'holder' | 'stranger', TestUser>;
  const secrets: Secret[] = [];

  const roles: Role[] = [
    { label: 'owner', user: () => owner, withKey: false, seesKey: true },
    { label: 'read collaborator', user: () => people.reader, withKey: false, seesKey: false },
    { label: 'write collaborator', user: () => people.writer, withKey: false, seesKey: false },
    { label: 'read collaborator through a folder', user: () => people.folderReader, withKey: false, seesKey: false },
    { label: 'write collaborator through a folder', user: () => people.folderWriter, withKey: false, seesKey: false },
    { label: 'removed collaborator', user: () => people.removed, withKey: false, seesKey: false },
    { label: 'secret-link holder', user: () => people.holder, withKey: true, seesKey: true },
    { label: 'anonymous secret-link holder', user: () => null, withKey: true, seesKey: true },
    { label: 'stranger', user: () => people.stranger, withKey: false, seesKey: false },
    { label: 'anonymous', user: () => null, withKey: false, seesKey: false },
  ];

  const get = async (path: string, user: TestUser | null) => {
    const res = await fetch(`${baseUrl()}${path}`, { headers: user ? { Authorization: user.auth } : {}, redirect: 'manual' });
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    owner = await newUser('keyo');
    for (const name of ['reader', 'writer', 'folderReader', 'folderWriter', 'removed', 'holder', 'stranger'] as const) people[name] = await newUser('keyp');
    const folder = await call('POST', '/v2/folders', { user: owner, body: { path: 'team' } });
    expect(folder.status, folder.text).toBe(201);
    const folderFid = folder.json.file.fid as string;
    expect((await call('PATCH', `/v2/folders/${folderFid}`, { user: owner, body: { world_readable: false } })).status).toBe(200);
    for (const [who, permission] of [
      [people.folderReader, 'read'],
      [people.folderWriter, 'write'],
    ] as const) {
      expect((await call('POST', `/v2/files/${folderFid}/collaborators`, { user: owner, body: { username: who.username, permission } })).status).toBe(201);
    }
    const secret = { world_readable: false, share_key_enabled: true, parent_path: 'team' };
    const grid = await call('POST', '/v2/grids', {
      user: owner,
      body: { filename: 'secret grid', data: { cols: { x: { data: [1, 2], order: 0 } } }, ...secret },
    });
    expect(grid.status, grid.text).toBe(201);
    const gridFid = grid.json.file.fid as string;
    const uid = grid.json.file.cols[0].uid as string;
    const plot = await call('POST', '/v2/plots', {
      user: owner,
      body: { filename: 'secret plot', figure: { data: [{ type: 'bar', ysrc: `${gridFid}:${uid}` }] }, ...secret },
    });
    expect(plot.status, plot.text).toBe(200);
    const board = await call('POST', '/v2/dashboards', { user: owner, body: { filename: 'secret board', content: '{"layout": null}', ...secret } });
    expect(board.status, board.text).toBe(201);
    const deck = await call('POST', '/v2/spectacle-presentations', {
      user: owner,
      body: { filename: 'secret deck', content: JSON.stringify({ presentation: { slides: [{ children: [] }] } }), ...secret },
    });
    expect(deck.status, deck.text).toBe(201);
    const made: [Kind, string][] = [
      ['grid', gridFid],
      ['plot', plot.json.file.fid],
      ['dashboard', board.json.file.fid],
      ['presentation', deck.json.file.fid],
    ];
    for (const [kind, fid] of made) {
      for (const [who, permission] of [
        [people.reader, 'read'],
        [people.writer, 'write'],
        [people.removed, 'write'],
      ] as const) {
        expect((await call('POST', `/v2/files/${fid}/collaborators`, { user: owner, body: { username: who.username, permission } })).status).toBe(201);
      }
      // The removed collaborator had it, and may have looked at its pages then.
      expect((await get(`/~${fid.replace(':', '/')}/`, people.removed)).status).toBe(200);
      expect((await call('DELETE', `/v2/files/${fid}/collaborators/${people.removed.username}`, { user: owner })).status).toBe(204);
      const key = (await call('GET', `/v2/files/${fid}`, { user: owner })).json.share_key as string;
      expect(key, `${kind} has a key`).toEqual(expect.any(String));
      secrets.push({ kind, fid, key });
    }
  });

  const pathsOf = ({ kind, fid }: Secret): string[] => {
    const [o, n] = fid.split(':');
    const api = { plot: 'plots', grid: 'grids', dashboard: 'dashboards', presentation: 'spectacle-presentations' }[kind];
    return [
      `/~${o}/${n}/`,
      `/~${o}/${n}/people`,
      `/~${o}/${n}/edit`,
      `/v2/files/${fid}`,
      `/v2/${api}/${fid}`,
      `/v2/files/${fid}/collaborators`,
      ...(kind === 'plot' ? [`/~${o}/${n}.embed`, `/~${o}/${n}/data-table`, `/~${o}/${n}/history`, `/~${o}/${n}/history/1`] : []),
      ...(kind === 'grid' ? [`/~${o}/${n}/history`] : []),
      ...(kind === 'dashboard' || kind === 'presentation' ? [`/~${o}/${n}/embed`] : []),
    ];
  };

  for (const kind of ['plot', 'grid', 'dashboard', 'presentation'] as const) {
    it(`a secret ${kind}: no page or answer holds its key for anyone but its owner and the link's holder`, async () => {
      const secret = secrets.find((s) => s.kind === kind)!;
      const problems: string[] = [];
      for (const role of roles) {
        for (const path of pathsOf(secret)) {
          const url = role.withKey ? `${path}${path.includes('?') ? '&' : '?'}share_key=${secret.key}` : path;
          const got = await get(url, role.user());
          // The link's holder sent the key: what matters is that nobody else receives it.
          const seen = role.withKey ? got.text.split(`share_key=${secret.key}`).join('') : got.text;
          if (!role.seesKey && seen.includes(secret.key)) problems.push(`${url} as ${role.label} (${got.status}) holds the key`);
          if (got.status >= 500) problems.push(`${url} as ${role.label} answered ${got.status}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }

  it("the file page's share link and embed code carry the key for the owner and the link's holder, and are the plain page for collaborators", async () => {
    for (const secret of secrets.filter((s) => s.kind !== 'grid')) {
      const page = `/~${secret.fid.replace(':', '/')}/`;
      for (const role of roles) {
        const got = await get(role.withKey ? `${page}?share_key=${secret.key}` : page, role.user());
        const reads = role.seesKey || role.label.includes('collaborator') ? !role.label.startsWith('removed') : false;
        expect(got.status, `${secret.kind} page as ${role.label}`).toBe(reads ? 200 : 404);
        if (!reads) continue;
        expect(got.text, `${secret.kind} page as ${role.label}`).toContain('Share link');
        expect(got.text.includes(`share_key=${secret.key}`), `${secret.kind} page's links as ${role.label}`).toBe(role.seesKey);
        expect(got.text.includes(secret.key), `${secret.kind} page as ${role.label}`).toBe(role.seesKey);
      }
    }
  });

  it('Shared with me and the collaborators’ own profiles hold none of the keys', async () => {
    for (const who of [people.reader, people.writer, people.folderReader, people.folderWriter, people.removed]) {
      for (const path of ['/shared', `/~${who.username}/`]) {
        const got = await get(path, who);
        expect(got.status, path).toBe(200);
        for (const s of secrets) expect(got.text.includes(s.key), `${path} as ${who.username} holds the ${s.kind}'s key`).toBe(false);
      }
    }
  });
});
