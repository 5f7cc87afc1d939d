// Fetches and parses one grid column off the main thread (a column can be tens of megabytes of
// JSON), answering at most `max` of its values and how many it has.
import { callApi } from '../api-client';

interface Ask {
  id: number;
  url: string;
  max: number;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Ask>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = async (e) => {
  const { id, url, max } = e.data;
  try {
    const answer = await callApi<{ cols?: { data?: unknown }[] }>(url);
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    const first = answer.body?.cols?.[0]?.data;
    const data = Array.isArray(first) ? (first as unknown[]) : [];
    scope.postMessage({ id, values: data.length > max ? data.slice(0, max) : data, total: data.length });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
};
