import { avatarSvg } from '@/lib/core/accounts/avatars';

// `/avatars/{username}.svg`: generated from the name alone, so it answers for any name (no existence leak).
export async function GET(_req: Request, { params }: { params: Promise<{ file: string }> }) {
  const { file } = await params;
  const name = file.replace(/\.svg$/, '');
  return new Response(avatarSvg(name), {
    headers: {
      'Content-Type': 'image/svg+xml',
      'Cache-Control': 'public, max-age=86400',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  });
}
