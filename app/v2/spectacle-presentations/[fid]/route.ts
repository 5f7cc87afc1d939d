import { documentDetail } from '@/lib/http/document-endpoints';
import { updateEndpoint } from '@/lib/http/file-actions';
import { routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/spectacle-presentations/{fid}', {
  GET: documentDetail('spectacle_presentation'),
  PUT: updateEndpoint('spectacle_presentation'),
  PATCH: updateEndpoint('spectacle_presentation'),
});
