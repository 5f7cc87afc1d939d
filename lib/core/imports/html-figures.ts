// The figures of an HTML page plotly wrote (fig.write_html, plotly.offline.plot): the arguments of each
// `Plotly.newPlot(...)` call, read as the JSON literals plotly writes them, and the frames of the
// `Plotly.addFrames(...)` for the same div. Nothing of the page runs and nothing else of it is kept:
// an argument that is not a JSON literal (a variable, a call) makes that figure refused.
import { parseJsonText } from '../json-text';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';

export type HtmlFigure = { figure: Record<string, unknown> } | { refused: string };

const CALL = /\bPlotly\.(newPlot|plot|addFrames)\s*\(/g;
const QUOTED = /"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'/y;
const SPACE = /\s*/y;

/** Where the JSON value starting at `from` ends (its last character + 1), or -1; strings and nesting are skipped in one pass. */
function valueEnd(text: string, from: number): number {
  const first = text[from];
  if (first === '"') {
    QUOTED.lastIndex = from;
    return QUOTED.test(text) ? QUOTED.lastIndex : -1;
  }
  if (first !== '[' && first !== '{') {
    const m = /^[-+0-9.eEa-z]+/.exec(text.slice(from, from + 40));
    return m ? from + m[0].length : -1;
  }
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      QUOTED.lastIndex = i;
      if (!QUOTED.test(text)) return -1;
      i = QUOTED.lastIndex - 1;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

const skipSpace = (text: string, at: number) => {
  SPACE.lastIndex = at;
  SPACE.test(text);
  return SPACE.lastIndex;
};

/**
 * The call's arguments from `at` (just after its parenthesis): a quoted div id, then JSON literals; null
 * when one is not. 'code' when the first is no quoted id: not a call plotly writes for a figure (the
 * text of plotly.js itself, inlined in the page, holds such calls).
 */
function callArguments(text: string, at: number): { args: unknown[]; id: string } | 'code' | null {
  let i = skipSpace(text, at);
  QUOTED.lastIndex = i;
  const idMatch = QUOTED.exec(text);
  if (!idMatch) return 'code';
  const id = idMatch[1] ?? idMatch[2];
  i = skipSpace(text, QUOTED.lastIndex);
  const args: unknown[] = [];
  while (text[i] === ',' && args.length < 3) {
    i = skipSpace(text, i + 1);
    if (text[i] === ')') break;
    const end = valueEnd(text, i);
    if (end < 0) return null;
    try {
      args.push(parseJsonText(text.slice(i, end), 'an argument of the call'));
    } catch {
      return null;
    }
    i = skipSpace(text, end);
  }
  return text[i] === ')' ? { args, id } : null;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every figure of the page, in the page's order (at most IMPORT_LIMITS.maxFiguresPerFile). */
export function htmlFigures(text: string): HtmlFigure[] {
  const out: HtmlFigure[] = [];
  const byId = new Map<string, Record<string, unknown>>();
  CALL.lastIndex = 0;
  for (let m = CALL.exec(text); m && out.length < IMPORT_LIMITS.maxFiguresPerFile; m = CALL.exec(text)) {
    const call = callArguments(text, CALL.lastIndex);
    if (call === 'code') continue;
    if (m[1] === 'addFrames') {
      const figure = call && byId.get(call.id);
      if (figure && Array.isArray(call.args[0])) figure.frames = call.args[0];
      continue;
    }
    if (!call) {
      out.push({ refused: `a Plotly.${m[1]} call whose arguments are not JSON literals (nothing of the page runs here)` });
      continue;
    }
    // plotly.py writes (id, data, layout, config); a page may also pass one {data, layout, frames} object.
    const [first, layout] = call.args;
    const figure = isObject(first)
      ? { data: first.data, layout: first.layout ?? {}, ...(first.frames ? { frames: first.frames } : {}) }
      : { data: first, layout: layout ?? {} };
    byId.set(call.id, figure);
    out.push({ figure });
  }
  return out;
}
