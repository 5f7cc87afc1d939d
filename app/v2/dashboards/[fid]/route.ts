import { documentDetail } from '@/lib/http/document-endpoints';
import { updateEndpoint } from '@/lib/http/file-actions';
import { routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/dashboards/{fid}', {
  GET: documentDetail('dashboard'),
  PUT: updateEndpoint('dashboard'),
  PATCH: updateEndpoint('dashboard'),
});
