import { trashEndpoint } from '@/lib/http/file-actions';
import { routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/dashboards/{fid}/trash', { POST: trashEndpoint('dashboard') });
