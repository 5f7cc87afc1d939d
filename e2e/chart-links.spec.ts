// Nothing a chart offers leaves the site: plotly.js puts a "Share chart..." button in every modebar
// that uploads the figure with its data to Plotly's cloud, and its logo links there. Every chart the
// app draws (plot pages of every visibility, embeds, cards) is checked for any modebar button of that
// kind and any link to another origin, with every modebar button's title read as a person would.
import type { Locator } from '@playwright/test';
import { createPlot, embedPath, expect, expectChartDrawn, plotPath, signIn, test } from './support';

/** The modebar's buttons (titles) and every link inside the chart, once the pointer is over it. */
async function chartOffers(figure: Locator): Promise<{ buttons: string[]; links: string[] }> {
  await expectChartDrawn(figure);
  await figure.hover();
  await expect(figure.locator('.modebar')).toHaveCount(1);
  const buttons = await figure
    .locator('.modebar-btn')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-title') ?? e.getAttribute('title') ?? e.textContent ?? ''));
  const links = await figure.locator('a[href]').evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).href));
  return { buttons, links };
}

function expectNothingLeaves(offers: { buttons: string[]; links: string[] }, origin: string): void {
  // The modebar is really there (so the test can fail): plotly's own download button is one of them.
  expect(
    offers.buttons.some((t) => /download/i.test(t)),
    `modebar buttons: ${offers.buttons.join(', ')}`,
  ).toBe(true);
  expect(offers.buttons.filter((t) => /share|cloud|chart studio|plotly/i.test(t))).toEqual([]);
  expect(offers.links.filter((href) => new URL(href).origin !== origin)).toEqual([]);
}

test('no chart offers a button or link that sends it off the site: public page, embed, private and secret pages', async ({ page, request }) => {
  const shared = await createPlot(request);
  await page.goto(plotPath(shared.fid));
  const here = new URL(page.url()).origin;
  expectNothingLeaves(await chartOffers(page.locator('section.plot-chart .plot-figure')), here);
  await expect(page.locator('.modebar-btn[data-title="Share chart..."], a.plotlyjsicon')).toHaveCount(0);

  await page.goto(embedPath(shared.fid));
  expectNothingLeaves(await chartOffers(page.locator('.plot-figure').first()), here);

  await signIn(page);
  for (const visibility of ['private', 'secret'] as const) {
    const plot = await createPlot(request, { visibility });
    await page.goto(plotPath(plot.fid));
    expectNothingLeaves(await chartOffers(page.locator('section.plot-chart .plot-figure')), here);
  }
});
