// The app builds its search index on the engine the configuration names (SEARCH_ENGINE): with
// OpenSearch configured it goes to the cluster, and without one there it does not quietly fall back
// to the in-process index.
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

const databases: TestDatabase[] = [];
afterEach(async () => {
  while (databases.length) await databases.pop()!.destroy();
});

describe('SEARCH_ENGINE chooses the index the app runs on', () => {
  it('opensearch: the app asks the cluster at OPENSEARCH_URL for its index, and fails to start without one', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    // Port 9 (discard) on loopback: nothing answers OpenSearch there.
    const config = testConfig({
      search: {
        engine: 'opensearch',
        url: 'http://127.0.0.1:9',
        index: 'refmatch-works',
        shards: 1,
        replicas: 0,
      },
    });
    await expect(buildApp({ config, db })).rejects.toMatchObject({ name: 'ConnectionError' });
  });

  it('local: the app runs on the in-process index, built from the database', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    await db.query(`INSERT INTO works (work_key, title) VALUES ('w:1', 'Seagrass carbon storage')`);
    const app = await buildApp({ config: testConfig({ search: { engine: 'local' } }), db });
    try {
      expect(app.refmatch.index.stats()).toMatchObject({ works: 1, postings: expect.any(Number) });
      expect(app.refmatch.index.stats().postings).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});
