import { z } from 'zod';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';
import { readFigureFiles } from '@/lib/core/imports/figure-files';
import { importFigures } from '@/lib/core/imports/import-figures';
import { MiB } from '@/lib/core/json-text';
import { json } from '@/lib/http/responses';
import { endpoint, routes } from '@/lib/http/routes';

// "Bring your charts" (the web's /create sends each chosen file here, one request a file): the
// figures of one plotly JSON, HTML, notebook or zip file made plots (lib/core/imports).
const BASE64_CHARS = Math.ceil(IMPORT_LIMITS.maxSourceBytes / 3) * 4;

const figureImportSchema = z.object({
  filename: z
    .string()
    .min(1)
    .max(300)
    .meta({ description: 'the file’s name: its extension says what it is (.json, .html, .ipynb, .zip), its name the folder its plots go in' }),
  content: z
    .string()
    .max(BASE64_CHARS, `at most ${IMPORT_LIMITS.maxSourceBytes / MiB} MiB`)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'expected base64')
    .meta({ description: `the file’s bytes, base64 (at most ${IMPORT_LIMITS.maxSourceBytes / MiB} MiB)` }),
  keep_numbers: z.boolean().optional().meta({ description: 'give each plot the number its Chart Studio file says (~user/N) when that number is free' }),
  world_readable: z.boolean().optional().meta({ description: 'make the plots and their grids public (default: private)' }),
});

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/figure-imports', {
  POST: endpoint({
    summary: 'Import the plotly figures of one file as plots',
    description:
      'Each figure of the file (plotly figure JSON, Chart Studio’s JSON downloads with their grids in a zip, plotly’s HTML pages, notebooks’ plotly outputs, a zip of these) becomes a plot on a grid of its data, in a folder named after the file. A figure imported before is skipped; a refused one is listed with the reason and leaves nothing.',
    auth: 'required',
    body: figureImportSchema,
    bodyLimit: BASE64_CHARS + MiB,
    responses: { 200: '{"made": [{label, fid, name, folder, path}], "skipped": [{label, reason, fid, path}], "refused": [{label, reason}]}' },
    handler: async ({ db, viewer, body, origin }) => {
      const batch = await readFigureFiles([{ name: body.filename, bytes: Buffer.from(body.content, 'base64') }]);
      return json(await importFigures(db, viewer, batch, { origin, keepNumbers: body.keep_numbers, worldReadable: body.world_readable }));
    },
  }),
});
