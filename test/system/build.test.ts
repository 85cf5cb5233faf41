// The compiled build (scripts/build.js, tsconfig.build.json): the CLI and every worker thread run
// from the compiled JavaScript, and the non-TypeScript files (migrations, the demo corpus, the
// worker bootstrap) are found from there. The build tested is dist/ when it is fresh (`npm ci` has
// just made it with the same script: CI's case, where compiling again would cost ~25 s and test
// nothing more); otherwise, a checkout being edited, it is built into a directory of its own beside
// src/ (as dist/ is), so that a developer's dist/ is left alone.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteOnServerPostgres } from '../helpers/db.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.join(ROOT, 'dist');
const BUILD_SCRIPT = path.join(ROOT, 'scripts/build.js');
// Plain JavaScript with no declarations: typed here by what the test uses.
const { distIsFresh } = (await import(pathToFileURL(BUILD_SCRIPT).href)) as {
  distIsFresh(root?: string): boolean;
};
let OUT = path.join(ROOT, `.tmp-build-${process.pid}`);
let builtHere = false;
let dataDir: string;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function node(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: '', REFMATCH_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const cli = (...args: string[]) => node([path.join(OUT, 'cli/main.js'), ...args]);

// The built processes run on the embedded database whatever the suite's (DATABASE_URL empty).
describe.skipIf(suiteOnServerPostgres)('the compiled build', () => {
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-build-'));
    if (distIsFresh()) {
      OUT = DIST;
    } else {
      const built = await node([BUILD_SCRIPT, '--out-dir', OUT]);
      expect(built.code, built.stderr).toBe(0);
      builtHere = true;
    }
  }, 300_000);
  afterAll(async () => {
    if (builtHere) await rm(OUT, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  });

  it('is fresh only with a stamp at least as new as every source file and build setting', async () => {
    // What bin/refmatch.js asks before it runs dist/ rather than the sources; checked on a checkout
    // of our own whose files' times we set (the real sources are left alone: the other tests'
    // processes run dist/ while it is fresh).
    const root = path.join(dataDir, 'checkout');
    await mkdir(path.join(root, 'src/deep'), { recursive: true });
    await mkdir(path.join(root, 'dist'));
    const files = ['src/a.ts', 'src/deep/b.ts', 'tsconfig.json', 'tsconfig.build.json'];
    for (const f of files) await writeFile(path.join(root, f), '');
    const T = 1_700_000_000;
    const at = (f: string, seconds: number) => utimes(path.join(root, f), seconds, seconds);
    for (const f of files) await at(f, T);
    expect(distIsFresh(root)).toBe(false);
    await writeFile(path.join(root, 'dist/.build-stamp'), '');
    await at('dist/.build-stamp', T);
    expect(distIsFresh(root)).toBe(true);
    await at('src/deep/b.ts', T + 10);
    expect(distIsFresh(root)).toBe(false);
    await at('dist/.build-stamp', T + 10);
    expect(distIsFresh(root)).toBe(true);
    await at('tsconfig.build.json', T + 20);
    expect(distIsFresh(root)).toBe(false);
  });

  it('answers --help', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('serve');
  });

  it('answers --help from the command declarations alone: no database driver, store or schema library', async () => {
    // A module hook that names every module loaded; the declarations' handlers load their stores when
    // they run, so the parser built from the declarations must not pull them in.
    const hooks = path.join(dataDir, 'log-loads.mjs');
    await writeFile(
      hooks,
      `export async function resolve(s, c, next) { const r = await next(s, c); process.stderr.write('loaded ' + r.url + '\\n'); return r; }`,
    );
    const register = path.join(dataDir, 'log-loads-register.mjs');
    await writeFile(
      register,
      `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`,
    );
    const help = await node(['--import', register, path.join(OUT, 'cli/main.js'), '--help']);
    expect(help.code, help.stderr).toBe(0);
    const loaded = help.stderr.split('\n').filter((line) => line.startsWith('loaded '));
    expect(loaded.some((line) => line.endsWith('/cli/registry.js'))).toBe(true);
    expect(
      loaded.filter((line) =>
        /node_modules\/(pg|@electric-sql|typebox|fastify)\/|\/infra\/(db|errors)|store\.js$|\/server\.js$/.test(
          line,
        ),
      ),
    ).toEqual([]);
  });

  it('parses in the parser pool thread, from compiled JavaScript', async () => {
    const file = path.join(ROOT, 'test/fixtures/manuscripts/deep-rules/manuscript.pdf');
    const parsed = await cli('parse', '--no-text', file);
    expect(parsed.code, parsed.stderr).toBe(0);
    expect(JSON.parse(parsed.stdout)).toMatchObject({
      format: 'pdf',
      title: expect.stringMatching(/Deep Learning/),
    });
  }, 120_000);

  it('finds the migrations and ingests through the ingest parse thread', async () => {
    const migrated = await cli('migrate');
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(JSON.parse(migrated.stdout)).toMatchObject({
      applied: expect.arrayContaining([expect.any(String)]),
    });
    const file = path.join(ROOT, 'test/fixtures/corpus/yang-liu-acl.jsonl');
    const ingested = await cli('ingest', 'works', '--wait', '--parse-thread', 'always', file);
    expect(ingested.code, ingested.stderr).toBe(0);
    expect(JSON.parse(ingested.stdout)).toMatchObject({ records: 8, bad_count: 0 });
  }, 120_000);

  it('serves: /readyz once the index is loaded, and /metrics', async () => {
    const serveDir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-build-serve-'));
    const child = spawn(process.execPath, [path.join(OUT, 'cli/main.js'), 'serve'], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        REFMATCH_DATA_DIR: serveDir,
        REFMATCH_DEMO: 'false',
        LOG_LEVEL: 'warn',
        PORT: '0',
        HOST: '127.0.0.1',
      },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString('utf8');
          const found = /listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
          if (found) resolve(found);
        });
        child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
        child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
      });
      let ready = await fetch(`${url}/readyz`);
      while (ready.status === 503) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        ready = await fetch(`${url}/readyz`);
      }
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      expect(metrics).toMatch(/^refmatch_index_works 0$/m);
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await rm(serveDir, { recursive: true, force: true });
    }
  }, 180_000);

  it('searches in the search thread', async () => {
    const script = `
      const { Bm25Index } = await import(${JSON.stringify(path.join(OUT, 'retrieval/bm25-index.js'))});
      const { SearchThread } = await import(${JSON.stringify(path.join(OUT, 'retrieval/search-thread.js'))});
      const { prepareQuery } = await import(${JSON.stringify(path.join(OUT, 'retrieval/search.js'))});
      const index = new Bm25Index();
      index.upsert({ workId: 7, title: 'Neural machine translation', abstract: null, year: 2020, changeSeq: 1 });
      index.upsert({ workId: 8, title: 'Dependency parsing', abstract: null, year: 2020, changeSeq: 2 });
      index.flush();
      const thread = new SearchThread();
      thread.publish(index);
      const hits = await thread.search(prepareQuery(index, [{ text: 'machine translation', weight: 1 }], {}), 5);
      await thread.close();
      console.log(JSON.stringify(hits.map((h) => h.workId)));`;
    const file = path.join(dataDir, 'search-thread.mjs');
    await writeFile(file, script);
    const run = await node([file]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual([7]);
  }, 60_000);
});
