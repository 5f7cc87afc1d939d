// A plot page's stars: the count, and for a signed-in reader a plain form that stars or unstars it
// (no JavaScript needed); anonymous visitors get a way to sign in first.
import { ActionForm, type FormAction } from './action-form';
import { CsrfField } from './csrf-field';
import { signInFirst } from '@/lib/shared/urls';

export interface StarButtonProps {
  /** The page's server action (components never import from app/). */
  action: FormAction;
  csrf: string | null;
  fid: string;
  shareKey: string | null;
  starred: boolean;
  count: number;
  /** This page, to come back to after signing in. */
  here: string;
}

export function StarButton({ action, csrf, fid, shareKey, starred, count, here }: StarButtonProps) {
  const label = `${count.toLocaleString('en')} ${count === 1 ? 'star' : 'stars'}`;
  return (
    <section id="star" className="plot-star" aria-label="Stars">
      <span className="star-count" data-starred={starred || undefined}>
        <span aria-hidden="true">{starred ? '★' : '☆'}</span> {label}
      </span>
      {csrf ? (
        <ActionForm
          action={action}
          submit={starred ? 'Unstar' : 'Star'}
          kind={starred ? 'secondary' : 'primary'}
          fields={
            <>
              <CsrfField token={csrf} />
              <input type="hidden" name="fid" value={fid} />
              <input type="hidden" name="star" value={starred ? '0' : '1'} />
              {shareKey && <input type="hidden" name="share_key" value={shareKey} />}
            </>
          }
        />
      ) : (
        <a className="button secondary" href={signInFirst(here)}>
          Sign in to star
        </a>
      )}
    </section>
  );
}
