// The house is one-way: app/ -> lib/http, lib/web -> lib/core -> db/, and the render wing lib/render -> lib/core. This walks every import of the
// product's source (static, re-exports, dynamic import(), type-only included) and fails on an edge
// the house forbids or on any cycle. Some edges are allowed for types only (`import type`), which
// leave no code behind: components/ take types from anywhere in lib/, and code only from lib/shared/.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { specifiers } from '../support/import-graph';

const ROOTS = ['app', 'lib', 'db', 'components', 'scripts', 'bench', 'proxy.ts', 'instrumentation.ts'];

/** lib/core's rooms, one concept each; its top holds only the shared ground (CORE_GROUND). */
const CORE_FOLDERS = ['figures', 'accounts', 'files', 'grids', 'plots', 'documents', 'images', 'workspace', 'setup', 'imports', 'streams'];
const CORE_GROUND = [
  'errors',
  'records',
  'permissions',
  'cursors',
  'json-text',
  'database',
  'bounded-cache',
  'client-address',
  'clock',
  'url-sql',
  'figure-sql',
  // Slots held across app processes: image exports (lib/render) and open streams.
  'leases',
];

/** [from, to, why]: a module under `from` may not import one under `to` (path prefixes). */
const FORBIDDEN: [string, string[], string][] = [
  [
    'lib/core/',
    ['lib/http/', 'lib/web/', 'lib/render/', 'app/', 'next', 'node:http'],
    'lib/core holds rules and data access: no HTTP edge (nor node:http), pages, render wing, app or Next',
  ],
  ['lib/render/', ['lib/http/', 'lib/web/', 'app/', 'next'], 'the render wing (Chromium) uses lib/core and nothing above it'],
  [
    'lib/shared/',
    ['lib/core/', 'lib/http/', 'lib/web/', 'lib/render/', 'db/', 'app/', 'next', 'drizzle-orm', 'node:', 'server-only'],
    'lib/shared is the browser-safe home: pure rules the browser and the server share, importing only each other',
  ],
  [
    'lib/core/figures/',
    ['db/', 'drizzle-orm', ...CORE_FOLDERS.filter((f) => f !== 'figures').map((f) => `lib/core/${f}/`)],
    'figures is plotly knowledge: no database and no other core folder',
  ],
  ['lib/core/accounts/', CORE_FOLDERS.filter((f) => f !== 'accounts').map((f) => `lib/core/${f}/`), 'accounts (people, sign-in) know nothing of files'],
  ['lib/core/files/', ['grids', 'plots', 'documents', 'workspace', 'setup'].map((f) => `lib/core/${f}/`), 'files are any file: no kind of file in particular'],
  ['lib/core/grids/', ['plots', 'documents', 'workspace', 'setup'].map((f) => `lib/core/${f}/`), 'grids know nothing of the plots drawn from them'],
  [
    'lib/core/images/',
    ['grids', 'plots', 'documents', 'workspace', 'setup'].map((f) => `lib/core/${f}/`),
    'the image queue is told what to draw; files of every kind use it',
  ],
  ['lib/core/', ['lib/core/setup/'], 'setup (first start, demo data) uses the rest; nothing uses it'],
  ...CORE_FOLDERS.filter((f) => f !== 'imports').map((f): [string, string[], string] => [
    `lib/core/${f}/`,
    ['lib/core/imports/'],
    'bringing charts (files read into plots) uses the rest; nothing else of core uses it',
  ]),
  ['db/', ['lib/', 'app/', 'components/'], 'db/ is schema, client and migrations only'],
  ['lib/', ['components/'], 'types flow down: lib/ never imports components/ (the data a component is handed is typed in lib/)'],
  ['lib/http/', ['lib/web/', 'app/'], 'the API edge does not depend on pages'],
  ['lib/web/', ['lib/http/', 'app/'], 'page loaders do not depend on the API edge (only on what a request says: lib/http/request/)'],
  ['lib/http/request/', ['lib/http/', 'lib/web/', 'app/', 'next'], 'what a request says, shared by both edges, stands on lib/core alone'],
  ['app/', ['app/v2/'], 'pages do not reach into the API routes (the OpenAPI document is a file both read)'],
  ['components/', ['app/'], 'pages hand server actions to components as props'],
  ['bench/', ['tests/'], 'shared helpers live in harness/'],
  ['app/', ['tests/', 'bench/', 'e2e/'], 'the product never imports its tests'],
  ['lib/', ['tests/', 'bench/', 'e2e/'], 'the product never imports its tests'],
];

/** [from, to]: the edges FORBIDDEN's and TYPES_ONLY's prefixes would catch that the house allows. */
const EXCEPT: [string, string][] = [
  ['lib/shared/', 'lib/shared/'],
  ['components/', 'lib/shared/'],
  ['lib/core/setup/', 'lib/core/setup/'],
  ['lib/web/', 'lib/http/request/'],
  ['lib/http/request/', 'lib/http/request/'],
  ['app/v2/', 'app/v2/'],
];

/** [from, to, why]: a module under `from` may import one under `to` for its types only. */
const TYPES_ONLY: [string, string[], string][] = [
  ['lib/web/', ['db/', 'drizzle-orm'], 'lib/web reads data through lib/core: db/ and SQL for their types only'],
  [
    'components/',
    ['lib/', 'db/', 'drizzle-orm'],
    "components run in the browser: their code from lib/ is lib/shared/'s (pure, browser-safe); the rest of lib/ for its types only",
  ],
];

/** Packages the rules name: `next` and `drizzle-orm` with their subpaths, and node:http. */
const PACKAGES = ['next', 'drizzle-orm', 'node:http', 'server-only'];

function sourceFiles(entry: string): string[] {
  if (/\.(ts|tsx|mjs)$/.test(entry)) return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(entry, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'migrations' ? [] : sourceFiles(p);
    return /\.(ts|tsx|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** A specifier as a repository path (without extension), a package of PACKAGES, or null for other packages. */
function target(from: string, spec: string, known: Set<string>): string | null {
  const pkg = PACKAGES.find((p) => spec === p || spec.startsWith(`${p}/`));
  if (pkg) return pkg;
  if (spec.startsWith('node:')) return spec;
  let base: string;
  if (spec.startsWith('@/')) base = spec.slice(2);
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}/index.ts`]) if (known.has(candidate)) return candidate;
  return base;
}

function graph(which: 'all' | 'values' = 'all'): Map<string, string[]> {
  const files = ROOTS.flatMap(sourceFiles);
  const known = new Set(files);
  return new Map(
    files.map((f) => [
      f,
      [
        ...new Set(
          specifiers(readFileSync(f, 'utf8'), which)
            .map((s) => target(f, s, known))
            .filter((t) => t !== null),
        ),
      ],
    ]),
  );
}

function violations(edges: Map<string, string[]>, rules = FORBIDDEN): string[] {
  const out: string[] = [];
  for (const [from, tos] of edges) {
    for (const to of tos) {
      if (EXCEPT.some(([f, t]) => from.startsWith(f) && to.startsWith(t))) continue;
      for (const [prefix, banned, why] of rules) {
        if (from.startsWith(prefix) && banned.some((b) => (PACKAGES.includes(b) ? to === b : to.startsWith(b)))) out.push(`${from} -> ${to} (${why})`);
      }
    }
  }
  return out;
}

/**
 * A route segment's files (the folder of its page or route) import no other segment's, above or beside
 * it: what several share lives in a private folder (`app/_actions` for server actions, any `_name`),
 * which Next never serves.
 */
function segmentViolations(edges: Map<string, string[]>): string[] {
  const isPrivate = (file: string) => file.split('/').some((part) => part.startsWith('_'));
  return [...edges].flatMap(([from, tos]) =>
    from.startsWith('app/')
      ? tos
          .filter((to) => to.startsWith('app/') && !isPrivate(to) && path.posix.dirname(to) !== path.posix.dirname(from))
          .map((to) => `${from} -> ${to} (a route segment imports only its own files and private folders)`)
      : [],
  );
}

/** Every cycle's files, one entry per strongly connected component of more than one file (or a self-import). */
function cycles(edges: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || edges.get(v)?.includes(v)) out.push(component.sort());
    }
  };
  for (const v of edges.keys()) if (!order.has(v)) visit(v);
  return out;
}

describe('the import graph', () => {
  const edges = graph();

  it('covers the product: every layer has modules and the walk finds their imports', () => {
    for (const layer of ['lib/core/', 'lib/http/', 'lib/web/', 'lib/render/', 'db/', 'app/', 'components/']) {
      expect([...edges.keys()].filter((f) => f.startsWith(layer)).length, layer).toBeGreaterThan(2);
    }
    expect(edges.get('lib/http/routes.ts')).toContain('lib/core/accounts/auth.ts');
    expect(edges.get('app/v2/plots/route.ts')).toContain('lib/http/routes.ts');
    expect(edges.get('lib/render/image-worker.ts')).toContain('lib/core/images/images.ts');
  });

  it('has no forbidden edge (app -> lib/http, lib/web -> lib/core -> db)', () => {
    expect(violations(edges)).toEqual([]);
  });

  it('has no edge allowed for types only that brings code (lib/web -> db/, drizzle-orm and components -> lib/ but lib/shared are `import type`)', () => {
    const values = graph('values');
    expect([...values.get('lib/web/page-context.ts')!]).toContain('lib/core/accounts/auth.ts');
    expect(edges.get('components/plot-card.tsx')).toEqual(expect.arrayContaining(['lib/web/plot-cards.ts', 'lib/shared/sharing.ts']));
    expect(values.get('components/plot-card.tsx')).toContain('lib/shared/sharing.ts');
    expect(values.get('components/plot-card.tsx')).not.toContain('lib/web/plot-cards.ts');
    expect(violations(values, TYPES_ONLY)).toEqual([]);
  });

  it('keeps lib/core in its rooms: the shared ground at the top imports no room, and nothing else lies at the top', () => {
    const core = [...edges.keys()].filter((f) => f.startsWith('lib/core/'));
    const top = core.filter((f) => !f.slice('lib/core/'.length).includes('/'));
    expect(top.map((f) => path.posix.basename(f, '.ts')).sort()).toEqual([...CORE_GROUND].sort());
    expect(core.filter((f) => !top.includes(f) && !CORE_FOLDERS.includes(f.split('/')[2]))).toEqual([]);
    expect(
      top.flatMap((f) =>
        edges
          .get(f)!
          .filter((t) => t.startsWith('lib/core/') && t.slice('lib/core/'.length).includes('/'))
          .map((t) => `${f} -> ${t}`),
      ),
    ).toEqual([]);
  });

  it('keeps route segments apart: a segment imports only its own files and private folders (server actions in app/_actions)', () => {
    expect(segmentViolations(edges)).toEqual([]);
    expect([...edges.keys()].filter((f) => f.startsWith('app/_actions/')).length).toBeGreaterThan(2);
  });

  it('has no cycle', () => {
    expect(cycles(edges)).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const bad = new Map([
      ['lib/core/a.ts', ['lib/http/routes.ts', 'next']],
      ['lib/core/d.ts', ['lib/render/renderer.ts']],
      ['lib/render/e.ts', ['lib/web/gallery.ts']],
      ['db/client.ts', ['lib/core/setup/demo.ts']],
      ['components/x.tsx', ['app/signin/actions.ts']],
      ['lib/core/b.ts', ['lib/core/c.ts']],
      ['lib/core/c.ts', ['lib/core/b.ts']],
      ['lib/core/f.ts', ['node:http']],
      ['lib/web/g.ts', ['lib/http/routes.ts', 'lib/http/request/origin.ts']],
      ['lib/http/request/h.ts', ['lib/http/responses.ts', 'lib/http/request/origin.ts']],
      ['app/docs/api/page.tsx', ['app/v2/openapi.json/route.ts']],
      ['app/v2/files/route.ts', ['app/v2/route.ts']],
      ['lib/shared/u.ts', ['lib/core/errors.ts', 'node:fs', 'server-only', 'lib/shared/v.ts']],
      ['lib/core/figures/w.ts', ['drizzle-orm', 'lib/core/plots/plots.ts', 'lib/core/errors.ts']],
      ['lib/core/files/x.ts', ['lib/core/grids/grids.ts', 'lib/core/accounts/auth.ts']],
      ['lib/core/grids/y.ts', ['lib/core/plots/srcs.ts']],
      ['lib/web/z.ts', ['components/dashboard-builder/tree.ts']],
      ['lib/core/z.ts', ['components/plot-card.tsx']],
    ]);
    expect(violations(bad)).toHaveLength(19);
    expect(cycles(bad)).toEqual([['lib/core/b.ts', 'lib/core/c.ts']]);
    const segments = new Map([
      ['app/files/[owner]/[n]/edit/page.tsx', ['app/create/chart/actions.ts', 'app/_actions/editors.ts', 'lib/web/edit-page.ts']],
      ['app/files/[owner]/[n]/history/[v]/page.tsx', ['app/files/[owner]/[n]/history/actions.ts']],
      ['app/files/[owner]/[n]/page.tsx', ['app/files/[owner]/[n]/document-page.tsx', 'app/users/[owner]/file-actions.ts']],
      ['app/_actions/file-actions.ts', ['app/_actions/files.ts']],
    ]);
    expect(segmentViolations(segments)).toHaveLength(3);
    expect(violations(new Map([['lib/web/x.ts', ['db/client.ts', 'drizzle-orm', 'lib/core/accounts/auth.ts']]]), TYPES_ONLY)).toHaveLength(2);
    const component = ['lib/web/gallery.ts', 'lib/core/plots/search.ts', 'lib/render/renderer.ts', 'db/client.ts', 'lib/shared/limits.ts', 'components/x.tsx'];
    expect(violations(new Map([['components/y.tsx', component]]), TYPES_ONLY)).toHaveLength(4);
    const mixed = `import type { Db } from '@/db/client';\nimport { getDb, type Database } from '@/db/client';\nexport type { X } from './x';\nimport { y } from './y';`;
    expect(specifiers(mixed, 'values')).toEqual(['@/db/client', './y']);
    expect(specifiers(mixed)).toEqual(['@/db/client', '@/db/client', './x', './y']);
    expect(
      specifiers(
        `import a from '@/x';\nimport type { B } from './b';\n// import c from './c';\nexport { d } from '../d';\nconst e = await import('./e');\nimport './f';`,
      ),
    ).toEqual(['@/x', './b', '../d', './e', './f']);
  });
});
