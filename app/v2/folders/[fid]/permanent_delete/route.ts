import { permanentDeleteEndpoint } from '@/lib/file-actions';
import { routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/folders/{fid}/permanent_delete', {
  DELETE: permanentDeleteEndpoint('fold'),
});
