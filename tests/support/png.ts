// Decodes a PNG and measures it: size, and how much its pixels vary (a blank image varies by ~0).
import { PNG } from 'pngjs';

export interface PngInfo {
  width: number;
  height: number;
  /** Variance of the pixels' luminance (0..255 scale, squared). */
  variance: number;
}

export function inspectPng(bytes: Uint8Array): PngInfo {
  const png = PNG.sync.read(Buffer.from(bytes));
  let sum = 0;
  let sumSq = 0;
  const n = png.width * png.height;
  for (let i = 0; i < png.data.length; i += 4) {
    // Transparent pixels count as white, as a page shows them.
    const a = png.data[i + 3] / 255;
    const l = (0.2126 * png.data[i] + 0.7152 * png.data[i + 1] + 0.0722 * png.data[i + 2]) * a + 255 * (1 - a);
    sum += l;
    sumSq += l * l;
  }
  const mean = sum / n;
  return { width: png.width, height: png.height, variance: sumSq / n - mean * mean };
}

/** A chart, not a blank: a one-colour image gives 0; a sparse 3D scene on white about 100. */
export const MIN_CHART_VARIANCE = 20;
