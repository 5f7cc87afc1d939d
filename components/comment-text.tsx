// A comment's text as a person reads it: plain text (React escapes it; no HTML is ever made from it),
// line breaks kept by CSS, and http(s) addresses as links that pass no ranking, referrer or opener.
const URLS = /\bhttps?:\/\/[^\s<>"'`]+/gi;
// Punctuation that ends a sentence around an address rather than belonging to it.
const TRAILING = /[.,;:!?'")\]}]+$/;

/** The text's parts: plain strings and the http(s) URLs in it. */
export function commentParts(text: string): ({ text: string } | { href: string })[] {
  const parts: ({ text: string } | { href: string })[] = [];
  let at = 0;
  for (const match of text.matchAll(URLS)) {
    const raw = match[0].replace(TRAILING, '');
    let href: string | null = null;
    try {
      const url = new URL(raw);
      if (url.protocol === 'http:' || url.protocol === 'https:') href = url.href;
    } catch {
      // not an address after all: stays text
    }
    if (!href) continue;
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ href: raw });
    at = match.index + raw.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}

export function CommentText({ text }: { text: string }) {
  return (
    <p className="comment-text">
      {commentParts(text).map((part, i) =>
        'href' in part ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text, never reordered
          <a key={i} href={part.href} rel="nofollow ugc noopener noreferrer">
            {part.href}
          </a>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
