// While the search index or the demo corpus is loading, /readyz says so and the routes that read the
// corpus answer 503 `unavailable` with Retry-After, rather than candidates from part of the corpus
// (at first an empty list, as if the corpus were empty).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { startServer } from '../../src/server.ts';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { createTestDatabase, suiteOnServerPostgres } from '../helpers/db.ts';
import { embeddedServerConfig } from '../helpers/server.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';

function uploadOn(app: FastifyInstance, org: TestOrg, originId: string) {
  const fields = rankingFields({
    origin_id: originId,
    title: 'Message passing neural networks',
    abstract: TOPIC,
  });
  return upload(app, { apiKey: org.apiKey, fields });
}

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.json()).toEqual({ error: { code: 'unavailable', message: expect.any(String) } });
}

describe('while something is loading', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    org = await createTestOrg(t);
    await buildCorpus(t.db, [{ authors: [{ name: 'Mona Molecule' }] }]);
    await t.app.refmatch.index.refresh();
  });
  afterAll(async () => {
    await t.close();
  });

  it('/readyz, the upload and the journal recommendation answer 503 with the reason; then 200', async () => {
    t.app.refmatch.readiness.begin('demo', 'the demo corpus is loading');
    const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    expectUnavailable(ready);
    expect(ready.json<{ error: { message: string } }>().error.message).toContain(
      'the demo corpus is loading',
    );
    expectUnavailable(await uploadOn(t.app, org, 'ms-loading'));
    expectUnavailable(
      await t.app.inject({
        method: 'GET',
        url: '/api/external/recommend-journals/ms-loading/',
        headers: org.headers,
      }),
    );

    t.app.refmatch.readiness.end('demo');
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const res = await uploadOn(t.app, org, 'ms-loaded');
    expect(res.statusCode).toBe(200);
    expect(res.json<{ candidates: unknown[] }>().candidates.length).toBeGreaterThan(0);
  });
});

describe('an app that loads its index in the background (the serving process)', () => {
  it('never answers an upload with the empty list of an unloaded index, and is ready once loaded', async () => {
    const db = await createTestDatabase();
    await buildCorpus(db, [{ authors: [{ name: 'Nora Network' }] }]);
    const org = await createTestOrg({ db });
    const app = await buildApp({ config: testConfig(), db, loadIndexInBackground: true });
    try {
      const early = await uploadOn(app, org, 'ms-early');
      if (early.statusCode === 503) expectUnavailable(early);
      else expect(early.json<{ candidates: unknown[] }>().candidates.length).toBeGreaterThan(0);
      // Bounded: the index of one work loads in well under the test's timeout on any machine.
      while (!app.refmatch.readiness.ready) await new Promise((resolve) => setTimeout(resolve, 20));
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const res = await uploadOn(app, org, 'ms-late');
      expect(res.json<{ candidates: unknown[] }>().candidates.length).toBeGreaterThan(0);
    } finally {
      await app.close();
      await db.destroy();
    }
  });
});

describe('an app that reads its index from a snapshot in the background', () => {
  it('is not ready until the snapshot is read and the index caught up with the database', async () => {
    const db = await createTestDatabase();
    const dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-readiness-snapshot-'));
    try {
      await buildCorpus(db, [{ authors: [{ name: 'Nora Network' }] }]);
      const org = await createTestOrg({ db });
      const first = await buildApp({ config: testConfig({ indexSnapshotDir: dir }), db });
      await first.refmatch.index.refresh(); // queued behind the first snapshot's write
      await first.close();

      const lines: string[] = [];
      const logStream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
          done();
        },
      });
      const config = testConfig({ indexSnapshotDir: dir, logLevel: 'info' });
      const app = await buildApp({ config, db, logStream, loadIndexInBackground: true });
      try {
        const started = () =>
          lines.some((l) => l.includes('search index read from its snapshot and caught up'));
        for (;;) {
          const res = await app.inject({ method: 'GET', url: '/readyz' });
          if (res.statusCode === 200) break;
          expectUnavailable(res);
          expect(res.json<{ error: { message: string } }>().error.message).toContain(
            'search index is loading',
          );
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        // Ready only once the start (snapshot read, caught up) has finished.
        expect(started()).toBe(true);
        const res = await uploadOn(app, org, 'ms-after-restart');
        expect(res.json<{ candidates: unknown[] }>().candidates.length).toBeGreaterThan(0);
      } finally {
        await app.close();
      }
    } finally {
      await db.destroy();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

// The serving process on a PGlite data directory of its own whatever DATABASE_URL says: the server
// pass would repeat it unchanged.
describe.skipIf(suiteOnServerPostgres)('a fresh `refmatch serve` loading the demo corpus', () => {
  it('is not ready, and refuses uploads, until the demo corpus is loaded and indexed', async () => {
    const base = await embeddedServerConfig('readiness');
    const config = { ...base, demo: true };
    const lines: string[] = [];
    const server = await startServer(config, (line) => lines.push(line));
    try {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(((await ready.json()) as { error: { message: string } }).error.message).toContain('demo corpus');
      const key = lines.map((l) => /^\s+(rm_\S+)$/.exec(l)?.[1]).find(Boolean)!;
      const res = await uploadOn(server.app, { id: 0, apiKey: key, headers: { 'x-apikey': key } }, 'ms-demo');
      expectUnavailable(res);
    } finally {
      await server.shutdown();
    }
    // The start and shutdown wait on the demo corpus's load: 85 s at load 19 on 2 cores, past the 60 s default.
  }, 240_000);
});
