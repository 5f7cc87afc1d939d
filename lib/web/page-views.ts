// Counting a plot page's view: asked by the page's loader once it has everything the page shows
// (plot-page.ts), written after the page is sent (Next's `after`), so a page's answer neither waits for
// the write nor fails with it, and a refused or missing page counts nothing. What counts is
// lib/core/plots/view-counts.ts.
import 'server-only';
import { headers } from 'next/headers';
import { after } from 'next/server';
import { clientAddress } from '@/lib/core/client-address';
import { rateLimitConfig } from '@/lib/core/accounts/rate-limit';
import { countView, visitorOf } from '@/lib/core/plots/view-counts';
import type { PageContext } from './page-context';

/** Counts this request's view of the plot `fileId` once the page is sent (once per visitor a day). */
export async function countPageView(ctx: PageContext, fileId: number): Promise<void> {
  const visitor = visitorOf(ctx.viewer, clientAddress(new Headers(await headers()), rateLimitConfig().trustedProxies));
  after(async () => {
    try {
      await countView(ctx.db, fileId, visitor);
    } catch (error) {
      // A view lost to a database hiccup is not worth the visitor's page.
      console.error('View not counted:', (error as Error).message);
    }
  });
}
