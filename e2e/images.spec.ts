// Rendered plot images in the browser: cards show the list thumbnail at once and swap to the live
// chart once it is drawn; the plot page's Open Graph image is the rendered default image.
import { inspectPng, MIN_CHART_VARIANCE } from '../tests/support/png';
import { createPlot, E2E_USER, expect, expectChartDrawn, test } from './support';
import type { APIRequestContext } from '@playwright/test';

/** Waits until the app's worker has rendered the image at `url` (until then it is a placeholder). */
async function renderedImage(request: APIRequestContext, url: string): Promise<Buffer> {
  let body: Buffer | null = null;
  await expect
    .poll(
      async () => {
        const res = await request.get(url);
        if (res.headers()['x-image-state'] !== 'rendered') return res.headers()['x-image-state'];
        body = await res.body();
        return 'rendered';
      },
      { timeout: 60_000, message: `${url} rendered` },
    )
    .toBe('rendered');
  return body!;
}

test('a card shows the rendered list thumbnail at once, then the live chart replaces it', async ({ page, request, pageErrors }) => {
  const plot = await createPlot(request, { title: `thumb swap ${Date.now()}` });
  const thumbUrl = new URL(plot.image_urls['list-thumb']);
  const thumbPng = inspectPng(await renderedImage(request, thumbUrl.pathname + thumbUrl.search));
  expect([thumbPng.width, thumbPng.height]).toEqual([200, 150]);
  expect(thumbPng.variance).toBeGreaterThan(MIN_CHART_VARIANCE);

  // Hold the figure back, so the card has only its thumbnail for a while.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/v2/plots/*/content*', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/~${E2E_USER.username}/`);
  const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
  const thumb = card.locator('.plot-card-thumb img');
  await expect(thumb).toBeVisible();
  await expect(thumb).toHaveAttribute('src', /\.png\?size=list-thumb&v=/);
  await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(200);

  release();
  await expectChartDrawn(card.locator('.plot-figure'));
  await expect(thumb).toBeHidden();
  expect(pageErrors).toEqual([]);
});

test("the plot page's Open Graph image is the plot's rendered default image", async ({ page, request }) => {
  const plot = await createPlot(request, { title: `og image ${Date.now()}` });
  await renderedImage(request, new URL(plot.image_urls.default).pathname);
  await page.goto(new URL(plot.web_url).pathname);
  const og = await page.locator('meta[property="og:image"]').getAttribute('content');
  expect(og).toMatch(new RegExp(`/~${E2E_USER.username}/\\d+\\.png\\?v=`));
  const res = await request.get(new URL(og!).pathname + new URL(og!).search);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('image/png');
  expect(res.headers()['cache-control']).toContain('immutable');
  const png = inspectPng(await res.body());
  expect([png.width, png.height]).toEqual([700, 500]);
  expect(png.variance).toBeGreaterThan(MIN_CHART_VARIANCE);
});
