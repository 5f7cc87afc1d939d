// Runs the official clients' scenarios (tests/clients/python_client.py, tests/clients/r_client.R)
// as child processes against a test server. Each run gets a fresh HOME (both clients read and write
// ~/.plotly) and a clean environment; a Python run ends with one `RESULT <json>` line on stdout, an
// R run (several scenarios, each as its own user) with one `RESULT` or `FAILED` line per scenario. A
// failure throws with the client's own error, its traceback and the last HTTP exchanges.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestUser } from './api';
import type { TlsFront } from './tls-front';

const CLIENTS = fileURLToPath(new URL('../clients', import.meta.url));
/** Debian's interpreters (the pyenv `python3` on some PATHs lacks the client's dependencies). */
const PYTHON = '/usr/bin/python3';
const RSCRIPT = '/usr/bin/Rscript';

const TAIL = 12_000;

interface Run {
  /** What a failure message is headed with. */
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  timeoutMs: number;
  /** More to show on failure (the TLS front's log of exchanges). */
  context?: () => string;
}

/** Runs the client to its end: its exit code and output, and why it failed to end well. */
async function runClient({ command, args, env, timeoutMs }: Run): Promise<{ stdout: string; stderr: string; why: string | null }> {
  const home = mkdtempSync(path.join(tmpdir(), 'pf-client-home-'));
  try {
    const child: ChildProcess = spawn(command, args, {
      cwd: CLIENTS,
      env: { NODE_ENV: 'test', PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: home, TMPDIR: home, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c) => resolve(c));
    });
    clearTimeout(timer);
    return { stdout, stderr, why: timedOut ? `killed after ${timeoutMs / 1000} s` : code === 0 ? null : `exit ${code}` };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function failure(run: Run, why: string, stdout: string, stderr: string): Error {
  const extra = run.context?.();
  return new Error(
    [
      `${run.label} failed (${why})`,
      stdout.trim() && `--- stdout ---\n${stdout.trim().slice(-TAIL)}`,
      `--- stderr ---\n${stderr.trim().slice(-TAIL)}`,
      extra && `--- the last exchanges through the TLS front (oldest first) ---\n${extra}`,
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

async function runScenario<T>(run: Run): Promise<T> {
  const { stdout, stderr, why } = await runClient(run);
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!why && line) return JSON.parse(line.slice('RESULT '.length)) as T;
  throw failure(run, why ?? 'exit 0 without a RESULT line', stdout, stderr);
}

/** Runs `python_client.py <scenario>` (or another `script` of tests/clients, with more `env`) as `user` against the app at `url`. */
export function python<T = any>(
  url: string,
  user: TestUser,
  scenario: string,
  timeoutMs = 90_000,
  { script = 'python_client.py', env = {} }: { script?: string; env?: Record<string, string> } = {},
): Promise<T> {
  return runScenario<T>({
    label: `python3 tests/clients/${script} ${scenario}`,
    command: PYTHON,
    args: [script, scenario],
    env: {
      PYTHONPATH: path.join(CLIENTS, 'vendor'),
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONNOUSERSITE: '1',
      PF_URL: url,
      PF_USERNAME: user.username,
      PF_API_KEY: user.apiKey,
      ...env,
    },
    timeoutMs,
  });
}

/**
 * Runs `r_client.R` once for `scenarios`, each as a user of its own, against the app behind `front`
 * (one R start: loading plotly takes seconds): each scenario's result, or the error it failed with.
 */
export async function rscripts(front: TlsFront, scenarios: { scenario: string; user: TestUser }[], timeoutMs = 300_000): Promise<Map<string, Promise<any>>> {
  const start = front.mark();
  const run: Run = {
    label: `Rscript tests/clients/r_client.R ${scenarios.map((s) => s.scenario).join(' ')}`,
    command: RSCRIPT,
    args: ['r_client.R', ...scenarios.map((s) => s.scenario)],
    env: {
      // plotly.R's own settings (R/utils.R: grab(), get_domain()); the user's, one per scenario
      PF_USERS: JSON.stringify(scenarios.map(({ user }) => ({ username: user.username, api_key: user.apiKey }))),
      plotly_domain: front.url,
      plotly_api_domain: front.url,
      // the front's self-signed certificate, trusted through httr's config (r_client.R)
      PF_CA_FILE: front.caFile,
    },
    timeoutMs,
    context: () => front.log(start),
  };
  const { stdout, stderr, why } = await runClient(run);
  const outcomes = new Map<string, Promise<any>>();
  for (const l of stdout.split('\n')) {
    const [, word, name, json] = /^(RESULT|FAILED) (\S+) (.*)$/.exec(l) ?? [];
    if (!word) continue;
    const value = JSON.parse(json);
    outcomes.set(
      name,
      word === 'RESULT' ? Promise.resolve(value) : Promise.reject(failure({ ...run, label: `r_client.R ${name}` }, String(value), '', stderr)),
    );
  }
  for (const { scenario } of scenarios) {
    if (!outcomes.has(scenario)) outcomes.set(scenario, Promise.reject(failure(run, why ?? `no line for ${scenario}`, stdout, stderr)));
    // Read by its test; a rejection seen by none is the failure of a test that was not run.
    outcomes.get(scenario)!.catch(() => {});
  }
  return outcomes;
}
