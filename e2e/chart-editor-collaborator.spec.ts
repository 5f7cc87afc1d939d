// "Can edit" lets them edit (issue 37 point 5): a collaborator with write on a chart whose grid its
// owner keeps private sees that data in the editor as the plot shows it to them (the one reader rule),
// its columns by name and never a fid, and their save keeps the srcs they did not touch. A streamed
// trace's token is the owner's alone: the collaborator's editor never has it, and their save keeps it.
import { basicAuth, createGrid, E2E_USER, expect, expectChartDrawn, OTHER_USER, plotPath, signIn, test, trashPlot, unique } from './support';

const auth = { Authorization: basicAuth(E2E_USER) };

test("a collaborator's editor draws and names the owner's private columns the chart shows them, and keeps them", async ({ page, request }) => {
  // Any token text is the owner's secret in their figure (held or not: lib/shared/streams.ts).
  const token = `e2etoken${unique().replace(/\W/g, '')}`;
  const streamed = { type: 'scatter', name: 'live', stream: { token, maxpoints: 10 } };
  const grid = await createGrid(
    request,
    { month: ['Jan', 'Feb', 'Mar'], visitors: [120, 340, 290] },
    { worldReadable: false, filename: `kept data ${unique()}` },
  );
  const made = await request.post('/v2/plots', {
    headers: auth,
    data: {
      world_readable: false,
      filename: `shared chart ${unique()}`,
      figure: { data: [{ type: 'bar', xsrc: grid.src('month'), ysrc: grid.src('visitors') }, streamed], layout: { title: { text: 'Visitors' } } },
    },
  });
  expect(made.ok(), await made.text()).toBe(true);
  const { fid } = (await made.json()).file as { fid: string };
  const shared = await request.post(`/v2/files/${fid}/collaborators`, { headers: auth, data: { username: OTHER_USER.username, permission: 'write' } });
  expect(shared.status()).toBe(201);

  await signIn(page, OTHER_USER);
  const editor = await page.goto(`${plotPath(fid)}edit`);
  expect(await editor!.text()).not.toContain(token);
  const preview = page.getByRole('figure', { name: 'Chart preview' });
  await expectChartDrawn(preview);
  // The three bars are drawn from the owner's data, which the chart shows its readers.
  await expect(preview.locator('.bars .point')).toHaveCount(3);
  await expect(page.getByLabel('Y', { exact: true }).locator('option:checked')).toHaveText("visitors (this chart's data)");
  expect(await page.locator('main').innerText()).not.toContain(grid.fid);

  await page.getByLabel('Chart title', { exact: true }).fill('Visitors by month');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.waitForURL(/\/~e2e\/\d+\/(\?notice=followed)?$/);
  const after = (await (await request.get(`/v2/plots/${fid}`, { headers: auth })).json()) as { title: string; figure: { data: Record<string, unknown>[] } };
  expect(after.title).toBe('Visitors by month');
  expect(after.figure.data).toEqual([{ type: 'bar', xsrc: grid.src('month'), ysrc: grid.src('visitors') }, streamed]);
  await trashPlot(request, fid);
});
