// Runs `readBatches` in a worker thread: on a large file, reading, parsing and staging (about half of
// an ingest's CPU) then run on one core while the database writes on the other. Batches are asked
// for a few ahead, so the thread stays busy, but no further: memory stays bounded by the window.
import { startWorker } from '../../infra/worker-thread.ts';
import type { BatchStream, ParsedBatch, SingleRecord } from './batches.ts';
import type { InitialLoadMetrics, InitialLoadStart, ResolveEntities } from './initial-load.ts';
import type { StagedBatch } from './load-works.ts';
import type { InstitutionRow, SourceRow } from '../openalex/openalex-work.ts';

export interface BatchThreadOptions {
  kind: string;
  file: string;
  skipLines: number;
  batchSize: number;
  /** Stage for the initial load from these ids on (works only). */
  initial?: InitialLoadStart;
}

export type BatchRequest =
  | { type: 'next'; id: number }
  | { type: 'singles'; id: number; seq: number }
  | { type: 'restage'; id: number; seq: number }
  | { type: 'endInitialLoad'; id: number }
  | { type: 'initialLoadMetrics'; id: number }
  | { type: 'committed'; seq: number };

export type BatchReply =
  | { id: number; ready: true }
  | { id: number; batch: ParsedBatch | null }
  | { id: number; singles: SingleRecord[] }
  | { id: number; staged: StagedBatch }
  | { id: number; done: true }
  | { id: number; metrics: InitialLoadMetrics | null }
  | { id: number; error: string };

/** The thread asks the database side for the ids of sources and institutions (initial load). */
export interface ResolveRequest {
  resolve: number;
  sources: SourceRow[];
  institutions: InstitutionRow[];
}

export type ResolveReply =
  | { resolved: number; sources: Array<[string, number]>; institutions: Array<[string, number]> }
  | { resolved: number; error: string };

/** Batches parsed ahead of the one being written. */
const READ_AHEAD = 2;

export async function readBatchesInThread(
  options: BatchThreadOptions,
  resolve?: ResolveEntities,
): Promise<BatchStream> {
  const worker = startWorker(import.meta.url, 'batch-worker', { workerData: options });
  const waiting = new Map<number, { resolve: (reply: BatchReply) => void; reject: (e: Error) => void }>();
  let failure: Error | null = null;
  const failAll = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  const ready = new Promise<void>((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(), reject });
  });
  worker.on('message', (reply: BatchReply | ResolveRequest) => {
    if ('resolve' in reply) {
      const answer = (message: ResolveReply) => {
        if (!failure) worker.postMessage(message);
      };
      if (!resolve) answer({ resolved: reply.resolve, error: 'no resolver for the initial load' });
      else
        resolve(reply.sources, reply.institutions).then(
          (ids) => answer({ resolved: reply.resolve, ...ids }),
          (error: Error) => answer({ resolved: reply.resolve, error: error.message }),
        );
      return;
    }
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    if ('error' in reply) w.reject(new Error(`ingest parse thread: ${reply.error}`));
    else w.resolve(reply);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) => failAll(new Error(`ingest parse thread exited (code ${code})`)));
  await ready;

  let lastId = 0;
  type Ask =
    { type: 'next' | 'endInitialLoad' | 'initialLoadMetrics' } | { type: 'singles' | 'restage'; seq: number };
  const ask = (request: Ask): Promise<BatchReply> => {
    if (failure) return Promise.reject(failure);
    const id = ++lastId;
    const reply = new Promise<BatchReply>((resolve, reject) => waiting.set(id, { resolve, reject }));
    worker.postMessage({ ...request, id });
    return reply;
  };
  const ahead: Promise<BatchReply>[] = [];
  // A request whose answer nobody awaits yet must not surface as an unhandled rejection.
  const quiet = (p: Promise<BatchReply>) => {
    p.catch(() => {});
    return p;
  };

  return {
    async next() {
      while (ahead.length < READ_AHEAD + 1) ahead.push(quiet(ask({ type: 'next' })));
      const reply = await ahead.shift()!;
      return 'batch' in reply ? reply.batch : null;
    },
    async singles(seq) {
      const reply = await ask({ type: 'singles', seq });
      return 'singles' in reply ? reply.singles : [];
    },
    committed(seq) {
      if (!failure) worker.postMessage({ type: 'committed', seq } satisfies BatchRequest);
    },
    async restage(seq) {
      const reply = await ask({ type: 'restage', seq });
      // Never an empty stand-in: the caller would commit the batch's checkpoint with nothing written.
      if (!('staged' in reply)) throw new Error('ingest parse thread: no staged batch in its reply');
      return reply.staged;
    },
    async endInitialLoad() {
      await ask({ type: 'endInitialLoad' });
    },
    async initialLoadMetrics() {
      const reply = await ask({ type: 'initialLoadMetrics' });
      return 'metrics' in reply ? reply.metrics : null;
    },
    async close() {
      failure ??= new Error('ingest parse thread closed');
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
