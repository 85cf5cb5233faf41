// A read (4.1) of a record at its caps answers about 1 MB (~0.2 s of CPU): it counts against the
// key's and the address's requests by its size, one more for every 64 KiB, as the 4.7 answer does,
// so that a key reading it in a loop gets a few a minute, not its 1,200 requests (hostile round 10).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { BODY_BYTES_PER_REQUEST } from '../../src/http/rate-limits.ts';
import { writeGroupAuthor } from '../../src/authors-groups/store.ts';
import { getAuthor, orgWithGroup, type OrgWithGroup } from './helpers.ts';

const PER_KEY = 60;
let t: TestApp;
let org: OrgWithGroup;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { ...testConfig().rateLimits, perKey: PER_KEY } });
  org = await orgWithGroup(t);
  const key = (clientId: string) => ({ organizationId: org.id, groupId: org.groupId, clientId });
  const affiliations = Array.from({ length: 1000 }, (_, i) => `University ${i} `.padEnd(1000, 'y'));
  const record = { emails: null, orcids: null, articles: null, custom_values: {} };
  await writeGroupAuthor(t.db, key('big'), { ...record, name: 'A Big', affiliations });
  await writeGroupAuthor(t.db, key('small'), { ...record, name: 'A Small', affiliations: ['MIT'] });
});
afterAll(async () => t?.close());

describe('a read of an author from group counted by its size', () => {
  it('lets a key read a record at its caps as many times as its requests hold, then refuses', async () => {
    const first = await getAuthor(t, org, 'big');
    expect(first.statusCode).toBe(200);
    const shares = 1 + Math.floor(Buffer.byteLength(first.body) / BODY_BYTES_PER_REQUEST);
    expect(shares).toBeGreaterThan(10);
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await getAuthor(t, org, 'big')).statusCode);
    expect(1 + statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(Math.ceil(PER_KEY / shares));
    const refused = await getAuthor(t, org, 'small');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});
