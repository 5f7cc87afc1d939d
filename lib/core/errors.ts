// The one error type of the service. Anything thrown as ApiError reaches the client as the contract's
// error body; anything else is logged and answered with a generic 500 (never a stack trace).

export const ERROR_CODES = [
  'INVALID',
  'PARSE_ERROR',
  'NOT_AUTHENTICATED',
  'AUTHENTICATION_FAILED',
  'PERMISSION_DENIED',
  'NOT_FOUND',
  'CONFLICT',
  'METHOD_NOT_ALLOWED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'THROTTLED',
  'SERVICE_UNAVAILABLE',
  'SERVER_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorItem {
  code: ErrorCode;
  message: string;
  path: string | null;
  field: string | null;
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorItem[];
  readonly headers: Record<string, string>;

  constructor(status: number, errors: ErrorItem[], headers: Record<string, string> = {}) {
    super(errors.map((e) => e.message).join('\n'));
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }

  body(): { errors: ErrorItem[]; detail: string } {
    return { errors: this.errors, detail: this.errors.map((e) => e.message).join('\n') };
  }
}

/** One problem as an error (the request's own, with no field, unless given). */
export function apiError(status: number, code: ErrorCode, message: string, field: string | null = null, path: string | null = null) {
  return new ApiError(status, [{ code, message, field, path }]);
}

/** 400 naming the field (or JSON path) at fault: "figure: This field is required." */
export function invalid(field: string | null, message: string): ApiError {
  return invalidMany([{ field: field ?? 'body', message }]);
}

/** Several 400 problems at once (figure validation reports every raw array it finds). */
export function invalidMany(items: { field: string; message: string }[]): ApiError {
  return new ApiError(
    400,
    items.map(({ field, message }) => {
      const top = field.split(/[.[]/)[0];
      // `path` is the JSON path when the problem is inside a field (figure.data[0].y), else null.
      return {
        code: 'INVALID' as const,
        message: field === 'body' ? message : `${field}: ${message}`,
        field: field === 'body' ? null : top,
        path: top === field ? null : field,
      };
    }),
  );
}

export const parseError = (message: string) => apiError(400, 'PARSE_ERROR', message);
export const notAuthenticated = () => apiError(401, 'NOT_AUTHENTICATED', 'Authentication credentials were not provided.');
export const badApiKey = () => apiError(401, 'AUTHENTICATION_FAILED', 'Bad API key');
export const permissionDenied = (message = 'You do not have permission to perform this action.') => apiError(403, 'PERMISSION_DENIED', message);
/** The single 404 for missing, deleted and unreadable files alike: no existence leak. */
export const notFound = () => apiError(404, 'NOT_FOUND', 'Not found.');

/** 409: the write was based on data changed since (nothing was written). */
export const conflict = (message: string) => apiError(409, 'CONFLICT', message);

export function serviceUnavailable(retryAfterSeconds = 1, message = 'The database is unavailable; try again shortly.'): ApiError {
  const e = apiError(503, 'SERVICE_UNAVAILABLE', message);
  e.headers['Retry-After'] = String(retryAfterSeconds);
  return e;
}

/** 429: the caller's write allowance is used up for now (with when to come back). */
export function throttled(retryAfterSeconds: number, headers: Record<string, string>): ApiError {
  const e = apiError(429, 'THROTTLED', `Request was throttled. Expected available in ${retryAfterSeconds} seconds.`);
  Object.assign(e.headers, headers, { 'Retry-After': String(retryAfterSeconds) });
  return e;
}

/** 429: work the caller may not start now (too much of theirs in flight, or the server's queue full). */
export function busy(message: string, retryAfterSeconds: number): ApiError {
  const e = apiError(429, 'THROTTLED', message);
  e.headers['Retry-After'] = String(retryAfterSeconds);
  return e;
}
