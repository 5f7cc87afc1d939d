// HTTP test support: a tiny client for the running app and users made directly in its database.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { openDatabase, type Database } from '@/db/client';
import { createUser } from '@/lib/core/accounts/users';

export const baseUrl = () => inject('baseUrl');

export interface TestUser {
  username: string;
  apiKey: string;
  auth: string;
}

let database: Promise<Database> | undefined;
/** The app's own database (for arranging state the API does not expose, e.g. curation). */
export function appDatabase(): Promise<Database> {
  database ??= openDatabase(inject('databaseUrl'));
  return database;
}

/** How long a test waits for the shared app's worker to render a plot's image: it draws every plot
 * that every test file makes (owners taking turns), and several files run side by side. */
export const RENDER_WAIT_MS = 150_000;

export const basic = (username: string, key: string) => `Basic ${Buffer.from(`${username}:${key}`).toString('base64')}`;

/** A new user with a unique name (suites share one server and database). */
export async function newUser(prefix = 'u'): Promise<TestUser> {
  const { db } = await appDatabase();
  const username = `${prefix}${randomBytes(4).toString('hex')}`;
  const { apiKey } = await createUser(db, { username });
  return { username, apiKey, auth: basic(username, apiKey) };
}

export interface CallOptions {
  user?: TestUser | null;
  body?: unknown;
  /** Raw body text (sent as is). */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

export function call<T = any>(method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
  return callAt<T>(baseUrl(), method, path, opts);
}

/** `call` against the app at `base`. */
export async function callAt<T = any>(base: string, method: string, path: string, opts: CallOptions = {}): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.user) headers.Authorization = opts.user.auth;
  let body: string | Uint8Array | undefined = opts.raw;
  if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, body: body as BodyInit | undefined, redirect: 'manual' });
  const text = await res.text();
  let json: T = undefined as T;
  try {
    json = text ? JSON.parse(text) : (undefined as T);
  } catch {
    // not JSON; the test decides whether that is right
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Uploads columns as a grid and returns `{fid, src(name)}`. */
export async function uploadGrid(user: TestUser, cols: Record<string, unknown[]>, extra: Record<string, unknown> = {}, base = baseUrl()) {
  const res = await callAt(base, 'POST', '/v2/grids', {
    user,
    body: { data: { cols: Object.fromEntries(Object.entries(cols).map(([name, data], order) => [name, { data, order }])) }, ...extra },
  });
  if (res.status !== 201) throw new Error(`grid upload failed: ${res.status} ${res.text}`);
  const file = res.json.file as { fid: string; cols: { name: string; uid: string }[] };
  const src = (...names: string[]) => `${file.fid}:${names.map((n) => file.cols.find((c) => c.name === n)!.uid).join(',')}`;
  return { fid: file.fid, file, src };
}

/** Creates a plot; returns the answer's `file` record. */
export async function createPlot(user: TestUser, body: Record<string, unknown>, base = baseUrl()) {
  const res = await callAt(base, 'POST', '/v2/plots', { user, body });
  if (res.status !== 200) throw new Error(`plot create failed: ${res.status} ${res.text}`);
  return res.json.file as Record<string, any>;
}

/** The contract's error body, with a message mentioning `needle`. */
export function expectError(res: Answer, status: number, needle?: string | RegExp): void {
  const problem = `${res.status} ${res.text.slice(0, 500)}`;
  if (res.status !== status) throw new Error(`expected ${status}, got ${problem}`);
  if (!res.headers.get('content-type')?.startsWith('application/json')) throw new Error(`error without JSON content type: ${problem}`);
  const body = res.json as { errors: { code: string; message: string; path: unknown; field: unknown }[]; detail: string };
  if (!Array.isArray(body?.errors) || !body.errors.length || typeof body.detail !== 'string') throw new Error(`not the contract's error body: ${problem}`);
  for (const e of body.errors)
    if (typeof e.code !== 'string' || typeof e.message !== 'string' || !('path' in e) || !('field' in e)) throw new Error(`bad error item: ${problem}`);
  if (needle && !(typeof needle === 'string' ? body.detail.includes(needle) : needle.test(body.detail)))
    throw new Error(`error does not mention ${needle}: ${problem}`);
}

/**
 * A page's body with file numbers from 4,600,000 to 4,799,999 masked (suites that compare pages give
 * their users counters there: Next's pages echo the requested path) and Next's streamed flight data
 * put in a canonical form: its chunking, line order and row ids vary from one request to the next
 * (rows are numbered as they resolve), so rows are sorted with their ids and references blanked.
 * The CSP script nonce is fresh on every request: it is blanked too.
 */
export function canonical(page: string): string {
  const nonce = /\bnonce="([^"]+)"/.exec(page)?.[1];
  const text = nonce ? page.split(nonce).join('NONCE') : page;
  const flight: string[] = [];
  const rest = text.replace(/<script[^>]*>self\.__next_f\.push\(\[1,"((?:[^"\\]|\\.)*)"\]\)<\/script>/g, (_, s: string) => {
    flight.push(s);
    return '';
  });
  const lines = flight
    .join('')
    .split('\\n')
    .map((line) => line.replace(/^[0-9a-f]+:/, 'row:').replace(/\$[A-Z@]?[0-9a-f]+\b/g, '$ref'))
    .sort();
  return `${rest}\n${lines.join('\n')}`.replace(/\b4[67]\d{5}\b/g, 'N');
}
