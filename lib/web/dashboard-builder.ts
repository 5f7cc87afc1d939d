// The dashboard builder's pages and actions: a new dashboard (`/create/dashboard`) or one the viewer
// may write (`/~owner/n/edit`: its owner and write collaborators; anyone else the 404 of a missing
// file), the plots to add (their own), and the save: the client's content, checked by the API's own
// rules (lib/core/documents/dashboards.ts), written by its core, the problems shown where they are. The
// builder's data and answers are typed here; the client component imports the types.
import 'server-only';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { plotRefsOfDashboard, type DashboardContent, type DashboardNode } from '@/lib/core/documents/dashboard-content';
import { documentContentAt, resolvePlotRefs, type ResolvedPlotRef } from '@/lib/core/documents/dashboards';
import { MAX_QUERY_CHARS } from '@/lib/shared/limits';
import type { Visibility } from '@/lib/shared/sharing';
import type { OwnedFile } from '@/lib/core/files/files';
import { fileVisibility, isOwner } from '@/lib/core/permissions';
import { listPlotChoices } from '@/lib/core/plots/plot-choices';
import { filePath, imagePath, NEW_DASHBOARD_PATH, withShareKey } from '@/lib/shared/urls';
import { saveDocument, type SaveProblem, type SaveState } from './document-save';
import { errorSentences, formCaller, FormError, type FormCaller } from './forms';
import { signedInPage, type SignedInContext } from './page-context';

/** A plot a box names, as this viewer may see it: never the title of one they may not read. */
export interface BuilderPlot {
  fileId: string;
  readable: boolean;
  title: string;
  /** Its page and thumbnail (with the box's share key), when readable. */
  href: string | null;
  thumbnail: string | null;
}

/** What the builder (components/dashboard-builder) is handed. */
export interface BuilderData {
  /** null for a new dashboard. */
  dashboard: { owner: string; n: number } | null;
  filename: string;
  /** The client's content, parsed: `layout`, `version`, `settings` and whatever else it holds (kept as is). */
  content: { layout: DashboardNode | null; settings: Record<string, unknown>; [key: string]: unknown };
  /** The owner sets sharing here; null for a write collaborator, who edits the boxes alone. */
  sharing: Visibility | null;
  /** The plots the boxes name, by fileId as the box gives it. */
  plots: Record<string, BuilderPlot>;
  csrf: string;
}

export type { SaveProblem, SaveState };

/** A plot the builder offers to add, with what tells it from another of the same title: its file name and when it last changed (ISO 8601). */
export type PlotChoice = BuilderPlot & { owner: string; n: number; filename: string; updated: string };

/** A page of the plots (charts, no themes or templates) the builder offers to add. */
export interface PlotChoices {
  plots: PlotChoice[];
  next: string | null;
  error?: string;
}

/** A box's plot as the builder shows it to this viewer: its title and pictures only when they may read it. */
export function builderPlot(fileId: string, ref: Omit<ResolvedPlotRef, 'id'> | undefined): BuilderPlot {
  if (!ref?.readable) return { fileId, readable: false, title: '', href: null, thumbnail: null };
  return {
    fileId,
    readable: true,
    title: ref.title,
    href: withShareKey(filePath(ref.owner, ref.n), ref.shareKey),
    thumbnail: withShareKey(imagePath(ref.owner, ref.n, 'list-thumb'), ref.shareKey),
  };
}

/** `/create/dashboard`: signed in (else signing in first); an empty dashboard, private until its owner shares it. */
export async function loadNewDashboard(): Promise<BuilderData> {
  const ctx = await signedInPage(NEW_DASHBOARD_PATH);
  return { dashboard: null, filename: '', content: { layout: null, version: 2, settings: {} }, sharing: 'private', plots: {}, csrf: ctx.csrf };
}

/**
 * `/~owner/n/edit` on a dashboard the signed-in viewer may write (edit-page.ts checked it): its owner or a
 * write collaborator (a writer edits the boxes, not its name or sharing); null for the 404 (gone since).
 */
export async function dashboardEditorOf(ctx: SignedInContext, file: OwnedFile): Promise<BuilderData | null> {
  const stored = await documentContentAt(ctx.db, file.id);
  if (!stored) return null;
  // The text as stored, not the checked tree: whatever the client put there is saved back as it came.
  const content = JSON.parse(stored.content) as BuilderData['content'] & DashboardContent;
  const refs = (() => {
    try {
      return plotRefsOfDashboard(content);
    } catch {
      return [];
    }
  })();
  const resolved = await resolvePlotRefs(ctx.db, ctx.viewer, refs);
  return {
    dashboard: { owner: file.owner, n: file.n },
    filename: file.filename,
    content: { ...content, layout: content.layout ?? null, settings: content.settings ?? {} },
    sharing: isOwner(ctx.viewer, file) ? fileVisibility(file) : null,
    plots: Object.fromEntries(refs.map((r) => [r.fileId, builderPlot(r.fileId, resolved.get(r.fileId))])),
    csrf: ctx.csrf,
  };
}

const choicesSchema = z.object({ q: z.string().max(MAX_QUERY_CHARS).catch(''), cursor: z.string().max(2000).optional().catch(undefined) });

/** "Add plot": a page of the viewer's own plots (a search when `q` is given). */
export async function choosePlots(form: FormData): Promise<PlotChoices> {
  let caller: FormCaller;
  try {
    caller = await formCaller(form);
  } catch (e) {
    if (e instanceof FormError) return { plots: [], next: null, error: e.message };
    throw e;
  }
  const { q, cursor } = choicesSchema.parse({ q: form.get('q') ?? '', cursor: form.get('cursor') ?? undefined });
  try {
    const page = await listPlotChoices(caller.db, caller.viewer, { q, cursor }, caller.origin);
    return {
      plots: page.rows.map((r) => ({
        owner: r.owner,
        n: r.n,
        filename: r.filename,
        updated: r.updated,
        ...builderPlot(`${r.owner}:${r.n}`, { readable: true, owner: r.owner, n: r.n, title: r.title || r.filename, shareKey: null }),
      })),
      next: page.next,
    };
  } catch (e) {
    if (e instanceof ApiError && e.status < 500) return { plots: [], next: null, error: errorSentences(e) };
    throw e;
  }
}

/** Where an API problem is in the builder: a box (`box:<path key>`), the title, the file name, the sharing, or the content. */
function placeOf(item: { field: string | null; path: string | null }): string | null {
  const at = item.path ?? item.field;
  if (!at) return null;
  const box = /^content\.layout((?:\.(?:first|second))*)(?:\.[A-Za-z]+)?$/.exec(at);
  if (box && at !== 'content.layout') return `box:${box[1] ? box[1].slice(1) : 'root'}`;
  if (at.startsWith('content.settings.title')) return 'title';
  if (at === 'filename') return 'filename';
  if (at === 'world_readable' || at === 'share_key_enabled') return 'sharing';
  return at.startsWith('content') ? 'content' : null;
}

/** The API's words for a box, as a person reads them beside it. */
function problemText(message: string, at: string | null): string {
  const text = at && message.startsWith(`${at}: `) ? message.slice(at.length + 2) : message;
  const notReadable = /^'([^']+)' is not a plot you can read/.exec(text);
  return notReadable ? `The plot ${notReadable[1]} is not one you can see (any more): remove this box, or ask its owner to share the plot with you.` : text;
}

/** A refused save's problems, each at its place in the builder. */
export const problemsOf = (e: ApiError): SaveProblem[] =>
  e.errors.map((item) => {
    const field = placeOf(item);
    const text = problemText(item.message, item.path ?? item.field);
    return { field, message: field === null ? errorSentences(new ApiError(e.status, [item])) : text.charAt(0).toUpperCase() + text.slice(1) };
  });

/** Saves the builder's dashboard (document-save.ts), then on to its page; or the problems. */
export const saveDashboard = (form: FormData): Promise<SaveState> =>
  saveDocument(form, {
    filetype: 'dashboard',
    tooLarge: 'The dashboard is too large to save (at most 1 MiB of content).',
    untitled: 'Untitled dashboard',
    titleOf: (content) => (content as { settings?: { title?: unknown } } | null)?.settings?.title,
    problemsOf,
  });
