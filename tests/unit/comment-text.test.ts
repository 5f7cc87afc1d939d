// A comment's text as its page shows it (components/comment-text.tsx): only http(s) addresses become
// links, without the punctuation that ends their sentence; everything else stays text.
import { describe, expect, it } from 'vitest';
import { commentParts } from '@/components/comment-text';

const CASES: [string, ReturnType<typeof commentParts>][] = [
  ['plain words', [{ text: 'plain words' }]],
  ['see https://example.org/a?b=1.', [{ text: 'see ' }, { href: 'https://example.org/a?b=1' }, { text: '.' }]],
  ['(http://example.org/x)', [{ text: '(' }, { href: 'http://example.org/x' }, { text: ')' }]],
  ['HTTPS://EXAMPLE.ORG', [{ href: 'HTTPS://EXAMPLE.ORG' }]],
  ['javascript:alert(1)', [{ text: 'javascript:alert(1)' }]],
  ['[x](javascript:alert(1))', [{ text: '[x](javascript:alert(1))' }]],
  ['data:text/html,<script>alert(1)</script>', [{ text: 'data:text/html,<script>alert(1)</script>' }]],
  ['<a href="https://evil.example">x</a>', [{ text: '<a href="' }, { href: 'https://evil.example' }, { text: '">x</a>' }]],
  ['ftp://example.org/file', [{ text: 'ftp://example.org/file' }]],
  ['http://', [{ text: 'http://' }]],
  ['line one\nhttps://a.example\nline three', [{ text: 'line one\n' }, { href: 'https://a.example' }, { text: '\nline three' }]],
  ['xhttps://a.example', [{ text: 'xhttps://a.example' }]],
];

describe('commentParts', () => {
  it.each(CASES)('%j', (text, parts) => {
    expect(commentParts(text)).toEqual(parts);
  });
});
