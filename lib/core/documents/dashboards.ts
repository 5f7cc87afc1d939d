// Dashboards and spectacle presentations ("documents"): files whose content is a client's JSON text
// (lib/core/documents/dashboard-content.ts), kept in `documents` exactly as sent. Their create, detail, content
// update (a type's part of file-changes.ts updateFile), the owner's list, and the one rule for which
// plots a document shows to whom (resolvePlotRefs).
import 'server-only';
import { and, asc, desc, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { queryRows, type Db } from '@/db/client';
import { documents, files } from '@/db/schema';
import type { Viewer } from '../accounts/auth';
import { decodeCursor, keysetPage, type Cursor } from '../cursors';
import { parseDashboardContent, parsePresentationContent, plotRefsOfDashboard, plotRefsOfPresentation, type PlotRef } from './dashboard-content';
import { invalid, notFound } from '../errors';
import { fileFieldsSchema, updateFile, type TYPE_FIELDS, type TypeUpdate } from '../files/file-changes';
import { createFile, fileRecord, getFile, type FileRow, type OwnedFile } from '../files/files';
import { assertReadable, canRead, holdsShareKey, shareUrl, type Collaboration } from '../permissions';
import { collaboratorListOf, collaboratorsSql, fileNumbered, parseFid, type Fid } from '../records';
import { filePath, imagePath } from '@/lib/shared/urls';
import type { Client } from '../files/versions';

export const DOCUMENT_TYPES = ['dashboard', 'spectacle_presentation'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const isDocumentType = (filetype: string): filetype is DocumentType => (DOCUMENT_TYPES as readonly string[]).includes(filetype);

const contentSchema = z
  .string({ error: 'This field is required.' })
  .meta({ description: 'the content as a string holding JSON (see GET /v2/dashboards/schema); answered exactly as sent' });

/** A document's own update fields, beyond every file's. */
const documentFields = { content: contentSchema.optional() } satisfies Record<(typeof TYPE_FIELDS.dashboard)[number], z.ZodType>;

/** PUT/PATCH /v2/dashboards/{fid} (and presentations): the fields given change. */
export const documentUpdateSchema = fileFieldsSchema.extend(documentFields);
export type DocumentUpdate = z.output<typeof documentUpdateSchema>;

/** POST /v2/dashboards (and presentations): `content` required, placed by `parent_path`. */
export const documentCreateSchema = fileFieldsSchema.omit({ parent: true }).extend({ content: contentSchema });
export type DocumentCreate = z.output<typeof documentCreateSchema>;

/** A document: its file and its content text as sent. */
export interface DocumentFile {
  file: OwnedFile;
  content: string;
}

/** The record of a dashboard or presentation (the common fields, its links and card image); detail and write answers add `content`. */
export function documentRecord(origin: string, file: OwnedFile, viewer: Viewer | null, content?: string) {
  const record = fileRecord(origin, file, viewer);
  const card = `${origin}${imagePath(file.owner, file.n, 'card')}`;
  return {
    ...record,
    deleted: false,
    // The owner's secret link, to hand out; everyone else the page.
    share_url: shareUrl(record.web_url, file, viewer),
    embed_url: `${origin}${filePath(file.owner, file.n, 'embed')}`,
    image_urls: { card },
    thumbnail: card,
    ...(content !== undefined ? { content } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Plots named by a document

/** What a document's plot reference is to one viewer (resolvePlotRefs). */
export interface ResolvedPlotRef {
  readable: boolean;
  /** The plot's database id when readable (its chart is read by it), else null. */
  id: number | null;
  owner: string;
  n: number;
  /** '' when not readable. */
  title: string;
  /** The valid share key given with it, else null. */
  shareKey: string | null;
}

/**
 * The one rule for "may this viewer see this plot box": the plot exists (live) and the viewer may
 * read it, or a share key given with it is its secret link's. Keyed by the fileId as given; one
 * statement for all of them. Refs with unparsable fileIds answer unreadable.
 */
export async function resolvePlotRefs(
  db: Db,
  viewer: Viewer | null,
  refs: { fileId: string; shareKey: string | null }[],
): Promise<Map<string, ResolvedPlotRef>> {
  const out = new Map<string, ResolvedPlotRef>();
  const wanted = new Map<string, { fid: Fid; keys: string[] }>();
  for (const ref of refs) {
    const fid = parseFid(ref.fileId);
    const entry = wanted.get(ref.fileId) ?? { fid: fid ?? { owner: ref.fileId.split(':')[0] ?? '', n: 0 }, keys: [] };
    if (ref.shareKey) entry.keys.push(ref.shareKey);
    wanted.set(ref.fileId, entry);
    out.set(ref.fileId, { readable: false, id: null, owner: entry.fid.owner, n: entry.fid.n, title: '', shareKey: null });
  }
  const ids = [...wanted].filter(([fileId]) => parseFid(fileId)).map(([fileId, { fid }]) => ({ k: fileId, o: fid.owner, n: fid.n }));
  if (!ids.length) return out;
  const rows = await queryRows<{
    k: string;
    id: string | number;
    owner: string;
    n: number;
    owner_id: number;
    world_readable: boolean;
    share_key: string | null;
    collaboration: Collaboration | null;
    title: string;
  }>(
    db,
    sql`SELECT r.k, f.id, u.username AS owner, f.n, f.owner_id, f.world_readable, f.share_key, coalesce(p.title, '') AS title,
          file_collaboration(f.id, ${viewer?.id ?? null}::int) AS collaboration
        FROM json_to_recordset(${JSON.stringify(ids)}::json) AS r(k text, o text, n int)
        JOIN users u ON lower(u.username) = lower(r.o)
        CROSS JOIN LATERAL (${fileNumbered(sql`u.id`, sql`r.n`)}) f
        JOIN plots p ON p.file_id = f.id
        WHERE f.filetype = 'plot' AND f.trashed_at IS NULL`,
  );
  for (const row of rows) {
    const access = { ownerId: row.owner_id, worldReadable: row.world_readable, shareKey: row.share_key, collaboration: row.collaboration };
    const validKey = wanted.get(row.k)?.keys.find((key) => holdsShareKey(access, key)) ?? null;
    const readable = canRead(access, viewer, validKey);
    out.set(row.k, {
      readable,
      id: readable ? Number(row.id) : null,
      owner: row.owner,
      n: row.n,
      title: readable ? row.title : '',
      shareKey: readable ? validKey : null,
    });
  }
  return out;
}

/** The plot references of a document's content text, checked against its type's format (400s naming the path). */
export function plotRefsOf(filetype: DocumentType, content: string, origin?: string): PlotRef[] {
  if (filetype === 'dashboard') return plotRefsOfDashboard(parseDashboardContent(content));
  const parsed = parsePresentationContent(content);
  return origin ? plotRefsOfPresentation(parsed, origin) : [];
}

/**
 * Checks content a viewer saves: its format, and every plot it names exists and is readable by them
 * (400 naming the first that is not). References the stored content already held (`kept`) pass: a
 * writer may save a document whose owner showed plots the writer cannot read.
 */
async function checkContent(db: Db, viewer: Viewer, filetype: DocumentType, content: string, origin?: string, kept: PlotRef[] = []): Promise<void> {
  const keyOf = (r: { fileId: string; shareKey: string | null }) => `${r.fileId}\n${r.shareKey ?? ''}`;
  const old = new Set(kept.map(keyOf));
  const refs = plotRefsOf(filetype, content, origin).filter((r) => !old.has(keyOf(r)));
  const resolved = await resolvePlotRefs(db, viewer, refs);
  const bad = refs.find((r) => !resolved.get(r.fileId)?.readable);
  if (bad) throw invalid(bad.path, `'${bad.fileId}' is not a plot you can read`);
}

// ---------------------------------------------------------------------------------------------
// Create, detail, update

/** POST /v2/dashboards and /v2/spectacle-presentations: the viewer's new document (its content checked first). */
export async function createDocument(
  db: Db,
  viewer: Viewer,
  filetype: DocumentType,
  fields: DocumentCreate,
  opts: { origin?: string } = {},
): Promise<DocumentFile> {
  await checkContent(db, viewer, filetype, fields.content, opts.origin);
  const row = await createFile(db, viewer, filetype, fields, async (tx, file) => {
    await tx.insert(documents).values({ fileId: file.id, content: fields.content, contentBytes: Buffer.byteLength(fields.content) });
    return file;
  });
  return { file: { ...row, owner: viewer.username, collaboration: null }, content: fields.content };
}

async function contentOf(db: Db, fileId: number): Promise<string> {
  const [row] = await db.select({ content: documents.content }).from(documents).where(eq(documents.fileId, fileId));
  if (!row) throw notFound();
  return row.content;
}

/** The version of a document's content (bumped on every change: keys what is derived from it), null when it has none. */
export async function documentVersion(db: Db, fileId: number): Promise<number | null> {
  const [row] = await db.select({ version: documents.version }).from(documents).where(eq(documents.fileId, fileId));
  return row ? row.version : null;
}

/** A document's content with its version, read together (what is derived from the content is keyed by that version). */
export async function documentContentAt(db: Db, fileId: number): Promise<{ content: string; version: number } | null> {
  const [row] = await db.select({ content: documents.content, version: documents.version }).from(documents).where(eq(documents.fileId, fileId));
  return row ?? null;
}

/** A live document the viewer may read (a share key of its secret link grants it), of `filetype` when given; else the 404 of a missing file. */
export async function getDocument(db: Db, fid: Fid, viewer: Viewer | null, shareKey?: string | null, filetype?: DocumentType): Promise<DocumentFile> {
  const found = await getFile(db, fid, viewer);
  const file = assertReadable(found && isDocumentType(found.filetype) && (!filetype || found.filetype === filetype) ? found : undefined, viewer, shareKey);
  return { file, content: await contentOf(db, file.id) };
}

/** A document's part of an update (file-changes.ts updateFile): its new content, checked, written with the file's row. */
export function documentUpdate(fid: Fid, origin?: string): TypeUpdate<DocumentUpdate> {
  return async (db, viewer, input) => {
    if (input.content === undefined) return null;
    const content = input.content;
    const stored = await getDocument(db, fid, viewer).catch(() => null);
    if (!stored) throw notFound();
    const filetype = stored.file.filetype as DocumentType;
    const kept = (() => {
      try {
        return plotRefsOf(filetype, stored.content, origin);
      } catch {
        return [];
      }
    })();
    await checkContent(db, viewer, filetype, content, origin, kept);
    return async (tx: Db, file: FileRow) => {
      await tx
        .update(documents)
        .set({ content, contentBytes: Buffer.byteLength(content), version: sql`${documents.version} + 1` })
        .where(eq(documents.fileId, file.id));
    };
  };
}

/** The update types of documents, for updateFile's `types`. */
export const documentUpdates = (fid: Fid, origin?: string) => ({ dashboard: documentUpdate(fid, origin), spectacle_presentation: documentUpdate(fid, origin) });

/** The web's save of a document's content, by its owner or a write collaborator (the same checks as the API's PUT). */
export async function updateDocumentContent(
  db: Db,
  viewer: Viewer,
  fid: Fid,
  content: string,
  opts: { origin?: string; client?: Client } = {},
): Promise<DocumentFile> {
  const file = await updateFile(db, viewer, fid, { content }, { types: documentUpdates(fid, opts.origin), client: opts.client ?? 'web' });
  if (!isDocumentType(file.filetype)) throw notFound();
  return { file, content: await contentOf(db, file.id) };
}

// ---------------------------------------------------------------------------------------------
// The owner's list

/** `GET /v2/dashboards`: the viewer's live documents of one type, newest first, keyset-paged (records without content). */
export async function listOwnDocuments(
  db: Db,
  viewer: Viewer,
  filetype: DocumentType,
  query: { page_size?: number; cursor?: string },
  origin: string,
): Promise<{ rows: ReturnType<typeof documentRecord>[]; next: string | null; previous: string | null }> {
  const order = `${filetype}:-creation_time`;
  const size = query.page_size ?? 20;
  const valid = (c: Cursor) => c.k.length === 2 && typeof c.k[0] === 'string' && Number.isSafeInteger(c.k[1]);
  const cursor = query.cursor ? await decodeCursor(db, query.cursor, order, valid) : null;
  const dir = cursor?.d ?? 'n';
  const forward = dir === 'n';
  const after = cursor
    ? sql`(${files.createdAt}, ${files.id}) ${sql.raw(forward ? '<' : '>')} (${cursor.k[0]}::timestamptz, ${cursor.k[1]}::bigint)`
    : undefined;
  const rows = await db
    // The caller's own: they see each one's collaborators.
    .select({
      ...getTableColumns(files),
      created: sql<string>`${files.createdAt}::text`,
      collaborators: sql<unknown>`${collaboratorsSql(sql`true`, sql`${files.id}`)}`,
    })
    .from(files)
    .where(and(eq(files.ownerId, viewer.id), eq(files.filetype, filetype), isNull(files.trashedAt), after))
    .orderBy(forward ? desc(files.createdAt) : asc(files.createdAt), forward ? desc(files.id) : asc(files.id))
    .limit(size + 1);
  const page = await keysetPage(db, rows, { size, cursor, order, keyOf: (r) => [r.created, Number(r.id)] });
  return {
    ...page,
    rows: page.rows.map(({ created, collaborators, ...row }) =>
      documentRecord(origin, { ...row, owner: viewer.username, collaboration: null, collaborators: collaboratorListOf(collaborators) }, viewer),
    ),
  };
}
