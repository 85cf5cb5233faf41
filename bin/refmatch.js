#!/usr/bin/env node
// The CLI runs the compiled build in dist/ (made by `npm ci` and by `npm start`). When dist/ is
// missing or older than a source file (a checkout being edited), it runs the TypeScript sources
// through tsx instead, so that what runs is never older than what was written.
import { distIsFresh } from '../scripts/build.js';

if (distIsFresh()) {
  await import('../dist/cli/main.js');
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
