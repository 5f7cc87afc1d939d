// The browser's one way to call the API, from pages and their workers alike: same origin, with the
// session cookie (which counts for our own pages), so what the editors make is what a client could
// have made. An answer is the body of a success, or the contract's error items
// (`{"errors": [{code, message, path, field}], "detail"}`, docs/api.md): nothing else reads an
// error body. A request that never reached the server throws, as fetch does.
import type { ErrorItem } from '@/lib/core/errors';

export type ApiProblem = ErrorItem;

export type ApiAnswer<T> =
  | { ok: true; status: number; body: T }
  /** `errors` is empty when the answer was not the contract's (a proxy's page, say): say the status then. */
  | { ok: false; status: number; errors: ApiProblem[] };

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** JSON text or bytes as they are, or a value written as JSON. */
  body?: string | Uint8Array<ArrayBuffer> | object;
  signal?: AbortSignal;
  /** Times a "busy" answer (429) is waited out, as its Retry-After says, before it is the answer. */
  busyRetries?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const textOrNull = (v: unknown) => (typeof v === 'string' ? v : null);

/** The contract's error items of an answer's body; none when it is not the contract's body. */
export function problemsOf(body: unknown): ApiProblem[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors
    .filter((e): e is Record<string, unknown> => isRecord(e) && typeof e.message === 'string')
    .map((e) => ({ code: e.code as ApiProblem['code'], message: e.message as string, field: textOrNull(e.field), path: textOrNull(e.path) }));
}

/** An answer's problems as one sentence, or `fallback` (given the status) when it had none. */
export const problemText = (answer: { status: number; errors: ApiProblem[] }, fallback: (status: number) => string): string =>
  answer.errors.map((e) => e.message).join(' ') || fallback(answer.status);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function callApi<T = unknown>(url: string, request: ApiRequest = {}): Promise<ApiAnswer<T>> {
  const { method = 'GET', body, signal, busyRetries = 0 } = request;
  const sent = body === undefined || typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (sent !== undefined) headers['Content-Type'] = 'application/json';
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, { method, headers, body: sent, signal, credentials: 'same-origin' });
    if (res.status === 429 && attempt < busyRetries) {
      await sleep(1000 * Math.max(1, Number(res.headers.get('Retry-After')) || 1));
      continue;
    }
    const parsed: unknown = res.status === 204 ? null : await res.json().catch(() => null);
    return res.ok ? { ok: true, status: res.status, body: parsed as T } : { ok: false, status: res.status, errors: problemsOf(parsed) };
  }
}
