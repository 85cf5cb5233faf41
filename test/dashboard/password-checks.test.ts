// Every password checked (a sign-in, right or wrong; a password change) counts against its address's
// share, PASSWORD_CHECKS_PER_ADDRESS a window, before anything is hashed: the sign-in throttle counts
// failures only, so a right password signed in again and again, or a wrong current password sent in a
// loop, was an argon2 hash (some 20 ms of CPU) each time, 2,400 a minute from one address.
// And a user signed in again and again holds at most MAX_SESSIONS_PER_USER sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestUser, csrfOf, TEST_PASSWORD, type TestUser } from '../helpers/dashboard.ts';
import { MAX_SESSIONS_PER_USER } from '../../src/users/sessions.ts';

const SHARE = 4;
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ rateLimits: { ...testConfig().rateLimits, passwordChecksPerAddress: SHARE } });
  user = await createTestUser(t.db, (await createTestOrg(t)).id, 'viewer');
});
afterAll(async () => t?.close());

function cookieOf(setCookie: string | string[] | undefined, name: string): string | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`));
}

async function signIn(address: string, password = TEST_PASSWORD) {
  return signInAs(user, address, password);
}

async function signInAs(who: TestUser, address: string, password = TEST_PASSWORD) {
  const form = await t.app.inject({ url: '/dashboard/sign-in/', remoteAddress: address });
  const token = cookieOf(form.headers['set-cookie'], 'rm_login_csrf')!;
  return t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/',
    remoteAddress: address,
    headers: { cookie: token },
    payload: { _csrf: token.split('=')[1]!, email: who.email, password },
  });
}

const sessions = async () =>
  (
    await t.db.query<{ n: number }>(
      'SELECT count(*)::integer AS n FROM dashboard_sessions WHERE user_id = $1',
      [user.id],
    )
  ).rows[0]!.n;

describe('password checks per address', () => {
  it('refuses sign-ins past the share, right password or not, before a session is opened; other addresses sign in', async () => {
    for (let i = 0; i < SHARE; i++) expect((await signIn('192.0.2.1')).statusCode).toBe(303);
    const before = await sessions();
    const refused = await signIn('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('Too many sign-ins from this address');
    expect(refused.body).toContain('name="password"');
    expect(cookieOf(refused.headers['set-cookie'], 'rm_session')).toBeUndefined();
    expect(await sessions()).toBe(before);
    // Refused before the sign-in throttle counted it: no failure of the account or the address.
    expect((await t.db.query('SELECT 1 FROM login_failures')).rows).toHaveLength(0);
    expect((await signIn('192.0.2.2')).statusCode).toBe(303);
  });

  it('counts password changes too, and refuses past the share without checking the current password', async () => {
    const address = '192.0.2.3';
    const signedIn = await signIn(address);
    const cookie = cookieOf(signedIn.headers['set-cookie'], 'rm_session')!;
    const csrf = csrfOf(
      (await t.app.inject({ url: '/dashboard/password/', remoteAddress: address, headers: { cookie } })).body,
    );
    const change = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dashboard/password/',
        remoteAddress: address,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          _csrf: csrf,
          current,
          password: 'a new password 1',
          confirm: 'a new password 1',
        }).toString(),
      });
    // The sign-in was one check; the rest of the share goes to wrong current passwords.
    for (let i = 1; i < SHARE; i++) {
      const wrong = await change(`wrong password ${i}`);
      expect(wrong.statusCode).not.toBe(429);
    }
    const refused = await change(TEST_PASSWORD);
    expect(refused.statusCode).toBe(429);
    // Not changed: the old password still signs in, from elsewhere.
    expect((await signIn('192.0.2.4')).statusCode).toBe(303);
    expect((await signIn('192.0.2.5', 'a new password 1')).statusCode).toBe(401);
  });
});

describe('sessions per user', () => {
  it('keeps the newest MAX_SESSIONS_PER_USER of a user signed in again and again; the oldest is closed', async () => {
    const other = await createTestUser(t.db, (await createTestOrg(t)).id, 'viewer');
    const cookies: string[] = [];
    for (let i = 0; i <= MAX_SESSIONS_PER_USER; i++) {
      // A new address every few sign-ins: the share of password checks is not what is tested.
      const answer = await signInAs(other, `198.51.100.${Math.floor(i / SHARE)}`);
      expect(answer.statusCode).toBe(303);
      cookies.push(cookieOf(answer.headers['set-cookie'], 'rm_session')!);
    }
    const held = await t.db.query('SELECT 1 FROM dashboard_sessions WHERE user_id = $1', [other.id]);
    expect(held.rows).toHaveLength(MAX_SESSIONS_PER_USER);
    const home = (cookie: string) => t.app.inject({ url: '/dashboard/', headers: { cookie } });
    expect((await home(cookies[0]!)).statusCode).toBe(303);
    expect((await home(cookies[1]!)).statusCode).toBe(200);
    expect((await home(cookies.at(-1)!)).statusCode).toBe(200);
  });
});
