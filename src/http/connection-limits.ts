// Connections per client address. Each connection takes one of the server's MAX_CONNECTIONS places
// whether or not it ever sends a request, and the limits by request never count one that sends
// nothing: one address opening 1,000 sockets and writing nothing (each held until the header
// timeout, 60 s, then opened again) refused every other client's connection. A connection past its
// address's share is closed as soon as it is accepted, before a byte of it is read.
import type { Server } from 'node:net';
import { addressKey } from './client-address.ts';

export function limitConnectionsPerAddress(server: Server, max: number): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const key = addressKey(socket.remoteAddress ?? '');
    const count = open.get(key) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
