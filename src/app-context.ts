// What every route module is given: configuration and the services behind the routes. Built once
// by `buildApp`; later capabilities add their services here.
import type { Config } from './infra/config.ts';
import type { Database } from './infra/db/index.ts';
import type { ApiKeyVerifier } from './organizations/api-keys.ts';
import type { WorkIndex } from './retrieval/work-index.ts';
import type { ParserPool } from './parsing/parser-pool.ts';
import type { Authentication } from './http/auth.ts';
import type { RateLimits } from './http/rate-limits.ts';
import type { Readiness } from './system/readiness.ts';
import type { AppMetrics } from './system/metrics.ts';
import type { WebhookWorker } from './webhooks/delivery.ts';
import type { JournalResultCache } from './journals/result-cache.ts';
import type { InFlightGate } from './infra/in-flight-gate.ts';

export interface AppContext {
  config: Config;
  db: Database;
  keys: ApiKeyVerifier;
  /** API keys verified under the rate limits (src/http/rate-limits.ts). */
  auth: Authentication;
  /** The rate limits of this process (src/http/rate-limits.ts), for what routes count themselves. */
  limits: RateLimits;
  /** Full-text index over the corpus's works, built at start and kept current (docs/retrieval.md). */
  index: WorkIndex;
  /** Worker threads that parse uploaded manuscripts, with the per-file limits (src/parsing). */
  parser: ParserPool;
  /** What is still loading (the index, the demo corpus): /readyz and the corpus's readers ask it. */
  readiness: Readiness;
  /** Counters and timings served at /metrics. */
  metrics: AppMetrics;
  /** Delivers webhook events from the outbox (docs/webhooks.md); poke() after writing one. */
  webhooks: WebhookWorker;
  /** Journal recommendations computed, served again while nothing they depend on changed (4.6). */
  journalResults: JournalResultCache;
  /**
   * The places of work the process takes only so much of at once, in all and per organization:
   * uploads (the API's and the dashboard's share them: UPLOADS_IN_FLIGHT*) and a group's exports
   * (EXPORTS_IN_FLIGHT*).
   */
  inFlight: { uploads: InFlightGate; exports: InFlightGate };
}
