// Browser tests (e2e/) against the built app, in Debian's Chromium (never a downloaded browser).
// `npm test` runs `next build` first; e2e/server.sh starts the build on a throwaway PostgreSQL database.
import { defineConfig } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 3400);
const baseURL = `http://127.0.0.1:${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['./e2e/summary-reporter.ts']],
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // WebGL (3D, scattergl, parcoords, splom) draws on SwiftShader, Chromium's software renderer.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--enable-unsafe-swiftshader',
      ],
    },
    // Recording a trace costs every test a good part of its time; CI keeps none, locally a failure keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'js', grepInvert: /@no-js/, use: { javaScriptEnabled: true } },
    // Server-rendered paging, sorting and filtering: plain links and forms, no JavaScript at all.
    { name: 'no-js', grep: /@no-js/, use: { javaScriptEnabled: false } },
  ],
  webServer: {
    command: 'bash e2e/server.sh',
    url: `${baseURL}/v2/plots?page_size=1`,
    env: { E2E_PORT: String(PORT) },
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
