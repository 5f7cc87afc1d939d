// Starts the built app (`next build` ran first) against a fresh Postgres database for the HTTP
// tests, and drops that database afterwards.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { adminUrl, createDatabaseName, dropDatabase, createDatabase } from './support/postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    databaseUrl: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function startServer(env: Record<string, string>): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn('node_modules/.bin/next', ['start', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/v2/plots?page_size=1`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`next start did not become ready:\n${output}`);
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

export default async function setup(project: TestProject) {
  const name = createDatabaseName('http');
  await createDatabase(name);
  const databaseUrl = adminUrl(name);
  // The suites write far faster than any person (hundreds of creates in a burst, all from 127.0.0.1):
  // rate limits are off here and tested on servers of their own (rate-limit.test.ts).
  const server = await startServer({ DATABASE_URL: databaseUrl, DEMO_SEED: 'false', RATE_LIMIT_WRITES_PER_KEY: '0', RATE_LIMIT_WRITES_PER_ADDRESS: '0' });
  project.provide('baseUrl', server.url);
  project.provide('databaseUrl', databaseUrl);
  return async () => {
    await server.stop();
    await dropDatabase(name);
  };
}
