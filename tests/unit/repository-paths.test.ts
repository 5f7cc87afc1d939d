// Every repository path the product's comments and documents name exists, so a reader who follows
// one finds the file (moves leave stale ones behind otherwise); and a migration is named by what it
// defines (its function, trigger or index), never by its number, which says nothing to a reader.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository's top folders: a path in prose starting with one of these names a repository file or folder. */
const TOPS = ['app', 'bench', 'components', 'db', 'docs', 'e2e', 'fixtures', 'harness', 'lib', 'public', 'scripts', 'tests', '.ci'];
/** Where the prose is: these folders and files (walked for .ts, .tsx, .mjs, .css, .md, .jsonc, .py, .R). */
const SOURCES = [...TOPS.filter((t) => t !== 'fixtures' && t !== 'public'), 'README.md', 'BENCHMARKS.md', 'biome.jsonc', 'drizzle.config.ts'];
/** Not walked: migrations written by drizzle-kit, the vendored client, and this file (its examples are made up). */
const SKIPPED = ['db/migrations', 'tests/clients/vendor', 'node_modules', 'tests/unit/repository-paths.test.ts'];
/** Written by a command, so absent from a fresh clone: `npm run bench` writes bench/results/. */
const GENERATED = ['bench/results'];

const TEXT = /\.(ts|tsx|mjs|css|md|jsonc|py|R)$/;

function files(entry: string): string[] {
  if (SKIPPED.includes(entry)) return [];
  if (TEXT.test(entry) || entry === '.ci/run') return [entry];
  return readdirSync(entry, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(entry, e.name);
    if (e.isDirectory()) return files(p);
    return (TEXT.test(e.name) || p === '.ci/run') && !SKIPPED.includes(p) ? [p] : [];
  });
}

/** The prose of a file: a document whole, a program's comments only (its code is checked by running it). */
function prose(file: string, text: string): string {
  if (file.endsWith('.md')) return text;
  if (/\.(py|R)$/.test(file) || file === '.ci/run') return [...text.matchAll(/#.*$/gm)].map((m) => m[0]).join('\n');
  // Block comments, and line comments not inside a URL (`https://`) or a string's quotes.
  return [...text.matchAll(/\/\*[\s\S]*?\*\/|(?<![:'"`\\\w])\/\/.*$/gm)].map((m) => m[0]).join('\n');
}

const PATH = new RegExp(`(?<![\\w./~@*-])(?:${TOPS.map((t) => t.replace('.', '\\.')).join('|')})/[\\w.\\[\\]/*-]*[\\w\\]*]`, 'g');

/** The repository paths a file's prose names: top-anchored paths, and the targets of its Markdown links. */
function namedPaths(file: string, text: string): string[] {
  const words = prose(file, text);
  const named = [...words.matchAll(PATH)].map((m) => m[0]).filter((p) => !p.includes('*'));
  if (file.endsWith('.md')) {
    for (const [, target] of words.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(?:[a-z]+:|#|\/)/.test(target)) continue;
      named.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), target.split('#')[0])));
    }
  }
  // A document named alone (`API.md`) is one of the top's or docs/.
  for (const [, doc] of words.replace(/\]\([^)\s]+\)/g, ']').matchAll(/(?<![\w./-])([\w-]+\.md)\b/g)) {
    if (!existsSync(doc) && !existsSync(`docs/${doc}`)) named.push(doc);
  }
  return named.filter((p) => !GENERATED.some((g) => p === g || p.startsWith(`${g}/`)));
}

/** A migration named by its number (`migration 0015`, `0020_trace_type`) rather than by what it defines. */
const MIGRATION_NUMBER = /\bmigrations?\s+`?\d{4}\b|\b\d{4}_[a-z]\w*/gi;

describe('paths and names in comments and documents', () => {
  const sources = SOURCES.flatMap(files);

  it('reads the product, its tests and its documents', () => {
    for (const f of ['README.md', 'docs/api.md', 'lib/core/plots/srcs.ts', 'app/layout.tsx', 'tests/unit/import-graph.test.ts', '.ci/run']) {
      expect(sources).toContain(f);
    }
  });

  it('every repository path named exists', () => {
    const stale = sources.flatMap((f) =>
      namedPaths(f, readFileSync(f, 'utf8'))
        .filter((p) => !existsSync(p))
        .map((p) => `${f}: ${p}`),
    );
    expect(stale).toEqual([]);
  });

  it('migrations are named by what they define, not by number', () => {
    const numbered = sources.flatMap((f) => [...prose(f, readFileSync(f, 'utf8')).matchAll(MIGRATION_NUMBER)].map((m) => `${f}: ${m[0]}`));
    expect(numbered).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const code = [
      '// Kept by lib/core/plots/nowhere.ts (see docs/api.md#collaborators and tests/http/plot-*.test.ts).',
      '/** Built by app/v2/... and API.md. */',
      "const url = 'https://example.org/lib/core/gone.ts'; // fine: lib/core/plots/srcs.ts",
      "const spec = 'lib/core/also-gone.ts';",
    ].join('\n');
    const named = namedPaths('lib/x.ts', code);
    expect(named).toEqual(['lib/core/plots/nowhere.ts', 'docs/api.md', 'app/v2', 'lib/core/plots/srcs.ts', 'API.md']);
    expect(named.filter((p) => !existsSync(p))).toEqual(['lib/core/plots/nowhere.ts', 'API.md']);
    expect(namedPaths('docs/x.md', 'See [the API](api.md#versions), [home](../README.md), [gone](gone.md) and `bench/results/x.sql`.')).toEqual([
      'docs/api.md',
      'README.md',
      'docs/gone.md',
    ]);
    const sqlNumbered = '// kept by a trigger (migration 0015), the twin of `0020_trace_type`; 2024 rows; migrations are kept';
    expect([...sqlNumbered.matchAll(MIGRATION_NUMBER)].map((m) => m[0])).toEqual(['migration 0015', '0020_trace_type']);
  });
});
