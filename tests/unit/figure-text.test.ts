// Figure text loads nothing: every way of writing a `style` that loads an address (quotes, case,
// entities, CSS escapes, nesting, templates whose values complete a tag, formats that print `<`) is
// reduced to safe text properties, read back the way plotly.js reads it; what authors write for
// looks (colours, bold, line breaks, links) is kept; addresses plotly would load are dropped.
import { describe, expect, it } from 'vitest';
import { safeFigure, safeFormat, safeText } from '@/lib/shared/figures/figure-text';

// plotly.js's own reading (src/lib/svg_text_utils.js): the style each tag it draws gets.
const SPLIT_TAGS = /(<[^<>]*>)/;
const ONE_TAG = /<(\/?)([^ >]*)(\s+(.*))?>/i;
const STYLEMATCH = /(^|[\s"'])style\s*=\s*("([^"]*);?"|'([^']*);?')/i;
const TAGS = ['a', 'b', 'i', 'u', 's', 'em', 'sup', 'sub', 'span'];
const decode = (s: string) =>
  s.replace(/&(#\d+|#x[\da-fA-F]+|[a-z]+);/g, (w, x: string) =>
    x[0] === '#' ? String.fromCodePoint(x[1] === 'x' ? parseInt(x.slice(2), 16) : parseInt(x.slice(1), 10)) : ({ lt: '<', gt: '>', amp: '&' }[x] ?? w),
  );
function plotlyStyles(text: string): string[] {
  return text.split(SPLIT_TAGS).flatMap((part) => {
    const m = part.match(ONE_TAG);
    if (!m || m[1] || !TAGS.includes(m[2].toLowerCase())) return [];
    const s = (m[4] ?? '').match(STYLEMATCH);
    return s ? [decode(s[3] ?? s[4])] : [];
  });
}
const loads = (css: string) => /url|image|expression|import|\\|\/|:\s*[^;]*\((?<!rgba?\(|hsla?\()/i.test(css.replace(/(rgba?|hsla?)\([\d\s.,%+-]*\)/gi, ''));

const HOSTILE = [
  '<span style="background:url(/~someone/3/)">t</span>',
  "<span style='background:url(/~someone/3/)'>t</span>",
  '<SPAN STYLE="BACKGROUND:URL(/~someone/3/)">t</SPAN>',
  '<span style = " fill : url( /~someone/3/ ) ">t</span>',
  '<span style="background:&#117;rl(/x)">t</span>',
  '<span style="background:&#x75;&#x72;&#x6c;(/x)">t</span>',
  '<span style="background:\\75 rl(/x)">t</span>',
  '<span style="background:u\\rl(/x)">t</span>',
  '<span style="background:url(\'/a b\')">t</span>',
  '<span style="color:red;background:url(/x)">t</span>',
  '<span style="color:blue"><span style="fill:url(#f)">a</span></span>',
  '<b style="fill:image-set(\'/x\' 1x)">t</b>',
  '<b style="fill:-webkit-image-set(url(/x) 1x)">t</b>',
  '<i style="font-family:expression(alert(1))">t</i>',
  '<span style="@import \'/x\'">t</span>',
  '<span style="color:red" style="fill:url(/x)">t</span>',
  '<span data-x="1" style="fill:url(/x)">t</span>',
  '<span stystyle="a"le="fill:url(/x)">t</span>',
  '<a href="/p style=\'fill:url(/x)\'">t</a>',
  '<a href="/p" target="\'style=\'fill:url(/x)\'">t</a>',
  '<span style="fill:url(/x)"',
  '<span style="fill:url(/x)">',
  '<span %{customdata}>t</span>',
  '<span %{customdata[0]}',
  '%{y:<<5}span style="fill:url(/x)">',
  '%{x|<span style="fill:url(/x)">}',
  'sty',
  'le="fill:url(/x)">t',
  '<span ',
  'style="fill:url(/x)">t',
  '<span style="fill:url(/x)',
];

describe('safeText', () => {
  it.each(HOSTILE)('%s: plotly reads no style that loads', (input) => {
    const out = safeText(input);
    for (const css of plotlyStyles(out)) expect(loads(css), css).toBe(false);
  });

  it('two hostile pieces side by side (a template filled with values) never make a loading style', () => {
    const fills = ['1<<<<', '<', '<span ', 'style="fill:url(/x)">', 'sty', 'le="fill:url(/x)">'];
    for (const a of [...HOSTILE, ...fills])
      for (const b of HOSTILE) {
        const joined = (a === '1<<<<' || a === '<' ? a : safeText(a)) + safeText(b);
        for (const css of plotlyStyles(joined)) expect(loads(css), `${a} + ${b}: ${css}`).toBe(false);
      }
  });

  it.each([
    ['<span style="background:url(/~someone/3/)">t</span>', '<span>t</span>'],
    ['<span style="color:red;background:url(/x)">t</span>', '<span style="color:red">t</span>'],
    ['<span style="background:&#117;rl(/x)">t</span>', '<span>t</span>'],
    ['<span style="color:blue"><span style="fill:url(#f)">a</span></span>', '<span style="color:blue"><span>a</span></span>'],
    ['<span %{customdata}>t</span>', '<span>t</span>'],
    ['<span style="fill:url(/x)"', '&lt;span styl&#101;="fill:url(/x)"'],
    ['x < %{y} > 3', 'x &lt; %{y} > 3'],
  ])('%s becomes %s', (input, output) => {
    expect(safeText(input)).toBe(output);
  });

  it.each([
    'Sales <b>2024</b>',
    'x<sup>2</sup> and H<sub>2</sub>O',
    'line one<br>line two',
    '<span style="color:red">red</span>',
    '<span style="color:rgb(10, 20, 30);font-size:20px;font-family:\'Courier New\'">c</span>',
    '<span style="font-weight:bold;fill:#123456">w</span>',
    '<a href="https://example.org/p?q=1">a link</a>',
    '<i>%{y:.2f}</i> at %{x|%b %Y}',
    'no markup at all',
    'a > b',
  ])('%s is kept as written', (text) => {
    expect(safeText(text)).toBe(text);
  });

  it('shows an unclosed < as plotly would (written as an entity plotly decodes)', () => {
    expect(safeText('a < b')).toBe('a &lt; b');
    expect(safeText('style=1')).toBe('styl&#101;=1');
  });
});

describe('safeFormat', () => {
  it.each([
    ['.2f', '.2f'],
    ['<10', '<10'],
    ['<<5', ' <5'],
    ['%b<br>%Y', '%b<br>%Y'],
    ['%Y<span style="fill:url(/x)">', '%Y<span>'],
  ])('%s becomes %s', (input, output) => {
    expect(safeFormat(input)).toBe(output);
  });

  it('a placeholder cannot print a <', () => {
    expect(safeText('%{y:<<5}')).toBe('%{y: <5}');
    expect(safeText('%{x|<%Y}')).toBe('%{x|&lt;%Y}');
  });
});

describe('safeFigure', () => {
  it('holds every string of a figure to the rules, wherever it is', () => {
    const bad = '<span style="fill:url(/x)">t</span>';
    const figure = {
      data: [
        {
          type: 'bar',
          x: [bad, 'b'],
          y: [1, 2],
          text: [bad],
          hovertemplate: bad,
          name: bad,
          customdata: [[bad]],
          marker: { colorbar: { title: { text: bad } } },
        },
        { type: 'contour', z: [[1]], contours: { type: 'constraint', operation: '<', value: 1 } },
        { type: 'sankey', link: { source: [0, 1], target: [1, 2], value: [1, 1] } },
        { type: 'choroplethmap', geojson: '/~someone/3/', locations: ['a'], z: [1] },
      ],
      layout: {
        title: { text: bad },
        annotations: [{ text: bad }],
        xaxis: { ticktext: [bad], tickvals: [0], tickformat: '<<5' },
        images: [{ source: '/~someone/3/' }, { source: 'data:image/png;base64,AAAA' }],
        map: { style: '/~someone/3/style.json', layers: [{ source: ['/~someone/{z}/{x}/{y}'] }, { source: { type: 'FeatureCollection', features: [] } }] },
        mapbox: { style: 'open-street-map' },
        font: { style: 'italic' },
        template: { layout: { title: { text: bad } } },
      },
      frames: [{ layout: { title: { text: bad } } }],
    };
    const before = JSON.stringify(figure);
    const safe = safeFigure(figure);
    expect(JSON.stringify(figure), 'the figure given is left as it was').toBe(before);
    const text = JSON.stringify(safe);
    expect(text).not.toContain('url(');
    expect(text).not.toContain('~someone');
    expect(safe.data[1]).toBe(figure.data[1]);
    expect(safe.data[2]).toBe(figure.data[2]);
    expect(safe.layout.images).toEqual([{}, { source: 'data:image/png;base64,AAAA' }]);
    expect(safe.layout.map.layers[1]).toBe(figure.layout.map.layers[1]);
    expect(safe.layout.mapbox.style).toBe('open-street-map');
    expect(safe.layout.font.style).toBe('italic');
    expect(safe.layout.xaxis.tickformat).toBe(' <5');
    expect(safe.data[0].x).toEqual(['<span>t</span>', 'b']);
  });

  it('returns the very figure when nothing in it is markup (no copy of large data)', () => {
    const figure = {
      data: [{ type: 'scatter', x: Array.from({ length: 1000 }, (_, i) => i), y: new Float64Array(1000), text: ['a', 'b'] }],
      layout: { title: { text: '<b>Hi</b>' } },
    };
    expect(safeFigure(figure)).toBe(figure);
  });
});
