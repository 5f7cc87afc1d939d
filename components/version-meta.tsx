// One version's when, by whom and with what client, as the history pages show it.
import type { VersionItem } from '@/lib/web/plot-history';

const CLIENT_LABEL: Record<string, string> = { web: 'the web', python: 'Python', r: 'R', api: 'the API' };
const dateFormat = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

export function VersionMeta({ version }: { version: Pick<VersionItem, 'date_modified' | 'author' | 'client' | 'title'> }) {
  return (
    <ul className="file-meta version-meta">
      <li>
        Saved <time dateTime={version.date_modified}>{dateFormat.format(new Date(version.date_modified))} UTC</time>
      </li>
      <li>by {version.author ?? 'a deleted account'}</li>
      <li>with {version.client ? CLIENT_LABEL[version.client] : 'an unknown client'}</li>
      {version.title?.trim() && <li className="version-title">Title: {version.title}</li>}
    </ul>
  );
}
