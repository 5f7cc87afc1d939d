// The API's OpenAPI document as /v2/openapi.json serves it and /docs/api shows it: openapi.json beside
// this file, made from the routes' declarations by `npm run openapi` (scripts/openapi.ts), so that
// neither loads the routes to have it.
import type { OpenApiDocument } from './openapi';
import document from './openapi.json';

/** The document as seen from one public origin (the rest is the same for every answer). The file's
 * inferred type is wider than the document's (an array of objects of any keys): it was made as one. */
export const apiDocument = (origin: string): OpenApiDocument => ({ ...(document as unknown as OpenApiDocument), servers: [{ url: origin }] });
