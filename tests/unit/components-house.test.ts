// The client components' house rules (issue 36, point 4): no god components (no file over 400
// lines); one API client (components/api-client.ts) is the only caller of fetch and the only reader
// of an answer's body (the contract's errors among them); one problems summary and one undo/redo control serve every editor.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.posix.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|css)$/.test(e.name) ? [p] : [];
  });
}

const sources = files('components').map((file) => ({ file, text: readFileSync(file, 'utf8') }));
const code = sources.filter((s) => !s.file.endsWith('.css'));

/** Calls of fetch outside the client, each with why: not the API. */
const OTHER_FETCHES = new Set([
  // The presentation page's own route for more slides (/~owner/n/slides), not the API.
  'components/documents/slide-deck.tsx',
]);

// Where each editor's undo control is (the dashboard builder and the deck editor share theirs: SaveControls).
const UNDO_AT = ['components/chart-editor/chart-editor.tsx', 'components/grid-editor/grid-toolbar.tsx', 'components/document-file-fields.tsx'];
const DOCUMENT_EDITORS = ['components/dashboard-builder/dashboard-builder.tsx', 'components/deck-editor/deck-editor.tsx'];

describe('client components', () => {
  it('no file has over 400 lines', () => {
    const long = sources.map((s) => ({ file: s.file, lines: s.text.split('\n').length - 1 })).filter((s) => s.lines > 400);
    expect(long).toEqual([]);
  });

  it('only the API client calls fetch and reads an answer’s body', () => {
    const own = code.filter((s) => s.file !== 'components/api-client.ts' && !OTHER_FETCHES.has(s.file));
    expect(own.filter((s) => /\bfetch\(/.test(s.text)).map((s) => s.file)).toEqual([]);
    expect(own.filter((s) => /\.json\(\)/.test(s.text)).map((s) => s.file)).toEqual([]);
  });

  it('every editor shows its problems with the one summary, and undoes with the one control', () => {
    const summaries = sources.filter((s) => s.text.includes('editor-problems')).map((s) => s.file);
    expect(summaries.sort()).toEqual(['components/problems-summary.css', 'components/problems-summary.tsx']);
    const undoButtons = code.filter((s) => />\s*Undo\s*</.test(s.text)).map((s) => s.file);
    expect(undoButtons).toEqual(['components/undo-redo.tsx']);
    for (const file of UNDO_AT) expect(readFileSync(file, 'utf8'), file).toContain('<UndoRedo');
    for (const editor of DOCUMENT_EDITORS) expect(readFileSync(editor, 'utf8'), editor).toContain('<SaveControls');
    for (const editor of ['components/chart-editor/chart-editor.tsx', 'components/grid-editor/grid-editor.tsx', ...DOCUMENT_EDITORS])
      expect(readFileSync(editor, 'utf8'), editor).toContain('<ProblemsSummary');
  });
});
