// A neutral picture of a dashboard's or a slide's boxes, for its card and thumbnails when none of its
// plots is public: the boxes' places and kinds only (a chart glyph, text lines), never a title, a
// value or an address. A PNG drawn and encoded here, cheap enough to answer each request.
import { deflateSync } from 'node:zlib';

export interface ImageBox {
  x: number;
  y: number;
  width: number;
  height: number;
  /** `plot` (bars), `text` (lines), `image` (a frame); anything else, an empty panel. */
  kind: string;
}

type Rgb = readonly [number, number, number];
const BACKGROUND: Rgb = [243, 244, 246];
const PANEL: Rgb = [255, 255, 255];
const INK: Rgb = [148, 163, 184];
const ACCENT: Rgb = [99, 132, 201];

/** A `width` x `height` PNG of the boxes (in the image's pixels). */
export function layoutPng(boxes: ImageBox[], width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  const fill = (x0: number, y0: number, w: number, h: number, [r, g, b]: Rgb) => {
    const x1 = Math.min(width, Math.round(x0 + w));
    const y1 = Math.min(height, Math.round(y0 + h));
    for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
      for (let x = Math.max(0, Math.round(x0)); x < x1; x++) {
        const i = (y * width + x) * 3;
        pixels[i] = r;
        pixels[i + 1] = g;
        pixels[i + 2] = b;
      }
    }
  };
  fill(0, 0, width, height, BACKGROUND);
  const gap = Math.max(2, Math.round(Math.min(width, height) / 60));
  for (const box of boxes) {
    const x = box.x + gap;
    const y = box.y + gap;
    const w = box.width - 2 * gap;
    const h = box.height - 2 * gap;
    if (w < 4 || h < 4 || box.kind === 'empty') continue;
    fill(x, y, w, h, PANEL);
    const pad = Math.max(2, Math.min(w, h) / 8);
    if (box.kind === 'plot') {
      const bars = [0.45, 0.75, 0.55, 0.9, 0.65];
      const slot = (w - 2 * pad) / bars.length;
      bars.forEach((share, i) => {
        const barHeight = (h - 2 * pad) * share;
        fill(x + pad + i * slot + slot * 0.15, y + h - pad - barHeight, slot * 0.7, barHeight, ACCENT);
      });
    } else if (box.kind === 'text') {
      const line = Math.max(2, Math.min(h / 10, 8));
      for (let k = 0, top = y + pad; k < 4 && top + line <= y + h - pad; k++, top += line * 2.2)
        fill(x + pad, top, (w - 2 * pad) * (k === 3 ? 0.6 : 1), line, INK);
    } else if (box.kind === 'image') {
      fill(x + pad, y + pad, w - 2 * pad, h - 2 * pad, INK);
    }
  }
  return encodePng(pixels, width, height);
}

/** RGB pixels, row by row, as a PNG (no filtering: flat shapes deflate small anyway). */
function encodePng(pixels: Buffer, width: number, height: number): Buffer {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) pixels.copy(rows, y * (width * 3 + 1) + 1, y * width * 3, (y + 1) * width * 3);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

let table: Uint32Array | undefined;
function crc32(bytes: Uint8Array): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const b of bytes) crc = table[(crc ^ b) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
