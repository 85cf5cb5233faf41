// An upload without the X-ApiKey header is refused (401) once the form has passed the point where the
// api_key field may come (before the file, within the first 64 KiB of fields), without the server
// reading the rest of a large body. Counted by the bytes the server's socket read, over a real
// connection to a server listening on 127.0.0.1: app.inject hands the whole body over at once.
import net from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestOrg, listenOnLoopback, testConfig, type TestOrg } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import { baseFields } from './upload-helpers.ts';

const FILE_BYTES = 48 * 1024 * 1024;
const BOUNDARY = '----refmatchUnreadBodyTest';

let app: FastifyInstance;
let db: TestDatabase;
let org: TestOrg;
let port = 0;
const serverSockets: net.Socket[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildApp({ config: testConfig(), db });
  app.server.on('connection', (socket: net.Socket) => serverSockets.push(socket));
  port = await listenOnLoopback(app);
  org = await createTestOrg({ db });
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

function fieldPart(name: string, value: string | number): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
}

type Part = [string, string | number] | 'FILE' | 'PREAMBLE' | 'ENDLESS_FIELD';

/**
 * The form's parts in order: fields as [name, value]; 'FILE' for a large PDF-looking file;
 * 'PREAMBLE' for as many bytes before the first boundary (which the multipart parser discards);
 * 'ENDLESS_FIELD' for a text field (a note) as long.
 */
function* bodyChunks(parts: Part[]): Generator<Buffer> {
  const block = Buffer.alloc(64 * 1024, 'x');
  for (const part of parts) {
    if (part === 'PREAMBLE' || part === 'ENDLESS_FIELD') {
      if (part === 'ENDLESS_FIELD') {
        yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\n`);
      }
      for (let sent = 0; sent < FILE_BYTES; sent += block.length) yield block;
      yield Buffer.from('\r\n');
      continue;
    }
    if (part !== 'FILE') {
      yield fieldPart(...part);
      continue;
    }
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="source_file"; filename="big.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n',
    );
    for (let sent = 0; sent < FILE_BYTES; sent += block.length) yield block;
    yield Buffer.from('\r\n');
  }
  yield Buffer.from(`--${BOUNDARY}--\r\n`);
}

function bodyLength(parts: Part[]): number {
  let total = 0;
  for (const chunk of bodyChunks(parts)) total += chunk.length;
  return total;
}

interface Outcome {
  status: number;
  body: string;
  total: number;
  serverRead: number;
}

/** Streams the form to the server (no X-ApiKey) and reads the answer, however early it comes. */
function streamUpload(
  parts: Part[],
  { requestPath = '/api/external/proposal/', keepAlive = false } = {},
): Promise<Outcome> {
  const total = bodyLength(parts);
  const before = serverSockets.length;
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    // Writing into a connection the server has closed fails; that is the point.
    socket.on('error', () => {});
    socket.on('close', () => {
      const server = serverSockets[before]!;
      const settle = () => {
        const text = Buffer.concat(received).toString('utf8');
        const [head = '', body = ''] = text.split('\r\n\r\n', 2);
        resolve({ status: Number(head.split(' ')[1]), body, total, serverRead: server.bytesRead });
      };
      if (server.destroyed) settle();
      else server.once('close', settle);
    });
    socket.write(
      `POST ${requestPath} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${total}\r\n` +
        `Connection: ${keepAlive ? 'keep-alive' : 'close'}\r\n\r\n`,
    );
    // Not ended after the body: a half-closed connection makes Node drop the request being answered.
    Readable.from(bodyChunks(parts)).pipe(socket, { end: false });
  });
}

const FIELDS = Object.entries(baseFields()) as Array<[string, string | number]>;

describe('an upload without the X-ApiKey header', () => {
  it('and no api_key field before the file: 401 with most of a 48 MB body never read', async () => {
    const outcome = await streamUpload([...FIELDS, 'FILE']);
    expect(outcome.status).toBe(401);
    expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'missing_api_key' } });
    expect(outcome.total).toBeGreaterThan(FILE_BYTES);
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with the api_key field after the file: refused the same way, the file unread', async () => {
    const outcome = await streamUpload([...FIELDS, 'FILE', ['api_key', org.apiKey]]);
    expect(outcome.status).toBe(401);
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with more than 64 KiB of fields before any api_key: 401 without reading the rest', async () => {
    const filler = 'y'.repeat(16 * 1024);
    const fields: Array<[string, string]> = Array.from({ length: 8 }, (_, i) => [`note${i}`, filler]);
    const outcome = await streamUpload([...fields, ['api_key', org.apiKey], ...FIELDS, 'FILE']);
    expect(outcome.status).toBe(401);
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with nothing but a preamble before the first boundary: 401 without reading the rest', async () => {
    const outcome = await streamUpload(['PREAMBLE', ['api_key', org.apiKey], ...FIELDS]);
    expect(outcome.status).toBe(401);
    expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'missing_api_key' } });
    expect(outcome.total).toBeGreaterThan(FILE_BYTES);
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with one endless field before any api_key: 401 without reading the rest', async () => {
    const outcome = await streamUpload(['ENDLESS_FIELD', ['api_key', org.apiKey], ...FIELDS]);
    expect(outcome.status).toBe(401);
    expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'missing_api_key' } });
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with a wrong api_key field before the file: 401 invalid_api_key, the file unread', async () => {
    const outcome = await streamUpload([['api_key', 'rm_0000000000000000_wrong'], ...FIELDS, 'FILE']);
    expect(outcome.status).toBe(401);
    expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'invalid_api_key' } });
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });

  it('with the api_key field first: the upload is read and answered', async () => {
    const outcome = await streamUpload([['api_key', org.apiKey], ...FIELDS]);
    expect(outcome.status).toBe(200);
  });
});

describe('a request answered before its body is read', () => {
  it('to an unknown route: 404, and the connection (asked to be kept alive) closed without reading the rest', async () => {
    const outcome = await streamUpload([...FIELDS, 'FILE'], {
      requestPath: '/api/external/no-such-route/',
      keepAlive: true,
    });
    expect(outcome.status).toBe(404);
    expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: 'route_not_found' } });
    expect(outcome.serverRead).toBeLessThan(outcome.total / 4);
  });
});
