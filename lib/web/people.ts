// A plot page's stars and comments: what they show (the API's rules: lib/core/plots/stars.ts, comments.ts)
// and their forms, plain posts that work without JavaScript and come back to the page.
import 'server-only';
import { headers } from 'next/headers';
import { revalidatePath } from 'next/cache';
import { after } from 'next/server';
import { deliverNotificationMail } from '@/lib/core/files/notifications';
import { z } from 'zod';
import { commentIdParam, commentTextSchema, createComment, deleteComment, listCommentsOf, updateComment } from '@/lib/core/plots/comments';
import type { OwnedFile } from '@/lib/core/files/files';
import { isOwner } from '@/lib/core/permissions';
import { updateFileDetail } from '@/lib/core/workspace/file-detail';
import { feedQuerySchema } from '@/lib/http/request/queries';
import { limitAddress, limitUser } from '@/lib/core/accounts/rate-limit';
import type { PlotRecord } from '@/lib/core/records';
import { hasStarred, starPlot, unstarPlot } from '@/lib/core/plots/stars';
import { fidField, formAction, textField, type FormCaller } from './forms';
import { withCursorFallback } from './gallery';
import type { PageContext } from './page-context';
import { shareKeyOf } from './file-head';

/** Comments a plot page shows at once; older ones are a link (or "Load more") away. */
export const COMMENTS_PAGE_SIZE = 20;

export interface CommentView {
  id: number;
  text: string;
  author: string;
  creation_time: string;
  date_modified: string;
  /** The viewer wrote it (may edit and delete it). */
  mine: boolean;
  /** The viewer may delete it: its author or the plot's owner. */
  deletable: boolean;
}

export interface PlotPeople {
  starred: boolean;
  stars: number;
  enabled: boolean;
  comments: CommentView[];
  count: number;
  /** Cursors of older and newer comments (`?comments=`), null at either end. */
  older: string | null;
  newer: string | null;
  cursorRejected: boolean;
}

/** The plot page's stars and comments for this viewer; `cursor` is the page's `?comments=` value. */
export async function plotPeople(ctx: PageContext, file: OwnedFile, record: PlotRecord, cursor: unknown): Promise<PlotPeople> {
  const parsed = feedQuerySchema.shape.cursor.safeParse(cursor);
  const viewerId = ctx.viewer?.id ?? null;
  const page = await withCursorFallback(parsed.success ? parsed.data : undefined, (c) =>
    listCommentsOf(ctx.db, file.id, { page_size: COMMENTS_PAGE_SIZE, cursor: c }),
  );
  const comments = page.rows.map((row) => {
    const mine = viewerId !== null && row.author_id === viewerId;
    return { ...(JSON.parse(row.rec) as Omit<CommentView, 'mine' | 'deletable'>), mine, deletable: mine || isOwner(ctx.viewer, file) };
  });
  return {
    starred: await hasStarred(ctx.db, ctx.viewer, file.id),
    stars: record.stars.count,
    enabled: record.comments_enabled,
    comments,
    count: record.comments.count,
    older: page.next,
    newer: page.previous,
    cursorRejected: page.cursorRejected,
  };
}

// ---------------------------------------------------------------------------------------------
// Forms

/**
 * The plot's page shows the change: rendered afresh for the answer to a plain form post, and refreshed
 * in place with JavaScript (a redirect back to the same page would be a mere scroll for the router).
 */
function refreshPage(): undefined {
  revalidatePath('/files/[owner]/[n]', 'page');
  return undefined;
}

/** Every people form is a write: it counts against the same allowances as the API's. */
async function admitted(caller: FormCaller): Promise<void> {
  await limitAddress(caller.db, await headers());
  await limitUser(caller.db, caller.viewer);
}

/** The page's `share_key`, when it carries one (never a refusal). */
const shareKeyField = z.preprocess(shareKeyOf, z.string().optional());
/** The comment's text as the API checks it, refused with its message at the field. */
const textSchema = textField(commentTextSchema);
/** The comment a form names: a missing one is the API's 404. */
const commentField = textField(z.string()).transform(commentIdParam);

/** Star or unstar (`star` = "1" or "0"). */
export const starForm = formAction(
  z.object({ fid: fidField, share_key: shareKeyField, star: z.preprocess((v) => v === '1', z.boolean()) }),
  async ({ fid, share_key, star }, caller) => {
    await admitted(caller);
    if (star) await starPlot(caller.db, caller.viewer, fid, share_key);
    else await unstarPlot(caller.db, caller.viewer, fid, share_key);
    return refreshPage();
  },
);

export const commentForm = formAction(z.object({ fid: fidField, text: textSchema, share_key: shareKeyField }), async ({ fid, text, share_key }, caller) => {
  await admitted(caller);
  await createComment(caller.db, caller.viewer, fid, { text }, share_key);
  after(() => deliverNotificationMail(caller.db));
  return refreshPage();
});

export const editCommentForm = formAction(
  z.object({ fid: fidField, comment: commentField, text: textSchema, share_key: shareKeyField }),
  async ({ fid, comment, text, share_key }, caller) => {
    await admitted(caller);
    await updateComment(caller.db, caller.viewer, fid, comment, { text }, share_key);
    return refreshPage();
  },
);

export const deleteCommentForm = formAction(
  z.object({ fid: fidField, comment: commentField, share_key: shareKeyField }),
  async ({ fid, comment, share_key }, caller) => {
    await admitted(caller);
    await deleteComment(caller.db, caller.viewer, fid, comment, share_key);
    return refreshPage();
  },
);

/** The owner turns comments off or on (PATCH comments_enabled). */
export const commentsSwitchForm = formAction(
  z.object({ fid: fidField, enabled: z.enum(['0', '1'], { message: 'choose on or off' }) }),
  async ({ fid, enabled }, caller) => {
    await admitted(caller);
    await updateFileDetail(caller.db, caller.viewer, fid, { comments_enabled: enabled === '1' }, caller.origin, 'plot', 'web');
    return refreshPage();
  },
);
