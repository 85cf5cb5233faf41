import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from '../authors-groups/helpers.ts';

let t: TestApp;
let org: OrgWithGroup;
beforeAll(async () => {
  t = await createTestApp({ bodyLimitBytes: 2048 });
  org = await orgWithGroup(t);
});
afterAll(async () => {
  await t.close();
});

const ERROR_KEYS = ['code', 'message'];

function errorOf(res: { json<T>(): T }) {
  const body = res.json<{ error: Record<string, unknown> }>();
  expect(Object.keys(body)).toEqual(['error']);
  for (const key of Object.keys(body.error)) expect([...ERROR_KEYS, 'details']).toContain(key);
  return body.error;
}

describe('every error has one JSON shape and its real status (7)', () => {
  it('unknown route: 404 route_not_found', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/external/nothing-here/',
      headers: org.headers,
    });
    expect(res.statusCode).toBe(404);
    expect(errorOf(res).code).toBe('route_not_found');
  });

  it('a method the path does not have: 405 method_not_allowed with the Allow header', async () => {
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/external/custom-fields/all/',
      headers: org.headers,
    });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET');
    expect(errorOf(res).code).toBe('method_not_allowed');

    // A path with parameters, without its trailing slash: the methods of every route on that path.
    const author = await t.app.inject({
      method: 'PATCH',
      url: authorUrl(org.groupId, 'x').replace(/\/$/, ''),
    });
    expect(author.statusCode).toBe(405);
    expect(author.headers.allow).toBe('DELETE, GET, POST');
    expect(errorOf(author).code).toBe('method_not_allowed');

    // A path no route has stays a 404, whatever the method.
    const nowhere = await t.app.inject({ method: 'DELETE', url: '/api/external/authors-groups/' });
    expect(nowhere.statusCode).toBe(404);
    expect(errorOf(nowhere).code).toBe('route_not_found');
  });

  it('body not JSON: 400 invalid_json', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'j'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: '{"name": "unterminated',
    });
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).code).toBe('invalid_json');
  });

  it('empty JSON body: 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'j'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    errorOf(res);
  });

  for (const contentType of ['text/plain', 'application/xml', 'application/x-www-form-urlencoded']) {
    it(`wrong content type ${contentType}: 415 unsupported_media_type`, async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: authorUrl(org.groupId, 'ct'),
        headers: { ...org.headers, 'content-type': contentType },
        payload: '{"name":"x"}',
      });
      expect(res.statusCode).toBe(415);
      expect(errorOf(res).code).toBe('unsupported_media_type');
    });
  }

  it('body larger than the limit: 413 payload_too_large, nothing stored', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'big'),
      headers: org.headers,
      payload: {
        name: 'Big',
        articles: Array.from({ length: 100 }, (_, i) => `10.1000/${'x'.repeat(20)}${i}`),
      },
    });
    expect(res.statusCode).toBe(413);
    expect(errorOf(res).code).toBe('payload_too_large');
    const get = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'big'),
      headers: org.headers,
    });
    expect(get.statusCode).toBe(404);
  });

  it('validation failure: 400 validation_failed with details [{path, message}]', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'v'),
      headers: org.headers,
      payload: { name: ['not', 'a', 'string'] },
    });
    expect(res.statusCode).toBe(400);
    const error = errorOf(res);
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ path: 'body.name', message: expect.any(String) }]);
  });

  it('responses carry a request id, and a sane given one is echoed', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });
});

describe('a 5xx shows no internals', () => {
  let app: FastifyInstance;
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
    app = await buildApp({ config: testConfig(), db });
    app.get('/boom', async () => {
      throw new Error('secret detail: /etc/refmatch/key.pem');
    });
    app.get('/bad-sql', async () => {
      await db.query('SELECT no_such_column FROM organizations');
      return {};
    });
    // A database server that refuses the connection (nothing listens on port 1).
    app.get('/db-refused', async () => {
      const refused = new pg.Client({ host: '127.0.0.1', port: 1, user: 'refmatch', database: 'refmatch' });
      await refused.connect();
      return {};
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await db.destroy();
  });

  for (const url of ['/boom', '/bad-sql']) {
    it(`${url}: 500 internal_error with a generic message`, async () => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({
        error: { code: 'internal_error', message: 'An unexpected error occurred' },
      });
      expect(res.body).not.toMatch(/secret|no_such_column|SELECT/);
    });
  }

  it('a database that cannot be reached: 503 unavailable, no internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/db-refused' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      error: { code: 'unavailable', message: 'The database is not available' },
    });
    expect(res.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);
  });
});
