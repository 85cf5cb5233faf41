// `refmatch org limits` and a cap met from the CLI, as an operator runs them: real `node bin/refmatch.js`
// processes on a PGlite data directory (docs/operations.md, "Organization limits").
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedCliEnv, runCli, type CliRun } from '../helpers/cli.ts';
import { createTestDataDir, suiteOnServerPostgres } from '../helpers/db.ts';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'refmatch-limits-'));
  await createTestDataDir(dir);
  env = embeddedCliEnv(dir);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function cli(extraEnv: NodeJS.ProcessEnv, ...args: string[]): Promise<CliRun> {
  return runCli({ ...env, ...extraEnv }, args);
}

describe.skipIf(suiteOnServerPostgres)('refmatch org limits', () => {
  // Five CLI processes, each compiling the sources when dist/ is stale: seconds each on a busy machine.
  it(
    'prints, overrides and resets the caps, and a create past one fails with limit_reached',
    { timeout: 300_000 },
    async () => {
      const created = await cli({}, 'org', 'create', '--name', 'Capped');
      expect(created.code, created.stderr).toBe(0);
      const orgId = (JSON.parse(created.stdout) as { id: number }).id;

      const shown = await cli({ LIMIT_USERS: '40' }, 'org', 'limits', '--org', String(orgId));
      expect(shown.code, shown.stderr).toBe(0);
      const view = JSON.parse(shown.stdout) as { limits: Record<string, number>; overrides: object };
      expect(view.limits.users).toBe(40);
      expect(view.limits.api_keys).toBe(50);
      expect(view.overrides).toEqual({});

      const lowered = await cli({}, 'org', 'limits', '--org', String(orgId), '--api-keys', '1');
      expect(JSON.parse(lowered.stdout)).toMatchObject({
        organization_id: orgId,
        overrides: { api_keys: 1 },
      });

      const refused = await cli({}, 'key', 'create', '--org', String(orgId));
      expect(refused.code).not.toBe(0);
      expect(JSON.parse(refused.stderr.trim().split('\n').at(-1)!)).toEqual({
        error: {
          code: 'limit_reached',
          message: 'The organization has reached its limit of 1 active API keys',
        },
      });

      const reset = await cli({}, 'org', 'limits', '--org', String(orgId), '--api-keys', 'default');
      expect(JSON.parse(reset.stdout)).toMatchObject({ overrides: {}, limits: { api_keys: 50 } });
    },
  );
});
