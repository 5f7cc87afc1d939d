// The neutral card picture of a dashboard: a valid PNG of the requested size whose pixels show the
// boxes (their kinds' colours where they are), decoded back with pngjs.
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { layoutPng } from '@/lib/core/documents/layout-image';

const pixel = (png: PNG, x: number, y: number) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3)];

describe('layoutPng', () => {
  it('draws panels where the boxes are, the background elsewhere', () => {
    const png = PNG.sync.read(
      layoutPng(
        [
          { x: 0, y: 0, width: 300, height: 440, kind: 'plot' },
          { x: 300, y: 0, width: 300, height: 440, kind: 'text' },
        ],
        600,
        440,
      ),
    );
    expect([png.width, png.height]).toEqual([600, 440]);
    expect(pixel(png, 0, 0)).toEqual([243, 244, 246]);
    // Inside each panel, near its top left (white), and a bar of the chart glyph near the plot's bottom.
    expect(pixel(png, 12, 12)).toEqual([255, 255, 255]);
    expect(pixel(png, 312, 12)).toEqual([255, 255, 255]);
    expect(pixel(png, 150, 380)).toEqual([99, 132, 201]);
  });

  it('draws an empty layout as the background only', () => {
    const png = PNG.sync.read(layoutPng([{ x: 0, y: 0, width: 200, height: 150, kind: 'empty' }], 200, 150));
    for (const [x, y] of [
      [0, 0],
      [100, 75],
      [199, 149],
    ])
      expect(pixel(png, x, y)).toEqual([243, 244, 246]);
  });
});
