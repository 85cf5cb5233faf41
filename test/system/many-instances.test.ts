// Two API instances over one PostgreSQL, each with its own connection pool and its own in-process
// search index (as two processes would have): what is written through one is served by the other.
// On PGlite one process owns the data directory, so there is no second instance to test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { findCommand } from '../../src/cli/registry.ts';
import { openPostgres } from '../../src/infra/db/postgres.ts';
import type { Database } from '../../src/infra/db/index.ts';
import { createTestOrg, testConfig, type TestOrg } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';

const url = process.env.DATABASE_URL;

interface Candidate {
  author_id: number;
  marked: boolean;
  marked_by: string | null;
}

describe.skipIf(!url)(
  'two API instances over one PostgreSQL (skipped without DATABASE_URL: on PGlite one process owns the data directory)',
  () => {
    let dbA: TestDatabase;
    let dbB: Database;
    let a: FastifyInstance;
    let b: FastifyInstance;
    let org: TestOrg;
    beforeAll(async () => {
      dbA = await createTestDatabase();
      dbB = openPostgres({ connectionString: dbA.connectionString!, maxConnections: 4 });
      a = await buildApp({ config: testConfig(), db: dbA });
      b = await buildApp({ config: testConfig(), db: dbB });
      org = await createTestOrg({ db: dbA });
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await dbB?.close();
      await dbA?.destroy();
    });

    async function candidatesOn(app: FastifyInstance, originId: string): Promise<Candidate[]> {
      const fields = rankingFields({
        origin_id: originId,
        title: 'Message passing neural networks',
        abstract: TOPIC,
      });
      const res = await upload(app, { apiKey: org.apiKey, fields });
      expect(res.statusCode).toBe(200);
      return res.json<{ candidates: Candidate[] }>().candidates;
    }

    it('a work ingested through one is found by the other at its next poll (INDEX_POLL_MS, 1 s)', async () => {
      expect(await candidatesOn(b, 'ms-before')).toEqual([]);
      const ids = await buildCorpus(dbA, [{ authors: [{ name: 'Ines Instance' }] }]);
      const author = ids.authorId('Ines Instance');
      const written = performance.now();
      // Nobody refreshes B: its own poll must find the work. Bounded generously for a loaded machine;
      // the time it took is printed, and is about one poll period.
      let found = false;
      while (!found && performance.now() - written < 30_000) {
        found = (await candidatesOn(b, 'ms-after')).some((c) => c.author_id === author);
        if (!found) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const took = performance.now() - written;
      console.info(`instance B found the work ingested through A after ${took.toFixed(0)} ms`);
      expect(found).toBe(true);
    });

    it("a mark made through one shows in the other's next response", async () => {
      const ids = await buildCorpus(dbA, [{ authors: [{ name: 'Mark Marked' }] }]);
      await a.refmatch.index.refresh();
      await b.refmatch.index.refresh();
      const author = ids.authorId('Mark Marked');
      const first = await candidatesOn(b, 'ms-mark');
      expect(first.find((c) => c.author_id === author)).toMatchObject({ marked: false, marked_by: null });

      const mark = findCommand('mark')!;
      await mark.run(
        { config: testConfig(), db: dbA, progress: () => {} },
        { org: org.id, originId: 'ms-mark', author, by: 'editor@journal.org' },
      );
      const next = await candidatesOn(b, 'ms-mark');
      expect(next.find((c) => c.author_id === author)).toMatchObject({
        marked: true,
        marked_by: 'editor@journal.org',
      });
    });
  },
);
