// The API's PUT and PATCH change the file alone (docs/api.md "Updates"): a plot made private or
// secret through the API leaves its grids as they were, as the official clients expect; only the web's
// sharing forms take a plot's grids along (tests/lib/plot-data-sharing.test.ts, e2e/plot-data-sharing.spec.ts).
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/api';
import { servers } from '../support/servers';

const unique = (stem: string) => `${stem} ${randomBytes(3).toString('hex')}`;

describe.each(servers())('a plot shared through the API, on $name', (s) => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await s.newUser('data');
  });

  it.each([
    ['PATCH', 'plots', { world_readable: false }],
    ['PUT', 'files', { world_readable: false, share_key_enabled: true }],
  ] as const)('%s /v2/%s/{fid} changes the plot, never its grid', async (method, kind, body) => {
    const grid = await s.uploadGrid(owner, { x: [1, 2, 3], y: [4, 5, 6] }, { filename: unique('grid') });
    const plot = await s.createPlot(owner, { filename: unique('plot'), figure: { data: [{ type: 'bar', xsrc: grid.src('x'), ysrc: grid.src('y') }] } });
    const before = (await s.call('GET', `/v2/grids/${grid.file.fid}`, { user: owner })).json;

    const res = await s.call(method, `/v2/${kind}/${plot.fid}`, { user: owner, body });
    expect(res.status, res.text).toBe(200);
    expect(res.json.world_readable).toBe(false);
    expect((await s.call('GET', `/v2/plots/${plot.fid}`)).status).toBe(404);

    // The grid is as it was: public, unchanged, its data open to anyone.
    const after = (await s.call('GET', `/v2/grids/${grid.file.fid}`, { user: owner })).json;
    expect([after.world_readable, after.share_key_enabled, after.date_modified]).toEqual([true, false, before.date_modified]);
    const content = await s.call('GET', `/v2/grids/${grid.file.fid}/content`);
    expect(content.status).toBe(200);
    expect(content.text).toContain('[4,5,6]');
  });
});
