// The sign-in throttle page's "Try again in …": readable units, and the date once a day or more away.
import { describe, expect, it } from 'vitest';
import { retryWait } from '@/lib/web/sign-in';

const NOW = new Date('2026-11-24T22:50:00Z');

describe('retryWait', () => {
  it.each<[number, string]>([
    [1, '1 second (at 22:50 UTC)'],
    [89, '89 seconds (at 22:51 UTC)'],
    [90, '2 minutes (at 22:51 UTC)'],
    [900, '15 minutes (at 23:05 UTC)'],
    [5399, '90 minutes (at 00:19 UTC)'],
    [5400, '2 hours (at 00:20 UTC)'],
    [86_399, '24 hours (at 22:49 UTC)'],
    [86_400, '24 hours (at 2026-11-25 22:50 UTC)'],
    [48 * 3600, '2 days (at 2026-11-26 22:50 UTC)'],
    [365 * 86_400, '365 days (at 2027-11-24 22:50 UTC)'],
  ])('%i s: %s', (seconds, text) => {
    expect(retryWait(seconds, NOW)).toBe(text);
  });
});
