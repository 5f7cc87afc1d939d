// What the web pages need from the core, with the same permissions as the API.
import { headers } from 'next/headers';
import { getDb, type Db } from '@/db/client';
import { authenticate, type Viewer } from './auth';
import { getFile } from './files';
import { canRead } from './permissions';
import { fidOf, parseFid } from './records';

export interface PageFile {
  fid: string;
  owner: string;
  n: number;
  filetype: 'plot' | 'grid' | 'fold';
  filename: string;
  title: string;
}

/** Who is viewing a page: the API's credentials work here too (bad ones make an anonymous visitor). */
export async function pageViewer(db: Db): Promise<Viewer | null> {
  const h = await headers();
  try {
    return await authenticate(db, new Request('http://page.invalid/', { headers: h }));
  } catch {
    return null;
  }
}

/** A file the visitor may read, or null for the one 404 page. */
export async function readableFile(params: { owner: string; n: string }, shareKey?: string): Promise<PageFile | null> {
  const fid = parseFid(`${params.owner}:${params.n}`);
  if (!fid) return null;
  const db = await getDb();
  const file = await getFile(db, fid);
  if (!file || !canRead(file, await pageViewer(db), shareKey)) return null;
  return { fid: fidOf(file.owner, file.n), owner: file.owner, n: file.n, filetype: file.filetype, filename: file.filename, title: file.filename };
}
