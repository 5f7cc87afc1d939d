import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const alias = {
  '@': fileURLToPath(new URL('.', import.meta.url)),
  // Tests call lib/ directly, as the server does: the server-only guard's server build is empty.
  'server-only': fileURLToPath(new URL('node_modules/server-only/empty.js', import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // Two files at a time on the 2-core machines (vitest's default there is one): most of a test's time
    // is spent waiting on the app, the database or the browser. Measured: lib, http and clients
    // 1,085 s one at a time (the last CI run) and 732 s two at a time, green.
    maxWorkers: 2,
    projects: [
      // Pure functions and the library against real databases (each suite makes its own).
      { resolve: { alias }, test: { name: 'lib', include: ['tests/unit/**/*.test.ts', 'tests/lib/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 180_000 } },
      // The built app over HTTP, started once on a fresh database by the global setup.
      {
        resolve: { alias },
        test: { name: 'http', include: ['tests/http/**/*.test.ts'], globalSetup: ['tests/global-setup.ts'], testTimeout: 60_000, hookTimeout: 180_000 },
      },
      // The official Python (chart_studio) and R (plotly) clients, run as child processes against the
      // built app (tests/clients/): their own calls, through their own code, checked over HTTP.
      {
        resolve: { alias },
        test: { name: 'clients', include: ['tests/clients/**/*.test.ts'], globalSetup: ['tests/global-setup.ts'], testTimeout: 120_000, hookTimeout: 180_000 },
      },
      // The reliability and security suite (npm run test:hardening): privacy by property, the hostile
      // corpus against a database dump, concurrency and a PostgreSQL restart, over HTTP on its own app.
      {
        resolve: { alias },
        test: {
          name: 'hardening',
          include: ['tests/hardening/**/*.test.ts'],
          globalSetup: ['tests/global-setup.ts'],
          // One file at a time: the hostile corpus compares a dump of the whole shared database.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
