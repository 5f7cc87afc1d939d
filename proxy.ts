// Next.js answers 500 for a dynamic segment with an undecodable escape (`/v2/plots/%`, vercel/next.js
// #92527). Such a URL names nothing: answer the 404 a missing file gets. Matched only for paths that
// hold a `%`, so the proxy never buffers (and caps) the bodies of ordinary API writes.
import { NextResponse, type NextRequest } from 'next/server';
import { notFound } from '@/lib/errors';

export function proxy(req: NextRequest) {
  try {
    decodeURIComponent(req.nextUrl.pathname);
    return NextResponse.next();
  } catch {
    if (req.nextUrl.pathname.startsWith('/v2/')) {
      return NextResponse.json(notFound().body(), { status: 404, headers: { Vary: 'Accept' } });
    }
    return new NextResponse('<!DOCTYPE html><title>Not found</title><h1>404: This page could not be found.</h1>', {
      status: 404,
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  }
}

export const config = { matcher: ['/(.*%.*)'] };
