// Worker threads start without the parent's TypeScript loader: register tsx, then load the worker's
// TypeScript entry named in workerData. Plain JavaScript so that it runs the same under the CLI, the
// server and vitest.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
