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

test('a card shows its card image (600x440, drawn for the card), and the live chart replaces it only when asked', async ({ page, request, pageErrors }) => {
  const title = `card swap ${Date.now()}`;
  const plot = await createPlot(request, { title });
  const cardUrl = new URL(plot.image_urls['list-thumb'].replace('size=list-thumb', 'size=card'));
  const cardPng = inspectPng(await renderedImage(request, cardUrl.pathname + cardUrl.search));
  expect([cardPng.width, cardPng.height]).toEqual([600, 440]);
  expect(cardPng.variance).toBeGreaterThan(MIN_CHART_VARIANCE);

  const contents: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/content')) contents.push(r.url());
  });
  await page.goto(`/~${E2E_USER.username}/`);
  const card = page.locator(`article.plot-card[data-fid="${plot.fid}"]`);
  const image = card.locator('img.plot-card-image');
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /\.png\?size=card&v=/);
  await expect(image).toHaveAttribute('alt', `Chart: ${title}`);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))).toBe(600);
  await page.waitForTimeout(500);
  expect(contents, 'no figure fetched before the visitor asks').toEqual([]);

  await card.locator('button.plot-card-live').hover();
  await expectChartDrawn(card.locator('.plot-figure'));
  await expect(image).toBeHidden();
  expect(contents).toHaveLength(1);
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
