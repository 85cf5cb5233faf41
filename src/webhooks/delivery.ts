// Delivery of webhook events (docs/webhooks.md): a worker in each serving process polls the outbox,
// claims due events with a lease, POSTs each as JSON signed with the organization's secret, and
// records the outcome: delivered on a 2xx, otherwise retried later with exponential backoff. At least
// once: a process that dies mid-delivery leaves a lease that runs out, and the event is sent again.
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Database } from '../infra/db/index.ts';
import type { WebhookConfig } from '../infra/config.ts';
import {
  claimDueEvents,
  pruneFinishedEvents,
  recordDelivered,
  recordFailure,
  type OutboxEvent,
} from './store.ts';
import { DestinationRefused, literalNonPublicHost, publicOnlyLookup } from './destination.ts';

export const SIGNATURE_HEADER = 'x-refmatch-signature';
const BATCH = 20;
// A lease outlives the request's own timeout, so a slow receiver is never sent the event twice at once.
const LEASE_MARGIN_MS = 5_000;
// Finished events older than the retention are deleted at most this often, in rounds of PRUNE_BATCH.
const PRUNE_EVERY_MS = 3_600_000;
const PRUNE_BATCH = 5_000;
/** The most of a receiver's answer body read: past it, its status settles the attempt (postJson). */
export const ANSWER_BYTES = 64 * 1024;

/** `sha256=` and the hex HMAC-SHA256 of the exact body bytes under the secret. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** The JSON body of an event: the same bytes on every attempt. */
export function eventBody(
  e: Pick<OutboxEvent, 'id' | 'event' | 'order' | 'organization_id' | 'created_at' | 'data'>,
): string {
  return JSON.stringify({
    id: e.id,
    event: e.event,
    order: e.order,
    organization_id: e.organization_id,
    occurred_at: new Date(e.created_at).toISOString(),
    data: e.data,
  });
}

/** Delay before the next attempt after `attempts` failed ones; null when no attempt is left. */
export function retryDelayMs(config: WebhookConfig, attempts: number): number | null {
  if (attempts >= config.maxAttempts) return null;
  return Math.min(config.retryMaxMs, config.retryBaseMs * 2 ** Math.max(0, attempts - 1));
}

export interface DeliveryLog {
  warn(obj: object, msg: string): void;
}

export class WebhookWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  // Until start(): a process with WEBHOOK_WORKER=false never delivers, even when poked.
  private stopped = true;
  private again = false;
  /** Ends the wait of a round that is sending (a new event was written: it may be claimable now). */
  private wake: (() => void) | null = null;
  // Aborts the requests in flight when the process stops: their leases run out and they are sent again.
  private aborter = new AbortController();
  private prunedAt = 0;

  constructor(
    private readonly db: Database,
    private readonly config: WebhookConfig,
    private readonly log: DeliveryLog,
  ) {}

  start(): void {
    this.stopped = false;
    this.aborter = new AbortController();
    this.schedule(0);
  }

  /** Look now (an event was just written) rather than at the next poll. */
  poke(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      this.wake?.();
      return;
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.aborter.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => {
        this.running = null;
        const again = this.again;
        this.again = false;
        this.schedule(again ? 0 : this.config.pollMs);
      });
    }, ms);
    this.timer.unref();
  }

  /**
   * Sends until nothing is due: each organization's events one at a time, organizations side by
   * side, and a new claim as soon as one organization's send ends, so that a receiver that never
   * answers delays its own organization's events only.
   */
  async tick(): Promise<void> {
    const sending = new Map<number, Promise<void>>();
    try {
      await this.pruneWhenDue();
      for (;;) {
        if (this.stopped) break;
        const events =
          sending.size >= BATCH
            ? []
            : await claimDueEvents(this.db, BATCH - sending.size, this.config.timeoutMs + LEASE_MARGIN_MS, [
                ...sending.keys(),
              ]);
        for (const e of events) {
          sending.set(
            e.organization_id,
            this.deliver(e).finally(() => sending.delete(e.organization_id)),
          );
        }
        if (sending.size === 0) break;
        // Claim again when a send ends (its organization may have more), when an event is written,
        // or after a poll (a retry comes due).
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          ...sending.values(),
          new Promise<void>((resolve) => {
            this.wake = resolve;
            timer = setTimeout(resolve, this.config.pollMs);
            timer.unref();
          }),
        ]);
        clearTimeout(timer);
        this.wake = null;
      }
    } catch (error) {
      if (!this.stopped) this.log.warn({ err: error }, 'webhook delivery round failed');
    }
    await Promise.allSettled(sending.values());
  }

  /** The outbox keeps finished events for the retention only (the log shows recent ones). */
  private async pruneWhenDue(): Promise<void> {
    if (Date.now() - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = Date.now();
    while (
      !this.stopped &&
      (await pruneFinishedEvents(this.db, this.config.retentionDays, PRUNE_BATCH)) === PRUNE_BATCH
    );
  }

  private async deliver(e: OutboxEvent): Promise<void> {
    const body = eventBody(e);
    let status: number | null = null;
    let error: string;
    // The timeout as a timer of our own, which holds its controller: AbortSignal.timeout inside
    // AbortSignal.any is held weakly, and once collected (a GC during the attempt) never fired, so an
    // answer stalled or read without end held the organization's events until the process stopped
    // (nodejs/node#57736; bench/hostile-webhook-answers.ts: no end in 40 s at a 2 s timeout).
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException('The attempt timed out', 'TimeoutError')),
      this.config.timeoutMs,
    );
    try {
      status = await postJson(
        e.url,
        {
          'user-agent': 'refmatch-webhooks',
          'x-refmatch-event': e.event,
          'x-refmatch-delivery': String(e.id),
          [SIGNATURE_HEADER]: signBody(e.secret, body),
        },
        body,
        {
          signal: AbortSignal.any([timeout.signal, this.aborter.signal]),
          allowPrivate: this.config.allowPrivateAddresses,
        },
      );
      if (status >= 200 && status < 300) {
        await recordDelivered(this.db, e.id, status);
        return;
      }
      error = `The receiver answered HTTP ${status}`;
    } catch (err) {
      if (this.stopped) return;
      const code = (err as { code?: string }).code;
      error =
        err instanceof DestinationRefused
          ? err.message
          : (err as Error).name === 'TimeoutError'
            ? `No answer within ${this.config.timeoutMs} ms`
            : `Could not reach the receiver: ${code ?? (err as Error).message}`;
    } finally {
      clearTimeout(timer);
    }
    const retryInMs = retryDelayMs(this.config, e.attempts);
    await recordFailure(this.db, e.id, { status, error, retryInMs });
    this.log.warn({ delivery: e.id, event: e.event, status, error, retryInMs }, 'webhook delivery failed');
  }
}

/**
 * POSTs a JSON body and answers the status. Redirects are not followed (a redirect could lead past the
 * destination check); the answer's body is read and dropped, which frees the connection, up to
 * ANSWER_BYTES: a longer one settles on its status and its connection is closed. Unless
 * private addresses are allowed, the connection goes only to public ones (destination.ts).
 */
function postJson(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: { signal: AbortSignal; allowPrivate: boolean },
): Promise<number> {
  if (!options.allowPrivate && literalNonPublicHost(url) !== null) {
    return Promise.reject(new DestinationRefused());
  }
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        signal: options.signal,
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup }),
      },
      (res) => {
        // An answer cut off after its headers (the connection dropped, or the timeout in the body)
        // fails the attempt: the request itself reports no error once its answer has begun, and a
        // send that never settled held its organization's events until the process stopped.
        const cutOff = (error: Error) =>
          reject(options.signal.aborted ? (options.signal.reason as Error) : error);
        res.on('error', cutOff);
        // The receiver is the organization's to name, and so is its answer: a body without end, as
        // fast as the socket takes it, was read and dropped until the timeout (10 s by default,
        // gigabytes on a fast link, every claimed event at once; bench/hostile-webhook-answers.ts).
        // Past ANSWER_BYTES the status is the answer: the connection is closed, not read on.
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read <= ANSWER_BYTES) return;
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        res.on('close', () => {
          if (!res.complete)
            cutOff(Object.assign(new Error('The answer was cut off'), { code: 'ECONNRESET' }));
        });
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', (error) => reject(options.signal.aborted ? (options.signal.reason as Error) : error));
    req.end(body);
  });
}
