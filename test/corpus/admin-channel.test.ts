// `refmatch ingest ...` while a server holds the embedded database: the command runs inside the
// server through its admin channel, with progress reported back, and the pages serve what it loaded.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedServerConfig } from '../helpers/server.ts';
import { startServer } from '../../src/server.ts';
import { executeCommand } from '../../src/cli/execute.ts';
import { sendCommand } from '../../src/cli/admin-channel.ts';
import type { ProgressEvent } from '../../src/infra/cli/command.ts';
import type { IngestReport } from '../../src/corpus/ingest/ingest.ts';
import { FIXTURES } from './helpers.ts';

describe('ingest through the admin channel of a running server', () => {
  it(
    'loads the file inside the server and reports progress to the caller',
    { timeout: 300_000 },
    async () => {
      // DATABASE_URL unset: the admin channel exists only for the embedded database.
      const config = await embeddedServerConfig('ingest-admin');
      const server = await startServer(config, () => {});
      try {
        const events: ProgressEvent[] = [];
        const file = path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl');
        const report = (await executeCommand(config, 'ingest works', { files: [file] }, (e) =>
          events.push(e),
        )) as IngestReport;
        expect(report).toMatchObject({ records: 8, bad_count: 0 });
        expect(events.at(-1)).toMatchObject({ unit: 'works', done: 8, total: 8 });
        const { rows } = await server.db.query<{ id: number }>(
          `SELECT id FROM authors WHERE author_key = 'acl:person/yang-liu-icsi'`,
        );
        const page = await server.app.inject({ method: 'GET', url: `/authors/${rows[0]!.id}` });
        expect(page.statusCode).toBe(200);
        expect(page.body.replace(/>\s+</g, '><')).toContain('Articles</dt><dd>4</dd>');
      } finally {
        await server.shutdown('test');
      }
    },
  );
});

// Each waits for the answer to be refused: the suite's own timeout (60 s) bounds a wait that never
// ends, as the CLI's was, and a loaded machine that answers late still passes.
describe("an admin channel answer that fails: cut off, or not a command's lines", () => {
  it('rejects with a message, where the CLI waited forever for the rest of the answer', async () => {
    // A serving process that stops mid-command (killed, say), seen from the CLI: the answer has begun
    // (status and a progress line), then the connection drops.
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/x-ndjson' });
        res.write(`${JSON.stringify({ type: 'progress', event: { unit: 'works', done: 1, total: 2 } })}\n`);
        setTimeout(() => res.socket?.destroy(), 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const events: ProgressEvent[] = [];
      const endpoint = { port: (server.address() as AddressInfo).port, token: 'token', pid: process.pid };
      await expect(sendCommand(endpoint, 'ingest works', {}, (e) => events.push(e))).rejects.toThrow(
        'The server closed the admin channel before answering',
      );
      expect(events).toHaveLength(1);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("rejects an answer that is not a command's lines with a message, where it threw in a stream handler", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('<html>another program on the port</html>\n');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const endpoint = { port: (server.address() as AddressInfo).port, token: 'token', pid: process.pid };
      await expect(sendCommand(endpoint, 'ingest works', {}, () => undefined)).rejects.toThrow(
        "The admin channel answered with a line that is not a command's",
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
