// The CLI's plain lines (progress on stderr, commander's argument errors) quote a file's path as the
// file system gives it and arguments as typed or globbed: a name holding an escape sequence or a
// line break must reach the operator's terminal as text, not run there or forge a line.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, embeddedCliEnv, runCli } from '../helpers/cli.ts';
import { createTestDataDir, suiteOnServerPostgres } from '../helpers/db.ts';

// Every C0 control but the line feed that ends a line, DEL, C1, bidirectional controls, separators.
const TERMINAL_ACTIVE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-cli-text-'));
  env = embeddedCliEnv(path.join(dir, 'data'));
  await createTestDataDir(path.join(dir, 'data'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(suiteOnServerPostgres)('the CLI prints names the file system gives as text', () => {
  it('an ingested file whose name holds ESC, OSC, CR/LF and a C1 CSI: its progress line is one line, escaped', async () => {
    // A title set (OSC 0), the screen cleared, a forged line, a CSI in its 8-bit form, a reversal.
    const name = 'works\u001b]0;pwned\u0007\u001b[2J\r\nFORGED 8 works\u009b31m\u202e.jsonl';
    const file = path.join(dir, name);
    await copyFile(path.join(ROOT, 'test/fixtures/corpus/yang-liu-acl.jsonl'), file);
    const run = await runCli(env, ['ingest', 'works', '--wait', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(TERMINAL_ACTIVE);
    expect(run.stdout).not.toMatch(TERMINAL_ACTIVE);
    const progress = run.stderr.split('\n').filter((line) => line.includes('works (') && line.includes(dir));
    // The final progress line (done = total) names the file once, on one line, its controls as \u.
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toContain(
      'works\\u001b]0;pwned\\u0007\\u001b[2J\\u000d\\u000aFORGED 8 works\\u009b31m\\u202e.jsonl',
    );
    expect(run.stderr).not.toMatch(/^FORGED/m);
  }, 300_000);

  it("commander's error for an unknown option typed or globbed with an escape sequence: escaped", async () => {
    const run = await runCli(env, ['org', 'list', '--\u001b[2J\u001b]0;pwned\u0007\u009b1m']);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("unknown option '--\\u001b[2J\\u001b]0;pwned\\u0007\\u009b1m'");
    expect(run.stderr).not.toMatch(TERMINAL_ACTIVE);
  }, 120_000);
});
