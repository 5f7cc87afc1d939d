import { readFile } from 'node:fs/promises';
import path from 'node:path';

// plotly.js's map outlines, served by the app (no CDN). plotly.js 4 packs them as a UMD module that
// never sets the global plotly.js reads, so they are wrapped to set window.PlotlyGeoAssets.
let body: Promise<string> | undefined;

export async function GET() {
  body ??= readFile(path.join(/*turbopackIgnore: true*/ process.cwd(), 'node_modules/plotly.js/dist/plotly-geo-assets.js'), 'utf8').then(
    (source) => `(function(){var module={exports:{}};\n${source}\n;window.PlotlyGeoAssets=module.exports;})();\n`,
  );
  return new Response(await body, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  });
}
