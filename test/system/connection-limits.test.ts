// Connections per client address (MAX_CONNECTIONS_PER_ADDRESS): sockets that send nothing are never
// counted by the limits by request, yet each holds one of the server's MAX_CONNECTIONS places until
// the header timeout. Over raw sockets to a real server on 127.0.0.1; another address is 127.0.0.2,
// a loopback address of its own on Linux.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { listenOnLoopback, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';

const CAP = 3;
let app: FastifyInstance;
let db: TestDatabase;
let port = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  const config = testConfig();
  app = await buildApp({
    config: { ...config, rateLimits: { ...config.rateLimits, connectionsPerAddress: CAP } },
    db,
  });
  port = await listenOnLoopback(app);
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

/** A connection from `from` that sends nothing, once the server has accepted it. */
async function idle(from = '127.0.0.1'): Promise<net.Socket> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('error', () => {});
  return socket;
}

/** Waits until the server holds `n` connections (it counts a socket a moment after the client). */
async function serverHolds(n: number): Promise<void> {
  for (;;) {
    const held = await new Promise<number>((resolve) => app.server.getConnections((_, c) => resolve(c)));
    if (held === n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A GET /healthz on a new connection from `from`: the status line, or null when closed unanswered. */
function healthz(from = '127.0.0.1'): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }, () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve(text ? (text.split('\r\n')[0] ?? '') : null);
    });
  });
}

describe('connections per client address', () => {
  it('closes a connection past the cap unanswered, counts each address apart, and frees a place when one closes', async () => {
    const held = [await idle(), await idle(), await idle()];
    await serverHolds(CAP);
    expect(await healthz()).toBeNull();
    expect(await healthz('127.0.0.2')).toBe('HTTP/1.1 200 OK');

    held[0]!.destroy();
    await serverHolds(CAP - 1);
    expect(await healthz()).toBe('HTTP/1.1 200 OK');
    for (const socket of held) socket.destroy();
  });
});
