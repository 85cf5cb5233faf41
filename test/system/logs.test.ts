// Logs carry no personal data: no SQL parameters, no request bodies, no emails or names; a failed
// request is logged with its error code, the request id and the route. Database errors the input
// still causes answer a 4xx, not a 500.
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { buildApp } from '../../src/app.ts';
import { createOrganization } from '../../src/organizations/organizations.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { redactUrl } from '../../src/infra/logger.ts';

let app: FastifyInstance;
let db: TestDatabase;
let lines: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  },
});

const NAME = 'Philippa Quattlebaum';
const EMAIL = 'p.quattlebaum@uni-example.org';
const PERSONAL = [/Philippa/i, /Quattlebaum/i, /uni-example/i, /@uni/i];

interface Person {
  name: string;
  email: string;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildApp({ config: testConfig({ logLevel: 'info' }), db, logStream });
  // Routes that fail in the database with the request's personal data among the statement's parameters.
  app.post<{ Body: Person }>('/test/db-bug', async (request) => {
    await db.query('SELECT $1::text AS name, $2::text AS email, no_such_column FROM organizations', [
      request.body.name,
      request.body.email,
    ]);
    return {};
  });
  app.post<{ Body: Person }>('/test/db-refuses-value', async (request) => {
    await db.query('SELECT $1::int', [request.body.name]);
    return {};
  });
  app.post<{ Body: Person }>('/test/db-refuses-nul', async (request) => {
    await db.query('SELECT $1::text', [`${request.body.name}\u0000`]);
    return {};
  });
  app.post<{ Body: Person }>('/test/db-refuses-jsonb-nul', async (request) => {
    await db.query('SELECT $1::jsonb', [JSON.stringify({ name: `${request.body.name}\u0000` })]);
    return {};
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.destroy();
});

function post(url: string, requestId: string) {
  lines = [];
  return app.inject({
    method: 'POST',
    url,
    headers: { 'x-request-id': requestId },
    payload: { name: NAME, email: EMAIL },
  });
}

function errorLine(requestId: string): Record<string, unknown> {
  const line = lines
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((l) => l.reqId === requestId && l.err);
  expect(line, lines.join('\n')).toBeDefined();
  return line!;
}

function expectNoPersonalData() {
  for (const pattern of PERSONAL) expect(lines.join('\n')).not.toMatch(pattern);
}

describe('a database error with personal data in the request', () => {
  it('500: logged with code, request id and route; no parameters, names or emails', async () => {
    const res = await post('/test/db-bug', 'req-db-bug');
    expect(res.statusCode).toBe(500);
    const line = errorLine('req-db-bug');
    expect(line).toMatchObject({ level: 50, code: 'internal_error', route: '/test/db-bug' });
    expect(line.err).toMatchObject({ code: '42703' });
    expect(JSON.stringify(line.err)).not.toMatch(/"params"|"query"|"detail"/);
    expectNoPersonalData();
  });

  it('a value the database refuses (22P02, which quotes it): 400 and no value in the log', async () => {
    const res = await post('/test/db-refuses-value', 'req-db-value');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: { code: 'validation_failed', message: 'A value has the wrong form for its field' },
    });
    expect(errorLine('req-db-value')).toMatchObject({ level: 40, code: 'validation_failed' });
    expectNoPersonalData();
  });

  it('a NUL the database refuses in text (22021) and in jsonb (22P05): 400, not 500', async () => {
    for (const url of ['/test/db-refuses-nul', '/test/db-refuses-jsonb-nul']) {
      const res = await post(url, 'req-db-nul');
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('validation_failed');
      expectNoPersonalData();
    }
  });
});

describe('request logs', () => {
  it('no body, and an email used as a client_id is cut out of the logged URL', async () => {
    const org = await createOrganization(db, { name: 'Log org', features: ['referee_finder'] });
    const group = await createGroup(db, org.id, 'Reviewers');
    lines = [];
    const res = await app.inject({
      method: 'POST',
      url: `/api/external/author-from-group/${group.group_id}/${encodeURIComponent(EMAIL)}/`,
      headers: { 'x-apikey': org.api_key },
      payload: { name: NAME, emails: [EMAIL] },
    });
    expect(res.statusCode).toBe(200);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain('[email]');
    expectNoPersonalData();
  });
});

describe('redacting a URL', () => {
  it(
    'cuts every part holding an address whole, and reads a long part once',
    () => {
      expect(redactUrl('/g/1/ada%40x.org/partial/?api_key=k1&email=a@b.c&x=1#top')).toBe(
        '/g/1/[email]/partial/?api_key=[redacted]&email=[email]&x=1#top',
      );
      // One pattern for "a part around an @" read each part again from each of its characters: this
      // part took 20 s (16,000 characters, the most a request line carries, held the loop 130 ms).
      const long = 'a'.repeat(200_000);
      expect(redactUrl(`/g/1/${long}/${long}%40x.org/`)).toBe(`/g/1/${long}/[email]/`);
    },
    // Milliseconds read once; the old reading took 17-22 s here, so 5 s fails only it.
    5_000,
  );
});
