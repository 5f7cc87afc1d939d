// Who sees a file, in the one set of words every page, form and editor uses: its visibility (public,
// private or secret), each one's name, and what each means. A private or secret file is also seen by
// the people it is shared with by name (itself or a folder above it), so no hint says "only you".
// Pure: the server reads visibilities with it and the browser's forms and badges say them.

export const VISIBILITIES = ['public', 'private', 'secret'] as const;

/** Who sees a file: everyone, also those given its secret link, or its owner (and the people it is shared with) alone. */
export type Visibility = (typeof VISIBILITIES)[number];

export const visibilityOf = (worldReadable: boolean, secretLink: boolean): Visibility => (worldReadable ? 'public' : secretLink ? 'secret' : 'private');

/** The update fields (PUT/PATCH) that give a file each visibility: the web's sharing forms send these. */
export const VISIBILITY_FIELDS = {
  public: { world_readable: true, share_key_enabled: false },
  private: { world_readable: false, share_key_enabled: false },
  secret: { world_readable: false, share_key_enabled: true },
} as const satisfies Record<Visibility, { world_readable: boolean; share_key_enabled: boolean }>;

export const VISIBILITY_LABEL: Record<Visibility, string> = { public: 'Public', private: 'Private', secret: 'Secret link' };

/**
 * Who can see a file of this visibility, as a sentence: to its owner (`own`: "you", "the people you
 * share it with") or to anyone else ("its owner", "the people it is shared with"); `noun` names the
 * file ("plot", "folder").
 */
export function visibilityHint(visibility: Visibility, { noun = 'file', own = false }: { noun?: string; own?: boolean } = {}): string {
  if (visibility === 'public') return `Anyone can see this ${noun}.`;
  const [owner, people] = own ? ['you', 'the people you share it with'] : ['its owner', 'the people it is shared with'];
  return visibility === 'private'
    ? `Only ${owner} and ${people} can see this ${noun}.`
    : `Only ${owner}, ${people} and whoever has its secret link can see this ${noun}.`;
}
