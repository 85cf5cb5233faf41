// Worker threads do not inherit the tsx loader of the main thread: register it, then load the
// TypeScript worker (the same way bin/refmatch.js starts the CLI).
import { register } from 'tsx/esm/api';

register();
await import('./search-worker-main.ts');
