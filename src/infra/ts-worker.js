// Worker threads start without the parent's TypeScript loader: when the sources run (vitest, tsx),
// worker-thread.ts starts threads here, which registers tsx and then loads the worker's TypeScript
// entry named in workerData. The compiled build starts its .js workers directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
