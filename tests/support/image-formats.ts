// What an exported image really is: rasters and SVG decoded by Chromium (as a browser would show
// them), PDF and EMF read from their own structures.
import { inflateSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { chromiumPath } from '@/lib/render/chromium';

let browser: Promise<Browser> | undefined;
let page: Promise<Page> | undefined;

/** Decodes an image in Chromium: its natural size (throws when it does not decode as `type`). */
export async function decodeImage(bytes: Uint8Array, type: string): Promise<{ width: number; height: number }> {
  browser ??= chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu'] });
  page ??= browser.then((b) => b.newPage());
  const p = await page;
  return p.evaluate(
    async ([b64, mime]) => {
      const img = new Image();
      img.src = `data:${mime};base64,${b64}`;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    },
    [Buffer.from(bytes).toString('base64'), type] as const,
  );
}

export async function closeDecoder(): Promise<void> {
  const b = browser;
  browser = page = undefined;
  await (await b)?.close();
}

/** The signature each format starts with. */
export const MAGIC: Record<string, (b: Buffer) => boolean> = {
  png: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpeg: (b) => b[0] === 0xff && b[1] === 0xd8 && b[b.length - 2] === 0xff && b[b.length - 1] === 0xd9,
  webp: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  svg: (b) => /^<svg[\s>]/.test(b.toString('utf8')) && b.toString('utf8').trimEnd().endsWith('</svg>'),
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(-8).toString('latin1').includes('%%EOF'),
  emf: (b) => b.readUInt32LE(0) === 1 && b.subarray(40, 44).toString('latin1') === ' EMF',
};

export interface PdfInfo {
  pages: number;
  /** The first page's MediaBox width and height, in points. */
  mediaBox: [number, number];
  /** Image XObjects (a vector PDF of a plain chart has none). */
  images: number;
  /** Path operators (moveto/lineto/rectangle + fill or stroke) in the page content. */
  paths: boolean;
  /** Text shown with a font whose ToUnicode map makes it extractable. */
  text: boolean;
}

/** Reads a PDF's page tree, images and content streams (inflating the compressed ones). */
export function pdfInfo(bytes: Uint8Array): PdfInfo {
  const buf = Buffer.from(bytes);
  const text = buf.toString('latin1');
  const content: string[] = [];
  const streams = /stream\r?\n/g;
  for (let m = streams.exec(text); m; m = streams.exec(text)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endstream', start);
    const dict = text.slice(text.lastIndexOf('obj', m.index), m.index);
    const raw = buf.subarray(start, end);
    if (/\/FlateDecode/.test(dict)) {
      try {
        content.push(inflateSync(raw).toString('latin1'));
      } catch {
        // font programs and the like
      }
    } else content.push(raw.toString('latin1'));
  }
  const ops = content.join('\n');
  const box = /\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(text);
  return {
    pages: (text.match(/\/Type\s*\/Page(?![s\w])/g) ?? []).length,
    mediaBox: box ? [Number(box[3]) - Number(box[1]), Number(box[4]) - Number(box[2])] : [0, 0],
    images: (text.match(/\/Subtype\s*\/Image\b/g) ?? []).length,
    paths: /\s(re|l|c)\n/.test(ops) && /\n[fSB]\*?\n/.test(ops),
    text: /(Tj|TJ)\n/.test(ops) && /\/ToUnicode/.test(text),
  };
}

/** An EMF's header: its frame (the picture's size) in millimetres and its declared length. */
export function emfInfo(bytes: Uint8Array): { frameMm: [number, number]; declaredBytes: number; endsWithEof: boolean } {
  const b = Buffer.from(bytes);
  const [left, top, right, bottom] = [24, 28, 32, 36].map((o) => b.readInt32LE(o));
  // The last record is EMR_EOF (type 14, 20 bytes).
  const endsWithEof = b.length >= 20 && b.readUInt32LE(b.length - 20) === 14;
  return { frameMm: [(right - left) / 100, (bottom - top) / 100], declaredBytes: b.readUInt32LE(48), endsWithEof };
}

/** Pixels at the CSS (and Inkscape) 96 per inch, in millimetres / points. */
export const pxToMm = (px: number) => (px / 96) * 25.4;
export const pxToPt = (px: number) => px * 0.75;
