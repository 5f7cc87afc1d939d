// The renderer's browser as a process: headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core over a pipe), launched marked so that it can be found among this process's children,
// measured (PSS, from /proc) and killed with every process it started.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { chromium, type Browser } from 'playwright-core';
import { BrowserLostError } from './render-jobs';

export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why images cannot be rendered on this machine, or null when they can. */
export function rendererUnavailable(executablePath = chromiumPath()): string | null {
  return existsSync(/*turbopackIgnore: true*/ executablePath) ? null : `no Chromium at ${executablePath} (install Debian's chromium or set CHROMIUM_PATH)`;
}

const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  // WebGL (3D, scattergl, parcoords, splom) draws on SwiftShader, Chromium's software renderer.
  '--enable-unsafe-swiftshader',
  // The machine has no internet: without these, Chromium keeps trying to reach Google's hosts.
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

const BACKGROUND_PRIORITY = 10;
/** How long a close or a probe of the browser may take before it is given up on. */
export const DROP_WAIT_MS = 5000;

/** `promise`'s outcome, or `fallback` after `ms`. */
export const within = <T, F>(ms: number, promise: Promise<T>, fallback: F): Promise<T | F> => {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([promise, new Promise<F>((resolve) => (timer = setTimeout(() => resolve(fallback), ms)))]).finally(() => clearTimeout(timer));
};

/** How long the browser, or a page of it, may take to start. */
export const PREPARE_WAIT_MS = 60_000;

/** `promise`, or BrowserLostError when it fails or takes over PREPARE_WAIT_MS (the browser or a page could not start). */
export async function started<T>(promise: Promise<T>): Promise<T> {
  const done = await within(
    PREPARE_WAIT_MS,
    promise.then((value) => ({ value })),
    null,
  ).catch((error: Error) => {
    throw new BrowserLostError(`the browser could not start: ${error.message}`);
  });
  if (!done) throw new BrowserLostError(`the browser took over ${PREPARE_WAIT_MS} ms to start`);
  return done.value;
}

/** A launched browser: its process, and the switch that marks it as ours. */
export interface LaunchedBrowser {
  browser: Browser;
  pid: number;
  marker: string;
}

/**
 * Launches the browser, marked so that it can be found among this process's children (Playwright
 * does not tell a launched browser's process: a switch Chromium ignores marks it), at background
 * priority. `onGone` is called when it disconnects.
 */
export async function launchBrowser(executablePath: string, onGone: () => void): Promise<LaunchedBrowser> {
  const marker = `--plot-files-renderer=${randomUUID()}`;
  const browser = await chromium.launch({ executablePath, args: [...LAUNCH_ARGS, marker], timeout: 30_000 });
  let pid: number | undefined;
  try {
    pid = await childWithArg(marker);
    if (!pid) throw new Error(`the browser's process (${executablePath}) was not found`);
    browser.on('disconnected', onGone);
    // Rendering is background work: it yields the CPU to serving requests.
    for (const p of await processTree(pid)) {
      try {
        os.setPriority(p, BACKGROUND_PRIORITY);
      } catch {
        // exited meanwhile
      }
    }
    return { browser, pid, marker };
  } catch (error) {
    if (pid) await killBrowser({ browser, pid, marker });
    else await within(DROP_WAIT_MS, browser.close(), null).catch(() => {});
    throw error;
  }
}

/** A process's parent, from /proc (undefined once it has exited). */
async function parentOf(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const ppid = /^PPid:\s+(\d+)/m.exec(status)?.[1];
  return ppid === undefined ? undefined : Number(ppid);
}

/** A process's arguments, from /proc (none once it has exited). */
const argsOf = async (pid: number): Promise<string[]> => (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');

/** The process id of this process's child started with `arg` among its arguments. */
async function childWithArg(arg: string): Promise<number | undefined> {
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    if ((await argsOf(pid)).includes(arg) && (await parentOf(pid)) === process.pid) return pid;
  }
  return undefined;
}

/**
 * Kills a browser and every process it started (Playwright starts it as a process group of its own),
 * unless it has exited already (its pid may be another process's by then), and waits until Playwright
 * has seen it go.
 */
export async function killBrowser({ browser, pid, marker }: LaunchedBrowser): Promise<void> {
  if (!(await argsOf(pid)).includes(marker)) return;
  const gone = new Promise<void>((resolve) => (browser.isConnected() ? browser.once('disconnected', () => resolve()) : resolve()));
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // exited meanwhile
  }
  await within(DROP_WAIT_MS, gone, null);
}

/** A process and all its descendants (from /proc). */
async function processTree(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = await parentOf(pid);
    if (parent !== undefined) parents.set(pid, parent);
  }
  const inTree = (pid: number): boolean => pid === root || (pid > 1 && parents.has(pid) && inTree(parents.get(pid)!));
  return [...parents.keys()].filter(inTree);
}

/** Memory (PSS: pages shared between Chromium's processes counted once) of a process tree, in bytes. */
export async function processTreeMemory(root: number): Promise<number> {
  let total = 0;
  for (const pid of await processTree(root)) {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
    total += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) * 1024;
  }
  return total;
}
