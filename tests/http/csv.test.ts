// `/~owner/n.csv` downloads: RFC 4180 text, and cells a spreadsheet would run as formulas neutralized
// (OWASP "CSV Injection"): text beginning with = + - @ tab or CR gets a leading '.
import { beforeAll, describe, expect, it } from 'vitest';
import { servers } from '../support/servers';

describe.each(servers())('CSV downloads on $name', (s) => {
  let owner: string;
  let grid: Awaited<ReturnType<typeof s.uploadGrid>>;

  beforeAll(async () => {
    const user = await s.newUser('csv');
    owner = user.username;
    grid = await s.uploadGrid(user, {
      '=HYPERLINK("http://evil.example")': ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', 'plain', 'a,b', 'say "hi"'],
      n: [1, -2, 3.5, -4e21, 0, 1, 2, 3, 4],
    });
  });

  it('grid cells and column names that look like formulas are prefixed; numbers, text and quoting are kept', async () => {
    const n = grid.fid.split(':')[1];
    const res = await fetch(`${s.url}/~${owner}/${n}.csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = (await res.text()).split('\r\n');
    expect(rows[0]).toBe(`"'=HYPERLINK(""http://evil.example"")",n`);
    expect(rows.slice(1, 10)).toEqual([
      "'=1+1,1",
      "'+SUM(A1),-2",
      "'-2+3,3.5",
      "'@cmd,-4e+21",
      "'\tx,0",
      `"'\rx",1`,
      'plain,2',
      '"a,b",3',
      '"say ""hi""",4',
    ]);
  });

  it("a plot's trace-name headers are neutralized too", async () => {
    const user = await s.newUser('csv');
    const g = await s.uploadGrid(user, { y: [1, 2] });
    const plot = await s.createPlot(user, { figure: { data: [{ type: 'bar', name: '=cmd|calc', ysrc: g.src('y') }] } });
    const res = await fetch(`${s.url}/~${user.username}/${plot.fid.split(':')[1]}.csv`);
    expect((await res.text()).split('\r\n')[0]).toBe("'=cmd|calc y");
  });
});
