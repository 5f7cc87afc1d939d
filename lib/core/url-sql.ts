// The app's URLs as SQL text expressions, for the records Postgres builds. Postgres cannot encode:
// these concatenate, which gives the same text as lib/shared/urls.ts since a username (records.ts
// USERNAME) and a share key hold only characters a URL keeps as they are (tests/lib/urls.test.ts
// holds the two to the same URLs).
import { sql, type SQL } from 'drizzle-orm';
import { type ApiCollection, BACKGROUND_PATH, type FileForm, type ThumbSize } from '@/lib/shared/urls';

/** `/~owner/n` and a constant tail, as one literal (these records are the lists' hot path). */
const fileSql = (origin: SQL, owner: SQL, n: SQL, tail: string) => sql`${origin} || '/~' || ${owner} || '/' || ${n} || ${sql.raw(`'${tail}'`)}`;

/**
 * The same URLs as SQL text expressions, over the origin, a username and a file number (expressions
 * or placeholders), for the records Postgres builds.
 */
export const urlSql = {
  profile: (origin: SQL, owner: SQL) => sql`${origin} || '/~' || ${owner} || '/'`,
  file: (origin: SQL, owner: SQL, n: SQL, form: FileForm = 'page') => fileSql(origin, owner, n, form === 'page' ? '/' : `.${form}`),
  image: (origin: SQL, owner: SQL, n: SQL, size?: ThumbSize) => fileSql(origin, owner, n, `.png${size ? `?size=${size}` : ''}`),
  avatar: (origin: SQL, owner: SQL) => sql`${origin} || '/avatars/' || ${owner} || '.svg'`,
  background: (origin: SQL) => sql`${origin} || ${sql.raw(`'${BACKGROUND_PATH}'`)}`,
  apiFile: (origin: SQL, collection: ApiCollection, owner: SQL, n: SQL) => sql`${origin} || ${sql.raw(`'/v2/${collection}/'`)} || ${owner} || ':' || ${n}`,
  parentApi: (origin: SQL, owner: SQL, parent: SQL) =>
    sql`CASE WHEN ${parent} = -1 THEN ${origin} || '/v2/folders/home?user=' || ${owner} ELSE ${urlSql.apiFile(origin, 'folders', owner, parent)} END`,
  content: (origin: SQL, owner: SQL, n: SQL) => sql`${urlSql.apiFile(origin, 'plots', owner, n)} || '/content'`,
  withShareKey: (url: SQL, shareKey: SQL) => sql`${url} || '?share_key=' || ${shareKey}`,
};
