// The style panels rendered to HTML (React's server renderer, no browser): every control has a
// label naming it, and the controls show the figure's current values, for a figure of many kinds.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type FigureLike, LayoutStylePanels } from '@/components/chart-editor/style/style-panels';
import { TraceStylePanel } from '@/components/chart-editor/style/trace-style-panel';
import { PALETTES } from '@/components/chart-editor/style/options';
import { THEMES } from '@/lib/shared/figures/builtin-themes';
import { checkFigure } from '@/lib/core/figures/figure';

const FIGURE: FigureLike = {
  data: [
    { type: 'scatter', name: 'Sales', xsrc: 'a:1:x', ysrc: 'a:1:y', mode: 'lines', line: { color: 'steelblue', dash: 'dot' }, marker: { colorsrc: 'a:1:c' } },
    { type: 'bar', yaxis: 'y2', marker: { color: '#ff0000' } },
    { type: 'pie', hole: 0.4 },
    { type: 'heatmap', colorscale: 'Viridis', showscale: false },
    { type: 'box', boxpoints: 'all', marker: { color: ['red', 'blue'] } },
    { type: 'candlestick', increasing: { line: { color: 'green' } }, decreasing: { line: { color: 5 } } },
    { type: 'scatter3d' },
    { type: 'sankey' },
  ],
  layout: {
    title: 'A string title',
    xaxis: { type: 'log', range: [0, 3], title: { text: 'Money' }, tickformat: '~s' },
    yaxis2: { title: 'Old style' },
    legend: { orientation: 'h', x: 0, y: 1.02, xanchor: 'left', yanchor: 'bottom', title: { text: 'Key' } },
    colorway: ['#e69f00', '#56b4e9', '#009e73', '#f0e442', '#0072b2', '#d55e00', '#cc79a7', '#000000'],
    plot_bgcolor: 'ivory',
    font: { size: 14 },
    margin: { l: 40 },
    autosize: false,
    width: 900,
    height: 500,
    annotations: [{ text: 'Peak', x: '2024-01-01', y: 3, showarrow: true }],
    template: THEMES.find((t) => t.key === 'dark')!.template,
  },
};

const noop = () => {};

/** Each form control's accessible name: its <label for>, else its aria-label. */
function controls(html: string): { tag: string; name: string; html: string }[] {
  const labels = new Map([...html.matchAll(/<label for="([^"]+)"[^>]*>(.*?)<\/label>/g)].map((m) => [m[1], m[2].replace(/<[^>]+>/g, '')]));
  return [...html.matchAll(/<(input|select|textarea)\b[^>]*>/g)].map((m) => {
    const id = /\sid="([^"]+)"/.exec(m[0])?.[1];
    const aria = /\saria-label="([^"]+)"/.exec(m[0])?.[1];
    return { tag: m[1], name: (id && labels.get(id)) ?? aria ?? '', html: m[0] };
  });
}

const layoutHtml = renderToStaticMarkup(createElement(LayoutStylePanels, { figure: FIGURE, onChange: noop }));
const traceHtml = FIGURE.data.map((_, index) => renderToStaticMarkup(createElement(TraceStylePanel, { figure: FIGURE, index, onChange: noop })));

/** The control named exactly `name`. */
function control(html: string, name: string) {
  const found = controls(html).filter((c) => c.name === name);
  expect(found, name).toHaveLength(1);
  return found[0].html;
}
/** The label of the option a select shows, from the markup after the select named `name`. */
function selected(html: string, name: string) {
  const start = html.indexOf(control(html, name));
  const select = html.slice(start, html.indexOf('</select>', start));
  return /<option[^>]*selected=""[^>]*>([^<]*)</.exec(select)?.[1]?.replaceAll('&#x27;', "'").replaceAll('&amp;', '&');
}

describe('the style panels', () => {
  it('label every control, uniquely within a panel', () => {
    for (const html of [layoutHtml, ...traceHtml]) {
      const all = controls(html);
      expect(all.length).toBeGreaterThan(0);
      for (const c of all) expect(c.name, c.html).not.toBe('');
      const named = all.filter((c) => c.name !== 'Pick colour').map((c) => c.name);
      expect(new Set(named).size, named.join(', ')).toBe(named.length);
    }
  });

  it('show the layout as it is', () => {
    expect(control(layoutHtml, 'X axis title')).toContain('value="Money"');
    expect(control(layoutHtml, 'Y axis 2 title')).toContain('value="Old style"');
    expect(selected(layoutHtml, 'X axis type')).toBe('Log');
    expect(selected(layoutHtml, 'Y axis type')).toBe('Auto');
    // A log axis's range reads in its values: [0, 3] is 1 to 1000.
    expect(control(layoutHtml, 'X axis minimum')).toContain('value="1"');
    expect(control(layoutHtml, 'X axis maximum')).toContain('value="1000"');
    expect(selected(layoutHtml, 'X axis tick format')).toBe('1.2k (SI)');
    expect(selected(layoutHtml, 'Legend position')).toBe('Top');
    expect(control(layoutHtml, 'Legend title')).toContain('value="Key"');
    expect(control(layoutHtml, 'Show legend')).toContain('checked');
    expect(selected(layoutHtml, 'Palette')).toBe('Okabe-Ito (colour-blind safe)');
    expect(control(layoutHtml, 'Plot background')).toContain('value="ivory"');
    expect(control(layoutHtml, 'Font size')).toContain('value="14"');
    expect(control(layoutHtml, 'Left margin')).toContain('value="40"');
    expect(control(layoutHtml, 'Right margin')).toContain('value=""');
    expect(selected(layoutHtml, 'Chart size')).toBe('Fixed width and height');
    expect(control(layoutHtml, 'Width (px)')).toContain('value="900"');
    expect(control(layoutHtml, 'Annotation 1 text')).toContain('value="Peak"');
    expect(selected(layoutHtml, 'Annotation 1 placed on')).toBe('The data (axis values)');
    expect(control(layoutHtml, 'Annotation 1 x')).toContain('value="2024-01-01"');
    expect(selected(layoutHtml, 'Theme')).toBe('Dark');
    expect(layoutHtml).toContain('3D Z axis title');
  });

  it('show each trace by its type', () => {
    const [scatter, bar, pie, heatmap, box, candlestick, scatter3d, sankey] = traceHtml;
    expect(control(scatter, 'Trace name')).toContain('value="Sales"');
    expect(selected(scatter, 'Mode')).toBe('Lines');
    expect(control(scatter, 'Line colour')).toContain('value="steelblue"');
    expect(selected(scatter, 'Line style')).toBe('Dotted');
    expect(selected(scatter, 'Marker symbol')).toBe('Circle');
    expect(selected(scatter, 'Fill')).toBe('None');
    expect(scatter).toContain('Marker colour: set by a data column.');
    expect(selected(scatter, 'Marker colour scale')).toBe('Default');
    expect(selected(scatter, 'Line shape')).toBe('Straight');
    expect(control(bar, 'Bar colour')).toContain('value="#ff0000"');
    expect(selected(bar, 'Bar mode')).toBe('Grouped side by side');
    expect(control(pie, 'Donut hole (0 to 0.95)')).toContain('value="0.4"');
    expect(selected(pie, 'Slice colours')).toBe("Default (the chart's palette)");
    expect(selected(heatmap, 'Colour scale')).toBe('Viridis');
    expect(control(heatmap, 'Show colour scale')).not.toContain('checked');
    expect(selected(box, 'Points shown')).toBe('All points');
    expect(box).toContain('Set point by point (kept as it is).');
    expect(controls(box).map((c) => c.name)).not.toContain('Colour');
    expect(control(candlestick, 'Rising colour')).toContain('value="green"');
    // A value plotly cannot read as a colour is an empty field, replaced by what is typed.
    expect(control(candlestick, 'Falling colour')).toContain('value=""');
    expect(controls(scatter3d).map((c) => c.name)).not.toContain('Fill');
    expect(controls(scatter3d).map((c) => c.name)).not.toContain('Line shape');
    expect(controls(sankey).map((c) => c.name)).toEqual(['Trace name']);
  });
});

describe('what the panels write', () => {
  it('passes the figure rules a save is checked by: themes, palettes (pie slices too), annotations', () => {
    for (const theme of THEMES) {
      for (const palette of PALETTES) {
        const figure = { ...FIGURE, layout: { ...FIGURE.layout, template: theme.template, colorway: palette.value, piecolorway: palette.value } };
        expect(() => checkFigure(figure), `${theme.key} ${palette.key}`).not.toThrow();
      }
    }
  });
});
