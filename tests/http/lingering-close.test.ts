// An answer sent before the request's body was read (a 413 on the declared length) reaches a client
// that is still uploading: the server half-closes and drains instead of closing a socket with unread
// bytes, which makes the kernel reset the connection and lose the answer (scripts/serve.mjs,
// lingerOnClose).
import { once } from 'node:events';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { servers } from '../support/servers';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(servers())('an answer before the body is read, on $name', (s) => {
  it('a 413 reaches a client still sending its body, then the connection ends cleanly', async () => {
    const user = await s.newUser('linger');
    const { hostname, port } = new URL(s.url);
    const socket = net.connect(Number(port), hostname);
    let failure: Error | null = null;
    socket.on('error', (error) => (failure ??= error));
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    const finished = new Promise((resolve) => {
      socket.once('end', resolve);
      socket.once('close', resolve);
    });
    await once(socket, 'connect');
    // Nothing is read until the upload is done, as a client busy writing its body does.
    socket.pause();
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    socket.write(
      `POST /v2/plots HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: ${user.auth}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${11 * 2 ** 20}\r\n\r\n`,
    );
    socket.write(chunk);
    // The server answers 413 on the declared length; more of the body is still on its way.
    await pause(300);
    socket.write(chunk);
    await pause(300);

    socket.resume();
    await finished;
    socket.destroy();

    expect(failure).toBeNull();
    const text = Buffer.concat(received).toString();
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(text).toContain('10 MiB');
  });
});
