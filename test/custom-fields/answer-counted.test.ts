// The 4.7 answer holds every option of every field (at the caps 1.8 MB, ~0.19 s of CPU): it counts
// against the key's and the address's requests by its size, one more for every 64 KiB, so that a key
// asking in a loop gets a few a minute of the largest answers, not its 1,200 requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { BODY_BYTES_PER_REQUEST } from '../../src/http/rate-limits.ts';

const PER_KEY = 60;
let t: TestApp;
let big: TestOrg;
let small: TestOrg;

/** `fields` option fields of `options` options of 30 characters each. */
async function addOptionFields(organizationId: number, fields: number, options: number): Promise<void> {
  await t.db.query(
    `INSERT INTO custom_fields (api_id, organization_id, owner, data_kind, name)
     SELECT gen_random_uuid(), $1, 'author_from_group', 'single_option', 'Field ' || i
       FROM generate_series(1, $2::integer) i`,
    [organizationId, fields],
  );
  await t.db.query(
    `INSERT INTO custom_field_options (api_id, field, option, "order")
     SELECT gen_random_uuid(), f.api_id, left(i::text || repeat('o', 30), 30), i
       FROM custom_fields f, generate_series(1, $2::integer) i WHERE f.organization_id = $1`,
    [organizationId, options],
  );
}

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { ...testConfig().rateLimits, perKey: PER_KEY } });
  big = await createTestOrg(t);
  small = await createTestOrg(t);
  await addOptionFields(big.id, 10, 1_000);
  await addOptionFields(small.id, 2, 5);
});
afterAll(async () => t?.close());

const ask = (org: TestOrg, address: string) =>
  t.app.inject({ url: '/api/external/custom-fields/all/', headers: org.headers, remoteAddress: address });

describe('the custom fields answer (4.7) counted by its size', () => {
  it('lets a key have as many large answers as its requests hold, then refuses with Retry-After', async () => {
    const first = await ask(big, '192.0.2.10');
    expect(first.statusCode).toBe(200);
    const shares = 1 + Math.floor(Buffer.byteLength(first.body) / BODY_BYTES_PER_REQUEST);
    expect(shares).toBeGreaterThan(5);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await ask(big, `192.0.2.${11 + i}`)).statusCode);
    const answered = 1 + statuses.filter((s) => s === 200).length;
    expect(answered).toBeLessThanOrEqual(Math.ceil(PER_KEY / shares));
    const refused = await ask(big, '192.0.2.40');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts a small answer as its request alone', async () => {
    for (let i = 0; i < PER_KEY; i++) expect((await ask(small, `198.51.100.${i}`)).statusCode).toBe(200);
    expect((await ask(small, '198.51.100.200')).statusCode).toBe(429);
  });
});
