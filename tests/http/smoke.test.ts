import { describe, expect, it } from 'vitest';
import { call, createPlot, newUser, uploadGrid } from '../support/api';

describe('the curl walk-through of the README', () => {
  it('creates a grid and a plot on it, lists it and reads it back with its data', async () => {
    const alice = await newUser('alice');
    const grid = await uploadGrid(alice, { x: [1, 2, 3, 4], y: [1, 4, 9, 16] });
    const plot = await createPlot(alice, {
      filename: 'squares plot',
      figure: { data: [{ type: 'scatter', xsrc: grid.src('x'), ysrc: grid.src('y') }], layout: { title: { text: 'Squares' } } },
    });
    expect(plot.fid).toBe(`${alice.username}:2`);
    expect(plot.title).toBe('Squares');
    const list = await call('GET', '/v2/plots?page_size=100');
    expect(list.status).toBe(200);
    expect(list.json.results.map((r: { fid: string }) => r.fid)).toContain(plot.fid);
    const content = await call('GET', `/v2/plots/${plot.fid}/content?inline_data=true`);
    expect(content.json).toEqual({ data: [{ type: 'scatter', x: [1, 2, 3, 4], y: [1, 4, 9, 16] }], layout: { title: { text: 'Squares' } } });
  });
});
