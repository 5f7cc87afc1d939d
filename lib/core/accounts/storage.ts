// What one person stores in their files, bounded (STORAGE_PER_PERSON_MB, docs/limits.md). Triggers
// (migration person_storage) keep each file's live bytes (files.stored_bytes) and their sum per
// owner (users.stored_bytes, trash included until emptied), and refuse, in the statement that would
// pass the bound, any change that grows a person's files past it: the transaction rolls back and
// `storageRefusal` makes that the API's 413. Kept history is bounded on its own (files/versions.ts).
import 'server-only';
import { sql } from 'drizzle-orm';
import { personStorageBytes, queryRows, type Db } from '@/db/client';
import { apiError, type ApiError } from '../errors';

/** A person's stored bytes and their bound (0: none), from the counter. */
export async function storageOf(db: Db, userId: number): Promise<{ used: number; bound: number }> {
  const [row] = await queryRows<{ used: string }>(db, sql`SELECT stored_bytes AS used FROM users WHERE id = ${userId}`);
  return { used: Number(row?.used ?? 0), bound: personStorageBytes() };
}

/**
 * What the counter holds, recomputed from the files themselves: each file's grid columns' bytes,
 * plot figure, document content and grid metadata. The triggers' twin (tests hold them equal).
 */
export async function sumStoredBytes(db: Db, userId: number): Promise<number> {
  const [row] = await queryRows<{ bytes: string }>(
    db,
    sql`SELECT coalesce(sum(coalesce(octet_length(f.metadata::text), 0)
        + coalesce((SELECT sum(c.bytes) FROM grid_columns c WHERE c.grid_id = f.id), 0)
        + coalesce((SELECT p.figure_bytes FROM plots p WHERE p.file_id = f.id), 0)
        + coalesce((SELECT d.content_bytes FROM documents d WHERE d.file_id = f.id), 0)), 0) AS bytes
      FROM files f WHERE f.owner_id = ${userId}`,
  );
  return Number(row?.bytes ?? 0);
}

/** Bytes as a person reads them: "1.5 MB", "800 KB", "12 bytes" (MB = 1,048,576 bytes, as the setting's). */
export function bytesText(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** The trigger's refusal (PF413, "held bound added") as the API's 413 with a sentence; undefined for any other error. */
export function storageRefusal(error: unknown): ApiError | undefined {
  for (let e = error, i = 0; e && typeof e === 'object' && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    if ((e as { code?: unknown }).code !== 'PF413') continue;
    const [held, bound, added] = String((e as Error).message)
      .split(' ')
      .map(Number);
    return apiError(
      413,
      'PAYLOAD_TOO_LARGE',
      `Your files hold ${bytesText(held)} of your ${bytesText(bound)} of storage; this change needs ${bytesText(added)} more. Delete files or empty the trash to make room.`,
    );
  }
  return undefined;
}
