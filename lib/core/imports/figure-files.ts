// "Bring your charts", pure: files (plotly figure JSON, Chart Studio's downloads, plotly's HTML pages,
// notebooks, zips of these) read into the figures they hold, each with the name, folder and content key
// it is stored under, and every file or figure refused with the reason. Nothing here touches the database.
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { nameFromTitle } from '@/lib/shared/names';
import { ApiError } from '../errors';
import { parseJsonText } from '../json-text';
import { figureTitle } from '../plots/raw-figure';
import { comeAlongGrid, inlineGridSrcs, type ComeAlongGrid } from './come-along-grids';
import { htmlFigures } from './html-figures';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';
import { type ZipEntry, ZipRefusal, zipEntries } from './zip-entries';

export interface FigureFile {
  /** Its name as the person gave it (a path under a CLI folder). */
  name: string;
  bytes: Uint8Array;
  /** The folder its figures go in; else the file's name without its extension. */
  folder?: string;
}

export interface FoundFigure {
  /** Which file, and which figure of it: "page.html, figure 2". */
  label: string;
  folder: string;
  /** The plot's name: its title, else its file's. */
  name: string;
  figure: Record<string, unknown>;
  /** The number its Chart Studio address said (`~user/N`), when it said one. */
  number: number | null;
  /** sha256 of the figure as found (its data inlined): a figure imported before is skipped. */
  key: string;
}

export interface Refused {
  label: string;
  reason: string;
}

export interface FigureBatch {
  figures: FoundFigure[];
  refused: Refused[];
}

const NOTEBOOK_MIME = 'application/vnd.plotly.v1+json';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const baseName = (name: string) => name.split(/[\\/]/).filter(Boolean).pop() ?? name;
const stem = (name: string) => baseName(name).replace(/\.[^.]+$/, '') || baseName(name);
const decoder = new TextDecoder();

interface Candidate {
  label: string;
  folder: string;
  /** The plot's name when its figure has no title. */
  fallback: string;
  raw: Record<string, unknown>;
  number: number | null;
}

/** The number of a Chart Studio address or fid a record carries (`fid: "ada:7"`, `web_url: ".../~ada/7/"`). */
function numberOf(record: Record<string, unknown>): number | null {
  const fid = typeof record.fid === 'string' ? /^[^:]+:([1-9][0-9]{0,8})$/.exec(record.fid) : null;
  const url = [record.web_url, record.url].find((u) => typeof u === 'string') as string | undefined;
  const fromUrl = url ? /\/~[^/]+\/([1-9][0-9]{0,8})(?:[/.?#]|$)/.exec(url) : null;
  const m = fid ?? fromUrl;
  return m ? Number(m[1]) : null;
}

/** A figure of the shapes plotly and Chart Studio write: {data, layout, frames}, with `config` and the rest left. */
function figureOf(value: Record<string, unknown>): Record<string, unknown> {
  return { data: value.data, layout: value.layout ?? {}, ...(value.frames !== undefined ? { frames: value.frames } : {}) };
}

/** What one JSON document holds: a figure, a Chart Studio plot record, a grid, or a notebook's outputs. */
function readJson(value: unknown, file: { label: string; folder: string; fallback: string }, grids: ComeAlongGrid[]): (Candidate | Refused)[] {
  const one = (raw: Record<string, unknown>, number: number | null = null): Candidate => ({ ...file, raw, number });
  if (isObject(value) && Array.isArray(value.cells)) {
    const out: Candidate[] = [];
    for (const cell of value.cells.slice(0, 10_000)) {
      const outputs = isObject(cell) && Array.isArray(cell.outputs) ? cell.outputs : [];
      for (const output of outputs) {
        const bundle = isObject(output) && isObject(output.data) ? output.data[NOTEBOOK_MIME] : undefined;
        if (isObject(bundle) && out.length < IMPORT_LIMITS.maxFiguresPerFile) out.push(one(figureOf(bundle)));
      }
    }
    if (!out.length) return [{ label: file.label, reason: 'a notebook without plotly outputs (application/vnd.plotly.v1+json)' }];
    return out.length > 1 ? out.map((c, i) => ({ ...c, label: `${file.label}, figure ${i + 1}`, fallback: `${file.fallback} ${i + 1}` })) : out;
  }
  if (isObject(value) && isObject(value.figure)) return [one(figureOf(value.figure), numberOf(value))];
  if (isObject(value) && Array.isArray(value.data)) return [one(figureOf(value), numberOf(value))];
  if (isObject(value) && isObject(value.cols)) {
    const grid = comeAlongGrid(value);
    if (typeof grid === 'string') return [{ label: file.label, reason: grid }];
    grids.push(grid);
    return [];
  }
  return [{ label: file.label, reason: 'not a plotly figure ({"data": [...], "layout": {...}}), a notebook or a grid' }];
}

const problem = (error: unknown) => (error instanceof ApiError ? error.errors.map((e) => e.message).join('; ') : (error as Error).message);

/** One file (a zip's entries each in turn) into candidates; grids that come along are collected. */
async function readFile(file: FigureFile, folder: string, out: (Candidate | Refused)[], grids: ComeAlongGrid[], inZip: string | null): Promise<void> {
  const label = inZip ? `${inZip}: ${file.name}` : file.name;
  const ext = /\.([A-Za-z0-9]+)$/.exec(baseName(file.name))?.[1]?.toLowerCase() ?? '';
  const refuse = (reason: string) => out.push({ label, reason });
  if (file.bytes.length > IMPORT_LIMITS.maxSourceBytes) return void refuse(`larger than ${IMPORT_LIMITS.maxSourceBytes / 1024 / 1024} MiB`);
  if (ext === 'zip') {
    if (inZip) return void refuse('a zip inside a zip is not read');
    let entries: ZipEntry[];
    try {
      entries = await zipEntries(file.bytes);
    } catch (error) {
      if (error instanceof ZipRefusal) return void refuse(error.message);
      throw error;
    }
    for (const entry of entries) {
      if (baseName(entry.name).startsWith('.')) continue;
      await readFile(entry, folder, out, grids, file.name);
      await nextTurn();
    }
    return;
  }
  const info = { label, folder, fallback: nameFromTitle(stem(file.name), 'chart') };
  if (ext === 'html' || ext === 'htm') {
    const found = htmlFigures(decoder.decode(file.bytes));
    if (!found.length) return void refuse('an HTML page without plotly figures (Plotly.newPlot)');
    found.forEach((f, i) => {
      const figLabel = found.length > 1 ? `${label}, figure ${i + 1}` : label;
      const fallback = found.length > 1 ? `${info.fallback} ${i + 1}` : info.fallback;
      out.push('refused' in f ? { label: figLabel, reason: f.refused } : { ...info, label: figLabel, fallback, raw: f.figure, number: null });
    });
    return;
  }
  if (ext !== 'json' && ext !== 'ipynb') return void refuse('not a figure file (.json, .html, .ipynb or .zip)');
  let value: unknown;
  try {
    value = parseJsonText(decoder.decode(file.bytes), 'the file');
  } catch (error) {
    return void refuse(problem(error));
  }
  out.push(...readJson(value, info, grids));
}

/** Reads every file of a batch; figures on srcs take their data from the grids that came along in it. */
export async function readFigureFiles(files: FigureFile[]): Promise<FigureBatch> {
  const found: (Candidate | Refused)[] = [];
  const grids: ComeAlongGrid[] = [];
  for (const file of files) {
    await readFile(file, nameFromTitle(file.folder ?? stem(file.name), 'imported'), found, grids, null);
    await nextTurn();
  }
  const batch: FigureBatch = { figures: [], refused: [] };
  for (const item of found) {
    if (!('raw' in item)) {
      batch.refused.push(item);
      continue;
    }
    if (!Array.isArray(item.raw.data)) {
      batch.refused.push({ label: item.label, reason: 'its data is not a list of traces' });
      continue;
    }
    const inlined = inlineGridSrcs(item.raw, grids);
    if (typeof inlined === 'string') {
      batch.refused.push({ label: item.label, reason: inlined });
      continue;
    }
    const key = createHash('sha256').update(JSON.stringify(inlined)).digest('hex');
    const name = nameFromTitle(figureTitle(inlined), item.fallback);
    batch.figures.push({ label: item.label, folder: item.folder, name, figure: inlined, number: item.number, key });
  }
  return batch;
}
