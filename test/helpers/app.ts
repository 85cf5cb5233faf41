// Builds the real app over a real test database, with an organization and key made for the test.
import type { FastifyInstance } from 'fastify';
import { parseConfig, type Config } from '../../src/infra/config.ts';
import { buildApp } from '../../src/app.ts';
import { createOrganization } from '../../src/organizations/organizations.ts';
import type { Feature } from '../../src/organizations/features.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://refmatch.test', REFMATCH_DEMO: 'false' }),
    // The test databases live in memory while the data directory is the checkout's own, shared by
    // every test: no snapshot, unless a test gives a directory of its own.
    indexSnapshotDir: null,
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export async function createTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const config = testConfig(overrides);
  const app = await buildApp({ config, db });
  await app.ready();
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.destroy();
    },
  };
}

/**
 * Serves the app on a free port of 127.0.0.1, for tests that need a real socket (what app.inject
 * cannot show: bodies sent slowly, connections closed, sockets counted); the port it took.
 */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('the test server has no port');
  return address.port;
}

export interface TestOrg {
  id: number;
  apiKey: string;
  headers: { 'x-apikey': string };
}

let orgCounter = 0;

export async function createTestOrg(
  t: Pick<TestApp, 'db'>,
  features: Feature[] = ['referee_finder', 'recommend_journals'],
): Promise<TestOrg> {
  const org = await createOrganization(t.db, { name: `Test org ${++orgCounter}`, features });
  return { id: org.id, apiKey: org.api_key, headers: { 'x-apikey': org.api_key } };
}
