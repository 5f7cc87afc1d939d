// A presentation as the web's deck editor sees it, pure: its slides (a title and text, or a title and
// a plot, or a title and an image, or one made elsewhere and kept as it came) and its theme, to and from the content the
// Python client's presentation_objs writes (slides of absolutely placed children on a 1000 x 700
// slide, styles in each child). The editor's slides carry `props.webSlide` so they are known again;
// a theme is applied as presentation_objs applies its own: written into each slide's styles.
import { CONTENT_LIMITS } from './limits';

/** The themes of presentation_objs (PRES_THEMES), their colours tuned to read well (WCAG AA). */
export const DECK_THEMES = ['moods', 'martik'] as const;
export type DeckTheme = (typeof DECK_THEMES)[number];

export const DECK_THEME_LABEL: Record<DeckTheme, string> = {
  moods: 'Moods (white)',
  martik: 'Martik (pale blue)',
};

interface ThemeLook {
  background: string;
  title: Record<string, string | number>;
  body: Record<string, string | number>;
}

const THEME_LOOK: Record<DeckTheme, ThemeLook> = {
  moods: {
    background: '#FFFFFF',
    title: { color: '#000016', fontFamily: 'Roboto, sans-serif', fontSize: 48, fontWeight: 900 },
    body: { color: '#000016', fontFamily: 'Roboto, sans-serif', fontSize: 24, fontWeight: 300 },
  },
  martik: {
    background: '#F4FAFB',
    title: { color: '#0D0A1E', fontFamily: 'Raleway, sans-serif', fontSize: 48, fontWeight: 700 },
    body: { color: '#4F4F57', fontFamily: 'Roboto, sans-serif', fontSize: 24, fontWeight: 400 },
  },
};

/** A plot a slide shows: its fid and the share key it is shown with (a secret plot's). */
export interface DeckPlot {
  fileId: string;
  shareKey: string | null;
}

export type DeckSlide =
  | { kind: 'text'; id: string; title: string; body: string }
  | { kind: 'plot'; id: string; title: string; plot: DeckPlot }
  /** `src`: the image itself (a `data:` URL, isSlideImageData), `alt`: what it shows, in words. */
  | { kind: 'image'; id: string; title: string; src: string; alt: string }
  /** Made elsewhere (the Python client): moved or deleted, never rewritten. */
  | { kind: 'kept'; id: string; slide: Record<string, unknown> };

export interface Deck {
  slides: DeckSlide[];
  theme: DeckTheme;
}

type Json = Record<string, unknown>;

/** Raster images a slide may hold in itself (never SVG, which is a document): base64 `data:` URLs within CONTENT_LIMITS.image. */
export const SLIDE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const SLIDE_IMAGE_DATA = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;
export const isSlideImageData = (src: unknown): src is string => typeof src === 'string' && src.length <= CONTENT_LIMITS.image && SLIDE_IMAGE_DATA.test(src);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A new slide's id: random, as presentation_objs makes them. */
export function newSlideId(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Array.from(bytes, (b) => letters[b % letters.length]).join('');
}

/** A slide's plot as a Plotly child's `src`, as presentation_objs writes it (`….embed?link=false`, or the secret link). */
export function plotSrc(plot: DeckPlot, origin: string): string {
  const [owner, n] = plot.fileId.split(':');
  const page = `${origin}/~${encodeURIComponent(owner)}/${n}`;
  return plot.shareKey ? `${page}/?share_key=${encodeURIComponent(plot.shareKey)}` : `${page}.embed?link=false`;
}

/** The plot a `src` this editor wrote names (its own form only; anything else is a slide made elsewhere). */
function plotOfSrc(src: unknown): DeckPlot | null {
  if (typeof src !== 'string') return null;
  const m = /\/~([^/]+)\/([1-9]\d{0,9})(?:\.embed\?link=false|\/\?share_key=([^&#]+))$/.exec(src);
  if (!m) return null;
  try {
    return { fileId: `${decodeURIComponent(m[1])}:${m[2]}`, shareKey: m[3] ? decodeURIComponent(m[3]) : null };
  } catch {
    return null;
  }
}

const textChild = (id: string, text: string, paragraphStyle: 'Heading 1' | 'Body', style: Json) => ({
  id,
  type: 'Text',
  children: text.split('\n'),
  props: { isQuote: false, listType: null, paragraphStyle, size: 4, style: { position: 'absolute', ...style } },
});

/** Where the title sits: across the top (over a plot or text), or in the middle of a slide of a title alone. */
const TITLE_TOP = { left: 50, top: 40, width: 900, height: 110, textAlign: 'left' };
const TITLE_ALONE = { left: 50, top: 270, width: 900, height: 160, textAlign: 'center' };

/** One slide of the editor as content (presentation_objs' shape). */
export function slideContent(slide: DeckSlide, theme: DeckTheme, origin: string): Json {
  if (slide.kind === 'kept') return slide.slide;
  const look = THEME_LOOK[theme];
  const children: Json[] = [];
  const alone = slide.kind === 'text' && !slide.body.trim();
  if (slide.title.trim()) children.push(textChild(`${slide.id}-title`, slide.title, 'Heading 1', { ...look.title, ...(alone ? TITLE_ALONE : TITLE_TOP) }));
  if (slide.kind === 'text' && !alone) {
    children.push(textChild(`${slide.id}-body`, slide.body, 'Body', { ...look.body, left: 50, top: 170, width: 900, height: 490, textAlign: 'left' }));
  }
  if (slide.kind === 'image') {
    children.push({
      id: `${slide.id}-image`,
      type: 'Image',
      children: [],
      props: { src: slide.src, alt: slide.alt, style: { position: 'absolute', left: 50, top: 160, width: 900, height: 510, objectFit: 'contain' } },
    });
  }
  if (slide.kind === 'plot') {
    children.push({
      id: `${slide.id}-plot`,
      type: 'Plotly',
      children: [],
      props: {
        frameBorder: 0,
        scrolling: 'no',
        src: plotSrc(slide.plot, origin),
        style: { position: 'absolute', left: 50, top: 160, width: 900, height: 510 },
      },
    });
  }
  return { id: slide.id, children, props: { style: { backgroundColor: look.background }, transition: ['slide'], webSlide: slide.kind } };
}

/** The content text's JSON for `deck`, keeping what else `base` (the content as opened) holds. */
export function deckContent(deck: Deck, origin: string, base: Json = {}): Json {
  const presentation = isObject(base.presentation) ? base.presentation : {};
  return {
    ...base,
    presentation: {
      version: '0.1.3',
      ...presentation,
      slides: deck.slides.map((s) => slideContent(s, deck.theme, origin)),
      theme: deck.theme,
    },
  };
}

const textOf = (child: Json | undefined) => (child && Array.isArray(child.children) ? child.children.filter((l) => typeof l === 'string').join('\n') : '');

/** A stored slide as the editor's: its own when it has the editor's mark and shape, else kept as it came. */
export function slideOfContent(raw: unknown, index: number): DeckSlide {
  const slide = isObject(raw) ? raw : {};
  const id = typeof slide.id === 'string' && slide.id ? slide.id : `slide-${index + 1}`;
  const kept: DeckSlide = { kind: 'kept', id, slide };
  const props = isObject(slide.props) ? slide.props : {};
  const children = Array.isArray(slide.children) ? slide.children.filter(isObject) : [];
  const style = (c: Json) => (isObject(c.props) ? c.props.paragraphStyle : undefined);
  const title = children.find((c) => c.type === 'Text' && style(c) === 'Heading 1');
  const body = children.find((c) => c.type === 'Text' && style(c) === 'Body');
  const plots = children.filter((c) => c.type === 'Plotly');
  const images = children.filter((c) => c.type === 'Image');
  const known = [title, body, ...plots, ...images].filter(Boolean).length;
  if (known !== children.length) return kept;
  if (props.webSlide === 'text' && plots.length === 0) return { kind: 'text', id, title: textOf(title), body: textOf(body) };
  const plot = plots.length === 1 && !body && isObject(plots[0].props) ? plotOfSrc(plots[0].props.src) : null;
  if (props.webSlide === 'plot' && plot) return { kind: 'plot', id, title: textOf(title), plot };
  const image = images.length === 1 && plots.length === 0 && !body && isObject(images[0].props) ? images[0].props : null;
  if (props.webSlide === 'image' && image && isSlideImageData(image.src))
    return { kind: 'image', id, title: textOf(title), src: image.src, alt: typeof image.alt === 'string' ? image.alt : '' };
  return kept;
}

/** A stored presentation's content as the editor's deck. */
export function deckOfContent(content: unknown): Deck {
  const presentation = isObject(content) && isObject(content.presentation) ? content.presentation : {};
  const slides = Array.isArray(presentation.slides) ? presentation.slides : [];
  const theme = DECK_THEMES.find((t) => t === presentation.theme) ?? 'moods';
  return { slides: slides.map(slideOfContent), theme };
}

/** A slide as a person names it in the editor. */
export function slideLabel(slide: DeckSlide, index: number): string {
  const what = slide.kind === 'kept' ? 'made elsewhere' : slide.title.trim() || slide.kind;
  return `Slide ${index + 1} (${what})`;
}
