// Request bodies: JSON content type (or none), at most the endpoint's limit (413 beyond, the rest
// never read), valid UTF-8.
import 'server-only';
import { parseError } from '@/lib/core/errors';
import { payloadTooLarge, unsupportedMediaType } from './errors';
import { MiB } from '@/lib/core/json-text';

/** A JSON body's bytes: JSON content type (or none), at most `limitBytes` (413 beyond), not yet decoded. */
export async function readJsonBytes(req: Request, limitBytes: number): Promise<Uint8Array> {
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
  return readBytes(req, limitBytes, label);
}

/** A body's text: 400 when its bytes are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw parseError('JSON parse error - the request body is not valid UTF-8.');
  }
}

async function readBytes(req: Request, limit: number, label: string): Promise<Uint8Array> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  // Bytes are copied into place as they arrive (a body of up to 256 MiB is never copied whole in one
  // go on the event loop): into the declared length, else into a buffer that doubles.
  const declared = Number(req.headers.get('content-length'));
  let out = new Uint8Array(Number.isSafeInteger(declared) && declared > 0 ? declared : 64 * 1024);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > limit) {
      await reader.cancel();
      // The rest of the body is never read, so the connection cannot carry another request.
      const error = payloadTooLarge(label);
      error.headers.Connection = 'close';
      throw error;
    }
    if (size + value.byteLength > out.length) {
      const grown = new Uint8Array(Math.min(limit, Math.max(size + value.byteLength, out.length * 2)));
      grown.set(out.subarray(0, size));
      out = grown;
    }
    out.set(value, size);
    size += value.byteLength;
  }
  return size === out.length ? out : out.subarray(0, size);
}
