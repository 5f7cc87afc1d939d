// A front for the streaming host in the client tests, as nginx routes a second name of the service:
// chart_studio's Stream always speaks to port 80 of plotly_streaming_domain, so the client is told
// to go through this proxy (http_proxy), which tunnels connections to the streaming host's name to
// the app and refuses any other.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';

export interface StreamFront {
  /** `http://127.0.0.1:{port}`, for the client's http_proxy. */
  url: string;
  stop(): Promise<void>;
}

export async function startStreamFront(streamHost: string, app: string): Promise<StreamFront> {
  const target = new URL(app);
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (req.url !== `${streamHost}:80`) return void client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
