import { notFound } from '@/lib/errors';
import { routes } from '@/lib/http';

// Unknown API paths answer the contract's JSON 404, not an HTML page.
const missing = async () => {
  throw notFound();
};

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: missing, POST: missing, PUT: missing, DELETE: missing });
