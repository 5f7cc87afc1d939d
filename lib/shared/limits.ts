// The limits a person meets in the browser's fields and editors, one number each: the server's schemas
// (lib/core, lib/shared/names.ts) and the fields (components/) import the same one, so a field never
// takes what the server refuses.

/** Characters of a file's name, and of each folder name of a path. */
export const MAX_FILENAME_CHARS = 255;
/** Characters of a folder path as typed (`a/b`), and its levels. */
export const MAX_PATH_CHARS = 1024;
export const MAX_PATH_LEVELS = 20;

/** Characters of a grid column's name. */
export const MAX_COLUMN_NAME_CHARS = 1024;

/** Characters of a plot's title and of its caption. */
export const MAX_PLOT_TITLE_CHARS = 1000;
export const MAX_CAPTION_CHARS = 100_000;

/** A comment's length in characters (UTF-16 units, so at most three times as many UTF-8 bytes). */
export const COMMENT_MAX_CHARS = 5000;

/** Characters of a search query (docs/search.md). */
export const MAX_QUERY_CHARS = 200;

/** Characters of a password, of an email address, and of what sign-in takes (a username or an email address). */
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;
export const MAX_EMAIL_CHARS = 254;

/** Characters of a profile's fields (/settings). */
export const PROFILE_LIMITS = { nickname: 100, bio: 2000, website: 500 } as const;

/** The limits of one dashboard's or presentation's content (docs/api.md). */
export const CONTENT_LIMITS = {
  /** UTF-8 bytes of the content text. */
  bytes: 1024 * 1024,
  /** Boxes of a dashboard (its nesting is bounded too: JSON at most 100 levels deep). */
  boxes: 100,
  /** Slides of a presentation, and children of one slide. */
  slides: 500,
  slideChildren: 100,
  /** Plots one document names (each is looked up when it is saved and drawn). */
  plots: 100,
  /** Characters of a title, of a text box's text, of one line of a slide's text, of a URL, of a code pane's source, of a style value. */
  title: 1000,
  text: 65_536,
  line: 10_000,
  url: 8192,
  /** Characters of an image kept in a slide (a `data:` URL: what the deck editor's "Add image slide" stores). */
  image: 700_000,
  source: 65_536,
  style: 2000,
} as const;

/**
 * A trace's data steps (its `transforms`: lib/shared/figures/apply-transforms.ts): steps a trace, an
 * aggregate's functions, a filter's values and the characters of one value.
 */
export const TRANSFORM_LIMITS = { transforms: 10, aggregations: 20, values: 1000, valueChars: 1000 } as const;
