import { documentSchema } from '@/lib/http/document-endpoints';
import { routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/spectacle-presentations/schema', { GET: documentSchema('spectacle_presentation') });
