// A clock a test moves by hand (lib/core/clock.ts): it stands still until told to go on.
import type { Clock } from '@/lib/core/clock';

export interface ManualClock extends Clock {
  now(): Date;
  /** Moves the clock `seconds` on. */
  advance(seconds: number): void;
}

/** A clock at `start`, by default the start of this UTC day: every window of a day or less begins there, so none ends until the clock is moved. */
export function manualClock(start = Math.floor(Date.now() / 86_400_000) * 86_400_000): ManualClock {
  let at = start;
  return {
    now: () => new Date(at),
    advance: (seconds) => {
      at += seconds * 1000;
    },
  };
}
