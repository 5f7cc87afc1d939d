// Every form of a file's address the clients and pages make (issue 38 point 2): one parser
// (fileAddress, siteFileOf) and the app's routes (next.config.mjs rewrites) held to one table, so a
// slide, a dashboard box or an embed of any of them reaches the file.
import { pathToRegexp } from 'next/dist/compiled/path-to-regexp';
import { describe, expect, it } from 'vitest';
import nextConfig from '@/next.config.mjs';
import { plotRefOfSrc } from '@/lib/core/documents/dashboard-content';
import { isEmbedPath } from '@/lib/web/security-headers';
import { editorLinkFid, fileAddress, siteFileOf } from '@/lib/shared/urls';

const ORIGIN = 'https://plots.example';

/** [path, form, the internal route it is served by]. */
const FORMS: [string, 'page' | 'embed' | 'png' | 'json' | 'csv', string][] = [
  ['/~alice/3', 'page', '/files/alice/3'],
  ['/~alice/3/', 'page', '/files/alice/3'],
  ['/~alice/3/sales-by-city', 'page', '/files/alice/3'],
  ['/~alice/3/sales-by-city/', 'page', '/files/alice/3'],
  ['/~alice/3.embed', 'embed', '/files/alice/3/embed'],
  ['/~alice/3/embed', 'embed', '/files/alice/3/embed'],
  ['/~alice/3/.embed', 'embed', '/files/alice/3/embed'],
  ['/~alice/3.png', 'png', '/files/alice/3/image'],
  ['/~alice/3.json', 'json', '/files/alice/3/json'],
  ['/~alice/3.csv', 'csv', '/files/alice/3/csv'],
];

async function routed(path: string): Promise<string | null> {
  const rules = await (nextConfig as { rewrites: () => Promise<{ source: string; destination: string }[]> }).rewrites();
  for (const rule of rules) {
    const keys: { name: string | number }[] = [];
    const m = pathToRegexp(rule.source, keys).exec(path);
    if (!m) continue;
    return rule.destination.replace(/:(\w+)/g, (_, name: string) => m[keys.findIndex((k) => k.name === name) + 1]);
  }
  return null;
}

describe('file addresses', () => {
  it.each(FORMS)('%s is the %s of alice:3, served by %s', async (path, form, route) => {
    expect(fileAddress(path)).toEqual({ owner: 'alice', n: 3, form });
    expect(await routed(path)).toBe(route);
    expect(isEmbedPath(path)).toBe(form === 'embed');
  });

  it.each(['/~alice/', '/~alice/0', '/~alice/3/edit/x', '/~alice/3.embed/x', '/~alice/3/.png/x', '/~alice/3/..', '/files/alice/3', '/~alice/3x'])(
    '%s names no file',
    (path) => expect(fileAddress(path)).toBeNull(),
  );

  it('Chart Studio’s editor link /create/?fid=owner:n names the plot (lib/web/new-chart.ts editorLinkTarget: its editor, else its page)', () => {
    expect(editorLinkFid('alice:3')).toEqual({ owner: 'alice', n: 3 });
    for (const bad of [undefined, '', 'alice', 'alice:0', 'alice:3:x', 'a/b:3', 'alice:3x']) expect(editorLinkFid(bad), bad).toBeNull();
  });

  it('a slide or box URL in every form the clients make reaches the plot, with its share key', () => {
    const urls = [
      'https://plots.example/~alice/3/',
      'http://plots.example/~alice/3/.embed?link=false',
      'https://plots.example:443/~alice/3.embed',
      'https://PLOTS.example/~alice/3/embed',
      '/~alice/3',
      'https://plots.example/~alice/3/sales/',
    ];
    for (const url of urls) expect(plotRefOfSrc(url, ORIGIN), url).toEqual({ fileId: 'alice:3', shareKey: null });
    expect(plotRefOfSrc('https://plots.example/~alice/3/?share_key=k1', ORIGIN)).toEqual({ fileId: 'alice:3', shareKey: 'k1' });
    expect(siteFileOf('https://plots.example/~alice/3.png', ORIGIN)?.form).toBe('png');
    for (const other of [
      'https://evil.example/~alice/3/',
      'https://plots.example:8443/~alice/3/',
      'javascript:alert(1)',
      'https://plots.example/~alice/3.png',
    ]) {
      expect(plotRefOfSrc(other, ORIGIN), other).toBeNull();
    }
  });
});
