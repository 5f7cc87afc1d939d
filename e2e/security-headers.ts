// A page's security headers, checked by e2e/security-headers.spec.ts and on every page type that
// e2e/a11y.spec.ts loads (one load of a page for both): a strict Content-Security-Policy with a
// fresh script nonce, nosniff, a referrer policy, and framing refused but for the embed page.
import type { Response } from '@playwright/test';
import { expect } from './support';

/** The policy every page gets (the embed page: any site may frame it). */
const expectedPolicy = (nonce: string, frameable: boolean) => ({
  'default-src': "'self'",
  'script-src': `'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`,
  'style-src': "'self' 'unsafe-inline'",
  'img-src': "'self' data: blob:",
  'font-src': "'self' data:",
  'connect-src': "'self'",
  'worker-src': "'self' blob:",
  'object-src': "'none'",
  'base-uri': "'none'",
  'form-action': "'self'",
  'frame-ancestors': frameable ? '*' : "'none'",
});

/** Asserts a page's security headers; returns its script nonce. */
export function expectPageHeaders(headers: Record<string, string>, frameable = false): string {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['x-frame-options']).toBe(frameable ? undefined : 'DENY');
  const csp = headers['content-security-policy'] ?? '';
  const nonce = /'nonce-([A-Za-z0-9+/]{16,}={0,2})'/.exec(csp)?.[1] ?? '';
  expect(nonce, `a script nonce in ${csp}`).not.toBe('');
  const directives = Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name, values.join(' ')]),
  );
  expect(directives).toEqual(expectedPolicy(nonce, frameable));
  return nonce;
}

/** Asserts a page's headers and that Next.js put the page's nonce on every script of it (a page of
 * none, `scriptless`, is a plain page the app writes itself). */
export async function expectSecurePage(res: Response, { frameable = false, scriptless = false } = {}): Promise<void> {
  const nonce = expectPageHeaders(await res.allHeaders(), frameable);
  const scripts = (await res.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(scripts.length > 0, 'scripts on the page').toBe(!scriptless);
  expect(
    scripts.filter((s) => !s.includes(`nonce="${nonce}"`)),
    'scripts without the nonce',
  ).toEqual([]);
}
