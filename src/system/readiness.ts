// Whether this process can answer for the whole corpus: while the search index loads at start, or
// the demo corpus is being ingested into an empty database, an upload would be ranked against part
// of the corpus (at first none of it) and answered as if that were all. Each such task is pending
// here under a name until it ends; /readyz and the routes that read the corpus consult it.
import type { FastifyReply } from 'fastify';
import { errors } from '../infra/errors.ts';

/** Seconds a client is told to wait before trying again while the service is loading. */
export const RETRY_AFTER_SECONDS = 5;

export class Readiness {
  private readonly pending = new Map<string, string>();

  /** `reason` says what is happening, e.g. "the search index is loading". */
  begin(name: string, reason: string): void {
    this.pending.set(name, reason);
  }

  end(name: string): void {
    this.pending.delete(name);
  }

  /** Pending until `task` settles, however it ends. */
  track(name: string, reason: string, task: Promise<unknown>): void {
    this.begin(name, reason);
    void task.then(
      () => this.end(name),
      () => this.end(name),
    );
  }

  get ready(): boolean {
    return this.pending.size === 0;
  }

  reasons(): string[] {
    return [...this.pending.values()];
  }

  /** Throws 503 `unavailable` (with Retry-After) while anything is pending. */
  assertReady(reply: FastifyReply): void {
    if (this.ready) return;
    void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
    throw errors.unavailable(`The service is starting: ${this.reasons().join('; ')}. Try again shortly.`);
  }
}
