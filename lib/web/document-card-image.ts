// A dashboard's or a presentation's card image (`/~owner/n.png[?size=]`): the image of its first plot
// anyone may read (a redirect), else a neutral picture of its boxes. What the picture needs of the
// content (its plot references, its boxes at each size) and the picture itself are kept per content
// version (documents.version, bumped on every change) in bounded per-process caches: a repeated
// anonymous request reads one small row and the plots' public flags, never the content, and draws nothing.
import 'server-only';
import { BoundedCache } from '@/lib/core/bounded-cache';
import { CARD_SCALE, CARD_SIZE } from '@/lib/shared/figures/card-figure';
import {
  parseDashboardContent,
  parsePresentationContent,
  plotRefsOfDashboard,
  plotRefsOfPresentation,
  type SlideChild,
} from '@/lib/core/documents/dashboard-content';
import { boxRects } from '@/lib/core/documents/dashboard-layout';
import { type DocumentType, documentContentAt, documentVersion, type ResolvedPlotRef, resolvePlotRefs } from '@/lib/core/documents/dashboards';
import { ApiError, notFound } from '@/lib/core/errors';
import type { OwnedFile } from '@/lib/core/files/files';
import { DEFAULT_SIZE, type ImageSize, THUMB_BOXES } from '@/lib/core/images/images';
import { type ImageBox, layoutPng } from '@/lib/core/documents/layout-image';
import { MiB } from '@/lib/core/json-text';
import { placement, SLIDE_HEIGHT, SLIDE_WIDTH } from '@/lib/core/documents/slide-style';
import { imagePath } from '@/lib/shared/urls';
import type { PageContext } from './page-context';

/** Each image size's pixels (as the plots' images: lib/core/images/images.ts). */
const IMAGE_PIXELS: Record<ImageSize, readonly [number, number]> = {
  default: DEFAULT_SIZE,
  card: [CARD_SIZE[0] * CARD_SCALE, CARD_SIZE[1] * CARD_SCALE],
  ...THUMB_BOXES,
};
const SIZES = Object.keys(IMAGE_PIXELS) as ImageSize[];

/** What a card needs of one version of a document's content: its plots in order, its boxes at each size. */
interface CardShape {
  refs: { fileId: string }[];
  boxes: Record<ImageSize, ImageBox[]>;
}

// At most 100 plots and 100 boxes a document (CONTENT_LIMITS): a shape is a few KiB; a picture tens of KiB.
const shapes = new BoundedCache<CardShape>({ entries: 2000, bytes: 16 * MiB }, (s) => 200 * (s.refs.length + s.boxes.default.length * SIZES.length) + 200);
const pictures = new BoundedCache<Buffer>({ entries: 2000, bytes: 32 * MiB }, (png) => png.length + 100);

/**
 * `/~owner/n.png[?size=]` of a document the requester may read (checked by the caller): the image of
 * its first plot that anyone may read (where to redirect), else a picture of its boxes alone. Never a
 * plot the public cannot read, not even through a share key the document holds: cards go to galleries
 * and link previews. Which plot is first and public is asked on each request (one statement); the rest is cached.
 */
export async function documentImage(
  ctx: PageContext,
  file: OwnedFile & { filetype: DocumentType },
  size: ImageSize,
): Promise<{ redirect: string } | { png: Buffer }> {
  const version = await documentVersion(ctx.db, file.id);
  if (version === null) throw notFound();
  const key = `${file.id}:${version}:${ctx.origin}`;
  const shape = await shapes.getOr(key, async () => {
    // Read after its version: at least as new as the key says (a save in between only leaves an entry no one asks for).
    const stored = await documentContentAt(ctx.db, file.id);
    if (!stored) throw notFound();
    return shapeOf(file.filetype, stored.content, ctx.origin);
  });
  const first = await firstPublicPlot(ctx, shape.refs);
  if (first) return { redirect: imagePath(first.owner, first.n, size === 'default' ? undefined : size) };
  const [width, height] = IMAGE_PIXELS[size];
  return { png: await pictures.getOr(`${key}:${size}`, () => layoutPng(shape.boxes[size], width, height)) };
}

/** The card's needs of `content`; stored content that no longer passes the format's checks shows as empty. */
function shapeOf(filetype: DocumentType, content: string, origin: string): CardShape {
  const atEachSize = (draw: (width: number, height: number) => ImageBox[]) =>
    Object.fromEntries(SIZES.map((size) => [size, draw(...IMAGE_PIXELS[size])])) as Record<ImageSize, ImageBox[]>;
  try {
    if (filetype === 'dashboard') {
      const parsed = parseDashboardContent(content);
      const layout = parsed.layout;
      return {
        refs: plotRefsOfDashboard(parsed).map((r) => ({ fileId: r.fileId })),
        boxes: atEachSize((w, h) => (layout ? boxRects(layout, w, h).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height, kind: r.boxType })) : [])),
      };
    }
    const parsed = parsePresentationContent(content);
    const children = parsed.presentation.slides[0]?.children ?? [];
    return {
      refs: plotRefsOfPresentation(parsed, origin).map((r) => ({ fileId: r.fileId })),
      boxes: atEachSize((w, h) => children.map((c) => slideBox(c, w, h))),
    };
  } catch (e) {
    if (e instanceof ApiError) return { refs: [], boxes: atEachSize(() => []) };
    throw e;
  }
}

async function firstPublicPlot(ctx: PageContext, refs: { fileId: string }[]): Promise<ResolvedPlotRef | null> {
  if (!refs.length) return null;
  const resolved = await resolvePlotRefs(
    ctx.db,
    null,
    refs.map((r) => ({ fileId: r.fileId, shareKey: null })),
  );
  return refs.map((r) => resolved.get(r.fileId)).find((r) => r?.readable) ?? null;
}

const SLIDE_KINDS: Record<string, string> = { Plotly: 'plot', Text: 'text', CodePane: 'text', Image: 'image' };

/** A slide child's rectangle in a `width` x `height` picture of the slide. */
function slideBox(child: SlideChild, width: number, height: number): ImageBox {
  const at = placement(child.props.style);
  const share = (v: string | undefined) => (v ? Number.parseFloat(v) / 100 : 0);
  return {
    x: share(at.left) * width,
    y: share(at.top) * height,
    width: (share(at.width) || 200 / SLIDE_WIDTH) * width,
    height: (share(at.height) || 100 / SLIDE_HEIGHT) * height,
    kind: SLIDE_KINDS[child.type] ?? 'empty',
  };
}
