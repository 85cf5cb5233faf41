// Claiming the next webhook events while an organization's backlog grows (its receiver slow or
// failing, marks and uploads still coming, each poking the worker to claim): the claim finds each
// organization's first due event by an index, not by sorting every pending event
// (bench/hostile-webhook-backlog.ts: 250,000 pending held PGlite's thread 279 ms a claim). Counted in
// the rows the claim's statement reads from the outbox, as EXPLAIN ANALYZE reports them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/infra/db/index.ts';
import { claimDueEvents, saveWebhook } from '../../src/webhooks/store.ts';
import { createTestOrg } from '../helpers/app.ts';
import { createTestDatabase, rowsScanned, type PlanNode, type TestDatabase } from '../helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.destroy());

describe('claiming due webhook events', () => {
  it("reads each organization's first due event, not the backlog behind it", async () => {
    const [busy, quiet] = [await createTestOrg({ db }), await createTestOrg({ db })];
    for (const org of [busy, quiet]) {
      await saveWebhook(
        db,
        org.id,
        { url: 'https://receiver.example/hook', secret: null, enabled: true },
        { allowPrivateAddresses: false },
      );
    }
    const insert = (organizationId: number, events: number) =>
      db.query(
        `INSERT INTO webhook_outbox (organization_id, "order", event, data, next_attempt_at)
         SELECT $1, g, 'mark_as_proposal_referee', '{}'::jsonb, now() - make_interval(secs => $2 - g)
           FROM generate_series(1, $2::int) g`,
        [organizationId, events],
      );
    await insert(busy.id, 3_000);
    await insert(quiet.id, 1);
    await db.query('ANALYZE webhook_outbox');

    const sent: { sql: string; params: readonly unknown[] | undefined }[] = [];
    const noting: Queryable = {
      query: (sql, params) => {
        sent.push({ sql, params });
        return db.query(sql, params);
      },
    };
    const claimed = await claimDueEvents(noting, 20, 15_000, []);
    expect(claimed.map((e) => [e.organization_id, e.order]).sort()).toEqual(
      [
        [busy.id, 1],
        [quiet.id, 1],
      ].sort(),
    );
    expect(sent).toHaveLength(1);

    // The same claim again (the leases taken off), read through EXPLAIN ANALYZE.
    await db.query('UPDATE webhook_outbox SET locked_until = NULL, attempts = 0');
    const { rows } = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (ANALYZE, FORMAT JSON) ${sent[0]!.sql}`,
      sent[0]!.params as unknown[],
    );
    // Before: every pending event scanned and sorted (3,001 rows).
    expect(rowsScanned(rows[0]!['QUERY PLAN'][0].Plan, 'webhook_outbox')).toBeLessThan(20);
  });

  it('sorts the first due events before it reads them again, with many organizations each due', async () => {
    // 2,000 organizations each with an event due: the claim joined the first events back to the
    // outbox through a nested loop that compared each due event with every first one (64,000 rows
    // for 33), 13 -> 20 ms of PGlite's thread a claim (bench/hostile-webhook-backlog.ts, BENCH_ORGS).
    const own = await createTestDatabase();
    try {
      const organizations = 300;
      for (let i = 0; i < organizations; i++) {
        const org = await createTestOrg({ db: own });
        await saveWebhook(
          own,
          org.id,
          { url: 'https://receiver.example/hook', secret: null, enabled: true },
          { allowPrivateAddresses: false },
        );
        await own.query(
          `INSERT INTO webhook_outbox (organization_id, "order", event, data) VALUES ($1, 1, 'proposal_uploaded', '{}')`,
          [org.id],
        );
      }
      await own.query('ANALYZE');
      const sent: { sql: string; params: readonly unknown[] | undefined }[] = [];
      const noting: Queryable = {
        query: (sql, params) => {
          sent.push({ sql, params });
          return own.query(sql, params);
        },
      };
      expect(await claimDueEvents(noting, 20, 15_000, [])).toHaveLength(20);
      await own.query('UPDATE webhook_outbox SET locked_until = NULL, attempts = 0');
      const { rows } = await own.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sent[0]!.sql}`,
        sent[0]!.params as unknown[],
      );
      // Every row each step of the plan handled, and those its joins compared and dropped: a few a
      // webhook (its probe, its sort: 1,740 for 300), not one a pair of webhooks (21,279 before).
      expect(rowsHandled(rows[0]!['QUERY PLAN'][0].Plan)).toBeLessThan(10 * organizations);
    } finally {
      await own.destroy();
    }
  });
});

/** Rows every node of the plan returned over its loops, and those its join filters dropped. */
function rowsHandled(node: PlanNode): number {
  const dropped = node['Rows Removed by Join Filter'] ?? 0;
  return (
    (node['Actual Rows'] + dropped) * node['Actual Loops'] +
    (node.Plans ?? []).reduce((sum, child) => sum + rowsHandled(child), 0)
  );
}
