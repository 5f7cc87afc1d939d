// Dashboards and presentations in the browser: the boxes laid out as the Python client's split tree says
// (side by side and stacked; one column on a phone), a plot drawn only for a reader who may read it (a
// private plot of someone else's is a "not shared" box with nothing of it in the HTML), hostile text
// shown as text; a presentation one slide at a time by buttons, keyboard and swipe, images of other
// sites never requested; embeds; the card image; axe and screenshots at desktop and phone sizes.
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page, TestInfo } from '@playwright/test';
import { basicAuth, createPlot, E2E_USER, expect, expectChartDrawn, OTHER_USER, pathOf, signIn, test, type TestUser, unique } from './support';

const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const EXTERNAL_IMAGE = 'https://images.evil.example/tracker.png';

interface DocumentRecord {
  fid: string;
  web_url: string;
  embed_url: string;
  content: string;
}

async function createDocument(
  request: APIRequestContext,
  kind: 'dashboards' | 'spectacle-presentations',
  content: unknown,
  opts: { user?: TestUser; worldReadable?: boolean } = {},
): Promise<DocumentRecord> {
  const res = await request.post(`/v2/${kind}`, {
    headers: { Authorization: basicAuth(opts.user ?? E2E_USER) },
    data: { content: JSON.stringify(content), filename: `e2e ${kind} ${unique()}`, world_readable: opts.worldReadable ?? true },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).file;
}

const fidParts = (fid: string) => fid.split(':') as [string, string];
const box = (fileId: string, title = '', shareKey: string | null = null) => ({ type: 'box', boxType: 'plot', fileId, shareKey, title });
const split = (direction: 'horizontal' | 'vertical', size: number, sizeUnit: '%' | 'px', first: unknown, second: unknown) => ({
  type: 'split',
  direction,
  size,
  sizeUnit,
  first,
  second,
});

/**
 * e2e's public dashboard, as the Python client nests it (a 1500 px top pane over the trailing empty box):
 * its own public plot beside e2eother's plot (public when the dashboard was saved, private since),
 * over a text box of hostile text beside a secret plot shown through its box's share key.
 */
async function mixedDashboard(request: APIRequestContext) {
  const mine = await createPlot(request, { title: `Dashboard public plot ${unique()}` });
  const theirs = await createPlot(request, { user: OTHER_USER, title: `Private title ${unique()}` });
  const secret = await createPlot(request, { title: `Dashboard secret plot ${unique()}`, visibility: 'secret' });
  const secretKey = secret.share_key ?? new URL(secret.share_url ?? secret.web_url).searchParams.get('share_key');
  expect(secretKey, 'the secret plot has a key').toBeTruthy();
  const content = {
    layout: split(
      'vertical',
      1500,
      'px',
      split(
        'vertical',
        50,
        '%',
        split('horizontal', 50, '%', box(mine.fid, 'Our numbers'), box(theirs.fid, '')),
        split('horizontal', 40, '%', { type: 'box', boxType: 'text', title: 'Notes', text: `First line\n${HOSTILE}` }, box(secret.fid, '', secretKey)),
      ),
      { type: 'box', boxType: 'empty' },
    ),
    version: 2,
    settings: {},
  };
  const dashboard = await createDocument(request, 'dashboards', content);
  await makePrivate(request, theirs.fid);
  return { dashboard, mine, theirs, secret };
}

/** e2eother's plot private (after a document of e2e's named it while it was public: saving checks the saver may read it). */
async function makePrivate(request: APIRequestContext, fid: string) {
  const res = await request.patch(`/v2/files/${fid}`, { headers: { Authorization: basicAuth(OTHER_USER) }, data: { world_readable: false } });
  expect(res.ok(), await res.text()).toBe(true);
}

async function presentation(request: APIRequestContext) {
  const plot = await createPlot(request, { title: `Slide plot ${unique()}` });
  const theirs = await createPlot(request, { user: OTHER_USER, title: `Private slide plot ${unique()}` });
  const style = (left: number, top: number, width: number, height: number, extra: Record<string, unknown> = {}) => ({
    left,
    top,
    width,
    height,
    position: 'absolute',
    ...extra,
  });
  const plotSrc = (webUrl: string) => `${webUrl.replace(/\/$/, '')}.embed?link=false`;
  const text = (lines: string[], s: Record<string, unknown>, paragraphStyle = 'Body') => ({
    type: 'Text',
    children: lines,
    props: { paragraphStyle, style: s },
  });
  const content = {
    presentation: {
      version: '0.1.3',
      slides: [
        {
          id: 's1',
          props: { style: { backgroundColor: '#F4FAFB' } },
          children: [
            text(['Quarterly review'], style(50, 30, 900, 80, { fontSize: 55, color: '#0D0A1E', textAlign: 'center' }), 'Heading 1'),
            { type: 'Plotly', props: { src: plotSrc(plot.web_url), style: style(100, 140, 800, 520) } },
          ],
        },
        {
          id: 's2',
          props: { style: { backgroundImage: `url(${EXTERNAL_IMAGE})` } },
          children: [
            { type: 'Image', props: { src: EXTERNAL_IMAGE, style: style(50, 100, 400, 300) } },
            { type: 'Image', props: { src: '/avatars/e2e.svg', style: style(550, 100, 300, 300) } },
            { type: 'Plotly', props: { src: plotSrc(theirs.web_url), style: style(50, 450, 400, 200) } },
          ],
        },
        {
          id: 's3',
          children: [
            text([HOSTILE, 'second line'], style(50, 50, 900, 100, { fontSize: 30, color: 'red; background: url(https://images.evil.example/css.png)' })),
            { type: 'CodePane', props: { source: 'import plotly\nprint("<b>not bold</b>")', language: 'python', style: style(50, 250, 900, 300) } },
          ],
        },
      ],
    },
  };
  const deck = await createDocument(request, 'spectacle-presentations', content);
  await makePrivate(request, theirs.fid);
  return { deck, theirs };
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

async function expectAxeClean(page: Page, testInfo: TestInfo, name: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map((v) => ({ rule: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }));
  if (summary.length) await testInfo.attach(`${name} axe`, { body: JSON.stringify(summary, null, 2), contentType: 'application/json' });
  expect(summary, `axe violations on the ${name}`).toEqual([]);
}

test.describe('dashboard page', () => {
  test('draws readable plots, hides the unreadable one entirely, shows hostile text as text', async ({ page, request }, testInfo) => {
    test.slow();
    const { dashboard, mine, theirs, secret } = await mixedDashboard(request);
    const path = pathOf(dashboard.web_url);
    const [owner, n] = fidParts(theirs.fid);

    // Nothing of the private plot in what the server sends (HTML and the React payload inside it), to anyone but its owner.
    const html = await (await request.get(path)).text();
    expect(html).toContain('This plot is not shared with you');
    expect(html).not.toContain(theirs.title!);
    expect(html).not.toContain(theirs.fid);
    expect(html).not.toContain(`/~${owner}/${n}`);
    expect(html).toContain(mine.title!);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/e2e dashboards/);
    const charts = page.locator('.dash .plot-figure');
    await expect(charts).toHaveCount(2);
    for (const chart of await charts.all()) await expectChartDrawn(chart);
    await expect(page.getByRole('heading', { name: 'Our numbers' })).toBeVisible();
    // The secret plot, through the key its box holds, titled by the plot's own title.
    await expect(page.getByRole('heading', { name: secret.title! })).toBeVisible();
    await expect(page.locator('.doc-not-shared')).toHaveCount(1);
    await expect(page.getByText(HOSTILE)).toBeVisible();
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.content()).not.toContain(theirs.title!);

    // Side by side on a wide screen: the first row's two boxes share a top, the notes sit below them.
    const [a, b, notes] = await Promise.all(
      ['.dash-box-plot >> nth=0', '.dash-box-hidden', '.dash-box-text'].map(async (s) => (await page.locator(s).boundingBox())!),
    );
    expect(Math.abs(a.y - b.y)).toBeLessThan(2);
    expect(b.x).toBeGreaterThan(a.x + a.width - 2);
    expect(notes.y).toBeGreaterThanOrEqual(a.y + a.height);
    expect(a.height).toBeGreaterThan(300);
    await shoot(page, testInfo, 'dashboard-1280');
    await expectAxeClean(page, testInfo, 'dashboard page');
  });

  test('draws the private plot for its owner, who may read it', async ({ page, request }) => {
    const { dashboard, theirs } = await mixedDashboard(request);
    await signIn(page, OTHER_USER);
    await page.goto(pathOf(dashboard.web_url));
    await expect(page.getByRole('heading', { name: theirs.title! })).toBeVisible();
    await expect(page.locator('.doc-not-shared')).toHaveCount(0);
    await expect(page.locator('.dash .plot-figure')).toHaveCount(3);
  });

  test('stacks the boxes in reading order on a phone', async ({ page, request }, testInfo) => {
    const { dashboard } = await mixedDashboard(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pathOf(dashboard.web_url));
    const boxes = page.locator('.dash-box:visible');
    await expect(boxes).toHaveCount(4);
    const rects = await boxes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as DOMRect));
    for (let i = 1; i < rects.length; i++) {
      expect(rects[i].y, `box ${i} below box ${i - 1}`).toBeGreaterThanOrEqual(rects[i - 1].y + rects[i - 1].height - 1);
      expect(Math.abs(rects[i].x - rects[0].x)).toBeLessThan(2);
    }
    expect(rects[0].height, 'a plot box tall enough to read').toBeGreaterThanOrEqual(300);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    for (const chart of await page.locator('.dash .plot-figure').all()) {
      await chart.scrollIntoViewIfNeeded();
      await expectChartDrawn(chart);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, testInfo, 'dashboard-390');
  });

  test('draws charts only as they come near the viewport', async ({ page, request }) => {
    const plots = await Promise.all(Array.from({ length: 6 }, () => createPlot(request)));
    let layout: unknown = box(plots[5].fid);
    for (let i = 4; i >= 0; i--) layout = split('vertical', 700, 'px', box(plots[i].fid), layout);
    const dashboard = await createDocument(request, 'dashboards', { layout, version: 2, settings: {} });
    const contents: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/content')) contents.push(r.url());
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pathOf(dashboard.web_url));
    await expectChartDrawn(page.locator('.dash .plot-figure').first());
    expect(contents.length, 'only the charts in view asked for their data').toBeLessThan(6);
    await page.locator('.dash-box-plot').last().scrollIntoViewIfNeeded();
    await expectChartDrawn(page.locator('.dash .plot-figure').last());
  });

  test('is 404 to others when private; its embed and card image follow the same rules', async ({ page, request }) => {
    const plot = await createPlot(request, { title: `Card plot ${unique()}` });
    const hiddenPlot = await createPlot(request, { visibility: 'private' });
    const open = await createDocument(request, 'dashboards', { layout: box(plot.fid), version: 2, settings: {} });
    const closed = await createDocument(request, 'dashboards', { layout: box(hiddenPlot.fid, 'x'), version: 2, settings: {} }, { worldReadable: false });
    expect((await request.get(pathOf(closed.web_url))).status()).toBe(404);
    expect((await request.get(`${pathOf(closed.web_url).replace(/\/$/, '')}.png?size=card`)).status()).toBe(404);

    // The card of a dashboard with a public plot is that plot's card.
    const card = await request.get(`${pathOf(open.web_url).replace(/\/$/, '')}.png?size=card`, { maxRedirects: 0 });
    expect(card.status()).toBe(302);
    expect(card.headers().location).toBe(`/~${fidParts(plot.fid).join('/')}.png?size=card`);
    // Its owner's private dashboard of a private plot: a picture of its boxes, never the plot's image.
    const own = await request.get(`${pathOf(closed.web_url).replace(/\/$/, '')}.png?size=card`, {
      headers: { Authorization: basicAuth(E2E_USER) },
      maxRedirects: 0,
    });
    expect(own.status()).toBe(200);
    expect(own.headers()['content-type']).toBe('image/png');

    for (const embed of [open.embed_url, `${pathOf(open.web_url)}embed`]) {
      const res = await page.goto(pathOf(new URL(embed, 'http://x').href));
      expect(res?.status()).toBe(200);
      expect(res?.headers()['x-frame-options']).toBeUndefined();
      await expectChartDrawn(page.locator('.dash .plot-figure'));
    }
  });
});

test.describe('presentation page', () => {
  test('one slide at a time, by buttons, keyboard, swipe and address; nothing from other sites', async ({ page, request }, testInfo) => {
    test.slow();
    const { deck, theirs } = await presentation(request);
    const external: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('evil.example')) external.push(r.url());
    });
    const html = await (await request.get(pathOf(deck.web_url))).text();
    expect(html).not.toContain(theirs.title!);
    expect(html).not.toContain(theirs.fid);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(pathOf(deck.web_url));
    const status = page.getByRole('status').filter({ hasText: /^Slide/ });
    await expect(status).toHaveText('Slide 1 of 3');
    await expect(page.getByRole('heading', { name: 'Quarterly review' })).toBeVisible();
    await expectChartDrawn(page.locator('.deck-slide:visible .plot-figure'));
    await expect(page.getByRole('button', { name: 'Previous slide' })).toBeDisabled();
    await shoot(page, testInfo, 'presentation-1280');
    await expectAxeClean(page, testInfo, 'presentation page');

    // The slide keeps its 1000 x 700 proportions and fits the window.
    const slide = (await page.locator('.deck-slide:visible .slide').boundingBox())!;
    expect(Math.abs(slide.width / slide.height - 10 / 7)).toBeLessThan(0.02);
    expect(slide.y + slide.height).toBeLessThanOrEqual(800 + 1);

    await page.keyboard.press('ArrowRight');
    await expect(status).toHaveText('Slide 2 of 3');
    expect(new URL(page.url()).hash).toBe('#2');
    await expect(page.getByText(EXTERNAL_IMAGE).first()).toBeVisible();
    await expect(page.locator('.deck-slide:visible img.slide-image')).toHaveAttribute('src', '/avatars/e2e.svg');
    await expect(page.locator('.deck-slide:visible .doc-not-shared')).toHaveCount(1);
    await page.keyboard.press('End');
    await expect(status).toHaveText('Slide 3 of 3');
    await expect(page.getByText(HOSTILE)).toBeVisible();
    await expect(page.locator('.deck-slide:visible pre code')).toContainText('print("<b>not bold</b>")');
    // The colour that tried to add a background is dropped, not applied.
    expect(await page.locator('.deck-slide:visible .slide-text').evaluate((e) => getComputedStyle(e).backgroundImage)).toBe('none');
    await expect(page.getByRole('button', { name: 'Next slide' })).toBeDisabled();
    await page.keyboard.press('Home');
    await expect(status).toHaveText('Slide 1 of 3');
    await page.keyboard.press('PageDown');
    await expect(status).toHaveText('Slide 2 of 3');
    await page.keyboard.press('PageUp');
    await expect(status).toHaveText('Slide 1 of 3');
    await page.getByRole('button', { name: 'Next slide' }).click();
    await expect(status).toHaveText('Slide 2 of 3');
    await page.getByRole('button', { name: 'Previous slide' }).click();
    await expect(status).toHaveText('Slide 1 of 3');

    // A swipe to the left goes on, to the right goes back (touch pointers).
    const stage = page.locator('.deck-stage');
    const swipe = async (from: number, to: number) => {
      const b = (await stage.boundingBox())!;
      const y = b.y + b.height / 2;
      await stage.dispatchEvent('pointerdown', { clientX: b.x + from * b.width, clientY: y, pointerType: 'touch', isPrimary: true });
      await stage.dispatchEvent('pointerup', { clientX: b.x + to * b.width, clientY: y + 5, pointerType: 'touch', isPrimary: true });
    };
    await swipe(0.8, 0.2);
    await expect(status).toHaveText('Slide 2 of 3');
    await swipe(0.2, 0.8);
    await expect(status).toHaveText('Slide 1 of 3');

    // The address keeps the slide.
    await page.goto(`${pathOf(deck.web_url)}#3`);
    await expect(status).toHaveText('Slide 3 of 3');
    await page.goto(`${pathOf(deck.web_url)}#2`);
    await expect(status).toHaveText('Slide 2 of 3');
    expect(external, 'nothing requested from other sites').toEqual([]);
  });

  test('fits a phone', async ({ page, request }, testInfo) => {
    const { deck } = await presentation(request);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(pathOf(deck.web_url));
    await expectChartDrawn(page.locator('.deck-slide:visible .plot-figure'));
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const slide = (await page.locator('.deck-slide:visible .slide').boundingBox())!;
    expect(slide.width).toBeGreaterThan(340);
    await shoot(page, testInfo, 'presentation-390');
    await expectAxeClean(page, testInfo, 'presentation page on a phone');
  });

  test('its embed shows the slides', async ({ page, request }) => {
    const { deck } = await presentation(request);
    const res = await page.goto(pathOf(deck.embed_url));
    expect(res?.headers()['x-frame-options']).toBeUndefined();
    await expect(page.getByRole('status').filter({ hasText: /^Slide/ })).toHaveText('Slide 1 of 3');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('status').filter({ hasText: /^Slide/ })).toHaveText('Slide 2 of 3');
  });
});
