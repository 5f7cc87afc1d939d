// A .zip's files, read with fflate's streaming inflate and bounded as they unpack: entries, bytes per
// entry and in all, and the ratio to the zip's own size; a zip bomb stops at its first bound with the reason.
// The zip goes in by slices with a turn of the event loop between them, so unpacking 100 MiB never
// holds up the process's other requests.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Unzip, UnzipInflate } from 'fflate';
import { IMPORT_LIMITS } from '@/lib/shared/figure-import-limits';

export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/** Why a zip was not read (its name for the person: a sentence). */
export class ZipRefusal extends Error {}

const MiB = 1024 * 1024;
/** Compressed bytes pushed at a time (at most 100 times as many unpacked before a bound stops it). */
const SLICE = 64 * 1024;

/** Every file entry of `zip` (directories and macOS's `__MACOSX/` copies left out), or throws ZipRefusal. */
export async function zipEntries(zip: Uint8Array): Promise<ZipEntry[]> {
  const { maxZipEntries, maxSourceBytes, maxZipBytes, maxZipRatio } = IMPORT_LIMITS;
  const out: ZipEntry[] = [];
  let total = 0;
  let count = 0;
  let refusal: string | null = null;
  const unzip = new Unzip((file) => {
    if (refusal) return;
    if (file.name.endsWith('/') || file.name.startsWith('__MACOSX/')) return;
    if (++count > maxZipEntries) {
      refusal = `it holds more than ${maxZipEntries} files`;
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    file.ondata = (error, data, final) => {
      if (refusal) return;
      if (error) {
        refusal = `its entry '${file.name}' cannot be unpacked (${error.message})`;
        return;
      }
      size += data.length;
      total += data.length;
      // Checked as the bytes come, before a bomb's gigabytes exist.
      if (total > MiB && total > maxZipRatio * zip.length) refusal = `it unpacks to over ${maxZipRatio} times its size (a zip bomb?)`;
      else if (size > maxSourceBytes) refusal = `its entry '${file.name}' unpacks to more than ${maxSourceBytes / MiB} MiB`;
      else if (total > maxZipBytes) refusal = `it unpacks to more than ${maxZipBytes / MiB} MiB`;
      if (refusal) {
        file.terminate();
        return;
      }
      chunks.push(data);
      if (final) out.push({ name: file.name, bytes: joined(chunks, size) });
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.length && !refusal; at += SLICE) {
      unzip.push(zip.subarray(at, at + SLICE), at + SLICE >= zip.length);
      await nextTurn();
    }
    if (!zip.length) unzip.push(zip, true);
  } catch (error) {
    if (!refusal) refusal = `it is not a readable zip (${(error as Error).message})`;
  }
  if (refusal) throw new ZipRefusal(refusal);
  return out;
}

function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
