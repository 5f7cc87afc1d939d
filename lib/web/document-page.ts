// A dashboard's or a presentation's page and embed (its card image: document-card-image.ts): its
// content read with the file's permissions, and each plot it shows decided for this viewer by the one
// rule (resolvePlotRefs in lib/core/documents/dashboards.ts; a box's share key counts). What the components get
// names only the plots the viewer may read (lib/web/document-views.ts).
import 'server-only';
import { BoundedCache } from '@/lib/core/bounded-cache';
import { ApiError, notFound } from '@/lib/core/errors';
import {
  type DashboardBox,
  type DashboardContent,
  type DashboardNode,
  type PresentationContent,
  parseDashboardContent,
  parsePresentationContent,
  plotRefOfSrc,
  plotRefsOfDashboard,
  plotRefsOfPresentation,
  type SlideChild,
} from '@/lib/core/documents/dashboard-content';
import { layoutDashboard, mapBoxes } from '@/lib/core/documents/dashboard-layout';
import { type DocumentType, documentContentAt, documentVersion, type ResolvedPlotRef, resolvePlotRefs } from '@/lib/core/documents/dashboards';
import type { OwnedFile } from '@/lib/core/files/files';
import { pageChart } from '@/lib/core/plots/plot-views';
import { MiB } from '@/lib/core/json-text';
import { foreignBackground, placement, safeTextStyle, sameSitePath, slideBackground } from '@/lib/core/documents/slide-style';
import { chartUrls, filePath, imagePath, slidesPath, withShareKey } from '@/lib/shared/urls';
import { isSlideImageData } from '@/lib/shared/deck';
import type { BoxView, DashboardLayout, PlotView, SlideItem, SlideView } from './document-views';
import type { FileHead } from './file-head';
import type { PageContext } from './page-context';

export interface DashboardPageData extends FileHead {
  kind: 'dashboard';
  /** Null: a dashboard with no boxes yet. */
  layout: DashboardLayout | null;
}

export interface PresentationPageData extends FileHead {
  kind: 'presentation';
  /** How many slides it has. */
  count: number;
  /** The first slides, rendered with the page; the others are asked for as they are shown (slidesUrl). */
  slides: SlideView[];
  /** `/~owner/n/slides` (with the share key the page carries): `?from=k` answers slides k on (presentationWindow). */
  slidesUrl: string;
}

/** Slides rendered with a presentation's page, and answered by one request for more: a deck of 500 slides of 100 children each is not one page. */
export const SLIDES_WITH_PAGE = 1;
export const SLIDES_A_REQUEST = 3;

export type DocumentPageData = DashboardPageData | PresentationPageData;

/** The document of `head` (looked up and checked: file-head.ts) as its page shows it to this viewer; null for the 404 (gone since). */
export async function loadDocument(head: FileHead & { file: { filetype: DocumentType } }): Promise<DocumentPageData | null> {
  const { ctx, file } = head;
  const parsed = await parsedDocument(ctx, file);
  if (!parsed) return null;
  if (parsed.kind === 'dashboard') {
    const content = parsed.content;
    return { ...head, kind: 'dashboard', layout: content?.layout ? await dashboardLayout(ctx, content, content.layout) : null };
  }
  const count = parsed.content?.presentation.slides.length ?? 0;
  const slides = parsed.content ? await presentationSlides(ctx, parsed.content, 0, SLIDES_WITH_PAGE) : [];
  return { ...head, kind: 'presentation', count, slides, slidesUrl: withShareKey(slidesPath(file.owner, file.n), head.shareKey) };
}

/**
 * Slides `from` (1-based) on, at most SLIDES_A_REQUEST, of a presentation `file` (already known
 * readable), as its page shows them to this viewer; null for a file that is no presentation (or gone).
 */
export async function presentationWindow(
  ctx: PageContext,
  file: OwnedFile,
  from: number,
): Promise<{ count: number; from: number; slides: SlideView[] } | null> {
  if (file.filetype !== 'spectacle_presentation') return null;
  const parsed = await parsedDocument(ctx, { ...file, filetype: file.filetype });
  if (parsed?.kind !== 'presentation') return null;
  const count = parsed.content?.presentation.slides.length ?? 0;
  const slides = parsed.content && from <= count ? await presentationSlides(ctx, parsed.content, from - 1, SLIDES_A_REQUEST) : [];
  return { count, from, slides };
}

type ParsedDocument = { kind: 'dashboard'; content: DashboardContent | null } | { kind: 'presentation'; content: PresentationContent | null };

/**
 * Parsed content, kept per content version (documents.version): checking a 1 MiB document against its
 * format takes a good part of a second, too much for every view. Bounded: parsed, a document takes
 * several times its text's size.
 */
const parsedDocuments = new BoundedCache<ParsedDocument & { bytes: number }>({ entries: 64, bytes: 96 * MiB }, (d) => d.bytes * 6);

/** A document's content, parsed (null content: it no longer passes the format's checks); null when it has none. */
async function parsedDocument(ctx: PageContext, file: OwnedFile & { filetype: DocumentType }): Promise<ParsedDocument | null> {
  const version = await documentVersion(ctx.db, file.id);
  if (version === null) return null;
  try {
    return await parsedDocuments.getOr(`${file.id}:${version}`, async () => {
      // Read after its version: at least as new as the key says (a save in between leaves an entry no one asks for).
      const stored = await documentContentAt(ctx.db, file.id);
      if (!stored) throw notFound();
      const bytes = stored.content.length;
      return file.filetype === 'dashboard'
        ? { kind: 'dashboard', content: parseOr(() => parseDashboardContent(stored.content), null), bytes }
        : { kind: 'presentation', content: parseOr(() => parsePresentationContent(stored.content), null), bytes };
    });
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
}

/** Stored content that no longer passes the format's checks (its limits changed) shows as empty, not as an error page. */
function parseOr<T>(parse: () => T, otherwise: T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof ApiError) return otherwise;
    throw e;
  }
}

/** The readable plots among `resolved`, as a chart shows them (its bundle and how it draws), by fileId as given. */
async function plotViews(ctx: PageContext, resolved: Map<string, ResolvedPlotRef>): Promise<Map<string, PlotView>> {
  const views = new Map<string, PlotView>();
  for (const [fileId, ref] of resolved) {
    if (!ref.readable || ref.id === null) continue;
    const { mode, bundle } = await pageChart(ctx.db, ref.id);
    views.set(fileId, {
      title: ref.title.trim() || 'Untitled plot',
      href: withShareKey(filePath(ref.owner, ref.n), ref.shareKey),
      ...chartUrls(ref.owner, ref.n, ref.shareKey, mode === 'reduced'),
      imageUrl: withShareKey(imagePath(ref.owner, ref.n), ref.shareKey),
      bundle,
      mode,
    });
  }
  return views;
}

async function dashboardLayout(ctx: PageContext, content: DashboardContent, layout: DashboardNode): Promise<DashboardLayout> {
  const views = await plotViews(ctx, await resolvePlotRefs(ctx.db, ctx.viewer, plotRefsOfDashboard(content)));
  return mapBoxes(layoutDashboard<DashboardBox>(layout), (box): BoxView => {
    if (box.boxType === 'plot') {
      const plot = views.get(box.fileId);
      return plot ? { kind: 'plot', title: box.title?.trim() || plot.title, plot } : { kind: 'hidden' };
    }
    if (box.boxType === 'text') return { kind: 'text', title: box.title ?? '', text: box.text };
    return { kind: 'empty' };
  });
}

/** Slides `start` (0-based) on, at most `max`, as this viewer sees them (only their plots looked up). */
async function presentationSlides(ctx: PageContext, content: PresentationContent, start: number, max: number): Promise<SlideView[]> {
  const shown = content.presentation.slides.slice(start, start + max);
  const refs = plotRefsOfPresentation({ ...content, presentation: { ...content.presentation, slides: shown } }, ctx.origin);
  const views = await plotViews(ctx, await resolvePlotRefs(ctx.db, ctx.viewer, refs));
  return shown.map((slide) => ({
    style: slideBackground(slide.props, ctx.origin),
    foreignBackground: foreignBackground(slide.props, ctx.origin),
    items: slide.children.map((child) => slideItem(child, views, ctx.origin)),
  }));
}

function slideItem(child: SlideChild, views: Map<string, PlotView>, origin: string): SlideItem {
  const style = child.props.style;
  const at = placement(style);
  switch (child.type) {
    case 'Text': {
      const paragraph = (child.props as { paragraphStyle?: unknown }).paragraphStyle;
      return {
        kind: 'text',
        style: { ...at, ...safeTextStyle(style) },
        lines: child.children,
        heading: typeof paragraph === 'string' && paragraph.startsWith('Heading'),
      };
    }
    case 'Plotly': {
      const ref = plotRefOfSrc(child.props.src, origin);
      const plot = ref ? views.get(ref.fileId) : undefined;
      return plot ? { kind: 'plot', style: at, plot } : { kind: 'hidden', style: at };
    }
    case 'Image': {
      // An image on this site, or one the slide holds itself (a raster data: URL): nothing from elsewhere loads.
      const src = isSlideImageData(child.props.src) ? child.props.src : sameSitePath(child.props.src, origin);
      const look = { ...at, ...safeTextStyle({ opacity: style?.opacity }) };
      const alt = typeof child.props.alt === 'string' ? child.props.alt : '';
      return src ? { kind: 'image', style: look, src, alt } : { kind: 'foreign-image', style: at, address: child.props.src };
    }
    case 'CodePane':
      return { kind: 'code', style: { ...at, ...safeTextStyle(style) }, source: child.props.source };
  }
}
