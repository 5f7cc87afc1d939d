import { endpoint, routes } from '@/lib/http/routes';
import { MiB } from '@/lib/core/json-text';
import { imageResponse } from '@/lib/http/responses';
import { exportImage, imageExportSchema } from '@/lib/render/image-export';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes('/v2/images', {
  POST: endpoint({
    summary: 'Draw a figure (its data inlined) as PNG, JPEG, WebP, SVG, PDF or EMF; nothing is stored',
    auth: 'required',
    body: imageExportSchema,
    bodyLimit: 10 * MiB,
    responses: {
      200: 'the image bytes (Content-Type image/png, image/jpeg, image/webp, image/svg+xml, application/pdf or image/emf), or with encoded: {"image": "data:<type>;base64,..."}',
      429: 'more than 2 exports of this user at once, or the export queue full (Retry-After)',
    },
    handler: async ({ db, viewer, body }) => {
      const { bytes, type } = await exportImage(db, viewer, body);
      return imageResponse(bytes, type, body.encoded);
    },
  }),
});
