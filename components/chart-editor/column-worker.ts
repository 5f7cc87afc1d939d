// Fetches and parses one grid column off the main thread (a column can be tens of megabytes of
// JSON), answering at most `max` of its values and how many it has.
interface Ask {
  id: number;
  url: string;
  max: number;
}

const scope = self as unknown as { onmessage: ((e: MessageEvent<Ask>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = async (e) => {
  const { id, url, max } = e.data;
  try {
    const res = await fetch(url, { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { cols?: { data?: unknown }[] };
    const data = Array.isArray(body.cols?.[0]?.data) ? (body.cols[0].data as unknown[]) : [];
    scope.postMessage({ id, values: data.length > max ? data.slice(0, max) : data, total: data.length });
  } catch (error) {
    scope.postMessage({ id, error: String(error) });
  }
};
