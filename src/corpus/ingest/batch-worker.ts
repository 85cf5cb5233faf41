// The parse thread of an ingest (started by batch-thread.ts): reads and stages batches on request,
// one request at a time, in the order they came.
import { parentPort, workerData } from 'node:worker_threads';
import { readBatches, type InitialStaging, type RecordStaging } from './batches.ts';
import { recordKinds, type RecordKindName } from '../openalex/entities.ts';
import { InitialLoadStager, type ResolveEntities } from './initial-load.ts';
import type { StagedCopy } from './load-works.ts';
import type {
  BatchRequest,
  BatchReply,
  BatchThreadOptions,
  ResolveReply,
  ResolveRequest,
} from './batch-thread.ts';

const options = workerData as BatchThreadOptions;
const port = parentPort!;
// One kind per thread: which of the four does not matter to the reading loop.
const kind = recordKinds[options.kind as RecordKindName] as RecordStaging<unknown>;

// The initial load asks the database side for ids and waits for the answer in the middle of a
// request; answers come by their own number, not through the request queue.
const resolving = new Map<number, (reply: ResolveReply) => void>();
let lastResolve = 0;
const resolve: ResolveEntities = (sources, institutions) =>
  new Promise((done, fail) => {
    const id = ++lastResolve;
    resolving.set(id, (reply) => {
      if ('error' in reply) fail(new Error(reply.error));
      else done({ sources: reply.sources, institutions: reply.institutions });
    });
    port.postMessage({ resolve: id, sources, institutions } satisfies ResolveRequest);
  });
const initial =
  options.initial && options.kind === 'works'
    ? (new InitialLoadStager(options.initial, resolve) as InitialStaging<unknown>)
    : undefined;
const stream = await readBatches(kind, options.file, options.skipLines, options.batchSize, initial);

let queue = Promise.resolve();

async function handle(request: BatchRequest): Promise<void> {
  let reply: BatchReply;
  try {
    if (request.type === 'committed') {
      stream.committed(request.seq);
      return;
    }
    switch (request.type) {
      case 'next':
        reply = { id: request.id, batch: await stream.next() };
        break;
      case 'singles':
        reply = { id: request.id, singles: await stream.singles(request.seq) };
        break;
      case 'restage':
        reply = { id: request.id, staged: await stream.restage(request.seq) };
        break;
      case 'endInitialLoad':
        await stream.endInitialLoad();
        reply = { id: request.id, done: true };
        break;
      case 'initialLoadMetrics':
        reply = { id: request.id, metrics: await stream.initialLoadMetrics() };
        break;
    }
  } catch (error) {
    reply = { id: 'id' in request ? request.id : -1, error: (error as Error).stack ?? String(error) };
  }
  try {
    port.postMessage(reply, csvBuffers(reply));
  } catch (error) {
    // A reply that cannot be sent must still be answered, or the caller would wait forever.
    port.postMessage({ id: reply.id, error: (error as Error).stack ?? String(error) } satisfies BatchReply);
  }
}

/**
 * The buffers of the reply's CSV payloads, moved to the main thread rather than copied (tens of MB a
 * batch). Only a buffer the payload owns whole: a view into Buffer's shared pool must be copied.
 */
function csvBuffers(reply: BatchReply): ArrayBuffer[] {
  const copies: StagedCopy[] = [];
  if ('batch' in reply && reply.batch)
    copies.push(...reply.batch.staged.copies, ...(reply.batch.initial?.copies ?? []));
  if ('staged' in reply) copies.push(...reply.staged.copies);
  if ('singles' in reply) for (const single of reply.singles) copies.push(...single.staged.copies);
  // Not the initial load's metrics: the thread keeps them (InitialLoadStager.metrics), so they are
  // copied; moved, the next answer would find their buffer detached.
  const owned = new Set<ArrayBuffer>();
  for (const { csv } of copies)
    if (csv.buffer instanceof ArrayBuffer && csv.byteOffset === 0 && csv.byteLength === csv.buffer.byteLength)
      owned.add(csv.buffer);
  return [...owned];
}

port.on('message', (message: BatchRequest | ResolveReply) => {
  if ('resolved' in message) {
    const answer = resolving.get(message.resolved);
    resolving.delete(message.resolved);
    answer?.(message);
    return;
  }
  queue = queue.then(() => handle(message));
});
port.postMessage({ id: 0, ready: true } satisfies BatchReply);
