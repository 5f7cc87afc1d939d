// The URLs Postgres builds for plot records (urlSql) and those TypeScript builds (the rest of the app)
// are the same text, over one table of usernames of every character kind a username allows, and in
// a real record read back through the API's detail.
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Db } from '@/db/client';
import { createPlot, getPlot } from '@/lib/core/plots/plots';
import { USERNAME } from '@/lib/core/records';
import { apiFilePath, contentPath, filePath, fileUrls, imagePath, parentApiPath, profilePath, userUrls, withShareKey, type FileForm } from '@/lib/shared/urls';
import { urlSql } from '@/lib/core/url-sql';
import { freshDatabase } from '../support/postgres';
import { newViewer, ORIGIN } from './_helpers';

const OWNERS = ['alice', 'Bob.Smith', 'x_1-2', '9lives', 'Z'.repeat(50)];
const KEYS = ['AbC-_09xyz', 'k'.repeat(22)];

describe('urls in SQL and in TypeScript', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let db: Db;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    db = database.db;
  });
  afterAll(async () => {
    await database?.dispose();
  });

  const text = async (expr: SQL) => (await queryRows<{ u: string }>(db, sql`SELECT ${expr} AS u`))[0].u;

  it.each(OWNERS)('%s: every builder gives the same URL', async (owner) => {
    expect(USERNAME.test(owner)).toBe(true);
    const [o, u] = [sql`${ORIGIN}::text`, sql`${owner}::text`];
    const n = 42;
    const num = sql`${n}::int`;
    for (const form of ['page', 'embed', 'png', 'json', 'csv'] as FileForm[])
      expect(await text(urlSql.file(o, u, num, form))).toBe(ORIGIN + filePath(owner, n, form));
    for (const size of [undefined, 'block-thumb', 'list-thumb'] as const)
      expect(await text(urlSql.image(o, u, num, size))).toBe(ORIGIN + imagePath(owner, n, size));
    expect(await text(urlSql.profile(o, u))).toBe(ORIGIN + profilePath(owner));
    const user = userUrls(ORIGIN, owner);
    expect(await text(urlSql.avatar(o, u))).toBe(user.avatar_url);
    expect(await text(urlSql.background(o))).toBe(user.background_url);
    for (const collection of ['files', 'plots', 'grids', 'folders'] as const)
      expect(await text(urlSql.apiFile(o, collection, u, num))).toBe(ORIGIN + apiFilePath(collection, owner, n));
    for (const parent of [-1, 3]) expect(await text(urlSql.parentApi(o, u, sql`${parent}::int`))).toBe(ORIGIN + parentApiPath(owner, parent));
    expect(await text(urlSql.content(o, u, num))).toBe(ORIGIN + contentPath(owner, n));
    for (const key of KEYS)
      expect(await text(urlSql.withShareKey(urlSql.file(o, u, num), sql`${key}::text`))).toBe(withShareKey(ORIGIN + filePath(owner, n), key));
  });

  it("a plot's record (built by Postgres) carries the URLs TypeScript builds", async () => {
    const owner = await newViewer(db, 'Url.Owner_1-x');
    const created = JSON.parse(await createPlot(db, owner, { figure: { data: [] }, world_readable: false, share_key_enabled: true }, ORIGIN)) as {
      file: { fid: string };
    };
    const n = Number(created.file.fid.split(':')[1]);
    const rec = JSON.parse(await getPlot(db, owner, { owner: owner.username, n }, ORIGIN)) as Record<string, unknown> & {
      share_key: string;
      user: Record<string, unknown>;
    };
    expect(rec.share_key).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const urls = fileUrls(ORIGIN, owner.username, n);
    expect(rec).toMatchObject({
      ...urls,
      img_url: urls.image_urls['list-thumb'],
      share_url: withShareKey(urls.web_url, rec.share_key),
      content_url: ORIGIN + contentPath(owner.username, n),
      api_urls: {
        files: ORIGIN + apiFilePath('files', owner.username, n),
        plots: ORIGIN + apiFilePath('plots', owner.username, n),
        parent: ORIGIN + parentApiPath(owner.username, -1),
      },
      organize_view_url: ORIGIN + profilePath(owner.username),
    });
    expect(rec.user).toMatchObject(userUrls(ORIGIN, owner.username));
  });
});
