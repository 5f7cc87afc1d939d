// Reading a module's imports from its text, for the import-graph test (tests/unit/import-graph.test.ts).

const SPECIFIER =
  /(?:^|[^\w.])((?:import|export)\s[^'"`;]*?)from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

/** Import specifiers of a file's text (comments removed first, so prose never counts); `values`: only those that bring code (not `import type`). */
export function specifiers(text: string, which: 'all' | 'values' = 'all'): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
  return [...code.matchAll(SPECIFIER)].filter((m) => which === 'all' || !/^(?:import|export)\s+type\s/.test(m[1] ?? '')).map((m) => m[2] ?? m[3] ?? m[4]);
}
