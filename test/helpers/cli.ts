// The CLI as an operator runs it: a real `node bin/refmatch.js` process, its output collected.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.join(ROOT, 'bin/refmatch.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a CLI process on the PGlite data directory `dir`: DATABASE_URL empty, so the
 * CLI opens the embedded database whichever suite runs the test; no demo, warnings only.
 */
export function embeddedCliEnv(dir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    REFMATCH_DATA_DIR: dir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    REFMATCH_DEMO: 'false',
  };
}

/** Runs `refmatch ...args` to its end in `env`. */
export function runCli(env: NodeJS.ProcessEnv, args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
