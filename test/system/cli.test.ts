// The CLI as a user runs it: real `node bin/refmatch.js` processes on a PGlite data directory, with
// and without `refmatch serve` holding that directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, embeddedCliEnv, runCli, type CliRun } from '../helpers/cli.ts';
import { createTestDataDir, suiteOnServerPostgres } from '../helpers/db.ts';

let dir: string;
let env: NodeJS.ProcessEnv;
let server: ChildProcess | undefined;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-cli-'));
  // The embedded database (DATABASE_URL empty): these tests are about it, whichever suite runs them.
  env = embeddedCliEnv(dir);
});
afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function cli(...args: string[]): Promise<CliRun> {
  return runCli(env, args);
}

function cliIn(runEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRun> {
  return runCli(runEnv, args);
}

function json<T>(run: CliRun): T {
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** Starts `refmatch serve` on a free port; resolves with the URL it printed. */
function serve(): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1' },
    });
    let out = '';
    const onData = (c: Buffer) => {
      out += c.toString('utf8');
      const url = /refmatch is listening on (http:\/\/[\d.:]+)/.exec(out)?.[1];
      if (url) {
        child.stdout.off('data', onData);
        resolve({ url, child });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')));
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

interface Org {
  id: number;
  name: string;
  features: string[];
  api_key: string;
}

describe.skipIf(suiteOnServerPostgres)('the CLI finds its database', () => {
  it('refuses a data directory with no database, naming it, and creates nothing there', async () => {
    const missing = path.join(dir, 'elsewhere');
    const run = await cliIn({ ...env, REFMATCH_DATA_DIR: missing }, 'org', 'list');
    expect(run.code).not.toBe(0);
    expect(run.stdout).toBe('');
    const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('database_not_found');
    expect(error.message).toContain(missing);
    expect(existsSync(missing)).toBe(false);
  }, 120_000);

  it('reads ./data under the directory it runs in when REFMATCH_DATA_DIR is unset, as the server does', async () => {
    const { REFMATCH_DATA_DIR: _unset, ...withoutDir } = env;
    const run = await new Promise<CliRun>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'org', 'list'], { cwd: dir, env: withoutDir });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    expect(run.code).not.toBe(0);
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: { code: 'database_not_found', message: expect.stringContaining(path.join(dir, 'data')) },
    });
  }, 120_000);

  it('creates a new database when asked: --create-data-dir, or migrate', async () => {
    const fresh = path.join(dir, 'fresh');
    const created = await cliIn({ ...env, REFMATCH_DATA_DIR: fresh }, '--create-data-dir', 'org', 'list');
    expect(json(created)).toEqual([]);
    expect(json(await cliIn({ ...env, REFMATCH_DATA_DIR: fresh }, 'org', 'list'))).toEqual([]);
    const migrated = path.join(dir, 'migrated');
    expect(json(await cliIn({ ...env, REFMATCH_DATA_DIR: migrated }, 'migrate'))).toMatchObject({
      applied: expect.arrayContaining([expect.any(String)]),
    });
  }, 300_000);
});

describe('the CLI finds its database on server PostgreSQL', () => {
  const url = process.env.DATABASE_URL;
  it.runIf(url)(
    'refuses a database with no refmatch tables, naming it (runs only with DATABASE_URL)',
    async () => {
      const schema = `t_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      try {
        const target = new URL(url!);
        target.searchParams.set('options', `-c search_path=${schema}`);
        const run = await cliIn({ ...env, DATABASE_URL: target.toString() }, 'org', 'list');
        expect(run.code).not.toBe(0);
        expect(JSON.parse(run.stderr)).toMatchObject({
          error: { code: 'database_not_found', message: expect.stringContaining(target.host) },
        });
        const tables = await admin.query('SELECT 1 FROM pg_tables WHERE schemaname = $1', [schema]);
        expect(tables.rows).toEqual([]);
      } finally {
        await admin.query(`DROP SCHEMA ${schema} CASCADE`);
        await admin.end();
      }
    },
    120_000,
  );
});

describe.skipIf(suiteOnServerPostgres)('refmatch CLI on the embedded database', () => {
  // The migrated database copied from the run's template: making a new one (initdb and every
  // migration in the child) is the test of --create-data-dir and migrate above.
  beforeAll(() => createTestDataDir(dir));

  it('without a server: opens the data directory itself; commands print JSON, errors go to stderr', async () => {
    expect(json(await cli('migrate'))).toMatchObject({ applied: expect.any(Array) });
    const org = json<Org>(await cli('org', 'create', '--name', 'Acme Press', '--features', 'referee_finder'));
    expect(org).toEqual({
      id: expect.any(Number),
      name: 'Acme Press',
      features: ['referee_finder'],
      api_key: expect.stringMatching(/^rm_/),
    });
    const missing = await cli('group', 'create', '--org', '999999', '--name', 'Nope');
    expect(missing.code).not.toBe(0);
    expect(missing.stdout).toBe('');
    expect(JSON.parse(missing.stderr)).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
    // Stored text is printed as JSON a terminal cannot act on: an escape sequence, a C1 CSI and a
    // right-to-left override in a field's description come out as \u escapes, the same value parsed.
    const hostile = 'Stage\u001b[2J\u009b31m\u202eevil\u2028end';
    const made = await cli(
      ...['custom-field', 'create', '--org', String(org.id), '--owner', 'author_from_group'],
      ...['--kind', 'str', '--name', 'Stage', '--description', hostile],
    );
    // eslint-disable-next-line no-control-regex
    const terminalActive = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
    expect(made.stdout).not.toMatch(terminalActive);
    expect(json<{ description: string }>(made).description).toBe(hostile);
    const listed = await cli('custom-field', 'list', '--org', String(org.id));
    expect(listed.stdout).not.toMatch(terminalActive);
    expect(listed.stdout).toContain('\\u009b31m\\u202eevil\\u2028end');
    const fields = json<{ author_from_group: Array<{ description: string | null }> }>(listed);
    expect(fields.author_from_group.map((f) => f.description)).toEqual([hostile]);
  }, 600_000);

  it('while `refmatch serve` holds the directory: commands go through the server, which sees their effect at once', async () => {
    const running = await serve();
    server = running.child;
    expect(existsSync(path.join(dir, 'admin.json'))).toBe(true);

    const org = json<Org>(await cli('org', 'create', '--name', 'Beta Journal'));
    const headers = { 'x-apikey': org.api_key, 'content-type': 'application/json' };
    const fields = await fetch(`${running.url}/api/external/custom-fields/all/`, { headers });
    expect(fields.status).toBe(200);

    const group = json<{ group_id: number; name: string }>(
      await cli('group', 'create', '--org', String(org.id), '--name', 'Editorial board'),
    );
    expect(group).toEqual({ group_id: expect.any(Number), name: 'Editorial board' });
    const post = await fetch(`${running.url}/api/external/author-from-group/${group.group_id}/r%2F1/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Reviewer One' }),
    });
    expect(post.status).toBe(200);
    expect(await post.json()).toEqual({ ok: true });

    const field = json<{ api_id: string; options: Array<{ api_id: string; option: string }> }>(
      await cli(
        'custom-field',
        'create',
        '--org',
        String(org.id),
        '--owner',
        'author_from_group',
        '--kind',
        'single_option',
        '--name',
        'Level',
        '--description',
        'Seniority',
        '--option',
        'Junior',
        '--option',
        'Senior',
      ),
    );
    expect(field).toEqual({
      api_id: expect.any(String),
      data_kind: 'single_option',
      name: 'Level',
      description: 'Seniority',
      options: [
        { api_id: expect.any(String), option: 'Junior' },
        { api_id: expect.any(String), option: 'Senior' },
      ],
    });
    const updated = json<{ name: string; options: Array<{ option: string }> }>(
      await cli(
        'custom-field',
        'update',
        '--field',
        field.api_id,
        '--name',
        'Rank',
        '--add-option',
        'Emeritus',
        '--remove-option',
        field.options[0]!.api_id,
      ),
    );
    expect(updated.name).toBe('Rank');
    expect(updated.options.map((o) => o.option)).toEqual(['Senior', 'Emeritus']);
    const served = await fetch(`${running.url}/api/external/custom-fields/all/`, { headers });
    expect(await served.json()).toEqual({ author_from_group: [updated], folder: [], proposal: [] });
    expect(json(await cli('custom-field', 'delete', '--field', field.api_id))).toEqual({
      deleted: true,
      api_id: field.api_id,
    });

    // Deleting the group through the server: the API answers its records as never existing at once.
    expect(
      json(await cli('group', 'delete', '--org', String(org.id), '--group', String(group.group_id))),
    ).toEqual({ deleted: true, group_id: group.group_id, name: 'Editorial board', records: 1, folders: [] });
    const gone = await fetch(`${running.url}/api/external/author-from-group/${group.group_id}/r%2F1/`, {
      headers,
    });
    expect(gone.status).toBe(404);

    const remoteError = await cli('custom-field', 'delete', '--field', field.api_id);
    expect(remoteError.code).not.toBe(0);
    expect(JSON.parse(remoteError.stderr)).toEqual({
      error: { code: 'not_found', message: expect.any(String) },
    });

    expect(json(await cli('key', 'revoke', '--key', org.api_key))).toEqual({ revoked: true });
    const revoked = await fetch(`${running.url}/api/external/custom-fields/all/`, { headers });
    expect(revoked.status).toBe(401);
  }, 600_000);

  it('user create prints a one-time password; list, role and disable print the user; enable a new password', async () => {
    // Through the server (each embedded CLI process opens the database itself, ~2 s apiece).
    server ??= (await serve()).child;
    const org = json<Org>(await cli('org', 'create', '--name', 'Gamma Review'));
    const created = json<Record<string, unknown>>(
      await cli('user', 'create', '--org', String(org.id), '--email', 'Ed@Example.org', '--role', 'editor'),
    );
    // Kept lower-cased (one account per address, whatever the case typed).
    expect(created).toEqual({
      id: expect.any(Number),
      email: 'ed@example.org',
      role: 'editor',
      org_id: org.id,
      password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/),
    });
    const duplicate = await cli(
      'user',
      'create',
      '--org',
      String(org.id),
      '--email',
      'ed@example.org',
      '--role',
      'viewer',
    );
    expect(JSON.parse(duplicate.stderr)).toEqual({
      error: { code: 'conflict', message: expect.any(String) },
    });
    const badRole = await cli(
      'user',
      'create',
      '--org',
      String(org.id),
      '--email',
      'x@example.org',
      '--role',
      'owner',
    );
    expect(JSON.parse(badRole.stderr).error.code).toBe('validation_failed');

    const user = { id: created.id, email: 'ed@example.org', org_id: org.id, created_at: expect.any(String) };
    expect(json(await cli('user', 'list', '--org', String(org.id)))).toEqual([
      { ...user, role: 'editor', must_change_password: true, disabled: false },
    ]);
    expect(json(await cli('user', 'role', '--user', String(created.id), '--role', 'viewer'))).toEqual({
      ...user,
      role: 'viewer',
      must_change_password: true,
      disabled: false,
    });
    expect(json(await cli('user', 'disable', '--user', String(created.id)))).toEqual({
      ...user,
      role: 'viewer',
      must_change_password: true,
      disabled: true,
    });
    const enabled = json<Record<string, unknown>>(await cli('user', 'enable', '--user', String(created.id)));
    expect(enabled).toMatchObject({ id: created.id, password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) });
    expect(enabled.password).not.toBe(created.password);
    expect(json(await cli('user', 'list', '--org', String(org.id)))).toEqual([
      { ...user, role: 'viewer', must_change_password: true, disabled: false },
    ]);
  }, 600_000);

  it('when the server stops: it removes its admin channel, and the CLI opens the directory itself and sees everything written', async () => {
    server ??= (await serve()).child;
    const running = server;
    const exited = new Promise<number | null>((resolve) => running.on('exit', (code) => resolve(code)));
    running.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dir, 'admin.json'))).toBe(false);

    const orgs = json<Array<{ name: string }>>(await cli('org', 'list'));
    expect(orgs.map((o) => o.name)).toEqual(['Acme Press', 'Beta Journal', 'Gamma Review']);
  }, 600_000);
});
