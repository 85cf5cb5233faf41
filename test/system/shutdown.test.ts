import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { embeddedServerConfig } from '../helpers/server.ts';
import { startServer } from '../../src/server.ts';
import { createOrganization } from '../../src/organizations/organizations.ts';
import { createGroup } from '../../src/authors-groups/store.ts';

function rawRequest(port: number): { socket: net.Socket; response: Promise<string> } {
  const socket = net.connect(port, '127.0.0.1');
  const response = new Promise<string>((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
  return { socket, response };
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

describe('graceful shutdown of the serving process', () => {
  it('finishes an in-flight request, stops accepting, closes the database, and is safe to call twice', async () => {
    const config = await embeddedServerConfig('shutdown');
    const server = await startServer(config, () => {});
    const port = Number(new URL(server.url).port);
    const org = await createOrganization(server.db, { name: 'Shutdown', features: [] });
    const group = await createGroup(server.db, org.id, 'G');

    // Send the headers and half of the body: the request is in flight when shutdown starts.
    const body = JSON.stringify({ name: 'In flight', emails: ['late@example.org'] });
    const { socket, response } = rawRequest(port);
    socket.write(
      `POST /api/external/author-from-group/${group.group_id}/late/ HTTP/1.1\r\n` +
        `Host: 127.0.0.1\r\nX-ApiKey: ${org.api_key}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));

    const first = server.shutdown('test');
    const second = server.shutdown('test again');
    expect(second).toBe(first);

    socket.write(body.slice(10));
    const text = await response;
    expect(text).toMatch(/^HTTP\/1\.1 200/);
    expect(text).toContain('{"ok":true}');

    await first;
    await server.shutdown('after');
    expect(await connects(port)).toBe(false);
    await expect(server.db.query('SELECT 1')).rejects.toThrow();
  }, 240_000);
});
