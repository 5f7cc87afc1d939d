// After `next build`: a brotli (quality 11) and a gzip (level 9) copy beside each compressible build
// asset (.next/static), which scripts/serve.mjs sends as they are. Compressing plotly.js on every
// request cost a loaded server seconds of CPU per page view; now it is a file read.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const ROOT = path.join(process.cwd(), '.next', 'static');
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.txt', '.map']);
// Below this, compression saves less than a packet.
const MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.has(path.extname(entry.name)) && (await stat(full)).size >= MIN_BYTES) yield full;
  }
}

let count = 0;
let before = 0;
let after = 0;
for await (const file of files(ROOT)) {
  const data = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
    gzip(data, { level: 9 }),
  ]);
  await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
  count += 1;
  before += data.length;
  after += br.length;
}
console.log(`precompressed ${count} build assets: ${(before / 1e6).toFixed(1)} MB -> ${(after / 1e6).toFixed(1)} MB brotli`);
