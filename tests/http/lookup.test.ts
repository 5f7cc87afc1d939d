// Lookup (docs/api.md "Endpoints"): `/v2/files/lookup` and the typed lookups, `parent`, `exists`, R's `+`
// spaces, and a grid's record without `cols` under /v2/files/ (R merges it with a /col answer).
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError, type TestUser } from '../support/api';
import { servers } from '../support/servers';

describe.each(servers())('lookup on $name', (s) => {
  let alice: TestUser;
  let bob: TestUser;
  let grid: Awaited<ReturnType<typeof s.uploadGrid>>;
  let folderN: number;
  let plotFid: string;

  beforeAll(async () => {
    alice = await s.newUser('look');
    bob = await s.newUser('look');
    const folder = await s.call('POST', '/v2/folders', { user: alice, body: { path: 'reports/2026' } });
    expect(folder.status).toBe(201);
    folderN = Number(folder.json.file.fid.split(':')[1]);
    grid = await s.uploadGrid(alice, { x: [1, 2] }, { filename: 'my grid', parent_path: 'reports/2026' });
    plotFid = (await s.createPlot(alice, { filename: 'my plot', parent_path: 'reports', figure: { data: [{ type: 'bar', ysrc: grid.src('x') }] } })).fid;
    await s.createPlot(alice, { filename: 'hidden', world_readable: false, figure: { data: [] } });
  });

  const lookup = (query: string, user: TestUser | null = alice, kind = 'files') => s.call('GET', `/v2/${kind}/lookup?${query}`, { user });

  it('finds a file by path (leading / ignored, + a space), under /v2/files/ a grid without cols', async () => {
    for (const q of ['path=reports/2026/my+grid', 'path=/reports/2026/my%20grid']) {
      const res = await lookup(q);
      expect(res.status, res.text).toBe(200);
      expect(res.json.fid).toBe(grid.fid);
      expect(res.json).not.toHaveProperty('cols');
      expect(res.json.preview).toEqual({ x: [1, 2] });
    }
    const typed = await lookup('path=reports/2026/my+grid', alice, 'grids');
    expect(typed.json.cols).toEqual(grid.file.cols);
    expect((await s.call('GET', `/v2/files/${grid.fid}`, { user: alice })).json).not.toHaveProperty('cols');
    expect((await s.call('GET', `/v2/grids/${grid.fid}`, { user: alice })).json.cols).toEqual(grid.file.cols);
  });

  it('parent: the path is relative to that folder', async () => {
    const res = await lookup(`path=my+grid&parent=${folderN}`);
    expect(res.json.fid).toBe(grid.fid);
    expectError(await lookup('path=my+grid&parent=-1'), 404);
  });

  it('typed lookups count a file of another type as none', async () => {
    expect((await lookup('path=reports/my+plot', alice, 'plots')).json.fid).toBe(plotFid);
    expectError(await lookup('path=reports/my+plot', alice, 'grids'), 404);
    expect((await lookup('path=reports/2026', alice, 'folders')).json.filetype).toBe('fold');
    expectError(await lookup('path=reports/2026', alice, 'plots'), 404);
  });

  it('exists=true answers {exists} instead of the record or a 404', async () => {
    expect((await lookup('path=reports/my+plot&exists=true')).json).toEqual({ exists: true });
    expect((await lookup('path=reports/nothing&exists=true')).json).toEqual({ exists: false });
    expect((await lookup('path=reports/my+plot&exists=true', alice, 'grids')).json).toEqual({ exists: false });
    expect((await lookup('path=reports/my+plot&exists=false')).json.fid).toBe(plotFid);
  });

  it('others find public files with user=, never private ones (the 404 of a missing one, or exists false)', async () => {
    expect((await lookup(`path=reports/my+plot&user=${alice.username}`, bob)).json.fid).toBe(plotFid);
    const missing = await lookup(`path=nothing&user=${alice.username}`, bob);
    const hidden = await lookup(`path=hidden&user=${alice.username}`, bob);
    expectError(hidden, 404);
    expect(hidden.text).toBe(missing.text);
    expect((await lookup(`path=hidden&user=${alice.username}&exists=true`, bob)).json).toEqual({ exists: false });
    expectError(await lookup('path=reports/my+plot', null), 404);
  });

  it.each([
    ['', 'path'],
    ['path=', 'path'],
    ['path=/', 'path'],
    ['path=a&parent=x', 'parent'],
    ['path=a&parent=1.5', 'parent'],
    ['path=a&exists=yes', 'exists'],
  ])('bad query %j is a 400 naming %s', async (query, field) => {
    const res = await lookup(query);
    expectError(res, 400);
    expect(res.json.errors[0].field).toBe(field);
  });
});
