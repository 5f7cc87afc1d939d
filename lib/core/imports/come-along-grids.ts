// Grids that come along with figures on srcs (Chart Studio's downloads: a plot's figure names its data
// `xsrc: "ada:6:1a2b3c"`): a grid file is its content as `GET /v2/grids/{fid}/content` answers it, with
// its fid, `{"fid": "ada:6", "cols": {name: {"data", "order", "uid"}}}`. A figure's srcs into such a grid
// get its columns' values inlined, as the content's `inline_data` would (a src of several uids: an array
// of the columns), before the figure is split into a new grid of its own.
import { parseSrc } from '../figures/figure';

export interface ComeAlongGrid {
  /** `owner:n`, the owner in lower case (usernames match whatever their case). */
  fid: string;
  cols: Map<string, unknown[]>;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const FID = /^([A-Za-z0-9][A-Za-z0-9_.-]{0,49}):([1-9][0-9]{0,9})$/;

/** A grid file's columns by uid, or why it is not one. */
export function comeAlongGrid(value: Record<string, unknown>): ComeAlongGrid | string {
  const fid = typeof value.fid === 'string' ? FID.exec(value.fid) : null;
  if (!fid) return 'a grid without its fid ("fid": "owner:number"), which its plots\' srcs name';
  const cols = new Map<string, unknown[]>();
  for (const [name, col] of Object.entries(value.cols as Record<string, unknown>)) {
    if (!isObject(col) || typeof col.uid !== 'string' || !Array.isArray(col.data)) return `its column '${name}' is not {"data": [...], "uid": "..."}`;
    cols.set(col.uid, col.data);
  }
  return { fid: `${fid[1].toLowerCase()}:${fid[2]}`, cols };
}

/** A copy of `figure` with every src into a grid of `grids` replaced by its values; a src into a grid that did not come along: why not. */
export function inlineGridSrcs(figure: Record<string, unknown>, grids: ComeAlongGrid[]): Record<string, unknown> | string {
  const byFid = new Map(grids.map((g) => [g.fid, g]));
  let missing: string | null = null;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!isObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const src = key.length > 3 && key.endsWith('src') && typeof v === 'string' ? parseSrc(v) : null;
      if (!src) {
        out[key] = walk(v);
        continue;
      }
      const fid = `${src.owner.toLowerCase()}:${src.n}`;
      const grid = byFid.get(fid);
      const columns = grid ? src.uids.map((uid) => grid.cols.get(uid)) : [];
      if (!grid || columns.some((c) => c === undefined)) {
        missing ??= grid
          ? `its ${key} names a column the grid ${fid} does not have`
          : `its data is in the grid ${fid}, which did not come along (add the grid's JSON file)`;
        continue;
      }
      out[key.slice(0, -3)] = columns.length === 1 ? columns[0] : columns;
    }
    return out;
  };
  const inlined = walk(figure) as Record<string, unknown>;
  return missing ?? inlined;
}
