// A plot page's comments, newest first and paged by plain links: the form for signed-in readers, each
// comment's edit (its author) and delete (its author, the plot's owner), and the owner's switch that
// closes the plot to new comments (earlier ones stay, read-only). Every form works without JavaScript.
import type { ReactNode } from 'react';
import { COMMENT_MAX_CHARS } from '@/lib/shared/limits';
import { profilePath, signInFirst } from '@/lib/shared/urls';
import type { PlotPeople } from '@/lib/web/people';
import { ActionForm, type FormAction } from './action-form';
import { CommentText } from './comment-text';
import { CsrfField } from './csrf-field';

export interface CommentsProps {
  people: PlotPeople;
  csrf: string | null;
  fid: string;
  shareKey: string | null;
  /** The viewer owns the plot. */
  own: boolean;
  /** This page (with its key), to come back to after signing in, and to page from. */
  here: string;
  actions: { post: FormAction; edit: FormAction; remove: FormAction; toggle: FormAction };
}

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

const HINT = `Plain text, at most ${COMMENT_MAX_CHARS.toLocaleString('en')} characters; web addresses become links.`;

function TextField({ id, label, value }: { id: string; label: string; value?: string }) {
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name="text" rows={3} required maxLength={COMMENT_MAX_CHARS} defaultValue={value} aria-describedby={`${id}-hint`} />
      <span id={`${id}-hint`} className="muted field-hint">
        {HINT}
      </span>
    </>
  );
}

export function Comments({ people, csrf, fid, shareKey, own, here, actions }: CommentsProps) {
  const hidden = (extra?: ReactNode) =>
    csrf && (
      <>
        <CsrfField token={csrf} />
        <input type="hidden" name="fid" value={fid} />
        {shareKey && <input type="hidden" name="share_key" value={shareKey} />}
        {extra}
      </>
    );
  const pageLink = (cursor: string) => `${here}${here.includes('?') ? '&' : '?'}comments=${encodeURIComponent(cursor)}#comments`;
  return (
    <section id="comments" className="plot-comments" aria-labelledby="comments-heading">
      <div className="comments-head">
        <h2 id="comments-heading">
          Comments <span className="muted">({people.count.toLocaleString('en')})</span>
        </h2>
        {own && csrf && (
          <ActionForm
            action={actions.toggle}
            className="comments-switch"
            submit={people.enabled ? 'Turn comments off' : 'Turn comments on'}
            fields={hidden(<input type="hidden" name="enabled" value={people.enabled ? '0' : '1'} />)}
          />
        )}
      </div>
      {!people.enabled && (
        <p className="notice comments-off">Comments are turned off for this plot{people.count ? '; the earlier ones stay as they are' : ''}.</p>
      )}
      {people.enabled &&
        (csrf ? (
          <ActionForm
            action={actions.post}
            className="comment-new"
            kind="primary"
            submit="Post comment"
            fields={hidden(<TextField id="comment-text" label="Add a comment" />)}
          />
        ) : (
          <p>
            <a href={signInFirst(here)}>Sign in to comment</a>
          </p>
        ))}
      {people.cursorRejected && <p className="notice">That page of comments is no longer there, so here are the newest.</p>}
      {people.comments.length > 0 && (
        <ol className="comment-list">
          {people.comments.map((c) => (
            <li key={c.id} id={`comment-${c.id}`} className="comment">
              <p className="comment-meta">
                <a href={profilePath(c.author)}>{c.author}</a> · <time dateTime={c.creation_time}>{dateFormat.format(new Date(c.creation_time))}</time>
                {/* To the millisecond both carry: an edit within the second it was posted is an edit too. */}
                {c.date_modified.slice(0, 23) !== c.creation_time.slice(0, 23) && <span className="muted"> · edited</span>}
              </p>
              <CommentText text={c.text} />
              {csrf && (c.deletable || (c.mine && people.enabled)) && (
                <div className="comment-actions">
                  {c.mine && people.enabled && (
                    <details className="comment-edit">
                      <summary>Edit</summary>
                      <ActionForm
                        action={actions.edit}
                        submit="Save"
                        fields={hidden(
                          <>
                            <input type="hidden" name="comment" value={c.id} />
                            <TextField id={`comment-edit-${c.id}`} label="Edit your comment" value={c.text} />
                          </>,
                        )}
                      />
                    </details>
                  )}
                  {c.deletable && (
                    <ActionForm action={actions.remove} kind="danger" submit="Delete" fields={hidden(<input type="hidden" name="comment" value={c.id} />)} />
                  )}
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {(people.newer || people.older) && (
        <nav className="comment-pages" aria-label="More comments">
          {people.newer && <a href={pageLink(people.newer)}>Newer comments</a>}
          {people.older && <a href={pageLink(people.older)}>Older comments</a>}
        </nav>
      )}
    </section>
  );
}
