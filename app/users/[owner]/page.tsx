import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { z } from 'zod';
import { PlotList } from '@/components/plot-list';
import { Workspace } from '@/components/workspace';
import { DocumentCards } from '@/components/documents/document-cards';
import { listPublicDocuments } from '@/lib/core/documents/document-cards';
import { cursorQuery, profilePage, starredPage } from '@/lib/web/gallery';
import { workspacePage, workspaceQuery } from '@/lib/web/workspace';
import { listUndrawablePlots } from '@/lib/core/images/images';
import { isSignedIn, pageContext } from '@/lib/web/page-context';
import { isOwner } from '@/lib/core/permissions';
import { avatarPath, filePath, profilePath } from '@/lib/shared/urls';
import { getUserByUsername, usernameSchema } from '@/lib/core/accounts/users';
import { FILE_ACTIONS } from '@/app/_actions/file-actions';
import { moreStarredPlots, moreUserPlots } from '@/app/_actions/lists';

export const dynamic = 'force-dynamic';

type Props = {
  params: Promise<{ owner: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// One lookup per request, shared by the metadata and the page. A name that cannot be a username is
// a missing user without asking the database.
const profileUser = cache(async (owner: string) => {
  const name = usernameSchema.safeParse(owner);
  return name.success ? getUserByUsername((await pageContext()).db, name.data) : undefined;
});

// The website is user content: only an http(s) URL becomes a link (never javascript: and the like).
const websiteSchema = z.url({ protocol: /^https?$/ });

const joined = new Intl.DateTimeFormat('en', { month: 'long', year: 'numeric', timeZone: 'UTC' });

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const user = await profileUser((await params).owner);
  if (!user) return { title: 'Not found' };
  const name = user.nickname || user.username;
  const own = isOwner((await pageContext()).viewer, { ownerId: user.id });
  return {
    title: own ? `My files (~${user.username})` : `${name} (~${user.username})`,
    description: user.bio || `Plots by ${name} on Plot Files.`,
  };
}

export default async function ProfilePage({ params, searchParams }: Props) {
  const user = await profileUser((await params).owner);
  if (!user) notFound();
  const ctx = await pageContext();
  const { db, viewer, origin, csrf } = ctx;
  // To its owner, the profile is their workspace: every file, with what can be done to it.
  const owner = isSignedIn(ctx) && isOwner(ctx.viewer, { ownerId: user.id }) ? ctx.viewer : null;
  const own = owner !== null;
  const search = await searchParams;
  // `?tab=starred`: the plots the user starred (those the viewer may read), for everyone alike.
  const starredTab = search.tab === 'starred';
  const workspace = owner && !starredTab ? await workspacePage(db, owner, origin, workspaceQuery(search)) : null;
  const { query, invalid } = cursorQuery(own && !starredTab ? {} : search);
  const page = starredTab ? await starredPage(db, viewer, user, query, origin) : own ? null : await profilePage(db, viewer, user, query, origin);
  const undrawable = own ? await listUndrawablePlots(db, user.id) : [];
  // Others see the public ones here; the owner has them all in the workspace.
  const documents = page && !starredTab ? await listPublicDocuments(db, user.id) : [];
  const name = user.nickname || user.username;
  const website = websiteSchema.safeParse(user.website);

  return (
    <main>
      <header className={own ? 'profile profile-own' : 'profile'}>
        <img className="profile-avatar" src={avatarPath(user.username)} alt={`${name}’s avatar`} width={96} height={96} />
        <div className="profile-text">
          <h1>{name}</h1>
          <p className="muted">
            ~{user.username} · joined <time dateTime={user.dateJoined.toISOString()}>{joined.format(user.dateJoined)}</time>
          </p>
          {user.bio && <p className="profile-bio">{user.bio}</p>}
          {website.success ? (
            <p>
              <a href={website.data} rel="nofollow ugc noopener noreferrer">
                {website.data.replace(/^https?:\/\//, '').replace(/\/$/, '')}
              </a>
            </p>
          ) : (
            user.website && <p className="muted">{user.website}</p>
          )}
        </div>
      </header>
      <nav aria-label="Profile" className="sort-switch profile-tabs">
        <a data-tab="plots" href={profilePath(user.username)} aria-current={starredTab ? undefined : 'page'}>
          {own ? 'My files' : 'Plots'}
        </a>
        <a data-tab="starred" href={`${profilePath(user.username)}?tab=starred`} aria-current={starredTab ? 'page' : undefined}>
          Starred
        </a>
      </nav>
      {own && !starredTab && undrawable.length > 0 && (
        <section className="notice undrawable" aria-labelledby="undrawable-heading">
          <h2 id="undrawable-heading">Charts that could not be drawn</h2>
          <p>Drawing these took too long, so they show a placeholder image. Change their figures to draw them again.</p>
          <ul>
            {undrawable.map((p) => (
              <li key={p.n}>
                <Link href={filePath(user.username, p.n)}>{p.filename}</Link>
              </li>
            ))}
          </ul>
        </section>
      )}
      {workspace && csrf && <Workspace username={user.username} data={workspace} csrf={csrf} actions={FILE_ACTIONS} />}
      <DocumentCards rows={documents} />
      {page && (invalid || page.cursorRejected) && (
        <p className="notice" role="status">
          That page link is no longer valid, so here are the newest plots.
        </p>
      )}
      {page && starredTab && (
        <PlotList
          page={page}
          path={profilePath(user.username)}
          params={{ tab: 'starred' }}
          loadPage={moreStarredPlots.bind(null, user.username)}
          empty={
            <>
              <h2>No starred plots yet</h2>
              <p>{own ? 'Plots you star appear here.' : `${name} has not starred any plot you can see.`}</p>
            </>
          }
        />
      )}
      {page && !starredTab && (
        <PlotList
          page={page}
          path={profilePath(user.username)}
          loadPage={moreUserPlots.bind(null, user.username)}
          empty={
            <>
              <h2>No plots yet</h2>
              <p>{name} has no public plots yet.</p>
            </>
          }
        />
      )}
    </main>
  );
}
