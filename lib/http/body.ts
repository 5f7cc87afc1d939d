// Request bodies: JSON content type (or none), at most the endpoint's limit (413 beyond, the rest
// never read), valid UTF-8.
import 'server-only';
import { parseError, payloadTooLarge, unsupportedMediaType } from '@/lib/core/errors';
import { MiB, parseJsonText } from '@/lib/core/json-text';

/** Reads a JSON body: JSON content type (or none), at most `limit` bytes, valid UTF-8, at most
 * 100 levels deep, no `__proto__`, no NUL characters or lone surrogates (Postgres cannot store them). */
export async function readJson(req: Request, limitBytes: number): Promise<unknown> {
  return parseJsonText(await readJsonText(req, limitBytes));
}

/** The body's text under readJson's transport rules (type, size, UTF-8), not yet parsed. */
export async function readJsonText(req: Request, limitBytes: number): Promise<string> {
  const type = req.headers.get('content-type');
  if (type && !/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type.trim())) {
    throw unsupportedMediaType(type.split(';')[0].trim().slice(0, 100));
  }
  const label = `${limitBytes / MiB} MiB`;
  if (Number(req.headers.get('content-length')) > limitBytes) {
    const error = payloadTooLarge(label);
    error.headers.Connection = 'close';
    throw error;
  }
  const bytes = await readBytes(req, limitBytes, label);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw parseError('JSON parse error - the request body is not valid UTF-8.');
  }
}


async function readBytes(req: Request, limit: number, label: string): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      // The rest of the body is never read, so the connection cannot carry another request.
      const error = payloadTooLarge(label);
      error.headers.Connection = 'close';
      throw error;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

