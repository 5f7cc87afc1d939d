// What the web pages need from the core, with the same permissions as the API.
import { getDb } from '@/db/client';
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

/** A file the (anonymous, for now) visitor may read, or null for the one 404 page. */
export async function readableFile(params: { owner: string; n: string }, shareKey?: string): Promise<PageFile | null> {
  const fid = parseFid(`${decodeURIComponent(params.owner)}:${params.n}`);
  if (!fid) return null;
  const db = await getDb();
  const file = await getFile(db, fid);
  if (!file || !canRead(file, null, shareKey)) return null;
  return { fid: fidOf(file.owner, file.n), owner: file.owner, n: file.n, filetype: file.filetype, filename: file.filename, title: file.filename };
}
