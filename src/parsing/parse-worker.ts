// The worker side of the pool: parse what the parent sends, answer with the result. Importing the
// parser and loading pdf.js (which unpdf would otherwise import on the first PDF, a few hundred ms)
// before saying "ready" keeps start-up out of the per-file time limit.
import { parentPort, workerData } from 'node:worker_threads';
import type { ParsingLimits } from '../infra/config.ts';
import { parseManuscript } from './parse-manuscript.ts';
import { loadPdfjs } from './pdf/read-pdf.ts';

interface Job {
  id: number;
  bytes: Uint8Array;
  fileName: string | null;
}

const { limits, maxFileBytes } = workerData as { limits: ParsingLimits; maxFileBytes: number };

if (parentPort) {
  const port = parentPort;
  await loadPdfjs();
  port.on('message', (job: Job) => {
    void parseManuscript(job.bytes, job.fileName, limits, { maxFileBytes }).then((result) => {
      // In a worker these are this isolate's own figures: what the file left behind in its heap and
      // in buffers outside it, which the pool reads to decide whether to replace the worker.
      const { heapTotal, external } = process.memoryUsage();
      port.postMessage({ type: 'result', id: job.id, result, retainedMb: (heapTotal + external) / 2 ** 20 });
    });
  });
  port.postMessage({ type: 'ready' });
}
