// npx tsx bench/limits-at-cap.ts: what the records-per-group cap costs on a group of 200,000 records
// (docs/operations.md, "Organization limits"). In one run, on PGlite and on server PostgreSQL
// (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a fresh database dropped
// afterwards), times through the store every path uses (writeGroupAuthor):
//   - a create refused at the cap, and a replace of an existing record at the cap;
//   - a create under the cap with the counting triggers on (this branch) and off (no cap: before);
//   - the count(*) of the group that a cap without the kept count would run at every create.
// Options (environment): BENCH_RECORDS (default 200000), BENCH_ROUNDS (default 200),
// BENCH_DRIVERS (default "pglite,postgres").
import type { Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import { createGroup, writeGroupAuthor, type GroupAuthorRecord } from '../src/authors-groups/store.ts';
import { setLimitOverrides } from '../src/organizations/limits.ts';
import { AppError } from '../src/infra/app-error.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);

function record(name: string, email: string): GroupAuthorRecord {
  return { name, emails: [email], orcids: null, articles: null, affiliations: null, custom_values: {} };
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(2)} ms, p95 ${at(0.95).toFixed(2)} ms (n=${ms.length})`;
}

async function timed(rounds: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await fn(i);
    out.push(performance.now() - start);
  }
  return out;
}

async function measure(db: Database, label: string): Promise<void> {
  await migrate(db);
  const org = await createOrganization(db, { name: 'Bench', features: [] });
  const group = await createGroup(db, org.id, 'Pool');
  const key = (clientId: string) => ({ organizationId: org.id, groupId: group.group_id, clientId });
  await db.query(
    `INSERT INTO group_authors (group_id, client_id, organization_id, name)
     SELECT $1, 'r' || i, $2, 'Name ' || i FROM generate_series(1, $3::integer) i`,
    [group.group_id, org.id, RECORDS],
  );
  await db.query('ANALYZE group_authors');
  await db.query('VACUUM group_authors');
  await setLimitOverrides(db, org.id, { records_per_group: RECORDS });

  const refused = await timed(ROUNDS, async (i) => {
    try {
      await writeGroupAuthor(db, key(`new-${i}`), record('New', `new${i}@example.org`));
      throw new Error('a create at the cap was accepted');
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'limit_reached') throw error;
    }
  });
  // New linking inputs each time: the replace takes the transaction path (upsert), not the fast update.
  const replaced = await timed(ROUNDS, (i) =>
    writeGroupAuthor(db, key(`r${i + 1}`), record(`Name ${i + 1}`, `r${i}@example.org`)).then(() => {}),
  );

  await setLimitOverrides(db, org.id, { records_per_group: RECORDS * 10 });
  const created = await timed(ROUNDS, (i) =>
    writeGroupAuthor(db, key(`on-${i}`), record('New', `on${i}@example.org`)).then(() => {}),
  );
  await db.query('ALTER TABLE group_authors DISABLE TRIGGER USER');
  const createdWithoutCount = await timed(ROUNDS, (i) =>
    writeGroupAuthor(db, key(`off-${i}`), record('New', `off${i}@example.org`)).then(() => {}),
  );
  await db.query('ALTER TABLE group_authors ENABLE TRIGGER USER');
  const counted = await timed(Math.min(ROUNDS, 50), async () => {
    await db.query('SELECT count(*) FROM group_authors WHERE group_id = $1', [group.group_id]);
  });

  console.log(`${label}, group of ${RECORDS} records:`);
  console.log(`  create refused at the cap            ${summary(refused)}`);
  console.log(`  replace at the cap (accepted)        ${summary(replaced)}`);
  console.log(`  create under the cap, count kept     ${summary(created)}`);
  console.log(`  create, triggers off (no cap)        ${summary(createdWithoutCount)}`);
  console.log(`  count(*) of the group (not used)     ${summary(counted)}`);
}

await onEachBenchDatabase('bench_limits', measure);
