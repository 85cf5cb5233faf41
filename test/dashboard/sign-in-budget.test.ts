// Password checks are bounded across addresses too (PASSWORD_CHECKS_TOTAL a PASSWORD_CHECKS_TOTAL_S):
// a flood of sign-ins, each from an address of its own, passes every address's share, and each was
// three argon2 hashes. Past the budget (and its queue), a sign-in from an address its account never
// signed in from is answered 429 with Retry-After, nothing hashed and no failure counted; the user
// signing in from an address she signed in from before is not held back by it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestUser, TEST_PASSWORD, type TestUser } from '../helpers/dashboard.ts';
import { SIGN_IN_PASSWORD_CHECKS } from '../../src/users/passwords.ts';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  // One sign-in's checks an hour, no queue: the window never ends within the test, whatever the load.
  t = await createTestApp({
    rateLimits: {
      ...testConfig().rateLimits,
      passwordChecksPerAddress: 0,
      passwordChecksTotal: SIGN_IN_PASSWORD_CHECKS,
      passwordChecksTotalSeconds: 3600,
      passwordChecksQueued: 0,
    },
  });
  user = await createTestUser(t.db, (await createTestOrg(t)).id, 'viewer');
});
afterAll(async () => t?.close());

function cookieOf(setCookie: string | string[] | undefined, name: string): string | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`));
}

async function signIn(email: string, address: string, password = TEST_PASSWORD) {
  const form = await t.app.inject({ url: '/dashboard/sign-in/', remoteAddress: address });
  const token = cookieOf(form.headers['set-cookie'], 'rm_login_csrf')!;
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/',
    remoteAddress: address,
    headers: { cookie: token },
    payload: { _csrf: token.split('=')[1]!, email, password },
  });
}

describe('the password checks all addresses share', () => {
  it('past the budget: 429 with Retry-After for new addresses, no failure counted; the user from her own address signs in', async () => {
    // Her first sign-in, from her own address, takes the hour's budget; her address is known from then on.
    expect((await signIn(user.email, '192.0.2.10')).statusCode).toBe(303);

    // Strangers, each from an address of its own: over the budget, refused before anything is hashed.
    for (const [k, email] of ['guess-1@example.org', user.email].entries()) {
      const refused = await signIn(email, `10.0.0.${k + 1}`, 'not the password of anyone');
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.body).toContain('Too many sign-ins at once on this service.');
    }
    const failures = await t.db.query('SELECT 1 FROM login_failures');
    expect(failures.rows).toHaveLength(0);

    // She signs in again from her own address, the budget spent: the strangers do not lock her out.
    expect((await signIn(user.email, '192.0.2.10')).statusCode).toBe(303);
    // From an address she never used, she waits like anyone.
    expect((await signIn(user.email, '198.51.100.7')).statusCode).toBe(429);
  });
});
