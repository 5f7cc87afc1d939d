import { randomUUID } from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/components/action-form';
import { CsrfField } from '@/components/csrf-field';
import { Notice } from '@/components/notice';
import { filePath, sharedPath, workspacePath } from '@/lib/shared/urls';
import { loadPeople, PEOPLE_NOTICES } from '@/lib/web/collaborators';
import { changePersonAction, removePersonAction, sharePersonAction, shareGridsAction } from '@/app/_actions/people';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Share with people', robots: { index: false, follow: false } };

type Props = { params: Promise<{ owner: string; n: string }>; searchParams: Promise<{ notice?: string | string[] }> };

const ROLE = { read: 'Can view', write: 'Can edit' } as const;
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
const KIND = { plot: 'chart', grid: 'grid', fold: 'folder', dashboard: 'dashboard', spectacle_presentation: 'presentation' } as const;

// `/~owner/n/people`: who a file is shared with by name. Its owner shares, changes and unshares here;
// its collaborators see the list and may leave. Anyone else gets the 404 of a missing file.
export default async function PeoplePage({ params, searchParams }: Props) {
  const { owner, n } = await params;
  const page = await loadPeople(owner, n, (await searchParams).notice);
  if (!page) notFound();
  const { file, own, list, ctx, unreadable, privateGrids } = page;
  const fid = `${file.owner}:${file.n}`;
  const kind = KIND[file.filetype];
  const back = file.filetype === 'fold' ? (own ? workspacePath(file.owner, { folder: file.n }) : sharedPath(file)) : filePath(file.owner, file.n);
  const hidden = (extra?: Record<string, string>) => (
    <>
      {ctx.csrf && <CsrfField token={ctx.csrf} />}
      <input type="hidden" name="fid" value={fid} />
      {Object.entries(extra ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
  return (
    <main className="file-page people-page">
      <header className="file-head">
        <h1>Share with people</h1>
        <p>
          <Link href={back}>{file.filename}</Link>
          {own
            ? ` is shared by name with the people below. They see it with their own account and API key, even while it is private; people who can edit change its ${file.filetype === 'grid' ? 'data' : file.filetype === 'plot' ? 'chart' : 'files'}, never its name, place or sharing.`
            : ` is ${file.owner}'s ${kind}, shared with the people below.`}
          {file.filetype === 'fold' && ' Sharing a folder shares everything in it, for as long as it stays there.'}
        </p>
      </header>
      {page.notice && <Notice key={randomUUID()}>{PEOPLE_NOTICES[page.notice]}</Notice>}

      {own && ctx.csrf && (
        <section className="people-share" aria-labelledby="share-heading">
          <h2 id="share-heading">Share with a person</h2>
          <ActionForm
            action={sharePersonAction}
            submit="Share"
            kind="primary"
            className="people-form"
            fields={
              <>
                {hidden()}
                <div className="field">
                  <label htmlFor="share-username">Username</label>
                  <input id="share-username" name="username" autoComplete="off" autoCapitalize="none" spellCheck={false} required maxLength={200} />
                </div>
                <div className="field">
                  <label htmlFor="share-permission">Permission</label>
                  <select id="share-permission" name="permission" defaultValue="read">
                    <option value="read">{ROLE.read}</option>
                    <option value="write">{ROLE.write}</option>
                  </select>
                </div>
                {privateGrids.length > 0 && (
                  <div className="field">
                    <label className="checkbox">
                      <input type="checkbox" name="grids" value="yes" defaultChecked aria-describedby="share-grids-hint" />
                      If they can edit, share the data too ({privateGrids.map((g) => g.filename).join(', ')}), for them to view
                    </label>
                    <p id="share-grids-hint" className="muted">
                      Editing needs it: without the {privateGrids.length === 1 ? 'grid' : 'grids'} they can restyle the chart but not choose its columns. They
                      will see every column of {privateGrids.length === 1 ? 'it' : 'them'}, not only the ones drawn.
                    </p>
                  </div>
                )}
              </>
            }
          />
        </section>
      )}

      {unreadable.length > 0 && ctx.csrf && (
        <section className="people-grids" aria-labelledby="grids-heading">
          <h2 id="grids-heading">Grids they cannot open</h2>
          <ul className="people-list">
            {unreadable.map((u) => (
              <li key={u.username} className="people-item">
                <p>
                  <strong>{u.username}</strong> cannot open {u.grids.length === 1 ? 'the grid' : 'the grids'} this chart draws from (
                  {u.grids.map((g) => g.filename).join(', ')}): they see the chart with its data, but not the {u.grids.length === 1 ? 'grid' : 'grids'}{' '}
                  themselves, and cannot chart their other columns.
                </p>
                <ActionForm action={shareGridsAction} submit={`Share the data with ${u.username} too`} fields={hidden({ username: u.username })} />
              </li>
            ))}
          </ul>
        </section>
      )}

      <section aria-labelledby="people-heading">
        <h2 id="people-heading">{list.count === 0 ? 'Not shared with anyone yet' : `Shared with ${list.count} ${list.count === 1 ? 'person' : 'people'}`}</h2>
        {list.count > 0 && (
          <ul className="people-list">
            {list.results.map((person) => {
              const me = ctx.viewer?.username.toLowerCase() === person.username.toLowerCase();
              return (
                <li key={person.username} className="people-item">
                  <div className="people-who">
                    <strong>{person.username}</strong>
                    <span className="people-role">{ROLE[person.permission]}</span>
                    <span className="people-since">since {dateFormat.format(new Date(person.date_added))}</span>
                  </div>
                  {own && ctx.csrf && (
                    <div className="people-actions">
                      <ActionForm
                        action={changePersonAction}
                        submit="Change"
                        className="people-form"
                        fields={
                          <>
                            {hidden({ username: person.username })}
                            <div className="field">
                              <label htmlFor={`permission-${person.username}`}>Permission for {person.username}</label>
                              <select id={`permission-${person.username}`} name="permission" defaultValue={person.permission}>
                                <option value="read">{ROLE.read}</option>
                                <option value="write">{ROLE.write}</option>
                              </select>
                            </div>
                          </>
                        }
                      />
                      <ActionForm
                        action={removePersonAction}
                        submit={`Remove ${person.username}`}
                        kind="danger"
                        fields={hidden({ username: person.username })}
                      />
                    </div>
                  )}
                  {me && !own && ctx.csrf && (
                    <ActionForm
                      action={removePersonAction}
                      submit="Leave (stop sharing it with me)"
                      kind="danger"
                      fields={hidden({ username: person.username })}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </main>
  );
}
