// A seeded fuzz of every /api/external endpoint (test/fuzz/generator.ts): a few hundred requests
// each, valid-shaped and hostile, generated from the app's own OpenAPI document. No answer may be a
// 5xx; every error must have the ErrorBody shape and every 2xx its route's response schema. The
// seeds are fixed, so a failure names the seed that rebuilds its request (`npm run bench:fuzz --
// --endpoint KEY --seed N` sends just that one). `npm run bench:fuzz` runs 10,000 per endpoint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { seedRecords, seedScenario, type Scenario } from '../fuzz/scenario.ts';
import { externalEndpoints, fuzzEndpoint, ResponseChecker, type FuzzOutcome } from '../fuzz/generator.ts';

const PER_ENDPOINT = 250;
const FIRST_SEED = 20261124;

let t: TestApp;
let scenario: Scenario;
let seeded: { originIds: string[]; clientIds: string[] };

beforeAll(async () => {
  // The limits are off: the fuzz sends thousands of requests from one address, some with wrong keys,
  // and must reach the routes rather than the limiter (tested on its own in rate-limits.test.ts).
  t = await createTestApp({
    rateLimits: {
      windowSeconds: 60,
      perKey: 0,
      perAddress: 0,
      authFailuresPerAddress: 0,
      authFailureWindowSeconds: 60,
      passwordChecksPerAddress: 0,
      passwordChecksTotal: 0,
      passwordChecksTotalSeconds: 1,
      passwordChecksQueued: 0,
      connectionsPerAddress: 0,
    },
  });
  scenario = await seedScenario(t.db);
  seeded = await seedRecords(t.app, scenario);
});
afterAll(async () => {
  await t.close();
});

describe('seeded fuzz of /api/external from the OpenAPI document', () => {
  it('covers every external endpoint of the document', () => {
    const keys = externalEndpoints(t.app.swagger()).map((e) => e.key);
    expect(keys).toEqual(
      expect.arrayContaining([
        'POST /api/external/proposal/',
        'GET /api/external/custom-fields/all/',
        'GET /api/external/recommend-journals/{origin_id}/',
        'GET /api/external/author-from-group/{group_id}/{client_id}/',
        'POST /api/external/author-from-group/{group_id}/{client_id}/',
        'DELETE /api/external/author-from-group/{group_id}/{client_id}/',
        'POST /api/external/author-from-group/{group_id}/{client_id}/partial/',
      ]),
    );
  });

  it(`answers ${PER_ENDPOINT} generated requests per endpoint without a 5xx, each in its documented shape`, async () => {
    const doc = t.app.swagger();
    const checker = new ResponseChecker(doc);
    const problems: string[] = [];
    const statuses = new Map<string, number>();
    const record = (o: FuzzOutcome) => {
      const k = `${o.endpoint} ${o.status}`;
      statuses.set(k, (statuses.get(k) ?? 0) + 1);
      if (o.problem) problems.push(`${o.endpoint} seed ${o.seed}: ${o.problem}`);
    };
    for (const [i, endpoint] of externalEndpoints(doc).entries()) {
      await fuzzEndpoint(
        t.app,
        checker,
        endpoint,
        { scenario, ...seeded },
        { firstSeed: FIRST_SEED + i * 1_000_000, count: PER_ENDPOINT, concurrency: 4 },
        record,
      );
    }
    expect(problems).toEqual([]);
    // The generator reaches the routes' real work, not only their validation.
    const reached = externalEndpoints(doc).filter((e) => statuses.has(`${e.key} 200`));
    expect(reached.length, JSON.stringify(Object.fromEntries(statuses))).toBe(externalEndpoints(doc).length);
  }, 180_000);
});
