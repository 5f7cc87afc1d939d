// The headers every HTML page gets from proxy.ts, per request: a strict Content-Security-Policy whose
// script nonce Next.js applies to its own scripts (it reads the nonce from the request's CSP), and the
// frame rules (only the embed page may be framed, by any site). Headers that never vary (nosniff,
// Referrer-Policy, Permissions-Policy) come from next.config.mjs for every response, API included.

import 'server-only';
import { fileAddress } from '@/lib/shared/urls';
export interface PageHeadersOptions {
  nonce: string;
  /** The embed page: any site may frame it. */
  frameable: boolean;
  /** Served over https (PUBLIC_URL): upgrade stray http requests and pin https. */
  https: boolean;
}

export function pageSecurityHeaders({ nonce, frameable, https }: PageHeadersOptions): Record<string, string> {
  const csp = [
    "default-src 'self'",
    // 'strict-dynamic' lets the nonced scripts load the rest (chunks, the geo assets script).
    // 'unsafe-eval': plotly.js's regl-based WebGL traces (scattergl, splom, parcoords) compile their
    // draw commands with `new Function`; refused, they fail as "WebGL is not supported".
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' 'unsafe-eval'`,
    // plotly.js sets style attributes and injects <style> elements, which carry no nonce.
    "style-src 'self' 'unsafe-inline'",
    // data: and blob: images are plotly's snapshots, exports and embedded images.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameable ? '*' : "'none'"}`,
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    ...(frameable ? {} : { 'X-Frame-Options': 'DENY' }),
    ...(https ? { 'Strict-Transport-Security': 'max-age=31536000' } : {}),
  };
}

/** The embed page, in its public forms (`/~owner/n.embed`, `/~owner/n/embed`) and its internal route. */
export const isEmbedPath = (pathname: string) => fileAddress(pathname)?.form === 'embed' || /^\/files\/[^/]+\/\d+\/embed\/?$/.test(pathname);
