// Fetches and parses one grid column off the main thread (a column can be tens of megabytes of
// JSON), answering at most `max` of its values and how many it has: a column of numbers as a
// Float64Array handed over without a copy (a million numbers cloned would hold the page).
import { callApi } from '../api-client';

interface Ask {
  id: number;
  url: string;
  max: number;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Ask>) => void) | null; postMessage(message: unknown, transfer?: Transferable[]): void };

const finite = (v: unknown) => typeof v === 'number' && Number.isFinite(v);

scope.onmessage = async (e) => {
  const { id, url, max } = e.data;
  try {
    const answer = await callApi<{ cols?: { data?: unknown }[] }>(url);
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    const first = answer.body?.cols?.[0]?.data;
    const data = Array.isArray(first) ? (first as unknown[]) : [];
    const kept = data.length > max ? data.slice(0, max) : data;
    if (kept.length > 1000 && kept.every(finite)) {
      const numbers = Float64Array.from(kept as number[]);
      scope.postMessage({ id, values: numbers, total: data.length }, [numbers.buffer]);
    } else scope.postMessage({ id, values: kept, total: data.length });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
};
