// /signout ends the browser session. POST from our own pages (Origin or Referer checked, so another
// site cannot sign a visitor out); GET answers a one-button form, since links cannot POST.
import { signOutRequest } from '@/lib/web/sign-in';

export const POST = (req: Request) => signOutRequest(req);

export async function GET() {
  const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Sign out · Plot Files</title></head>
<body style="font-family:system-ui,sans-serif;max-width:30rem;margin:4rem auto;padding:0 1rem"><main><h1>Sign out</h1>
<form method="post" action="/signout"><button type="submit">Sign out</button></form><p><a href="/">Back to the gallery</a></p></main></body></html>`;
  return new Response(html, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}
