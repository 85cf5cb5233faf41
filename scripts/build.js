// The compiled build: src/ to dist/ with tsc (tsconfig.build.json), the non-TypeScript files under
// src/ copied beside the compiled modules, then a stamp. Run by `npm ci` (prepare) and by `npm start`
// with --if-stale (only when a source is newer than the stamp). Plain JavaScript: it runs before
// anything is compiled, and bin/refmatch.js asks it whether dist/ may be run.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');
const STAMP_NAME = '.build-stamp';
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(file) : statSync(file).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/**
 * dist/ holds a finished build at least as new as every source file and build setting. (`root`:
 * another checkout's layout, for the test of this check.)
 */
export function distIsFresh(root = ROOT) {
  const stamp = path.join(root, 'dist', STAMP_NAME);
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return (
    CONFIGS.every((f) => statSync(path.join(root, f)).mtimeMs <= built) &&
    newestMtime(path.join(root, 'src')) <= built
  );
}

function copyAssets(from, to) {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) copyAssets(source, target);
    else if (!entry.name.endsWith('.ts')) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, target);
    }
  }
}

/** The compiler's path, or null where dev dependencies were left out (`npm ci --omit=dev`). */
function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/**
 * `outDir` other than dist/ is for the test of the build; it must sit beside src/ (one level under
 * the root), as the compiled modules find migrations/ and demo/ by the same relative paths.
 */
function build(outDir, tsc) {
  rmSync(outDir, { recursive: true, force: true });
  const config = path.join(ROOT, 'tsconfig.build.json');
  const result = spawnSync(process.execPath, [tsc, '-p', config, '--outDir', outDir], { stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`tsc failed (exit ${result.status ?? result.signal}): ${outDir} was not built`);
  }
  copyAssets(SRC, outDir);
  writeFileSync(path.join(outDir, STAMP_NAME), new Date().toISOString());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out-dir');
  const outDir = outAt >= 0 ? path.resolve(args[outAt + 1] ?? '') : DIST;
  const tsc = typescriptCompiler();
  if (tsc === null) {
    // Not an error: the install must not fail for it, and the bin then runs the sources (tsx).
    console.error('refmatch: typescript is not installed (dev dependencies left out): dist/ not built');
  } else if (!args.includes('--if-stale') || !distIsFresh()) {
    const started = Date.now();
    build(outDir, tsc);
    const took = ((Date.now() - started) / 1000).toFixed(1);
    console.error(`refmatch: compiled src/ to ${path.relative(ROOT, outDir)}/ in ${took} s`);
  }
}
