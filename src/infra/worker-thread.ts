// Starts a worker thread on one of our modules in whichever form this process runs: the compiled
// JavaScript in dist/ (`npm start`, the bin), or the TypeScript sources (vitest, tsx), where the new
// thread does not inherit the parent's loader and starts through ts-worker.js, which registers tsx.
import { Worker, type WorkerOptions } from 'node:worker_threads';

const TS_BOOTSTRAP = new URL('./ts-worker.js', import.meta.url);

/**
 * Runs the module `name` (no extension) that sits beside the caller (`callerUrl`, its
 * `import.meta.url`): `name.js` when the caller is compiled, `name.ts` through tsx when it is not.
 */
export function startWorker(callerUrl: string, name: string, options: WorkerOptions = {}): Worker {
  if (!callerUrl.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, callerUrl), options);
  const entry = new URL(`./${name}.ts`, callerUrl).href;
  const workerData = { ...(options.workerData as object | undefined), entry };
  return new Worker(TS_BOOTSTRAP, { ...options, workerData });
}
