// The chart editor's save, through the API itself (POST /v2/plots, PATCH /v2/plots/owner:n), so that
// what it makes is exactly what a client could have made, with the same limits and errors; then, for
// a new sharing that hides the chart, its grids follow it, as on the plot page.
import type { Visibility } from '@/lib/shared/sharing';
import type { EditorData } from '@/lib/web/chart-editor';
import type { FormState } from '@/lib/web/forms';
import { apiFilePath, filePath } from '@/lib/shared/urls';
import { nameFromTitle } from '@/lib/shared/names';
import { type ApiProblem, callApi } from '../api-client';
import { freeName, nameTaken } from '../free-name';
import type { EditorFigure } from './figure-history';

/** `figure.data[0].marker.colorsrc` -> `data.0.marker.colorsrc`: an API problem's place in the figure. */
export const figurePlace = (path: string) =>
  path
    .replace(/^figure\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/^\./, '');

/** A problem with a save, where the API put it: `field` (title, figure...) and `path` inside it (figure.data[0].xsrc). */
export type SaveProblem = Pick<ApiProblem, 'message' | 'field' | 'path'>;

export interface PlotSave {
  data: EditorData;
  figure: EditorFigure;
  /** The title the chart draws; none keeps the file's own. */
  title: string | undefined;
  /** The file's name as the Name field holds it: for a new chart, empty means "after the title"; null for a writer. */
  filename: string | null;
  /** null for a writer: where the plot is and who sees it stay its owner's. */
  sharing: Visibility | null;
  followSharing: (form: FormData) => Promise<FormState>;
}

const UNREADABLE = /which does not exist or which you cannot read/;

/**
 * A problem as a sentence about the chart (the API's names srcs and fids): a trace's column whose grid
 * is gone or not shared says so and what to do; any other src or fid left in a message is named by what it is.
 */
export function inWords(problem: SaveProblem): SaveProblem {
  const trace = problem.path ? /^data\.(\d+)\./.exec(figurePlace(problem.path)) : null;
  const where = trace ? `Trace ${Number(trace[1]) + 1}: ` : '';
  const message = UNREADABLE.test(problem.message)
    ? 'this column’s grid was deleted or is not shared with you; choose another column.'
    : problem.message
        .replace(/"[^"\s]+:\d+:[^"\s]+"/g, 'a column')
        .replace(/'[^'\s]+:\d+'/g, 'a grid')
        .replace(/^[\w.[\]]+: /, '');
  return { ...problem, message: `${where}${message.charAt(0).toUpperCase()}${message.slice(1)}` };
}

/** Saves the chart: the page to go on to, or the API's problems (each where the API put it). A server out of reach throws. */
export async function savePlot({ data, figure, title, filename, sharing, followSharing }: PlotSave): Promise<{ page: string } | { problems: SaveProblem[] }> {
  const body: Record<string, unknown> =
    sharing === null ? { figure, title } : { figure, title, world_readable: sharing === 'public', share_key_enabled: sharing === 'secret' };
  const send = () =>
    callApi<{ file?: { fid?: string }; fid?: string }>(data.plot ? apiFilePath('plots', data.plot.owner, data.plot.n) : '/v2/plots', {
      method: data.plot ? 'PATCH' : 'POST',
      body,
    });
  let answer: Awaited<ReturnType<typeof send>>;
  if (data.plot) {
    // A rename is the owner's, and a taken name is said at the Name field.
    if (filename !== null && filename.trim() !== data.filename) body.filename = filename.trim();
    answer = await send();
  } else {
    // A new chart is named after its title (or the name given), numbered when the name is taken.
    const base = filename?.trim() || nameFromTitle(title ?? '', 'Untitled chart');
    for (let tries = 0; ; tries++) {
      body.filename = await freeName(base);
      answer = await send();
      if (answer.ok || tries >= 2 || !nameTaken(answer.errors)) break;
    }
  }
  if (!answer.ok) {
    if (answer.errors.length) return { problems: answer.errors.map(inWords) };
    const message = answer.status === 401 ? 'Your session has ended; sign in again (in another tab) and save again.' : `Saving failed (HTTP ${answer.status}).`;
    return { problems: [{ message, field: null, path: null }] };
  }
  const fid = answer.body?.file?.fid ?? answer.body?.fid ?? '';
  const [owner, n] = fid.split(':');
  let page = data.plot ? filePath(data.plot.owner, data.plot.n) : filePath(owner, Number(n));
  // A new sharing that hides the chart hides its data too, as the plot page's sharing does.
  if (sharing !== null && sharing !== 'public' && (!data.plot || sharing !== data.sharing)) {
    const form = new FormData();
    form.set('fid', data.plot ? `${data.plot.owner}:${data.plot.n}` : fid);
    form.set('csrf', data.csrf);
    const followed = await followSharing(form);
    if (followed.done) page += '?notice=followed';
  }
  return { page };
}
