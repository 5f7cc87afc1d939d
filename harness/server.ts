// Starts the built app (`next build` ran first) on a free port: the HTTP test suites and the
// benchmarks run against the production server.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './ports';

/** The app as `npm start` serves it (one process) on a free port of 127.0.0.1 with `env` over this
 * process's (or made from the app's URL, for settings that name it); ready once it answers a list. */
export async function startServer(
  env: Record<string, string> | ((url: string) => Record<string, string>),
): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // With `npm start`'s Node flag (package.json).
  const child = spawn(process.execPath, ['--max-semi-space-size=32', 'scripts/start.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', WEB_CONCURRENCY: '1', ...(typeof env === 'function' ? env(url) : env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/v2/plots?page_size=1`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not become ready:\n${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, process: child, stop };
}
