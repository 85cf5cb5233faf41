// The main thread's side of the search worker (search-worker-main.ts). Postings and per-work arrays
// are SharedArrayBuffers, so publishing the index after a refresh sends references, not copies.
// Requests are answered in order; a new state is seen by every search sent after it.
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../infra/worker-thread.ts';
import type { Bm25Index } from './bm25-index.ts';
import type { ScoredQuery, ScorerTuning, SearchHit } from './search.ts';
import type { WorkerReply, WorkerSearch, WorkerState } from './search-worker-main.ts';

export class SearchThread {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (hits: SearchHit[]) => void; reject: (e: Error) => void }
  >();
  private failed: Error | null = null;

  constructor() {
    this.worker = startWorker(import.meta.url, 'search-worker-main');
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiting.get(reply.id);
      if (!waiter) return;
      this.waiting.delete(reply.id);
      if (reply.error !== undefined) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.hits ?? []);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`search worker exited with code ${code}`)));
  }

  private fail(error: Error): void {
    this.failed ??= error;
    for (const w of this.waiting.values()) w.reject(error);
    this.waiting.clear();
  }

  /** False once the worker has died: callers then search on the main thread. */
  get usable(): boolean {
    return this.failed === null;
  }

  publish(index: Bm25Index): void {
    const { norms, states, slotWork, years, bounds } = index.internals();
    const state: WorkerState = {
      type: 'state',
      segments: index.segments.map((s) => ({ ...s })),
      slotCount: index.slotCount,
      docCount: index.docCount,
      norms,
      states,
      slotWork,
      years,
      bounds,
    };
    this.worker.postMessage(state);
  }

  search(query: ScoredQuery, k: number, tuning: Partial<ScorerTuning> = {}): Promise<SearchHit[]> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    const message: WorkerSearch = {
      type: 'search',
      id,
      query: {
        selfScore: query.selfScore,
        terms: query.terms.map((t) => ({ termId: t.termId, df: t.df, weight: t.weight })),
      },
      k,
      tuning,
    };
    // Keep the process alive while a search is pending, not otherwise.
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise<SearchHit[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage(message);
    }).finally(() => {
      if (this.waiting.size === 0) this.worker.unref();
    });
  }

  async close(): Promise<void> {
    this.failed ??= new Error('search worker closed');
    await this.worker.terminate();
  }
}
