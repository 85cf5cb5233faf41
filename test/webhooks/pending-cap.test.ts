// An organization's pending webhook events are capped (PENDING_EVENTS_CAP): a receiver down for days,
// or a client triggering events in a loop, grew the outbox by every mark and upload. Writing the event
// that many after one still pending expires that one, marked failed with a message the delivery log
// shows, from where it can be sent again; nothing goes without a record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimDueEvents,
  enqueueEvent,
  EXPIRED_MESSAGE,
  listDeliveries,
  PENDING_EVENTS_CAP,
  recordFailure,
  retryDelivery,
  saveWebhook,
} from '../../src/webhooks/store.ts';
import { createTestOrg } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => db?.destroy());

describe("an organization's pending webhook events", () => {
  it('keeps PENDING_EVENTS_CAP of them, the older ones expired with a record in the log', async () => {
    const org = await createTestOrg({ db });
    await saveWebhook(
      db,
      org.id,
      { url: 'https://receiver.example/hook', secret: null, enabled: true },
      { allowPrivateAddresses: false },
    );
    const write = async (events: number) => {
      for (let i = 0; i < events; i++) {
        await enqueueEvent(db, org.id, 'mark_as_proposal_referee', { manuscript_id: i, author_id: i });
      }
    };
    await write(1);
    // The first event taken by the worker: its receiver down, the send fails after the expiry.
    const [sending] = await claimDueEvents(db, 1, 60_000, []);
    expect(sending?.order).toBe(1);
    // Events 2 to PENDING_EVENTS_CAP written at once (as enqueueEvent writes them; one by one they
    // took minutes on a loaded machine), then three more by enqueueEvent.
    await db.query(
      `INSERT INTO webhook_outbox (organization_id, "order", event, data)
       SELECT $1, g, 'mark_as_proposal_referee', '{}'::jsonb FROM generate_series(2, $2::int) g`,
      [org.id, PENDING_EVENTS_CAP],
    );
    await db.query('UPDATE webhooks SET last_order = $2 WHERE organization_id = $1', [
      org.id,
      PENDING_EVENTS_CAP,
    ]);
    await write(3);

    const byStatus = await db.query<{ status: string; n: number; orders: string }>(
      `SELECT status, count(*)::int AS n, min("order") || '-' || max("order") AS orders
         FROM webhook_outbox WHERE organization_id = $1 GROUP BY status ORDER BY status`,
      [org.id],
    );
    // Before: 10,003 pending.
    expect(byStatus.rows).toEqual([
      { status: 'failed', n: 3, orders: '1-3' },
      { status: 'pending', n: PENDING_EVENTS_CAP, orders: `4-${PENDING_EVENTS_CAP + 3}` },
    ]);
    // The send of the first, failing after it expired, leaves it expired rather than pending again.
    await recordFailure(db, sending!.id, { status: 503, error: 'HTTP 503', retryInMs: 10_000 });
    const third = await db.query<{ id: number }>(
      'SELECT id::int AS id FROM webhook_outbox WHERE organization_id = $1 AND "order" = 3',
      [org.id],
    );
    // The delivery log's page from the third event down, as the Webhooks page reads it.
    const log = await listDeliveries(db, org.id, 50, third.rows[0]!.id + 1);
    expect(log.map((e) => [e.order, e.status, e.last_error])).toEqual([
      [3, 'failed', EXPIRED_MESSAGE],
      [2, 'failed', EXPIRED_MESSAGE],
      [1, 'failed', EXPIRED_MESSAGE],
    ]);
    // Its count as the dashboard's delivery log writes every count, thousands separated.
    expect(EXPIRED_MESSAGE).toMatch(/^Expired undelivered: 10,000 later events /);
    // Sent again from the log, an expired event is pending again.
    expect(await retryDelivery(db, org.id, log[0]!.id)).toBe('queued');
  });
});
