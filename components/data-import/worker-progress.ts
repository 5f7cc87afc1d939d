// The data import worker's progress, as the page shows it (messages.ts).
import type { FromWorker } from './messages';

export const progress = (phase: 'read' | 'store', fraction: number) => postMessage({ type: 'progress', phase, fraction } satisfies FromWorker);
