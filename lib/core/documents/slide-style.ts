// What of a presentation slide's styles a page may use. The Python client's slides are 1000 x 700
// boxes of absolutely placed children, styled with CSS-like objects anyone may write anything into:
// only an allow-list of properties passes, each value checked against its own pattern (numbers in
// range, colours, keywords), so no value can carry `url()`, an expression or a second declaration.
// Positions become shares of the slide and lengths `cqw` (hundredths of the slide's width), so a
// slide scales to any width without script. Addresses (images, charts) count only on this site.
// Pure: the page and its tests.

/** The slide the Python client lays its children out on (presentation_objs WIDTH, HEIGHT). */
export const SLIDE_WIDTH = 1000;
export const SLIDE_HEIGHT = 700;

export type SafeStyle = Record<string, string>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A length in slide pixels: a number, or text like `12px` / `12.5`. */
function pixels(value: unknown, max = 10 * SLIDE_WIDTH): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?(px)?$/.test(value.trim()) ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= max ? n : null;
}

/** `12%` as 12 (a share the client may also write). */
function percent(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const m = /^(-?\d+(?:\.\d+)?)%$/.exec(value.trim());
  const n = m ? Number(m[1]) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= 1000 ? n : null;
}

const fixed = (n: number) => `${Math.round(n * 1000) / 1000}`;
/** Slide pixels as a share of the slide's width in container units (the slide is the container). */
const cqw = (px: number) => `${fixed((px / SLIDE_WIDTH) * 100)}cqw`;

/** Where a child sits: left/top/width/height as shares of the slide. */
export function placement(style: unknown): SafeStyle {
  const s = isObject(style) ? style : {};
  const out: SafeStyle = { position: 'absolute' };
  const sides: [string, number][] = [
    ['left', SLIDE_WIDTH],
    ['top', SLIDE_HEIGHT],
    ['width', SLIDE_WIDTH],
    ['height', SLIDE_HEIGHT],
  ];
  for (const [side, whole] of sides) {
    const share = percent(s[side]);
    const px = share === null ? pixels(s[side]) : null;
    if (share !== null) out[side] = `${fixed(share)}%`;
    else if (px !== null) out[side] = `${fixed((px / whole) * 100)}%`;
  }
  return out;
}

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNCTIONAL = /^(?:rgb|rgba|hsl|hsla)\(\s*[\d.]+%?(?:\s*[,\s/]\s*[\d.]+%?){2,3}\s*\)$/i;
const NAMED = /^[a-z]{3,20}$/i;

/** A colour: hex, rgb()/hsl() of plain numbers, or a name (letters only); else null. */
export function safeColor(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return HEX.test(v) || FUNCTIONAL.test(v) || NAMED.test(v) ? v : null;
}

const keyword =
  (...words: string[]) =>
  (v: unknown) =>
    typeof v === 'string' && words.includes(v.trim()) ? v.trim() : null;
const between = (min: number, max: number, v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? v : null);

/** Each allowed text property and how its value is checked (null: dropped). */
const TEXT_RULES: Record<string, (v: unknown) => string | null> = {
  color: safeColor,
  backgroundColor: safeColor,
  fontSize: (v) => {
    const px = pixels(v, 400);
    return px !== null && px > 0 ? cqw(px) : null;
  },
  fontFamily: (v) => (typeof v === 'string' && /^[\w\s,'"-]{1,200}$/.test(v) ? v : null),
  fontStyle: keyword('normal', 'italic', 'oblique'),
  fontWeight: (v) => {
    const n = between(100, 900, v);
    return n !== null ? String(Math.round(n / 100) * 100) : keyword('normal', 'bold', 'lighter', 'bolder')(v);
  },
  textAlign: keyword('left', 'right', 'center', 'justify', 'start', 'end'),
  textDecoration: keyword('none', 'underline', 'line-through', 'overline'),
  lineHeight: (v) => {
    const n = between(0, 10, v);
    if (n !== null) return String(n);
    const px = typeof v === 'string' && v.trim().endsWith('px') ? pixels(v, 400) : null;
    return px !== null && px >= 0 ? cqw(px) : keyword('normal')(v);
  },
  opacity: (v) => {
    const n = between(0, 1, v);
    return n === null ? null : String(n);
  },
  wordBreak: keyword('normal', 'break-all', 'keep-all', 'break-word'),
  zIndex: (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1000 ? String(v) : null),
  margin: (v) => {
    const px = pixels(v, SLIDE_WIDTH);
    return px !== null ? cqw(px) : null;
  },
  padding: (v) => {
    const px = pixels(v, SLIDE_WIDTH);
    return px !== null && px >= 0 ? cqw(px) : null;
  },
};

/** A child's look: the allowed properties with checked values (placement apart, see placement). */
export function safeTextStyle(style: unknown): SafeStyle {
  const s = isObject(style) ? style : {};
  const out: SafeStyle = {};
  for (const [name, rule] of Object.entries(TEXT_RULES)) {
    if (!(name in s)) continue;
    const value = rule(s[name]);
    if (value !== null) out[name] = value;
  }
  return out;
}

/**
 * `src` as a path on this site (`/a/b?c`) when it names this site (`origin`) or is relative; else
 * null: nothing elsewhere is loaded (nothing leaves the machine), nor data: or script addresses.
 */
export function sameSitePath(src: unknown, origin: string): string | null {
  if (typeof src !== 'string' || !src.trim() || src.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(src.trim(), `${origin}/`);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  const path = `${url.pathname}${url.search}`;
  // Fit to stand in a quoted CSS url() as in an attribute.
  return /^\/[^"'\\\s()<>]*$/.test(path) && !path.startsWith('//') ? path : null;
}

const BACKGROUND_RULES: Record<string, (v: unknown) => string | null> = {
  backgroundColor: safeColor,
  backgroundSize: (v) => (typeof v === 'string' && /^(?:auto|contain|cover|\d{1,3}%(?: \d{1,3}%)?)$/.test(v.trim()) ? v.trim() : null),
  backgroundPosition: (v) => (typeof v === 'string' && /^(?:(?:left|right|top|bottom|center|\d{1,3}%)\s*){1,2}$/.test(v.trim()) ? v.trim() : null),
  backgroundRepeat: keyword('no-repeat', 'repeat', 'repeat-x', 'repeat-y', 'space', 'round'),
};

/** The address in `url(...)`, quoted or not. */
const urlInCss = (value: unknown) => (typeof value === 'string' ? (/^url\(\s*(['"]?)([^'"()]*)\1\s*\)$/.exec(value.trim())?.[2] ?? null) : null);

/** A slide's background: its colour, and its image only when on this site. */
export function slideBackground(props: unknown, origin: string): SafeStyle {
  const p = isObject(props) ? props : {};
  const s = isObject(p.style) ? p.style : {};
  const out: SafeStyle = {};
  for (const [name, rule] of Object.entries(BACKGROUND_RULES)) {
    const value = name in s ? rule(s[name]) : null;
    if (value !== null) out[name] = value;
  }
  const image = sameSitePath(p.backgroundImageSrc ?? urlInCss(s.backgroundImage), origin);
  if (image) out.backgroundImage = `url("${image}")`;
  return out;
}

/** A slide's background image that is NOT loaded (elsewhere), to name it in words; else null. */
export function foreignBackground(props: unknown, origin: string): string | null {
  const p = isObject(props) ? props : {};
  const s = isObject(p.style) ? p.style : {};
  const src = typeof p.backgroundImageSrc === 'string' ? p.backgroundImageSrc : urlInCss(s.backgroundImage);
  return src && !sameSitePath(src, origin) ? src.slice(0, 2000) : null;
}
