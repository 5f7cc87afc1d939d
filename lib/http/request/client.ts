// What a write came from, for a file's history (lib/core/files/versions.ts): named by the request's headers.
import 'server-only';
import type { Client } from '@/lib/core/files/versions';

/**
 * The client of a request: Python or R (plotly's clients name their platform in
 * `Plotly-Client-Platform`, else their HTTP libraries in User-Agent), the web (a browser: our pages,
 * the chart editor's saves), else any other API caller. A label only: it decides nothing.
 */
export function clientOf(headers: Headers): Client {
  const platform = (headers.get('plotly-client-platform') ?? '').toLowerCase();
  if (platform.startsWith('python')) return 'python';
  if (/^r\b/.test(platform)) return 'r';
  const agent = (headers.get('user-agent') ?? '').toLowerCase();
  if (/python|requests\//.test(agent)) return 'python';
  if (/\bhttr\/|\br-curl\/|\brcurl\b/.test(agent)) return 'r';
  if (agent.startsWith('mozilla/')) return 'web';
  return 'api';
}
