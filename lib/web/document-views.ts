// What a dashboard's or a presentation's page shows, box by box, as its loader (document-page.ts)
// decided it for this viewer. Browser-safe on purpose: the components take these and nothing more,
// so a plot the viewer may not read is only `hidden` here, with no title, address or fid to leak.
import type { ChartMode } from '@/lib/core/images/images';
import type { LaidOut } from '@/lib/core/documents/dashboard-layout';
import type { PlotlyBundle } from '@/lib/shared/figures/plotly-bundles';
import type { SafeStyle } from '@/lib/core/documents/slide-style';

/** A plot the viewer may read, with the share key that lets them (when one does). */
export interface PlotView {
  title: string;
  /** The plot's page. */
  href: string;
  contentUrl: string;
  /** Set when drawn by the view (mode `reduced`). */
  viewUrl?: string;
  imageUrl: string;
  bundle: PlotlyBundle;
  mode: ChartMode;
}

export type BoxView = { kind: 'plot'; title: string; plot: PlotView } | { kind: 'hidden' } | { kind: 'text'; title: string; text: string } | { kind: 'empty' };

export type DashboardLayout = LaidOut<BoxView>;

export type SlideItem =
  | { kind: 'text'; style: SafeStyle; lines: string[]; heading: boolean }
  | { kind: 'plot'; style: SafeStyle; plot: PlotView }
  | { kind: 'hidden'; style: SafeStyle }
  | { kind: 'image'; style: SafeStyle; src: string; alt: string }
  /** An image elsewhere: not loaded, its address shown as text. */
  | { kind: 'foreign-image'; style: SafeStyle; address: string }
  | { kind: 'code'; style: SafeStyle; source: string };

export interface SlideView {
  style: SafeStyle;
  /** A background image elsewhere, named rather than loaded. */
  foreignBackground: string | null;
  items: SlideItem[];
}
