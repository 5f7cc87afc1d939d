import { routes } from '@/lib/http/routes';

// The API root links here: OPTIONS answers with `Allow`; the operations are on the sub-paths.
export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files', {});
