// The public origin every emitted URL is built from (API records, pages, the session cookie's
// Secure flag, the same-site check for cookie writes), read from a request's headers.

/**
 * PUBLIC_URL, else the request's own origin (honouring X-Forwarded-Proto / X-Forwarded-Host from a
 * proxy in front), from the request's headers and the URL the server saw.
 */
export function originFrom(headers: Headers, fallback: URL): string {
  const configured = process.env.PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  // Only well-formed values reach emitted URLs: a malformed forwarded host falls back to the Host
  // header (what the client asked for), then to the URL Next saw.
  const host = [firstValue(headers.get('x-forwarded-host')), headers.get('host') ?? undefined].find((h) => h !== undefined && HOST.test(h)) ?? fallback.host;
  const proto = firstValue(headers.get('x-forwarded-proto'))?.toLowerCase();
  return `${proto === 'https' || proto === 'http' ? proto : fallback.protocol.replace(':', '')}://${host}`;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function firstValue(header: string | null): string | undefined {
  const v = header?.split(',')[0]?.trim();
  return v || undefined;
}
