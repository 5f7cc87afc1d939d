import { lookupEndpoint } from '@/lib/file-actions';
import { routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/lookup', { GET: lookupEndpoint() });
