// The head of a file's page (plot, grid, dashboard, presentation): its sharing badge, owner, dates
// and the link to whom it is shared with.
import Link from 'next/link';
import type { OwnedFile } from '@/lib/core/files/files';
import { type Visibility, VISIBILITY_LABEL, visibilityHint } from '@/lib/shared/sharing';
import { avatarPath, peoplePath, profilePath } from '@/lib/shared/urls';

const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });
export const DateTime = ({ date }: { date: Date }) => <time dateTime={date.toISOString()}>{dateFormat.format(date)}</time>;

/** The file's sharing, its hint told to its owner (`own`) or to anyone else. */
export function Badge({ visibility, own }: { visibility: Visibility; own: boolean }) {
  return (
    <span className="badge" data-visibility={visibility} title={visibilityHint(visibility, { own })}>
      {VISIBILITY_LABEL[visibility]}
    </span>
  );
}

export function Owner({ owner }: { owner: string }) {
  return (
    <Link href={profilePath(owner)} className="file-owner">
      <img src={avatarPath(owner)} alt="" width={28} height={28} />
      {owner}
    </Link>
  );
}

/** To the owner, where to share the file by name; to a collaborator, that it is shared with them (and with whom). */
export function PeopleLink({ file, own }: { file: OwnedFile; own: boolean }) {
  if (!own && !file.collaboration) return null;
  return (
    <Link className="button secondary" href={peoplePath(file.owner, file.n)}>
      {own ? 'Share with people' : file.collaboration === 'write' ? 'Shared with you: can edit' : 'Shared with you: can view'}
    </Link>
  );
}
