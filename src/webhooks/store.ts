// SQL of webhooks (docs/webhooks.md): the organization's endpoint, the outbox events are written to in
// the transaction of what they report, and the worker's claims and outcomes.
import { randomBytes } from 'node:crypto';
import type { Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { formatCount } from '../infra/counts.ts';
import { literalNonPublicHost, NOT_PUBLIC_MESSAGE } from './destination.ts';

export const WEBHOOK_EVENTS = ['mark_as_proposal_referee', 'proposal_uploaded'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface Webhook {
  organization_id: number;
  url: string;
  secret: string;
  enabled: boolean;
}

export async function findWebhook(db: Queryable, organizationId: number): Promise<Webhook | null> {
  const { rows } = await db.query<Webhook>(
    'SELECT organization_id, url, secret, enabled FROM webhooks WHERE organization_id = $1',
    [organizationId],
  );
  return rows[0] ?? null;
}

/**
 * A URL a webhook may be sent to: http or https, with a host; unless private addresses are allowed, not
 * one written as a loopback, private or link-local address (names are checked at each delivery).
 */
export function checkWebhookUrl(value: string, allowPrivateAddresses: boolean): string {
  const url = value.trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.validation('The URL is not a valid URL (e.g. https://example.org/refmatch-events)');
  }
  if (!['http:', 'https:'].includes(parsed.protocol) || !parsed.hostname) {
    throw errors.validation('The URL must start with https:// (or http://)');
  }
  if (url.length > 2000) throw errors.validation('The URL is longer than 2,000 characters');
  if (!allowPrivateAddresses && literalNonPublicHost(url) !== null)
    throw errors.validation(NOT_PUBLIC_MESSAGE);
  return url;
}

export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64url')}`;
}

export async function saveWebhook(
  db: Queryable,
  organizationId: number,
  input: { url: string; secret: string | null; enabled: boolean },
  options: { allowPrivateAddresses: boolean },
): Promise<Webhook> {
  const url = checkWebhookUrl(input.url, options.allowPrivateAddresses);
  const secret = input.secret?.trim() || null;
  if (secret !== null && (secret.length < 16 || secret.length > 200)) {
    throw errors.validation('The secret must be 16 to 200 characters long (or left empty to keep it)');
  }
  const { rows } = await db.query<Webhook>(
    `INSERT INTO webhooks (organization_id, url, secret, enabled) VALUES ($1, $2, coalesce($3, $4), $5)
     ON CONFLICT (organization_id) DO UPDATE SET url = EXCLUDED.url,
       secret = coalesce($3, webhooks.secret), enabled = EXCLUDED.enabled, updated_at = now()
     RETURNING organization_id, url, secret, enabled`,
    [organizationId, url, secret, generateSecret(), input.enabled],
  );
  return rows[0]!;
}

export async function rotateSecret(db: Queryable, organizationId: number): Promise<void> {
  const { rowCount } = await db.query(
    'UPDATE webhooks SET secret = $2, updated_at = now() WHERE organization_id = $1',
    [organizationId, generateSecret()],
  );
  if (rowCount === 0) throw errors.notFound('Webhook');
}

/**
 * The pending events an organization's outbox keeps: writing the event that many after one still
 * pending (a receiver down for days, or a client triggering events in a loop) expires that one,
 * marked `failed` with EXPIRED_MESSAGE in the delivery log, where it can be sent again. Without a cap
 * the outbox grew by every mark and upload for as long as the receiver stayed down.
 */
export const PENDING_EVENTS_CAP = 10_000;

/** The error an event expired by PENDING_EVENTS_CAP shows in the delivery log. */
export const EXPIRED_MESSAGE = `Expired undelivered: ${formatCount(PENDING_EVENTS_CAP)} later events of the organization were waiting to be sent (the outbox keeps that many); send it again to deliver it`;

/**
 * Writes an event to the outbox with the organization's next `order`, when it has an enabled
 * webhook; call it with the transaction that writes what the event reports. The row lock on the
 * webhook row makes `order` increase in commit order. The event PENDING_EVENTS_CAP orders before it,
 * still pending, is expired (one probe of the `(organization_id, "order")` key: every order is
 * checked once, by the event written that many after it). The probe asks the key alone: asked with
 * the status, the planner read every pending event of the organization by the claim's index (0115).
 */
export async function enqueueEvent(
  tx: Queryable,
  organizationId: number,
  event: WebhookEvent,
  data: Record<string, unknown>,
): Promise<void> {
  await tx.query(
    `WITH w AS (
       UPDATE webhooks SET last_order = last_order + 1 WHERE organization_id = $1 AND enabled
       RETURNING organization_id, last_order),
     expired AS (
       UPDATE webhook_outbox o SET status = 'failed', locked_until = NULL, last_status = NULL, last_error = $4
        WHERE o.status = 'pending' AND o.id = (
          SELECT id FROM webhook_outbox WHERE organization_id = $1 AND "order" = (SELECT last_order FROM w) - $5))
     INSERT INTO webhook_outbox (organization_id, "order", event, data)
     SELECT organization_id, last_order, $2, $3::jsonb FROM w`,
    [organizationId, event, JSON.stringify(data), EXPIRED_MESSAGE, PENDING_EVENTS_CAP],
  );
}

export interface OutboxEvent {
  id: number;
  organization_id: number;
  order: number;
  event: WebhookEvent;
  data: Record<string, unknown>;
  created_at: Date;
  attempts: number;
  url: string;
  secret: string;
}

/**
 * Claims the first due event of up to `limit` organizations, none of `busy` (their last event is
 * still being sent), with a lease (FOR UPDATE SKIP LOCKED: two workers never take one event), in a
 * single statement, so no transaction stays open while the receiver answers. One event an
 * organization a claim: a batch of one organization's events, sent one after another, outlived the
 * later events' leases, and an organization whose receiver never answers held every other
 * organization's events behind its batch.
 */
export async function claimDueEvents(
  db: Queryable,
  limit: number,
  leaseMs: number,
  busy: readonly number[] = [],
): Promise<OutboxEvent[]> {
  const { rows } = await db.query<OutboxEvent>(
    // Each enabled webhook's first due event, by one probe of webhook_outbox_organization_due_idx
    // (migration 0115): a DISTINCT ON over the pending events sorted every organization's backlog at
    // each claim (100,000 events behind a slow receiver: ~105 ms of PGlite's thread a claim). The
    // first events are sorted before they are read again: joined back to the outbox unsorted, the
    // planner compared each due event with every first one (2,000 webhooks: 64,000 rows, +7 ms).
    `WITH firsts AS (
       SELECT f.id, f.next_attempt_at
         FROM webhooks w CROSS JOIN LATERAL (
           SELECT o.id, o.next_attempt_at FROM webhook_outbox o
            WHERE o.organization_id = w.organization_id AND o.status = 'pending' AND o.next_attempt_at <= now()
              AND (o.locked_until IS NULL OR o.locked_until < now())
            ORDER BY o.next_attempt_at, o.id LIMIT 1) f
        WHERE w.enabled AND w.organization_id <> ALL($3::int[])),
     due AS (
       SELECT o.id FROM (SELECT id, next_attempt_at FROM firsts ORDER BY next_attempt_at, id) f
         JOIN webhook_outbox o ON o.id = f.id
        WHERE o.status = 'pending' AND (o.locked_until IS NULL OR o.locked_until < now())
        ORDER BY f.next_attempt_at, f.id
        LIMIT $1 FOR UPDATE OF o SKIP LOCKED)
     UPDATE webhook_outbox o SET locked_until = now() + make_interval(secs => $2::float8 / 1000),
       attempts = o.attempts + 1
       FROM due, webhooks w
      WHERE o.id = due.id AND w.organization_id = o.organization_id
     RETURNING o.id::int AS id, o.organization_id, o."order"::int AS "order", o.event, o.data, o.created_at,
       o.attempts, w.url, w.secret`,
    [limit, leaseMs, busy],
  );
  return rows;
}

export async function recordDelivered(db: Queryable, id: number, status: number): Promise<void> {
  await db.query(
    `UPDATE webhook_outbox SET status = 'delivered', delivered_at = now(), last_status = $2,
       last_error = NULL, locked_until = NULL WHERE id = $1`,
    [id, status],
  );
}

export async function recordFailure(
  db: Queryable,
  id: number,
  outcome: { status: number | null; error: string; retryInMs: number | null },
): Promise<void> {
  await db.query(
    // Only a pending event: one expired while it was being sent (PENDING_EVENTS_CAP) stays expired.
    `UPDATE webhook_outbox SET last_status = $2, last_error = $3, locked_until = NULL,
       status = CASE WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
       next_attempt_at = CASE WHEN $4::float8 IS NULL THEN next_attempt_at
                              ELSE now() + make_interval(secs => $4::float8 / 1000) END
     WHERE id = $1 AND status = 'pending'`,
    [id, outcome.status, outcome.error.slice(0, 1000), outcome.retryInMs],
  );
}

export interface DeliveryRow {
  id: number;
  order: number;
  event: WebhookEvent;
  data: Record<string, unknown>;
  created_at: Date;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

/** The organization's delivery log, newest first, by keyset (ids below `before`). */
export async function listDeliveries(
  db: Queryable,
  organizationId: number,
  limit: number,
  before: number | null,
): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id::int AS id, "order"::int AS "order", event, data, created_at, status, attempts, next_attempt_at,
            last_status, last_error, delivered_at
       FROM webhook_outbox WHERE organization_id = $1 AND ($2::bigint IS NULL OR id < $2)
      ORDER BY id DESC LIMIT $3`,
    [organizationId, before, limit],
  );
  return rows;
}

/**
 * Deletes events that are finished (delivered, or failed for good) and older than the retention, at
 * most `limit` at a time so that no statement holds many rows; answers how many went. Pending events
 * stay whatever their age. The organization's `order` lives on its webhook row, so it never restarts.
 */
export async function pruneFinishedEvents(
  db: Queryable,
  retentionDays: number,
  limit: number,
): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM webhook_outbox WHERE id IN (
       SELECT id FROM webhook_outbox
        WHERE status IN ('delivered', 'failed') AND created_at < now() - make_interval(days => $1)
        LIMIT $2)`,
    [retentionDays, limit],
  );
  return rowCount ?? 0;
}

/**
 * Makes a delivered or failed event due again now (the log's retry button). With `shownAttempts`
 * (the attempts the log showed when the button was pressed), only if no attempt was made since: a
 * second click of "Send again" (a double click, a tab left open) finds the event sent again by the
 * first, and answers 'already' rather than send it a third time. Answers 'queued' otherwise.
 */
export async function retryDelivery(
  db: Queryable,
  organizationId: number,
  id: number,
  shownAttempts: number | null = null,
): Promise<'queued' | 'already'> {
  const { rows } = await db.query<{ queued: boolean }>(
    `WITH queued AS (
       UPDATE webhook_outbox SET status = 'pending', next_attempt_at = now(), locked_until = NULL
        WHERE organization_id = $1 AND id = $2 AND ($3::integer IS NULL OR attempts = $3)
       RETURNING id)
     SELECT EXISTS (SELECT 1 FROM queued) AS queued
       FROM webhook_outbox WHERE organization_id = $1 AND id = $2`,
    [organizationId, id, shownAttempts],
  );
  if (!rows[0]) throw errors.notFound('Delivery');
  return rows[0].queued ? 'queued' : 'already';
}
