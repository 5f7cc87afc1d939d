// A web editor's save of a dashboard or a presentation (the dashboard builder's, the deck editor's):
// the client's content checked by the API's own rules (lib/core/documents/dashboards.ts) and written by
// its core, a new file in the viewer's top folder or the one the form names (its content, and for its
// owner its name and sharing, in one change); then on to its page, or the problems where they are.
import 'server-only';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { ApiError } from '@/lib/core/errors';
import { storageRefusal } from '@/lib/core/accounts/storage';
import { createDocument, type DocumentType, documentUpdates } from '@/lib/core/documents/dashboards';
import { updateFile } from '@/lib/core/files/file-changes';
import { freeFilename, getFile } from '@/lib/core/files/files';
import { canWrite, isOwner, VISIBILITY_FIELDS } from '@/lib/core/permissions';
import { parseFid, type Fid } from '@/lib/core/records';
import { filenameSchema } from '@/lib/shared/names';
import { VISIBILITIES } from '@/lib/shared/sharing';
import { filePath } from '@/lib/shared/urls';
import { formCaller, FormError, type FormCaller } from './forms';

/** A problem with a save, at its field: `filename`, `title`, `sharing`, `content`, or a part of the content (a box, a slide). */
export interface SaveProblem {
  field: string | null;
  message: string;
}

export interface SaveState {
  problems: SaveProblem[];
}

const saveSchema = z.object({
  content: z.string().max(4 * 1024 * 1024),
  filename: z.string().max(1000),
  sharing: z.enum(VISIBILITIES).optional(),
});

export interface DocumentSaveRules {
  filetype: DocumentType;
  /** The sentence for content too large to save. */
  tooLarge: string;
  /** A new file's name when none is given: from its content's title, else this. */
  untitled: string;
  titleOf: (content: unknown) => unknown;
  /** A refused save's problems, each at its place in the editor. */
  problemsOf: (e: ApiError) => SaveProblem[];
}

export async function saveDocument(form: FormData, rules: DocumentSaveRules): Promise<SaveState> {
  let caller: FormCaller;
  let page: string;
  try {
    caller = await formCaller(form);
    const input = saveSchema.safeParse({ content: form.get('content'), filename: form.get('filename'), sharing: form.get('sharing') ?? undefined });
    if (!input.success) return { problems: [{ field: 'content', message: rules.tooLarge }] };
    const { content, sharing } = input.data;
    const fidValue = form.get('fid');
    const fid: Fid | null = typeof fidValue === 'string' ? parseFid(fidValue) : null;
    if (typeof fidValue === 'string' && !fid) throw new FormError('Not found.');
    const named = input.data.filename.trim();
    if (named) {
      const name = filenameSchema.safeParse(named);
      if (!name.success) return { problems: [{ field: 'filename', message: `The file name ${name.error.issues[0]?.message ?? 'is not valid'}.` }] };
    }
    if (!fid) {
      const title = (() => {
        try {
          const t = rules.titleOf(JSON.parse(content));
          return typeof t === 'string' ? t.trim() : '';
        } catch {
          return '';
        }
      })();
      const filename = named || (await freeFilename(caller.db, caller.viewer.id, -1, title || rules.untitled));
      const made = await createDocument(
        caller.db,
        caller.viewer,
        rules.filetype,
        { content, filename, ...VISIBILITY_FIELDS[sharing ?? 'private'] },
        { origin: caller.origin },
      );
      page = filePath(caller.viewer.username, made.file.n);
    } else {
      const file = await getFile(caller.db, fid, caller.viewer);
      if (file?.filetype !== rules.filetype || !canWrite(file, caller.viewer)) throw new FormError('Not found.');
      const owns = isOwner(caller.viewer, file);
      const changes = {
        content,
        ...(owns && named && named !== file.filename ? { filename: named } : {}),
        ...(owns && sharing ? VISIBILITY_FIELDS[sharing] : {}),
      };
      await updateFile(caller.db, caller.viewer, fid, changes, { filetype: rules.filetype, types: documentUpdates(fid, caller.origin), client: 'web' });
      page = filePath(file.owner, file.n);
    }
  } catch (thrown) {
    const e = storageRefusal(thrown) ?? thrown;
    if (e instanceof FormError) return { problems: [{ field: null, message: e.message }] };
    if (e instanceof ApiError && e.status < 500) return { problems: rules.problemsOf(e) };
    throw e;
  }
  redirect(page);
}
