// Worker threads start without the parent's TypeScript loader: register tsx here, then load the
// TypeScript worker. Plain JavaScript so that it runs the same under the CLI, the server and vitest.
import { register } from 'tsx/esm/api';

register();
await import('./parse-worker.ts');
