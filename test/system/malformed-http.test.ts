// Requests that are not valid HTTP, or that Node answers itself, are answered in the one error shape
// with the documented status. Sent over raw sockets to a real server listening on 127.0.0.1, since
// app.inject never goes through Node's HTTP parser.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { listenOnLoopback, testConfig } from '../helpers/app.ts';
import { orgWithGroup } from '../authors-groups/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';

let app: FastifyInstance;
let db: TestDatabase;
let port = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildApp({ config: testConfig(), db });
  port = await listenOnLoopback(app);
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Writes the bytes as they are and reads the whole answer (every answer here closes the connection). */
function send(raw: string | Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n', 2);
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

function expectError(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const parsed = JSON.parse(res.body) as { error: Record<string, unknown> };
  expect(Object.keys(parsed)).toEqual(['error']);
  expect(parsed.error.code).toBe(code);
  expect(typeof parsed.error.message).toBe('string');
}

const HOST = 'Host: 127.0.0.1\r\n';

describe('malformed HTTP answers 400 in the error shape', () => {
  const cases: Array<[string, string | Buffer]> = [
    ['a Content-Length that is not a number', `POST /healthz HTTP/1.1\r\n${HOST}Content-Length: abc\r\n\r\n`],
    [
      'two Content-Length headers',
      `POST /healthz HTTP/1.1\r\n${HOST}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`,
    ],
    ['bare LF line ends', `GET /healthz HTTP/1.1\n${HOST.replace('\r\n', '\n')}\n`],
    ['a raw space in the path', `GET /health z HTTP/1.1\r\n${HOST}\r\n`],
    [
      '8-bit bytes in the path',
      Buffer.concat([
        Buffer.from('GET /h'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from(` HTTP/1.1\r\n${HOST}\r\n`),
      ]),
    ],
    ['a NUL in a header', `GET /healthz HTTP/1.1\r\n${HOST}X-Note: a\u0000b\r\n\r\n`],
  ];
  for (const [name, raw] of cases) {
    it(name, async () => {
      expectError(await send(raw), 400, 'malformed_request');
    });
  }

  it('says which Content-Length fault it was: not a number, sent twice, or beside Transfer-Encoding', async () => {
    const messageOf = async (raw: string) => {
      const res = await send(raw);
      expectError(res, 400, 'malformed_request');
      return (JSON.parse(res.body) as { error: { message: string } }).error.message;
    };
    expect(await messageOf(`POST /healthz HTTP/1.1\r\n${HOST}Content-Length: abc\r\n\r\n`)).toMatch(
      /is not a number/,
    );
    const twice = `POST /healthz HTTP/1.1\r\n${HOST}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`;
    expect(await messageOf(twice)).toMatch(/sent more than once/);
    const besideChunked = `POST /healthz HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`;
    expect(await messageOf(besideChunked)).toMatch(/together with Transfer-Encoding/);
  });

  it('a missing Host header (HTTP/1.1)', async () => {
    expectError(await send('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'), 400, 'malformed_request');
  });
});

describe('other statuses Node would answer without a body', () => {
  it('an unknown method: 501 method_not_implemented', async () => {
    expectError(await send(`FOO /healthz HTTP/1.1\r\n${HOST}\r\n`), 501, 'method_not_implemented');
  });

  it('Expect: garbage: 417 expectation_failed', async () => {
    const res = await send(`GET /healthz HTTP/1.1\r\n${HOST}Expect: garbage\r\nConnection: close\r\n\r\n`);
    expectError(res, 417, 'expectation_failed');
  });

  it('headers over the limit: 431 headers_too_large', async () => {
    const res = await send(`GET /healthz HTTP/1.1\r\n${HOST}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectError(res, 431, 'headers_too_large');
  });
});

describe('a compressed body answers 415 unsupported_media_type', () => {
  it('Content-Encoding: gzip, whatever the body; identity is read as usual', async () => {
    const body = '{"name":"x"}';
    for (const coding of ['gzip', 'br', 'Deflate']) {
      const res = await send(
        `POST /api/external/author-from-group/1/x/ HTTP/1.1\r\n${HOST}Content-Type: application/json\r\n` +
          `Content-Encoding: ${coding}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expectError(res, 415, 'unsupported_media_type');
    }
    const identity = await send(
      `POST /api/external/author-from-group/1/x/ HTTP/1.1\r\n${HOST}Content-Type: application/json\r\n` +
        `Content-Encoding: identity\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(identity.status).toBe(401); // read, then refused for its missing key
  });
});

describe('a URL over 8 KiB answers 414 uri_too_long', () => {
  for (const length of [9_000, 20_000, 100_000]) {
    it(`${length} bytes of query string`, async () => {
      const res = await send(
        `GET /healthz?q=${'a'.repeat(length)} HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`,
      );
      expectError(res, 414, 'uri_too_long');
    });
  }

  it('a URL just under the limit is served', async () => {
    const res = await send(
      `GET /healthz?q=${'a'.repeat(8_000)} HTTP/1.1\r\n${HOST}Connection: close\r\n\r\n`,
    );
    expect(res.status).toBe(200);
  });
});

describe('a body sent too slowly', () => {
  it('is cut off at the request timeout with a 408, the connection closed', async () => {
    const slowDb = await createTestDatabase();
    const slow = await buildApp({ config: testConfig({ requestTimeoutMs: 1_000 }), db: slowDb });
    try {
      const slowPort = await listenOnLoopback(slow);
      expect(slow.server.maxConnections).toBe(testConfig().maxConnections);
      // A dashboard form said to be 100,000 bytes long, of which a byte arrives every 200 ms: without
      // a timeout it held the connection, and the bytes so far, for as long as it went on.
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(slowPort, '127.0.0.1', () => {
          socket.write(
            `POST /dashboard/sign-in/ HTTP/1.1\r\n${HOST}Content-Type: application/x-www-form-urlencoded\r\n` +
              'Content-Length: 100000\r\n\r\n',
          );
        });
        const drip = setInterval(() => socket.writable && socket.write('a'), 200);
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearInterval(drip);
          resolve(Buffer.concat(chunks).toString('utf8'));
        });
        setTimeout(() => {
          clearInterval(drip);
          socket.destroy();
          reject(new Error('the connection was still open after 20 s'));
        }, 20_000);
      });
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      await slow.close();
      await slowDb.destroy();
    }
  });
});

// Sent raw: app.inject, like every WHATWG URL (fetch, browsers), resolves "." and ".." segments, and
// their percent-encoded forms, before the request leaves; that is why no record may be named so.
describe('an author from group named "." or ".." (raw HTTP only)', () => {
  it('is refused with 400 on params.client_id, on every method; dots inside an id are an id', async () => {
    const org = await orgWithGroup({ db });
    const request = (method: string, target: string, body?: string) =>
      send(
        `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-ApiKey: ${org.apiKey}\r\nConnection: close\r\n` +
          (body === undefined
            ? '\r\n'
            : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      );
    for (const segment of ['.', '..', '%2E', '%2e%2E']) {
      const base = `/api/external/author-from-group/${org.groupId}/${segment}/`;
      for (const [method, target] of [
        ['POST', base],
        ['GET', base],
        ['POST', `${base}partial/`],
        ['DELETE', base],
      ] as const) {
        const res = await request(method, target, method === 'POST' ? '{"name":"Dot"}' : undefined);
        expectError(res, 400, 'validation_failed');
        expect(JSON.parse(res.body).error.details, `${method} ${target}`).toEqual([
          { path: 'params.client_id', message: expect.stringContaining('path segments') },
        ]);
      }
    }
    const rows = await db.query('SELECT 1 FROM group_authors WHERE group_id = $1', [org.groupId]);
    expect(rows.rows).toEqual([]);
    for (const id of ['...', '.hidden']) {
      const res = await request(
        'POST',
        `/api/external/author-from-group/${org.groupId}/${id}/`,
        '{"name":"Dots"}',
      );
      expect(res.status).toBe(200);
    }
  });
});
