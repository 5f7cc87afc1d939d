import { GET as content } from '@/app/v2/plots/[fid]/content/route';

// `/~owner/n.json`: the figure with its data, as the plot page's download offers it.
export async function GET(req: Request, { params }: { params: Promise<{ owner: string; n: string }> }) {
  const { owner, n } = await params;
  const url = new URL(req.url);
  url.searchParams.set('inline_data', 'true');
  url.searchParams.set('map_data', 'unreadable');
  return content(new Request(url, { headers: req.headers }), { params: Promise.resolve({ fid: `${owner}:${n}` }) });
}
