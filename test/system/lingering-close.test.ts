// A request answered before its body was read closes its connection lingering (unread-body.ts): the
// answer sent and the server's side ended, what the client still sends is read and dropped, within
// LINGER_BYTES and LINGER_MS, then the socket closed. Closed at once with bytes unread, the kernel
// reset the connection and a client still writing its body never read the answer. Over real sockets
// to a server listening on 127.0.0.1 (app.inject hands a body over whole, and has no kernel).
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { listenOnLoopback, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import { LINGER_BYTES } from '../../src/infra/unread-body.ts';

let app: FastifyInstance;
let db: TestDatabase;
let port = 0;
const serverSockets: net.Socket[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildApp({ config: testConfig(), db });
  app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
  port = await listenOnLoopback(app);
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

const BOUNDARY = 'lingering';

/** A POST head: multipart to the upload route (no key: 401), or JSON declared past the body limit (413). */
function head(kind: 'multipart' | 'json', length: number): string {
  const type = kind === 'multipart' ? `multipart/form-data; boundary=${BOUNDARY}` : 'application/json';
  const declared = kind === 'multipart' ? length : 64 * 1024 * 1024;
  return `POST /api/external/proposal/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: ${declared}\r\n\r\n`;
}

/** A body of `length` bytes: a file part of filler (multipart), or a JSON string. */
function body(kind: 'multipart' | 'json', length: number): Buffer {
  const [start, end] =
    kind === 'multipart'
      ? [
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="source_file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n`,
          `\r\n--${BOUNDARY}--\r\n`,
        ]
      : ['{"title":"', '"}'];
  return Buffer.concat([
    Buffer.from(start),
    Buffer.alloc(length - start.length - end.length, 'x'),
    Buffer.from(end),
  ]);
}

interface Outcome {
  status: number;
  written: number;
  /** What the server's socket read of the connection, once it closed. */
  serverRead: number;
  /** The client was closed under it while it still had bytes to send (it never ended its side). */
  cutOff: boolean;
}

/**
 * Connects; `sending` writes what the client sends (its writes waited for; the server's socket at
 * hand) and says whether it sent it all;
 * the client reads only after `sending` is done when `readFirst` is false (a client that reads its
 * answer once it has sent its request), as it goes otherwise. Resolves when both sides are closed.
 */
function exchange(
  sending: (
    socket: net.Socket,
    count: (bytes: number) => void,
    server: () => net.Socket | undefined,
  ) => Promise<boolean>,
  { readFirst, halfOpen = false }: { readFirst: boolean; halfOpen?: boolean },
): Promise<Outcome> {
  const before = serverSockets.length;
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', allowHalfOpen: halfOpen });
    const received: Buffer[] = [];
    let written = 0;
    let cutOff = false;
    const onData = (chunk: Buffer) => received.push(chunk);
    if (readFirst) socket.on('data', onData);
    // Writing into a connection the server has closed fails; that is counted, not thrown.
    socket.on('error', () => {});
    socket.on('close', () => {
      const server = serverSockets[before]!;
      const settle = () => {
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(Buffer.concat(received).toString('latin1'))?.[1]);
        resolve({ status, written, serverRead: server.bytesRead, cutOff });
      };
      if (server.destroyed) settle();
      else server.once('close', settle);
    });
    socket.once('connect', async () => {
      cutOff = !(await sending(
        socket,
        (bytes) => (written += bytes),
        () => serverSockets[before],
      ));
      if (!readFirst) socket.on('data', onData);
      // Ends its side once the answer is in (or the socket is gone), as a client does.
      const until = Date.now() + 60_000;
      while (!socket.destroyed && !Buffer.concat(received).includes('\r\n\r\n') && Date.now() < until) {
        await new Promise((pause) => setTimeout(pause, 10));
      }
      if (!socket.destroyed) socket.end();
    });
  });
}

/** Writes `bytes` in 64 KiB pieces, each waited for; false when the socket failed first. */
async function writeAll(socket: net.Socket, bytes: Buffer, count: (bytes: number) => void): Promise<boolean> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    const piece = bytes.subarray(at, at + 64 * 1024);
    if (socket.destroyed || !(await new Promise<boolean>((ok) => socket.write(piece, (e) => ok(!e))))) {
      return false;
    }
    count(piece.length);
  }
  return true;
}

/** Writes a byte every 20 ms for a minute; false when the socket was closed under it first. */
async function trickle(socket: net.Socket, count: (bytes: number) => void): Promise<boolean> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (socket.destroyed || !(await new Promise<boolean>((ok) => socket.write('x', (e) => ok(!e))))) {
      return false;
    }
    count(1);
    await new Promise((pause) => setTimeout(pause, 20));
  }
  return true;
}

describe('a request answered before its body is read', () => {
  it.each([
    ['an upload without its key', 'multipart', 401],
    ['a JSON body declared past the limit', 'json', 413],
  ] as const)(
    '%s: answered to a client that writes its whole body before it reads',
    async (_, kind, status) => {
      // The rest of the body is written once the answer was sent (closed at once then, the
      // connection was reset under those writes, and the answer lost), within what is read after it.
      const bytes = body(kind, 2 * 1024 * 1024);
      const first = 64 * 1024;
      const outcome = await exchange(
        async (socket, count, server) => {
          socket.write(head(kind, bytes.length));
          if (!(await writeAll(socket, bytes.subarray(0, first), count))) return false;
          const until = Date.now() + 60_000;
          while (!(server()?.bytesWritten ?? 0) && Date.now() < until) {
            await new Promise((pause) => setTimeout(pause, 10));
          }
          // A moment for a socket closed at once to be closed (the answer written, then closed).
          await new Promise((pause) => setTimeout(pause, 100));
          return writeAll(socket, bytes.subarray(first), count);
        },
        { readFirst: false },
      );
      expect(outcome.status).toBe(status);
      expect(outcome.written).toBe(bytes.length);
    },
    120_000,
  );

  it('is read no further than the bound past the answer: a larger body is cut off', async () => {
    const bytes = body('multipart', 4 * LINGER_BYTES);
    const outcome = await exchange(
      async (socket, count) => {
        socket.write(head('multipart', bytes.length));
        return writeAll(socket, bytes, count);
      },
      { readFirst: false },
    );
    expect(outcome.cutOff).toBe(true);
    // What was read before the answer (the head and the parser's first reads), then the bound.
    expect(outcome.serverRead).toBeLessThan(LINGER_BYTES + 1024 * 1024);
  }, 120_000);

  it('from a client trickling its body without end: the answer read, the connection closed under it', async () => {
    const outcome = await exchange(
      async (socket, count) => {
        socket.write(head('json', 1024 * 1024));
        return trickle(socket, count);
      },
      { readFirst: true, halfOpen: true },
    );
    expect(outcome.status).toBe(413);
    expect(outcome.cutOff).toBe(true);
  }, 120_000);
});

describe('a request Node could not parse', () => {
  it('answered 400 to a client trickling on without end: the connection closed under it', async () => {
    const outcome = await exchange(
      async (socket, count) => {
        socket.write(
          'POST /api/external/proposal/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
        );
        return trickle(socket, count);
      },
      { readFirst: true, halfOpen: true },
    );
    expect(outcome.status).toBe(400);
    expect(outcome.cutOff).toBe(true);
  }, 120_000);
});
