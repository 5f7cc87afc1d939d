// plotly.js files the server hands to browsers: the pages' own (served) and the image renderer's.
import 'server-only';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const modulePath = (...parts: string[]) => path.join(/*turbopackIgnore: true*/ process.cwd(), 'node_modules', ...parts);

// plotly.js 4's UMD bundles set `window.moduleName` when loaded as a plain script, so each is
// wrapped to set the global its readers expect. The map outlines' bundle also sets window.Plotly (to
// itself): the wrapper puts back the one there was, so it may load before or after plotly.js.
const asGlobal = (file: string, name: string) =>
  readFile(modulePath(file), 'utf8').then(
    (source) => `(function(){var P=window.Plotly;var module={exports:{}};\n${source}\n;window.Plotly=P;window.${name}=module.exports;})();\n`,
  );

let geo: Promise<string> | undefined;
/** plotly.js's map outlines (no CDN), as window.PlotlyGeoAssets. */
export function geoAssetsScript(): Promise<string> {
  geo ??= asGlobal('plotly.js/dist/plotly-geo-assets.js', 'PlotlyGeoAssets');
  return geo;
}

/** The build the pages draw with (plotly.js-dist-min), as window.Plotly, for the image renderer. */
export const plotlyBrowserScript = () => asGlobal('plotly.js-dist-min/plotly.min.js', 'Plotly');
