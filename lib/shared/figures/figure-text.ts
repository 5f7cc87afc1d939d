// What a figure may make a visitor's browser fetch: nothing its author chose. plotly.js draws figure
// text as pseudo-HTML and copies a tag's `style` attribute onto the SVG it draws, so
// `<span style="fill:url(/~someone/3/)">` in a title made every visitor's browser request that
// address with their cookies (the security policy stops other origins, not this one). `safeFigure`
// holds every string of a figure (layout, traces, frames, templates; titles, text arrays, tick text,
// templates, category values alike) to these rules before any drawing:
// - a tag plotly reads (`a b i u s em sup sub span br`) is rebuilt: its `style` keeps only text
//   properties whose values are words, numbers, colours and rgb()/hsl(), after entities are decoded
//   as plotly decodes them (so no `url(`, `image-set(`, `expression(`, `@import` or CSS escape);
//   a link keeps its `href`, `target` and `popup`; nothing else;
// - every tag lies whole inside one string: a `<` that no `>` closes is written `&lt;` (plotly shows
//   it as `<`), a `%{...}` placeholder inside a tag is dropped (or, inside text plotly shows as
//   text, its `<` is written `&lt;`), and a number or date format cannot print `<`, so values
//   substituted into templates never complete a tag;
// - outside tags, `style=` is written `styl&#101;=` (shown the same);
// - addresses plotly would load: layout image `source`s other than `data:image/...`, map layer
//   sources given as addresses, `geojson` given as an address, map `style`s other than a name.
//
// `figureTextRules` runs in the browser (through the draw guard, lib/shared/figures/draw-guard.ts) and in the
// renderer's pages, where it is injected as text: it must refer to nothing outside itself.

/** The rules above, self-contained (see above). */
export function figureTextRules() {
  type Node = Record<string, unknown>;
  const TAGS = ['a', 'b', 'i', 'u', 's', 'em', 'sup', 'sub', 'span', 'br'];
  const SAFE_PROPERTIES = [
    'color',
    'fill',
    'fill-opacity',
    'opacity',
    'stroke',
    'stroke-width',
    'stroke-opacity',
    'font-family',
    'font-size',
    'font-style',
    'font-weight',
    'font-variant',
    'text-decoration',
    'letter-spacing',
    'word-spacing',
  ];
  // Words, numbers, #hex, quotes for font names, and rgb()/rgba()/hsl()/hsla() of numbers: nothing
  // that loads (no other function, no `\` escape, no `/`, `:`, `=`, `@`, `"`, `;`).
  const SAFE_VALUE = /^(?:[\w\s#.,%'+-]|(?:rgba?|hsla?)\([\d\s.,%+-]*\))+$/i;
  // As plotly reads them (src/lib/svg_text_utils.js, src/lib/index.js).
  const ONE_TAG = /<(\/?)([^ >]*)(\s+(.*))?>/i;
  const TEMPLATE = /%\{([^\s%{}:]*)([:|][^}]*)?\}/g;
  const ENTITY = /&(#\d+|#x[\da-fA-F]+|[a-z]+);/g;
  const NAMED: Record<string, string> = { mu: 'μ', amp: '&', lt: '<', gt: '>', nbsp: ' ', times: '×', plusmn: '±', deg: '°' };
  const D3_NUMBER = /^(?:(.)?([<>=^]))?([+\-( ])?([$#])?(0)?(\d+)?(,)?(\.\d+)?(~)?([a-z%])?$/i;
  const MARK = /\uE000(\d+)\uE001/g;
  // What a string must hold for any rule to change it (one test: figures hold many strings).
  const MARKUP = /<|style/i;

  const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

  function decodeEntities(s: string): string {
    return s.replace(ENTITY, (whole, inner: string) => {
      if (inner.charAt(0) !== '#') return NAMED[inner] ?? whole;
      const code = inner.charAt(1) === 'x' ? parseInt(inner.slice(2), 16) : parseInt(inner.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    });
  }

  /** A style attribute's value (raw, as written) reduced to safe text properties; '' for none. */
  function safeCss(raw: string): string {
    const kept: string[] = [];
    for (const declaration of decodeEntities(raw).split(';')) {
      const colon = declaration.indexOf(':');
      if (colon < 0) continue;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      if (SAFE_PROPERTIES.includes(property) && SAFE_VALUE.test(value) && !/style/i.test(value)) kept.push(`${property}:${value}`);
    }
    return kept.join(';');
  }

  /** An attribute's quoted value in a tag's rest as plotly finds it (raw), or undefined. */
  function attribute(rest: string, name: string): string | undefined {
    const m = new RegExp(`(^|[\\s"'])${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(rest);
    return m ? (m[3] ?? m[4]) : undefined;
  }

  /** A tag plotly reads, rebuilt from what is safe in it; other text between < and > is text. */
  function safeTag(tag: string): string | undefined {
    const m = ONE_TAG.exec(tag);
    const name = m ? m[2].toLowerCase() : '';
    if (!m || !TAGS.includes(name)) return undefined;
    if (m[1]) return `</${name}>`;
    const rest = m[4] ?? '';
    let out = `<${name}`;
    if (name === 'a') {
      for (const key of ['href', 'target', 'popup']) {
        const value = attribute(rest, key);
        if (value !== undefined && !/style|[<>"]/i.test(value)) out += ` ${key}="${value}"`;
      }
    }
    const style = attribute(rest, 'style');
    const css = style === undefined ? '' : safeCss(style);
    if (css) out += ` style="${css}"`;
    return `${out}>`;
  }

  /** A placeholder whose format cannot print `<` (a d3 fill `<` becomes a space; dates lose theirs). */
  function safePlaceholder(name: string, format: string | undefined): string {
    let f = format ?? '';
    if (f.startsWith(':')) {
      const spec = f.slice(1);
      if (!D3_NUMBER.test(spec)) f = f.replace(/</g, '');
      else if (spec.charAt(0) === '<' && /[<>=^]/.test(spec.charAt(1))) f = `: ${spec.slice(1)}`;
    } else if (f) f = `|${safeText(f.slice(1))}`;
    return `%{${name.replace(/</g, '')}${f}}`;
  }

  const neutral = (text: string) => text.replace(/(styl)(e)(?=\s*=)/gi, (_, head: string, e: string) => `${head}&#${e.charCodeAt(0)};`);

  /** One string of a figure held to the rules (unchanged when nothing in it is markup). */
  function safeText(s: string): string {
    if (!MARKUP.test(s)) return s;
    const placeholders: string[] = [];
    const text = s.replace(/[\uE000\uE001]/g, '').replace(TEMPLATE, (_, name: string, format: string | undefined) => {
      placeholders.push(safePlaceholder(name, format));
      return `\uE000${placeholders.length - 1}\uE001`;
    });
    let out = '';
    let at = 0;
    while (at < text.length) {
      const lt = text.indexOf('<', at);
      if (lt < 0) {
        out += neutral(text.slice(at));
        break;
      }
      out += neutral(text.slice(at, lt));
      const gt = text.indexOf('>', lt + 1);
      const next = text.indexOf('<', lt + 1);
      if (gt < 0 || (next >= 0 && next < gt)) {
        out += '&lt;';
        at = lt + 1;
        continue;
      }
      const tag = text.slice(lt, gt + 1);
      const rebuilt = safeTag(tag.replace(MARK, ''));
      // Text that only looks like a tag stays text; with a placeholder in it, its `<` is text too.
      out += rebuilt ?? (/\uE000\d+\uE001/.test(tag) ? `&lt;${neutral(tag.slice(1))}` : neutral(tag));
      at = gt + 1;
    }
    return out.replace(MARK, (_, k: string) => placeholders[Number(k)]);
  }

  /** An address plotly would load for a figure, kept only when it loads nothing (see above). */
  function keepsValue(key: string, value: unknown): boolean {
    // Images' sources; map layers' (an address, or tile addresses); sankey's are node indices.
    if (key === 'source') {
      if (typeof value === 'string') return /^data:image\//i.test(value.trim());
      return !Array.isArray(value) || value.every((v) => typeof v !== 'string' || !/[/:\\]/.test(v));
    }
    if (key === 'geojson') return typeof value !== 'string';
    if (key === 'style') return typeof value !== 'string' ? !isNode(value) : /^[a-z][a-z-]*$/i.test(value);
    return true;
  }

  /** A d3 number format keeps its meaning (a fill `<` becomes a space); any other is text (dates). */
  function safeFormat(s: string): string {
    if (!D3_NUMBER.test(s)) return safeText(s);
    return s.charAt(0) === '<' && /[<>=^]/.test(s.charAt(1)) ? ` ${s.slice(1)}` : s;
  }

  function walk(value: unknown, key: string, depth: number): unknown {
    if (typeof value === 'string') {
      // Enumerated (contour constraints' '<', '>=', ...), never drawn as text.
      if (key === 'operation' || !MARKUP.test(value)) return value;
      return /format$/i.test(key) ? safeFormat(value) : safeText(value);
    }
    if (value === null || typeof value !== 'object' || depth > 200) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        if (v === null || (typeof v !== 'string' && typeof v !== 'object')) continue;
        const w = walk(v, key, depth + 1);
        if (w === v) continue;
        copy ??= value.slice();
        copy[i] = w;
      }
      return copy ?? value;
    }
    if (ArrayBuffer.isView(value)) return value;
    let copy: Node | undefined;
    const node = value as Node;
    // for...in, not Object.entries: a figure's objects are JSON's (no inherited keys), and many.
    for (const k in node) {
      const v = node[k];
      if ((k === 'source' || k === 'geojson' || k === 'style') && !keepsValue(k, v)) {
        copy ??= { ...node };
        delete copy[k];
        continue;
      }
      const w = walk(v, k, depth + 1);
      if (w === v) continue;
      copy ??= { ...node };
      copy[k] = w;
    }
    return copy ?? value;
  }

  /** `figure` with all its text held to the rules: a new figure where anything changed, parts shared. */
  function safeFigure<F>(figure: F): F {
    return walk(figure, '', 0) as F;
  }

  return { safeFigure, safeText, safeCss, safeFormat };
}

export const { safeFigure, safeText, safeCss, safeFormat } = figureTextRules();
