import { openApiRoute } from '@/app/v2/openapi-routes';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = openApiRoute;
