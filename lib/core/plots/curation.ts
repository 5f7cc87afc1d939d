// Operator curation: a plot's quality score (0..10) and whether it is handpicked for the feed.
import 'server-only';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { plots } from '@/db/schema';
import { invalid, notFound } from '../errors';
import { parseWith } from '../json-text';
import { getPlotFile } from './plots';
import { fidOf, parseFid } from '../records';

const curation = z.object({
  quality: z.coerce.number().int().min(0).max(10).optional(),
  handpicked: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});

export async function curatePlot(db: Db, rawFid: string, input: { quality?: string; handpicked?: string }) {
  const fid = parseFid(rawFid);
  if (!fid) throw invalid('fid', `'${rawFid}' is not a fid (owner:number)`);
  const changes = parseWith(curation, input);
  const file = await getPlotFile(db, fid, null);
  if (!file) throw notFound();
  const [row] = await db.update(plots).set(changes).where(eq(plots.fileId, file.id)).returning();
  return { fid: fidOf(file.owner, file.n), quality: row.quality, handpicked: row.handpicked };
}
