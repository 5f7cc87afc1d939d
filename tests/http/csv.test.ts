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
    expect(rows.slice(1, 10)).toEqual(["'=1+1,1", "'+SUM(A1),-2", "'-2+3,3.5", "'@cmd,-4e+21", "'\tx,0", `"'\rx",1`, 'plain,2', '"a,b",3', '"say ""hi""",4']);
  });

  it("a plot's trace-name headers are neutralized too", async () => {
    const user = await s.newUser('csv');
    const g = await s.uploadGrid(user, { y: [1, 2] });
    const plot = await s.createPlot(user, { figure: { data: [{ type: 'bar', name: '=cmd|calc', ysrc: g.src('y') }] } });
    const res = await fetch(`${s.url}/~${user.username}/${plot.fid.split(':')[1]}.csv`);
    expect((await res.text()).split('\r\n')[0]).toBe("'=cmd|calc y");
  });

  it.each([
    // Not plain ASCII: an ASCII fallback, and the exact name as RFC 8187 UTF-8 in filename*.
    [
      'Données – été 2024 "final"',
      `attachment; filename="Donn?es ? ?t? 2024 \\"final\\".csv"; filename*=UTF-8''Donn%C3%A9es%20%E2%80%93%20%C3%A9t%C3%A9%202024%20%22final%22.csv`,
    ],
    ['日本語のデータ', `attachment; filename="???????.csv"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E%E3%81%AE%E3%83%87%E3%83%BC%E3%82%BF.csv`],
    // A percent sign that reads as an escape goes in filename* too, so no browser decodes it.
    ['100%20done', `attachment; filename=100%20done.csv; filename*=UTF-8''100%2520done.csv`],
    // Plain ASCII as is: a token bare, anything else quoted.
    ['report', 'attachment; filename=report.csv'],
    ['my report (v2)', 'attachment; filename="my report (v2).csv"'],
  ])('the download is named after the file: %s', async (filename, disposition) => {
    const user = await s.newUser('csv');
    const g = await s.uploadGrid(user, { y: [1, 2] }, { filename });
    const res = await fetch(`${s.url}/~${user.username}/${g.fid.split(':')[1]}.csv`);
    expect(res.status).toBe(200);
    const header = res.headers.get('content-disposition')!;
    expect(header).toBe(disposition);
    // What a browser saves: filename* when given, else filename (unquoted).
    const extended = /; filename\*=UTF-8''(.+)$/.exec(header);
    const plain = /; filename=(?:"((?:[^"\\]|\\.)*)"|([^;]+))/.exec(header)!;
    const saved = extended ? decodeURIComponent(extended[1]) : (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]);
    expect(saved).toBe(`${filename}.csv`);
  });
});
