// Uploads in flight are bounded, in all and per organization: past the bound an upload is a 503 with
// Retry-After, before its body is read, instead of one more 50 MB file held and parsed. An upload is
// held in flight here by a real client that sends its body slowly, over a socket to a listening server.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestOrg, listenOnLoopback, testConfig, type TestOrg } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import { baseFields, upload } from './upload-helpers.ts';

let app: FastifyInstance;
let db: TestDatabase;
let port = 0;
let first: TestOrg;
let second: TestOrg;
beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildApp({ config: testConfig({ uploadsInFlight: 2, uploadsInFlightPerOrg: 1 }), db });
  port = await listenOnLoopback(app);
  first = await createTestOrg({ db });
  second = await createTestOrg({ db });
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

/**
 * Starts an upload whose body never ends: it stays in flight until the socket is closed. Without a
 * key, its form has yet to reach an api_key field.
 */
function holdUpload(apiKey: string | null): Promise<net.Socket> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        'POST /api/external/proposal/ HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
          (apiKey ? `X-ApiKey: ${apiKey}\r\n` : '') +
          'Content-Type: multipart/form-data; boundary=held\r\n' +
          'Content-Length: 1000000\r\n\r\n--held\r\nContent-Disposition: form-data; name="folder"\r\n\r\nJOUR\r\n',
      );
      resolve(socket);
    });
    socket.on('error', () => undefined);
  });
}

/** Waits until the server counts `n` uploads in flight (its /metrics gauge), so a probe comes after. */
async function inFlight(n: number): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const metrics = await app.inject({ url: '/metrics' });
    const count = Number(/^refmatch_uploads_in_flight (\d+)$/m.exec(metrics.body)?.[1] ?? -1);
    if (count === n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the server never counted ${n} uploads in flight`);
}

/** Until the server counts `n` uploads in flight, or a while has passed (uploads it never counts). */
async function settle(n: number): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const metrics = await app.inject({ url: '/metrics' });
    if (Number(/^refmatch_uploads_in_flight (\d+)$/m.exec(metrics.body)?.[1] ?? -1) === n) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const refusedUpload = (apiKey: string, originId: string) =>
  upload(app, { apiKey, fields: baseFields({ origin_id: originId }) });

describe('uploads in flight', () => {
  it("past the organization's share, a 503 with Retry-After; other organizations still upload", async () => {
    const held = await holdUpload(first.apiKey);
    await inFlight(1);
    try {
      const refused = await refusedUpload(first.apiKey, 'ms-2');
      expect(refused.statusCode).toBe(503);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json().error.code).toBe('unavailable');
      const other = await upload(app, { apiKey: second.apiKey, fields: baseFields({ origin_id: 'ms-3' }) });
      expect(other.statusCode).toBe(200);
    } finally {
      held.destroy();
    }
    // Once the held upload has gone, the organization uploads again.
    let again = await upload(app, { apiKey: first.apiKey, fields: baseFields({ origin_id: 'ms-4' }) });
    for (let i = 0; i < 50 && again.statusCode === 503; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await upload(app, { apiKey: first.apiKey, fields: baseFields({ origin_id: 'ms-4' }) });
    }
    expect(again.statusCode).toBe(200);
  });

  it('an upload whose key is not known yet holds no place: callers without a key cannot fill the bound', async () => {
    // Before, an upload with no X-ApiKey header took its place in the process's bound before its
    // form was read: two held open by anyone, with no key at all, refused every organization's upload.
    const held = [await holdUpload(null), await holdUpload(null)];
    await settle(2);
    try {
      const res = await upload(app, {
        apiKey: first.apiKey,
        fields: baseFields({ origin_id: 'ms-keyless' }),
      });
      expect(res.statusCode).toBe(200);
      // A key in the form takes the organization's place as soon as it is read, before the file.
      const withFormKey = await holdUpload(null);
      held.push(withFormKey);
      withFormKey.write(
        `--held\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${second.apiKey}\r\n--held\r\n`,
      );
      await inFlight(1);
      const refused = await refusedUpload(second.apiKey, 'ms-form-key');
      expect(refused.statusCode).toBe(503);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });

  it('past the process-wide bound, a 503 for every organization', async () => {
    const held = [await holdUpload(first.apiKey), await holdUpload(second.apiKey)];
    await inFlight(2);
    try {
      const third = await createTestOrg({ db });
      const refused = await refusedUpload(third.apiKey, 'ms-5');
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error.message).toMatch(/as many uploads as it can/);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
