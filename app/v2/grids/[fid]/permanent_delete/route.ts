import { permanentDeleteEndpoint } from '@/lib/file-actions';
import { routes } from '@/lib/http';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/grids/{fid}/permanent_delete', {
  DELETE: permanentDeleteEndpoint('grid'),
});
