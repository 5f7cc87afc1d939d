// A dashboard's or a presentation's page and embed (its card image: document-card-image.ts): its
// content read with the file's permissions, and each plot it shows decided for this viewer by the one
// rule (resolvePlotRefs in lib/core/dashboards.ts; a box's share key counts). What the components get
// names only the plots the viewer may read (lib/web/document-views.ts).
import 'server-only';
import { ApiError } from '@/lib/core/errors';
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
} from '@/lib/core/dashboard-content';
import { layoutDashboard, mapBoxes } from '@/lib/core/dashboard-layout';
import { type DocumentType, getDocument, type ResolvedPlotRef, resolvePlotRefs } from '@/lib/core/dashboards';
import { getFile, type OwnedFile } from '@/lib/core/files';
import { chartView } from '@/lib/core/images';
import { visibilityOf, type Visibility } from '@/lib/core/permissions';
import { foreignBackground, placement, safeTextStyle, sameSitePath, slideBackground } from '@/lib/core/slide-style';
import { chartContentPath, filePath, fileUrls, imagePath, withShareKey } from '@/lib/core/urls';
import type { BoxView, DashboardLayout, PlotView, SlideItem, SlideView } from './document-views';
import type { PageContext } from './page-context';

interface DocumentPageBase {
  ctx: PageContext;
  file: OwnedFile;
  visibility: Visibility;
  /** The share key to carry on this page's own links: only when the document needs it to be read. */
  shareKey: string | null;
  urls: ReturnType<typeof fileUrls>;
}

export interface DashboardPageData extends DocumentPageBase {
  kind: 'dashboard';
  /** Null: a dashboard with no boxes yet. */
  layout: DashboardLayout | null;
}

export interface PresentationPageData extends DocumentPageBase {
  kind: 'presentation';
  slides: SlideView[];
}

export type DocumentPageData = DashboardPageData | PresentationPageData;

/** The document `file` (already known readable) as its page shows it to this viewer; null for the 404 (gone since). */
export async function loadDocument(
  ctx: PageContext,
  file: OwnedFile & { filetype: DocumentType },
  shareKey: string | undefined,
): Promise<DocumentPageData | null> {
  let content: string;
  try {
    ({ content } = await getDocument(ctx.db, { owner: file.owner, n: file.n }, ctx.viewer, shareKey));
  } catch (e) {
    if (e instanceof ApiError) return null;
    throw e;
  }
  const base = {
    ctx,
    file,
    visibility: visibilityOf(file.worldReadable, file.shareKey !== null),
    shareKey: shareKey && !file.worldReadable ? shareKey : null,
    urls: fileUrls(ctx.origin, file.owner, file.n),
  };
  if (file.filetype === 'dashboard') {
    const parsed = parseOr(() => parseDashboardContent(content), null);
    return { kind: 'dashboard', ...base, layout: parsed?.layout ? await dashboardLayout(ctx, parsed, parsed.layout) : null };
  }
  const parsed = parseOr(() => parsePresentationContent(content), null);
  return { kind: 'presentation', ...base, slides: parsed ? await presentationSlides(ctx, parsed) : [] };
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
    if (!ref.readable) continue;
    const file = await getFile(ctx.db, { owner: ref.owner, n: ref.n }, ctx.viewer);
    if (!file) continue;
    const { mode, bundle } = await chartView(ctx.db, file.id);
    views.set(fileId, {
      title: ref.title.trim() || 'Untitled plot',
      href: withShareKey(filePath(ref.owner, ref.n), ref.shareKey),
      contentUrl: withShareKey(chartContentPath(ref.owner, ref.n), ref.shareKey),
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

async function presentationSlides(ctx: PageContext, content: PresentationContent): Promise<SlideView[]> {
  const views = await plotViews(ctx, await resolvePlotRefs(ctx.db, ctx.viewer, plotRefsOfPresentation(content, ctx.origin)));
  return content.presentation.slides.map((slide) => ({
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
      const src = sameSitePath(child.props.src, origin);
      const look = { ...at, ...safeTextStyle({ opacity: style?.opacity }) };
      return src ? { kind: 'image', style: look, src } : { kind: 'foreign-image', style: at, address: child.props.src };
    }
    case 'CodePane':
      return { kind: 'code', style: { ...at, ...safeTextStyle(style) }, source: child.props.source };
  }
}
