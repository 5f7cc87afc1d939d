// Built-in themes: small layout.template objects written here (plotly.py's are tens of KiB each and
// every stored figure is at most 1 MiB), after plotly.py's plotly_white, simple_white, plotly_dark,
// presentation, ggplot2 and seaborn (plotly.py is MIT-licensed). "Plotly" is no template:
// plotly.js's own look. Pure data: the chart editor (a client component) offers them too.

export interface Theme {
  key: string;
  label: string;
  template: Record<string, unknown> | undefined;
}

const axes = (axis: Record<string, unknown>) => ({ xaxis: axis, yaxis: axis });

const SEABORN_COLORS = ['#4c72b0', '#dd8452', '#55a868', '#c44e52', '#8172b3', '#937860', '#da8bc3', '#8c8c8c', '#ccb974', '#64b5cd'];
const GGPLOT_COLORS = ['#f8766d', '#a3a500', '#00bf7d', '#00b0f6', '#e76bf3'];

export const THEMES: Theme[] = [
  { key: 'plotly', label: 'Plotly (default)', template: undefined },
  {
    key: 'white',
    label: 'White',
    template: { layout: { plot_bgcolor: '#ffffff', ...axes({ gridcolor: '#ebf0f8', linecolor: '#ebf0f8', zerolinecolor: '#ebf0f8', zerolinewidth: 2 }) } },
  },
  {
    key: 'simple-white',
    label: 'Simple white',
    template: {
      layout: {
        plot_bgcolor: '#ffffff',
        ...axes({ showgrid: false, showline: true, linecolor: '#242424', ticks: 'outside', tickcolor: '#242424', zeroline: false }),
      },
    },
  },
  {
    key: 'dark',
    label: 'Dark',
    template: {
      layout: {
        paper_bgcolor: '#111111',
        plot_bgcolor: '#111111',
        font: { color: '#f2f5fa' },
        colorway: ['#636efa', '#ef553b', '#00cc96', '#ab63fa', '#ffa15a', '#19d3f3', '#ff6692', '#b6e880', '#ff97ff', '#fecb52'],
        ...axes({ gridcolor: '#283442', linecolor: '#506784', zerolinecolor: '#283442', zerolinewidth: 2 }),
      },
    },
  },
  {
    key: 'presentation',
    label: 'Presentation',
    template: {
      layout: { font: { size: 18 }, title: { font: { size: 28 } } },
      data: { scatter: [{ line: { width: 4 }, marker: { size: 12 } }] },
    },
  },
  {
    key: 'ggplot2',
    label: 'ggplot2-like',
    template: {
      layout: {
        plot_bgcolor: '#ebebeb',
        colorway: GGPLOT_COLORS,
        ...axes({ showgrid: true, gridcolor: '#ffffff', linecolor: '#ffffff', ticks: 'outside', tickcolor: '#333333', zeroline: false }),
      },
    },
  },
  {
    key: 'seaborn',
    label: 'Seaborn-like',
    template: {
      layout: {
        plot_bgcolor: '#eaeaf2',
        colorway: SEABORN_COLORS,
        ...axes({ showgrid: true, gridcolor: '#ffffff', linecolor: '#ffffff', ticks: '', zeroline: false }),
      },
    },
  },
];
