// Every HTML page gets its security headers here, with a fresh CSP nonce per request (Next.js reads
// it from the request's Content-Security-Policy and puts it on its own scripts). Not matched: the
// JSON API, static chunks, images, CSV/JSON downloads, the geo assets script, avatars and the icon,
// nor prefetches; so the proxy never buffers (and caps) the bodies of ordinary API writes.
//
// Paths holding a `%` are matched too: Next.js answers 500 for a dynamic segment with an undecodable
// escape (`/v2/plots/%`, vercel/next.js #92527). Such a URL names nothing: answer the 404 a missing
// file gets.
import { randomBytes } from 'node:crypto';
import { NextResponse, type NextRequest } from 'next/server';
import { notFound } from '@/lib/core/errors';
import { isEmbedPath, pageSecurityHeaders } from '@/lib/web/security-headers';

export function proxy(req: NextRequest) {
  const { pathname } = req.nextUrl;
  try {
    decodeURIComponent(pathname);
  } catch {
    if (isApiPath(pathname)) {
      return NextResponse.json(notFound().body(), { status: 404, headers: { Vary: 'Accept', 'Cache-Control': 'no-store' } });
    }
    return new NextResponse('<!DOCTYPE html><title>Not found</title><h1>404: This page could not be found.</h1>', {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...pageHeaders(pathname) },
    });
  }
  if (isApiPath(pathname)) return NextResponse.next();

  const headers = pageHeaders(pathname);
  const requestHeaders = new Headers(req.headers);
  requestHeaders.set('Content-Security-Policy', headers['Content-Security-Policy']);
  const res = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) res.headers.set(name, value);
  return res;
}

const isApiPath = (pathname: string) => pathname === '/v2' || pathname.startsWith('/v2/');

const pageHeaders = (pathname: string) =>
  pageSecurityHeaders({
    nonce: randomBytes(16).toString('base64'),
    frameable: isEmbedPath(pathname),
    https: process.env.PUBLIC_URL?.startsWith('https:') ?? false,
  });

export const config = {
  matcher: [
    '/(.*%.*)',
    {
      source:
        '/((?!v2(?:/|$)|_next/static/|_next/image|assets/plotly-geo-assets\\.js|avatars/|icon\\.svg|~[^/]+/\\d+\\.(?:png|json|csv)$|~[^/]+/\\d+/view$|files/[^/]+/\\d+/(?:image|json|csv|view)$).*)',
      missing: [
        { type: 'header', key: 'next-router-prefetch' },
        { type: 'header', key: 'purpose', value: 'prefetch' },
      ],
    },
  ],
};
