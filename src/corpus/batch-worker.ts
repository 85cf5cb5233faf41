// The parse thread of an ingest (started by batch-thread.ts): reads and stages batches on request,
// one request at a time, in the order they came.
import { parentPort, workerData } from 'node:worker_threads';
import { readBatches, type RecordStaging } from './batches.ts';
import { recordKinds, type RecordKindName } from './entities.ts';
import type { BatchRequest, BatchReply, BatchThreadOptions } from './batch-thread.ts';

const options = workerData as BatchThreadOptions & { entry: string };
const port = parentPort!;
// One kind per thread: which of the four does not matter to the reading loop.
const kind = recordKinds[options.kind as RecordKindName] as RecordStaging<unknown>;
const stream = await readBatches(kind, options.file, options.skipLines, options.batchSize);

let queue = Promise.resolve();

async function handle(request: BatchRequest): Promise<void> {
  let reply: BatchReply;
  try {
    if (request.type === 'committed') {
      stream.committed(request.seq);
      return;
    }
    reply =
      request.type === 'next'
        ? { id: request.id, batch: await stream.next() }
        : { id: request.id, singles: await stream.singles(request.seq) };
  } catch (error) {
    reply = { id: 'id' in request ? request.id : -1, error: (error as Error).stack ?? String(error) };
  }
  port.postMessage(reply);
}

port.on('message', (request: BatchRequest) => {
  queue = queue.then(() => handle(request));
});
port.postMessage({ id: 0, ready: true } satisfies BatchReply);
