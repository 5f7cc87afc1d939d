// Presentations made and given on the web: "New presentation" from the workspace, a text slide and a
// plot slide added, reordered by keyboard, a theme chosen, saved as the content Python's
// presentation_ops reads back; the page shows the slides; "Present" fills the screen, the keys and a
// clicker's move the slides, the address follows the slide, a reload keeps it, Escape ends it; axe and
// screenshots of the editor and of present mode at desktop and phone.
import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { basicAuth, createPlot, E2E_USER, expect, expectChartDrawn, signIn, test, unique } from './support';

async function axe(page: Page, testInfo: TestInfo, name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  if (summary.length) await testInfo.attach(`${name} axe violations`, { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
  expect(summary, `axe violations on the ${name}`).toEqual([]);
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function screenshots(page: Page, testInfo: TestInfo, name: string, fullPage: boolean) {
  for (const [width, height, label] of [
    [1280, 800, 'desktop'],
    [390, 844, 'phone'],
  ] as const) {
    await page.setViewportSize({ width, height });
    const file = testInfo.outputPath(`${name}-${label}.png`);
    await page.screenshot({ path: file, fullPage });
    await testInfo.attach(`${name} ${label}`, { path: file, contentType: 'image/png' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A PNG of one red pixel. */
const RED_DOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

test('a presentation made in the editor, then given: present mode by keys, the address following the slide', async ({ page, request }, testInfo) => {
  test.slow();
  const tag = unique();
  const plotTitle = `Deck plot ${tag}`;
  await createPlot(request, { title: plotTitle, visibility: 'private' });
  await signIn(page);
  await page.goto('/~e2e/');
  await page.getByRole('link', { name: 'New presentation', exact: true }).click();
  await expect(page).toHaveURL(/\/create\/presentation$/);
  await expect(page.getByRole('heading', { name: 'New presentation' })).toBeVisible();
  await expect(page.getByText('No slides yet')).toBeVisible();

  await page.getByRole('button', { name: 'Add text slide' }).click();
  // The new slide's title has the focus.
  await expect(page.getByLabel('Title')).toBeFocused();
  await page.keyboard.type(`Welcome ${tag}`);
  await page.getByLabel('Text').fill('First line\nSecond line');
  await page.getByRole('button', { name: 'Add plot slide' }).click();
  const picker = page.locator('#dashboard-plot-picker');
  await picker.getByLabel('Search your plots').fill(plotTitle);
  await picker.getByRole('button', { name: 'Search' }).click();
  await picker.getByRole('button', { name: new RegExp(`^Add ${plotTitle} \\(`) }).click();
  await picker.getByRole('button', { name: 'Done' }).click();
  const slides = page.locator('.deck-editor-slide');
  await expect(slides).toHaveCount(2);
  await expect(slides.nth(1).getByRole('link', { name: plotTitle })).toBeVisible();

  // Reordered by keyboard: the plot slide first; the focus stays on its buttons.
  await slides
    .nth(1)
    .getByRole('button', { name: /^Move up/ })
    .focus();
  await page.keyboard.press('Enter');
  await expect(slides.nth(0).getByRole('link', { name: plotTitle })).toBeVisible();
  await expect(slides.nth(0).getByRole('button', { name: /^Move down/ })).toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'is now slide 1 of 2' })).toHaveCount(1);
  // Undone and redone.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(slides.nth(1).getByRole('link', { name: plotTitle })).toBeVisible();
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(slides.nth(0).getByRole('link', { name: plotTitle })).toBeVisible();

  await page.getByLabel('Theme').selectOption('martik');
  await page.getByLabel('File name').fill(`Deck ${tag}`);
  await axe(page, testInfo, 'deck editor');
  await screenshots(page, testInfo, 'deck-editor', true);

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/~e2e\/\d+\/$/);
  const path = new URL(page.url()).pathname;
  const fid = `e2e:${path.split('/')[2]}`;
  await expect(page.getByRole('heading', { name: `Deck ${tag}`, level: 1 })).toBeVisible();
  const status = page.getByRole('status').filter({ hasText: /^Slide/ });
  await expect(status).toHaveText('Slide 1 of 2');
  await expectChartDrawn(page.locator('.deck-slide:visible .plot-figure'));

  // Saved as the Python client's presentations are: its plot an embed address of this site, the theme in the styles.
  const res = await request.get(`/v2/spectacle-presentations/${fid}`, { headers: { Authorization: basicAuth(E2E_USER) } });
  expect(res.status()).toBe(200);
  const content = JSON.parse((await res.json()).content);
  expect(content.presentation.theme).toBe('martik');
  expect(content.presentation.slides.map((s: { children: { type: string }[] }) => s.children.map((c) => c.type))).toEqual([
    ['Text', 'Plotly'],
    ['Text', 'Text'],
  ]);
  expect(content.presentation.slides[0].children[1].props.src).toMatch(/\/~e2e\/\d+\.embed\?link=false$/);
  expect(content.presentation.slides[1].props.style.backgroundColor).toBe('#F4FAFB');

  // Present: the deck alone, filling the window, the slide as large as it allows.
  await page.getByRole('button', { name: 'Present' }).click();
  const deck = page.locator('.deck');
  await expect(deck).toHaveClass(/deck-presenting/);
  await expect(page).toHaveURL(/\?present#1$/);
  const slide = (await page.locator('.deck-slide:visible .slide').boundingBox())!;
  expect(slide.width).toBeGreaterThan(1000);
  expect(Math.abs(slide.width / slide.height - 10 / 7)).toBeLessThan(0.02);
  expect(slide.y + slide.height).toBeLessThanOrEqual(800 + 1);
  // A clicker's keys, the arrows, Space, Home and End; the address follows.
  for (const [key, to] of [
    ['PageDown', 2],
    ['PageUp', 1],
    [' ', 2],
    ['Home', 1],
    ['ArrowRight', 2],
    ['ArrowLeft', 1],
    ['End', 2],
  ] as const) {
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    await expect(status).toHaveText(`Slide ${to} of 2`);
    await expect(page).toHaveURL(new RegExp(`\\?present#${to}$`));
  }
  await expect(page.locator('.deck-slide:visible h2')).toHaveText(`Welcome ${tag}`);
  await axe(page, testInfo, 'present view');
  await screenshots(page, testInfo, 'present', false);
  await page.keyboard.press('Home');
  await expectChartDrawn(page.locator('.deck-slide:visible .plot-figure'));
  await shoot(page, testInfo, 'present-plot-desktop');
  // A phone opens the link as drawn for a phone (a chart drawn wide is not redrawn compact).
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(deck).toHaveClass(/deck-presenting/);
  await expectChartDrawn(page.locator('.deck-slide:visible .plot-figure'));
  await shoot(page, testInfo, 'present-plot-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('End');

  // A reload (or the link) presents the same slide.
  await page.reload();
  await expect(deck).toHaveClass(/deck-presenting/);
  await expect(status).toHaveText('Slide 2 of 2');
  await page.keyboard.press('Escape');
  await expect(deck).not.toHaveClass(/deck-presenting/);
  await expect(page).toHaveURL(new RegExp(`${path}#2$`));
  await expect(page.getByRole('button', { name: 'Present' })).toBeFocused();

  // Edited again from its page: the slides as saved.
  await page.getByRole('link', { name: 'Edit presentation' }).click();
  await expect(page.getByRole('heading', { name: `Edit presentation: Deck ${tag}` })).toBeVisible();
  await expect(slides.nth(0).getByRole('link', { name: plotTitle })).toBeVisible();
  await expect(slides.nth(1).getByLabel('Title')).toHaveValue(`Welcome ${tag}`);
  await expect(slides.nth(1).getByLabel('Text')).toHaveValue('First line\nSecond line');
  await expect(page.getByLabel('Theme')).toHaveValue('martik');

  // An image from the computer as a third slide: held in the presentation, drawn with its words; a file that is no image is refused, said at the buttons.
  const imageInput = page.locator('input[type="file"][aria-label="Image for a new slide"]');
  await imageInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(page.locator('#deck-image-error')).toHaveText('“notes.txt” is not a PNG, JPEG, GIF or WebP image.');
  await imageInput.setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(RED_DOT, 'base64') });
  await expect(slides).toHaveCount(3);
  await expect(page.locator('#deck-image-error')).toHaveCount(0);
  await slides.nth(2).getByLabel('What the image shows').fill('One red dot');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/~e2e\/\d+\/$/);
  await page.goto(`${path}?present#3`);
  await expect(page.locator('.deck-slide:visible img.slide-image')).toHaveAttribute('alt', 'One red dot');
  await expect(page.locator('.deck-slide:visible img.slide-image')).toHaveAttribute('src', `data:image/png;base64,${RED_DOT}`);
});
