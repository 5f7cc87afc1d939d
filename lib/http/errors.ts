// The errors about a request itself that only the API edge gives: a method the path does not answer,
// a body too large or not JSON. (Core's rules throw the others: lib/core/errors.ts.)
import { type ApiError, apiError } from '@/lib/core/errors';

export const payloadTooLarge = (limit: string) => apiError(413, 'PAYLOAD_TOO_LARGE', `Request body is too large; the limit is ${limit}.`);
export const unsupportedMediaType = (type: string) =>
  apiError(415, 'UNSUPPORTED_MEDIA_TYPE', `Unsupported media type "${type}" in request; send application/json.`);

export function methodNotAllowed(method: string, allow: string): ApiError {
  const e = apiError(405, 'METHOD_NOT_ALLOWED', `Method "${method}" not allowed.`);
  e.headers.Allow = allow;
  return e;
}
