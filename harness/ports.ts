// A port nobody listens on, for the servers the tests and benchmarks start (the app, nginx, a
// throwaway PostgreSQL cluster).
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1: the one the system hands a listener asking for port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
