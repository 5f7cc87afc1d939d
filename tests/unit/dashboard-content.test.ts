// Dashboard and presentation content (lib/core/documents/dashboard-content.ts): what the Python client makes is
// accepted as sent (fixtures/chart-studio), malformed content is the 400 naming its path, the limits
// hold, and the plots named are found (a presentation's only at this origin).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  contentJsonSchema,
  parseDashboardContent,
  parsePresentationContent,
  plotRefOfSrc,
  plotRefsOfDashboard,
  plotRefsOfPresentation,
} from '@/lib/core/documents/dashboard-content';
import { ApiError } from '@/lib/core/errors';
import { CONTENT_LIMITS } from '@/lib/shared/limits';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/chart-studio/${name}`, import.meta.url), 'utf8');
const ORIGIN = 'http://plots.test';

/** The 400's first problem: its field, path and message. */
function refusal(f: () => unknown) {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    expect(err.status).toBe(400);
    return { field: err.errors[0].field, path: err.errors[0].path, message: err.errors[0].message };
  }
  throw new Error('expected a 400');
}

const dash = (layout: unknown, extra: Record<string, unknown> = {}) => JSON.stringify({ layout, version: 2, settings: {}, ...extra });
const plot = (fileId: string, more: Record<string, unknown> = {}) => ({ type: 'box', boxType: 'plot', fileId, ...more });
const split = (first: unknown, second: unknown, more: Record<string, unknown> = {}) => ({
  type: 'split',
  direction: 'vertical',
  size: 50,
  sizeUnit: '%',
  first,
  second,
  ...more,
});

describe('dashboard content', () => {
  it("accepts the Python client's dashboard as sent, unknown keys kept, and names its plots in reading order", () => {
    const content = parseDashboardContent(fixture('dashboard.json'));
    expect(content.settings).toEqual({ title: 'My dash' });
    expect(plotRefsOfDashboard(content)).toEqual([
      { fileId: 'alice:2', shareKey: 'abc', path: 'content.layout.first.first.fileId' },
      { fileId: 'alice:1', shareKey: null, path: 'content.layout.first.second.first.fileId' },
      { fileId: 'alice:1', shareKey: null, path: 'content.layout.first.second.second.fileId' },
    ]);
    const kept = parseDashboardContent(dash(plot('a:1', { extra: { x: 1 } }), { theme: 'dark' }));
    expect(kept).toMatchObject({ theme: 'dark', layout: { extra: { x: 1 } } });
  });

  it('accepts an empty dashboard (layout null), empty boxes, text boxes, missing titles and null share keys', () => {
    expect(parseDashboardContent(dash(null)).layout).toBeNull();
    const content = parseDashboardContent(
      dash(
        split({ type: 'box', boxType: 'text', text: 'Hello <b>', title: 'Notes' }, split(plot('bob:3', { shareKey: null }), { type: 'box', boxType: 'empty' })),
      ),
    );
    expect(plotRefsOfDashboard(content)).toEqual([{ fileId: 'bob:3', shareKey: null, path: 'content.layout.second.first.fileId' }]);
  });

  it('refuses content that is not a JSON object, naming content', () => {
    for (const text of ['not json', '[1, 2]', '"a string"', '42', '', 'null']) {
      expect(refusal(() => parseDashboardContent(text))).toMatchObject({ field: 'content', path: null });
      expect(refusal(() => parsePresentationContent(text))).toMatchObject({ field: 'content', path: null });
    }
  });

  it('refuses malformed trees naming the path inside content', () => {
    const cases: [unknown, string][] = [
      [split(plot('alice:1'), plot('no-number')), 'content.layout.second.fileId'],
      [split(plot('alice:1'), { type: 'box', boxType: 'plot' }), 'content.layout.second.fileId'],
      [split(plot('alice:1'), plot('alice:1'), { size: 'big' }), 'content.layout.size'],
      [split(plot('alice:1'), plot('alice:1'), { sizeUnit: 'em' }), 'content.layout.sizeUnit'],
      [split(plot('alice:1'), plot('alice:1'), { direction: 'diagonal' }), 'content.layout.direction'],
      [split(plot('alice:1'), { type: 'box', boxType: 'video' }), 'content.layout.second.boxType'],
      [split({ type: 'circle' }, plot('alice:1')), 'content.layout.first.type'],
      [split(plot('alice:1', { title: 7 }), plot('alice:1')), 'content.layout.first.title'],
      [split({ type: 'box', boxType: 'text' }, plot('alice:1')), 'content.layout.first.text'],
    ];
    for (const [layout, path] of cases) expect(refusal(() => parseDashboardContent(dash(layout)))).toMatchObject({ field: 'content', path });
    expect(refusal(() => parseDashboardContent(JSON.stringify({ version: 2 })))).toMatchObject({ path: 'content.layout' });
  });

  it('holds its limits: bytes, boxes, nesting, string lengths', () => {
    const big = dash(plot('alice:1', { title: 'x'.repeat(10) }), { settings: { pad: 'x'.repeat(CONTENT_LIMITS.bytes) } });
    expect(refusal(() => parseDashboardContent(big)).message).toMatch(/content: at most 1 MiB/);
    // Multi-byte characters count as bytes, not characters.
    const wide = dash(null, { settings: { pad: 'é'.repeat(CONTENT_LIMITS.bytes / 2) } });
    expect(refusal(() => parseDashboardContent(wide)).message).toMatch(/at most 1 MiB/);
    const balanced = (n: number): unknown =>
      n === 1 ? { type: 'box', boxType: 'empty' } : split(balanced(Math.floor(n / 2)), balanced(n - Math.floor(n / 2)));
    expect(() => parseDashboardContent(dash(balanced(CONTENT_LIMITS.boxes)))).not.toThrow();
    expect(refusal(() => parseDashboardContent(dash(balanced(CONTENT_LIMITS.boxes + 1))))).toMatchObject({ path: 'content.layout' });
    let chain: unknown = plot('alice:1');
    for (let i = 0; i < 120; i++) chain = split(chain, { type: 'box', boxType: 'empty' });
    expect(refusal(() => parseDashboardContent(dash(chain))).message).toMatch(/nesting deeper/);
    expect(refusal(() => parseDashboardContent(dash(plot('alice:1', { title: 'x'.repeat(CONTENT_LIMITS.title + 1) })))).path).toBe('content.layout.title');
  });
});

describe('presentation content', () => {
  it("accepts the Python client's presentation as sent and names the plots of this origin only", () => {
    const text = fixture('presentation.json');
    const content = parsePresentationContent(text);
    expect(content.presentation.slides).toHaveLength(3);
    expect((content.presentation as Record<string, unknown>).paragraphStyles).toBeTruthy();
    expect(plotRefsOfPresentation(content, ORIGIN)).toEqual([
      { fileId: 'alice:1', shareKey: null, path: 'content.presentation.slides[1].children[1].props.src' },
    ]);
    expect(plotRefsOfPresentation(content, 'http://elsewhere.test')).toEqual([]);
  });

  it("reads a Plotly child's src: page, .embed, /embed, secret links, relative; not other sites' or other paths", () => {
    expect(plotRefOfSrc('http://plots.test/~alice/1.embed?link=false', ORIGIN)).toEqual({ fileId: 'alice:1', shareKey: null });
    expect(plotRefOfSrc('http://plots.test/~alice/12/?share_key=K1', ORIGIN)).toEqual({ fileId: 'alice:12', shareKey: 'K1' });
    expect(plotRefOfSrc('/~bob/3/embed', ORIGIN)).toEqual({ fileId: 'bob:3', shareKey: null });
    expect(plotRefOfSrc('https://plotly.com/~alice/1.embed', ORIGIN)).toBeNull();
    expect(plotRefOfSrc('http://plots.test/avatars/x.svg.embed?link=false', ORIGIN)).toBeNull();
    expect(plotRefOfSrc('http://plots.test/~alice/0/', ORIGIN)).toBeNull();
    expect(plotRefOfSrc('::::', ORIGIN)).toBeNull();
  });

  it('refuses malformed slides naming the path, and holds its limits', () => {
    const deck = (slides: unknown) => JSON.stringify({ presentation: { slides } });
    const child = (type: string, props: Record<string, unknown>, children: unknown[] = []) => ({ type, props, children });
    expect(refusal(() => parsePresentationContent(JSON.stringify({ slides: [] })))).toMatchObject({ path: 'content.presentation' });
    expect(refusal(() => parsePresentationContent(deck([{ children: [child('Video', {})] }])))).toMatchObject({
      path: 'content.presentation.slides[0].children[0].type',
    });
    expect(refusal(() => parsePresentationContent(deck([{ children: [] }, { children: [child('Plotly', { src: 5 })] }])))).toMatchObject({
      path: 'content.presentation.slides[1].children[0].props.src',
    });
    expect(refusal(() => parsePresentationContent(deck([{ children: [child('Text', {}, [{ b: 1 }])] }])))).toMatchObject({
      path: 'content.presentation.slides[0].children[0].children[0]',
    });
    expect(refusal(() => parsePresentationContent(deck([{ children: [child('Image', { src: 'a.png', style: { left: { x: 1 } } })] }])))).toMatchObject({
      path: 'content.presentation.slides[0].children[0].props.style.left',
    });
    const many = Array.from({ length: CONTENT_LIMITS.slides + 1 }, () => ({ children: [] }));
    expect(refusal(() => parsePresentationContent(deck(many)))).toMatchObject({ path: 'content.presentation.slides' });
    const plots = Array.from({ length: 2 }, () => ({ children: Array.from({ length: 51 }, () => child('Plotly', { src: '/~a/1.embed' })) }));
    expect(refusal(() => parsePresentationContent(deck(plots))).message).toMatch(/at most 100 plots/);
  });
});

describe('content JSON Schema', () => {
  it('documents both formats (recursion through a definition) with their limits', () => {
    const schema = contentJsonSchema('dashboard');
    expect(schema.title).toBe('Dashboard content');
    expect(schema.description).toMatch(/1048576 bytes/);
    expect(JSON.stringify(schema)).toContain('"boxType"');
    expect(JSON.stringify(contentJsonSchema('spectacle_presentation'))).toContain('"CodePane"');
  });
});
