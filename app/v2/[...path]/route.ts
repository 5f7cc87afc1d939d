import { notFound } from '@/lib/core/errors';
import { errorResponse } from '@/lib/http/responses';

// Unknown API paths answer the contract's JSON 404 to every method, never an HTML page.
const missing = async () => errorResponse(notFound());

export { missing as GET, missing as HEAD, missing as POST, missing as PUT, missing as PATCH, missing as DELETE, missing as OPTIONS };
