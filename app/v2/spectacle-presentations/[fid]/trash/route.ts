import { trashEndpoint } from '@/lib/http/file-actions';
import { routes } from '@/lib/http/routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/spectacle-presentations/{fid}/trash', {
  POST: trashEndpoint('spectacle_presentation'),
});
