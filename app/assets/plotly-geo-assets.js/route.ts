import { geoAssetsScript } from '@/lib/render/plotly-assets';

export async function GET() {
  return new Response(await geoAssetsScript(), {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=86400' },
  });
}
