import { permanentDeleteEndpoint } from '@/lib/file-actions';
import { routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/files/{fid}/permanent_delete', {
  DELETE: permanentDeleteEndpoint(),
});
