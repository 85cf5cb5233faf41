// Sessions, CSRF, headers and the sign-in throttle, over HTTP in-process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import {
  createTestUser,
  injectForm,
  injectSignIn,
  postSignInForm,
  TEST_PASSWORD,
} from '../helpers/dashboard.ts';
import { throttleVerdict } from '../../src/users/login-throttle.ts';
import { html } from '../../src/dashboard/html.ts';
import { createGroup } from '../../src/authors-groups/store.ts';

const login = {
  windowMs: 60_000,
  freeFailures: 1,
  baseDelayMs: 1,
  maxDelayMs: 4,
  accountLimit: 3,
  addressLimit: 6,
};
let t: TestApp;
let orgId: number;

beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp({ trustProxy: true, dashboard: { ...base.dashboard, login } });
  orgId = (await createTestOrg(t)).id;
});
afterAll(async () => {
  await t?.close();
});

function attempt(email: string, password: string, address = '203.0.113.9') {
  return postSignInForm(t.app, { email, password }, { 'x-forwarded-for': address });
}

describe('sign-in throttle', () => {
  it('the delay doubles past the free failures, capped; refusal at the account or address limit', () => {
    const config = {
      ...login,
      freeFailures: 3,
      baseDelayMs: 500,
      maxDelayMs: 8000,
      accountLimit: 10,
      addressLimit: 50,
    };
    const delay = (account: number, address = 0) => throttleVerdict(config, { account, address });
    expect(delay(0)).toEqual({ refused: false, delayMs: 0 });
    expect(delay(2)).toEqual({ refused: false, delayMs: 0 });
    expect(delay(3)).toEqual({ refused: false, delayMs: 500 });
    expect(delay(4)).toEqual({ refused: false, delayMs: 1000 });
    expect(delay(9)).toEqual({ refused: false, delayMs: 8000 });
    expect(delay(10)).toEqual({ refused: true });
    expect(delay(0, 49)).toEqual({ refused: false, delayMs: 8000 });
    expect(delay(0, 50)).toEqual({ refused: true });
    // From an address the account signed in from before: the account's limit does not refuse.
    expect(throttleVerdict(config, { account: 10, address: 0 }, true)).toEqual({
      refused: false,
      delayMs: 8000,
    });
    expect(throttleVerdict(config, { account: 10, address: 50 }, true)).toEqual({ refused: true });
  });

  it("a stranger's failures do not lock the account out of an address it signed in from before", async () => {
    const owner = await createTestUser(t.db, orgId, 'viewer');
    expect((await attempt(owner.email, TEST_PASSWORD, '203.0.113.77')).statusCode).toBe(303);
    for (let i = 0; i < login.accountLimit; i++) {
      expect((await attempt(owner.email, 'wrong password', `198.51.100.${100 + i}`)).statusCode).toBe(401);
    }
    expect((await attempt(owner.email, TEST_PASSWORD, '198.51.100.250')).statusCode).toBe(429);
    expect((await attempt(owner.email, TEST_PASSWORD, '203.0.113.77')).statusCode).toBe(303);
  });

  it('attempts sent at once check at most the limit of passwords: each is counted before its check', async () => {
    const target = await createTestUser(t.db, orgId, 'viewer');
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => attempt(target.email, `wrong ${i}`, `192.0.2.${100 + i}`)),
    );
    const checked = answers.filter((a) => a.statusCode === 401).length;
    expect(checked).toBeLessThanOrEqual(login.accountLimit);
    expect(answers.filter((a) => a.statusCode === 429).length).toBe(30 - checked);
  });

  it('an account is refused after repeated failures, even with the right password, while others still sign in', async () => {
    const victim = await createTestUser(t.db, orgId, 'viewer');
    for (let i = 0; i < login.accountLimit; i++) {
      expect((await attempt(victim.email, 'wrong password', `198.51.100.${i}`)).statusCode).toBe(401);
    }
    const refused = await attempt(victim.email, TEST_PASSWORD, '198.51.100.200');
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toContain('Too many failed sign-ins');
    const other = await createTestUser(t.db, orgId, 'viewer');
    expect((await attempt(other.email, TEST_PASSWORD, '198.51.100.201')).statusCode).toBe(303);
  });

  it('one address trying many accounts is refused, other addresses are not', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    for (let i = 0; i < login.addressLimit; i++) {
      expect((await attempt(`nobody${i}@example.org`, 'guess', '192.0.2.50')).statusCode).toBe(401);
    }
    expect((await attempt(user.email, TEST_PASSWORD, '192.0.2.50')).statusCode).toBe(429);
    expect((await attempt(user.email, TEST_PASSWORD, '192.0.2.51')).statusCode).toBe(303);
  });
});

describe('sessions', () => {
  it('cookies are HttpOnly and SameSite; Secure only when a trusted proxy says the request was https', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    const plain = await attempt(user.email, TEST_PASSWORD);
    const cookie = String(plain.headers['set-cookie']);
    expect(cookie).toMatch(/rm_session=[^;]+; Path=\/dashboard; Max-Age=\d+; HttpOnly; SameSite=Lax/);
    expect(cookie).not.toContain('Secure');

    const form = await t.app.inject({
      url: '/dashboard/sign-in/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(String(form.headers['set-cookie'])).toContain('Secure');

    const untrusting = await createTestApp({ trustProxy: false });
    try {
      const res = await untrusting.app.inject({
        url: '/dashboard/sign-in/',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(String(res.headers['set-cookie'])).not.toContain('Secure');
    } finally {
      await untrusting.close();
    }
  });

  it('a session ends when it expires, at sign-out, and when the user is disabled', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    const home = (cookie: string) => t.app.inject({ url: '/dashboard/', headers: { cookie } });

    const expiring = await injectSignIn(t.app, user.email);
    expect((await home(expiring.cookie)).statusCode).toBe(200);
    await t.db.query(
      `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    const expired = await home(expiring.cookie);
    expect(expired.statusCode).toBe(303);
    expect(expired.headers.location).toBe('/dashboard/sign-in/?next=%2Fdashboard%2F');
    // The sign-in page says why it is there and where it goes on to, focused (the next Tab the email),
    // where the bare form came back as if nothing had happened.
    const said = async (url: string, cookie?: string) =>
      /<p class="flash ok" role="status" tabindex="-1" autofocus>([^<]*)<\/p>/
        .exec((await t.app.inject({ url, headers: cookie ? { cookie } : {} })).body)?.[1]
        ?.trim();
    const toGroups = await t.app.inject({ url: '/dashboard/groups/', headers: { cookie: expiring.cookie } });
    expect(await said(String(toGroups.headers.location), expiring.cookie)).toBe(
      'Your sign-in has ended: sign in again to go on to Authors groups.',
    );
    expect(await said(String(expired.headers.location), expiring.cookie)).toBe(
      'Your sign-in has ended: sign in again to go on to the home page.',
    );
    // Never signed in in this browser: a page past the home page needs a sign-in; home says nothing.
    expect(await said('/dashboard/sign-in/?next=%2Fdashboard%2Fgroups%2F12%2F')).toBe(
      'Sign in to go on to a page of Authors groups.',
    );
    expect(await said('/dashboard/sign-in/?next=%2Fdashboard%2F')).toBeUndefined();
    expect(await said('/dashboard/sign-in/')).toBeUndefined();

    const leaving = await injectSignIn(t.app, user.email);
    const out = await injectForm(t.app, leaving, '/dashboard/sign-out/');
    expect(out.statusCode).toBe(303);
    // Said, and focused (a screen reader hears it, the next Tab the email), where the sign-in form
    // alone came back as if nothing had happened, or the person had been signed out by time.
    expect(out.headers.location).toBe('/dashboard/sign-in/?out=1');
    const signIn = (await t.app.inject({ url: out.headers.location })).body;
    expect(signIn).toMatch(
      /<p class="flash ok" role="status" tabindex="-1" autofocus>\s*You are signed out\./,
    );
    expect((await home(leaving.cookie)).statusCode).toBe(303);

    const disabled = await injectSignIn(t.app, user.email);
    await t.db.query('UPDATE users SET disabled_at = now() WHERE id = $1', [user.id]);
    expect((await home(disabled.cookie)).statusCode).toBe(303);
  });

  it('a form sent after the session ended says on the sign-in page that it was not saved, and leads back to its page', async () => {
    const editor = await createTestUser(t.db, orgId, 'editor');
    const session = await injectSignIn(t.app, editor.email);
    const group = await createGroup(t.db, orgId, 'Signed-out reviewers');
    await t.db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [editor.id]);
    const sent = await injectForm(t.app, session, `/dashboard/groups/${group.group_id}/records/`, {
      client_id: 'late-1',
      name: 'Late Record',
    });
    expect(sent.statusCode).toBe(303);
    const location = new URL(sent.headers.location as string, 'http://x');
    expect(location.pathname).toBe('/dashboard/sign-in/');
    expect(location.searchParams.get('next')).toBe(`/dashboard/groups/${group.group_id}/new-record/`);
    const page = await t.app.inject({ url: sent.headers.location as string });
    expect(page.body).toContain('You were signed out, so what you sent was not saved.');
    // The session was closed, not expired: nothing typed is kept, and the page says so.
    expect(page.body).toContain('anything typed in the form was not kept');
    expect(page.body).toContain(`value="/dashboard/groups/${group.group_id}/new-record/"`);
    const { rows } = await t.db.query('SELECT 1 FROM group_authors WHERE client_id = $1', ['late-1']);
    expect(rows).toEqual([]);

    // A route without its form's page named goes back where the browser was; never off the dashboard.
    const unlink = (referer: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dashboard/folders/1/journals/2/unlink/',
        headers: { cookie: session.cookie, referer, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `_csrf=${session.csrf}`,
      });
    const fromFolder = await unlink('http://localhost:80/dashboard/folders/1/?journal=x');
    expect(new URL(fromFolder.headers.location as string, 'http://x').searchParams.get('next')).toBe(
      '/dashboard/folders/1/?journal=x',
    );
    const fromElsewhere = await unlink('https://evil.example/dashboard/folders/1/');
    expect(new URL(fromElsewhere.headers.location as string, 'http://x').searchParams.get('next')).toBe(
      '/dashboard/',
    );
    // Signing out when already signed out is no lost form.
    const out = await injectForm(t.app, session, '/dashboard/sign-out/');
    expect(out.headers.location).toBe('/dashboard/sign-in/');
  });

  it('a form post without the session CSRF token is refused with 403', async () => {
    const admin = await createTestUser(t.db, orgId, 'integrations_admin');
    const session = await injectSignIn(t.app, admin.email);
    const forged = await injectForm(t.app, { ...session, csrf: 'forged' }, '/dashboard/settings/', {
      prefer: 'parsed',
      max_candidates: '3',
    });
    expect(forged.statusCode).toBe(403);
    const noLoginToken = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      payload: { _csrf: 'x', email: admin.email, password: TEST_PASSWORD },
    });
    expect(noLoginToken.statusCode).toBe(403);
  });

  it('after sign-in, only a dashboard path is followed (never another site, nor out of the dashboard)', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    for (const [next, location] of [
      ['/dashboard/settings/', '/dashboard/settings/'],
      ['//evil.example/dashboard/', '/dashboard/'],
      ['https://evil.example/', '/dashboard/'],
      ['/dashboard/\\evil', '/dashboard/'],
      // Dot segments the browser would resolve out of the dashboard; one that stays in is kept.
      ['/dashboard/../api/external/custom-fields/all/', '/dashboard/'],
      ['/dashboard/%2e%2e/api/x', '/dashboard/'],
      ['/dashboard/manuscripts/../settings/?a=1#b', '/dashboard/settings/?a=1#b'],
    ] as const) {
      const res = await postSignInForm(t.app, { email: user.email, password: TEST_PASSWORD, next });
      expect(res.headers.location, next).toBe(location);
    }
  });
});

describe('sign-in form', () => {
  it('an email or a password longer than any account has is answered on the form, keeping next', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    for (const [email, password, says] of [
      [`${'a'.repeat(400)}@example.org`, 'x', 'An email address has at most 320 characters'],
      [user.email, 'p'.repeat(1100), 'The email or the password is not right.'],
    ] as const) {
      const res = await postSignInForm(t.app, { email, password, next: '/dashboard/settings/' });
      // It was a 400 page with no form ("Back to the dashboard"), and the page asked for was lost.
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain(says);
      expect(res.body).toContain('<button type="submit">Sign in</button>');
      expect(res.body).toContain('value="/dashboard/settings/"');
    }
  });
});

describe('sign-in in two tabs', () => {
  it('the sign-in page of either tab signs in, before or after the other tab did', async () => {
    const user = await createTestUser(t.db, orgId, 'viewer');
    const cookieOf = (res: { headers: Record<string, unknown> }) =>
      /rm_login_csrf=([^;]*)/.exec(String(res.headers['set-cookie']))?.[1];
    // Tab 1 shows the sign-in page, then tab 2 does (the same browser: tab 1's cookie is sent).
    const tab1 = await t.app.inject({ url: '/dashboard/sign-in/' });
    const token1 = cookieOf(tab1)!;
    const tab2 = await t.app.inject({
      url: '/dashboard/sign-in/',
      headers: { cookie: `rm_login_csrf=${token1}` },
    });
    let browserCookie = cookieOf(tab2) ?? token1;
    const token2 = /name="_csrf" value="([^"]+)"/.exec(tab2.body)![1]!;
    const post = (csrf: string) =>
      t.app.inject({
        method: 'POST',
        url: '/dashboard/sign-in/',
        headers: { cookie: `rm_login_csrf=${browserCookie}` },
        payload: { _csrf: csrf, email: user.email, password: TEST_PASSWORD, next: '/dashboard/groups/' },
      });
    // Tab 1's form: it answered 403 "The form has expired", tab 2's page having replaced the token.
    const first = await post(token1);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe('/dashboard/groups/');
    // The browser keeps what the answer left of the cookie (a cleared cookie is gone).
    browserCookie = cookieOf(first) ?? browserCookie;
    // Tab 2's form, sent after tab 1 signed in: signed in too, not refused.
    const second = await post(token2);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe('/dashboard/groups/');
    // A forged post (another site cannot read the cookie) is still refused.
    expect((await post('forged-token-of-another-site-0000')).statusCode).toBe(403);
  });
});

describe('pages', () => {
  it('every dashboard response carries the Content-Security-Policy and framing headers', async () => {
    for (const url of ['/dashboard/sign-in/', '/dashboard/', '/dashboard/no-such-page/']) {
      const res = await t.app.inject({ url });
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('the html template escapes every interpolation, and only html is kept as markup', () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>',
    );
    const list = html`<ul>
      ${['<a>', html`<li>b</li>`, null, false]}
    </ul>`.value;
    expect(list.replace(/\s+/g, '')).toBe('<ul>&lt;a&gt;<li>b</li></ul>');
  });
});
