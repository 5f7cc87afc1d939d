// What ends at a graceful stop (SIGTERM/SIGINT; scripts/serve.mjs then waits for open connections):
// the long-lived ones, streams and event streams, which would otherwise keep the process forever.
type Stop = () => void;

declare global {
  var __plotFilesStops: Set<Stop> | undefined;
}

/** Calls `stop` when the process is told to stop; returns what forgets it. */
export function onStop(stop: Stop): () => void {
  if (!globalThis.__plotFilesStops) {
    const stops = new Set<Stop>();
    globalThis.__plotFilesStops = stops;
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.once(signal, () => {
        for (const stop of [...stops]) stop();
      });
  }
  const stops = globalThis.__plotFilesStops;
  stops.add(stop);
  return () => stops.delete(stop);
}
