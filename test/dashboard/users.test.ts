// The users page over HTTP in-process: a disabled user's role is not changed by a post (the page
// offers none); enabling comes first; a one-time password is shown once, by the page the add (or the
// Enable button) leads to, and the form sent twice at once leads to the password it made.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import {
  createTestUser,
  followRedirect,
  injectForm,
  injectSignIn,
  postSignInForm,
  signInAs,
} from '../helpers/dashboard.ts';
import { hashToken } from '../../src/users/sessions.ts';
import { createUser, disableUser } from '../../src/users/users.ts';
import { hashesChecked, SIGN_IN_PASSWORD_CHECKS } from '../../src/users/passwords.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('the users page', () => {
  it("refuses to change a disabled user's role, saying to enable them first", async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const gone = await createTestUser(t.db, org.id, 'viewer');
    await disableUser(t.db, gone.id);
    const res = await injectForm(t.app, admin, `/dashboard/users/${gone.id}/role/`, { role: 'editor' });
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain('is disabled: enable them first');
    const { rows } = await t.db.query<{ role: string }>('SELECT role FROM users WHERE id = $1', [gone.id]);
    expect(rows[0]!.role).toBe('viewer');
  });

  it('enables a disabled user once: enabling an active one (a stale tab, a reload) changes nothing', async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const active = await createTestUser(t.db, org.id, 'editor');
    const activeSession = await injectSignIn(t.app, active.email);
    const hashOf = async (id: number) =>
      (await t.db.query<{ h: string }>('SELECT password_hash AS h FROM users WHERE id = $1', [id])).rows[0]!
        .h;
    const before = await hashOf(active.id);
    const refused = await injectForm(t.app, admin, `/dashboard/users/${active.id}/enable/`);
    expect(refused.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain(`<bdi>${active.email}</bdi> is already enabled`);
    // A double click's second post: the password its first made is not lost without a word.
    expect(page.body).toContain('no new one-time password was made');
    expect(page.body).toContain('disable them, then enable them for a new one');
    expect(await hashOf(active.id)).toBe(before);
    const still = await t.app.inject({ url: '/dashboard/', headers: { cookie: activeSession.cookie } });
    expect(still.statusCode).toBe(200);

    const gone = await createTestUser(t.db, org.id, 'viewer');
    await disableUser(t.db, gone.id);
    const enabled = await followRedirect(
      t.app,
      admin,
      await injectForm(t.app, admin, `/dashboard/users/${gone.id}/enable/`),
    );
    expect(enabled.statusCode).toBe(200);
    expect(enabled.body).toMatch(/one-time password/i);
    // Enabled again, they have signed in before: their status says what is pending, not "never".
    const listed = enabled.body.replaceAll('<wbr />', '');
    const row = listed.slice(listed.indexOf(`<td class="address">${gone.email}</td>`));
    expect(row.slice(0, row.indexOf('</tr>'))).toContain('One-time password not yet replaced');
    expect(enabled.body).not.toContain('Has not signed in yet');
    const shownHash = await hashOf(gone.id);
    // The same post again (the answer page reloaded): no second password.
    expect((await injectForm(t.app, admin, `/dashboard/users/${gone.id}/enable/`)).statusCode).toBe(303);
    expect(await hashOf(gone.id)).toBe(shownHash);
  });
});

describe('one email, an account in each of several organizations', () => {
  async function signInForm(email: string, password: string, organization?: number) {
    return postSignInForm(t.app, {
      email,
      password,
      ...(organization ? { organization: String(organization) } : {}),
    });
  }
  const sessionCookie = (res: { headers: Record<string, unknown> }) =>
    `rm_session=${/rm_session=([^;]+)/.exec(String(res.headers['set-cookie']))![1]!}`;

  it('adding an email another organization holds is no conflict (nothing told of that organization); twice in one organization is', async () => {
    const first = await createTestOrg(t);
    const second = await createTestOrg(t);
    const email = `shared.${process.pid}.${Date.now()}@example.org`;
    await createTestUser(t.db, first.id, 'editor', email);
    const admin = await injectSignIn(
      t.app,
      (await createTestUser(t.db, second.id, 'integrations_admin')).email,
    );
    const added = await followRedirect(
      t.app,
      admin,
      await injectForm(t.app, admin, '/dashboard/users/', { email, role: 'viewer' }),
    );
    expect(added.statusCode).toBe(200);
    expect(added.body).toMatch(/one-time password/i);
    const again = await injectForm(t.app, admin, '/dashboard/users/', {
      email: email.toUpperCase(),
      role: 'viewer',
    });
    expect(again.statusCode).toBe(303);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(page.body).toContain('is already a user of this organization');
    const { rows } = await t.db.query<{ organization_id: number }>(
      'SELECT organization_id FROM users WHERE lower(email) = lower($1) ORDER BY organization_id',
      [email],
    );
    expect(rows.map((r) => r.organization_id)).toEqual([first.id, second.id]);
  });

  it('keeps an email lower-cased, the one account sign-in opens in any case: listed so, another case refused', async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const typed = `Editor.One.${process.pid}@Walk.Example`;
    const kept = typed.toLowerCase();
    const added = await followRedirect(
      t.app,
      admin,
      await injectForm(t.app, admin, '/dashboard/users/', { email: ` ${typed} `, role: 'editor' }),
    );
    expect(added.body).toContain(`<bdi>${kept}</bdi> can now sign in`);
    const listed = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    // Listed with its wrapping points (`wrappableAddress`), the address as kept.
    expect(listed.body.replaceAll('<wbr />', '')).toContain(`<td class="address">${kept}</td>`);
    expect(listed.body).not.toContain(typed);
    expect(listed.body).toContain('Kept in lower case: an address is one account whatever its letter case');
    // The same address in another case is the account there is, not a second one.
    const again = await injectForm(t.app, admin, '/dashboard/users/', {
      email: typed.toUpperCase(),
      role: 'viewer',
    });
    expect(again.statusCode).toBe(303);
    const refused = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(refused.body).toContain(`<bdi>${kept}</bdi> is already a user of this organization`);
    const { rows } = await t.db.query<{ email: string }>(
      'SELECT email FROM users WHERE organization_id = $1 AND lower(email) = $2',
      [org.id, kept],
    );
    expect(rows.map((r) => r.email)).toEqual([kept]);
    // The CLI's way in (createUser) keeps it so too.
    const byCli = await createUser(t.db, {
      organizationId: org.id,
      email: 'Ada.L@Example.ORG',
      role: 'viewer',
    });
    expect(byCli.email).toBe('ada.l@example.org');
  });

  it('migration 0114 lowers the emails kept as typed before it', async () => {
    const org = await createTestOrg(t);
    const typed = `Kept.As.Typed.${process.pid}@Example.ORG`;
    await t.db.query(
      `INSERT INTO users (organization_id, email, role, password_hash) VALUES ($1, $2, 'viewer', 'x')`,
      [org.id, typed],
    );
    await t.db.query(
      await readFile(new URL('../../migrations/0114_users_email_lower_case.sql', import.meta.url), 'utf8'),
    );
    const { rows } = await t.db.query<{ email: string }>(
      'SELECT email FROM users WHERE organization_id = $1',
      [org.id],
    );
    expect(rows.map((r) => r.email)).toEqual([typed.toLowerCase()]);
  });

  it('the password chooses the account: the one it opens, or a choice of the organizations it opens', async () => {
    const first = await createTestOrg(t);
    const second = await createTestOrg(t);
    const third = await createTestOrg(t);
    const email = `both.${process.pid}.${Date.now()}@example.org`;
    const inFirst = await createTestUser(t.db, first.id, 'editor', email);
    const inSecond = await createTestUser(t.db, second.id, 'viewer', email);
    // The third organization's account still has its one-time password: this password opens it not.
    const inThird = await createUser(t.db, { organizationId: third.id, email, role: 'editor' });
    const [firstName, secondName, thirdName] = await Promise.all(
      [first.id, second.id, third.id].map(
        async (id) =>
          (await t.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [id])).rows[0]!
            .name,
      ),
    );

    const choice = await signInForm(email, inFirst.password);
    expect(choice.statusCode).toBe(200);
    expect(String(choice.headers['set-cookie'])).not.toContain('rm_session=');
    expect(choice.body).toContain(`value="${first.id}"`);
    expect(choice.body).toContain(`value="${second.id}"`);
    expect(choice.body).not.toContain(`value="${third.id}"`);
    expect(choice.body).toContain(firstName);
    expect(choice.body).toContain(secondName);
    expect(choice.body).not.toContain(thirdName);

    const signedIn = await signInForm(email, inSecond.password, second.id);
    expect(signedIn.statusCode).toBe(303);
    const token = sessionCookie(signedIn).slice('rm_session='.length);
    const { rows } = await t.db.query<{ user_id: number }>(
      'SELECT user_id FROM dashboard_sessions WHERE token_hash = $1',
      [hashToken(token)],
    );
    expect(rows.map((r) => r.user_id)).toEqual([inSecond.id]);

    // A password that opens one account alone signs in to it, no choice asked.
    const onlyThird = await signInForm(email, inThird.password);
    expect(onlyThird.statusCode).toBe(303);
    const thirdSession = await t.db.query<{ user_id: number }>(
      'SELECT user_id FROM dashboard_sessions WHERE token_hash = $1',
      [hashToken(sessionCookie(onlyThird).slice('rm_session='.length))],
    );
    expect(thirdSession.rows.map((r) => r.user_id)).toEqual([inThird.id]);

    // An organization the password does not open, or one the email has no account in: refused.
    expect((await signInForm(email, inFirst.password, third.id)).statusCode).toBe(401);
    const stranger = await createTestOrg(t);
    expect((await signInForm(email, inFirst.password, stranger.id)).statusCode).toBe(401);
  });

  it('a sign-in checks as many hashes whatever the accounts of the email (none, one, three), and more than that many are all checked', async () => {
    // The time of a failed sign-in is its argon2 checks: as many for an unknown address as for one
    // in three organizations, so that it does not tell how many hold an account of it.
    const counts = [0, 1, 2, 3].map((n) =>
      hashesChecked(
        Array.from({ length: n }, (_, k) => `h${k}`),
        'decoy',
      ),
    );
    expect(counts.map((hashes) => hashes.length)).toEqual(counts.map(() => SIGN_IN_PASSWORD_CHECKS));
    expect(counts[1]).toEqual(['h0', 'decoy', 'decoy']);
    expect(hashesChecked(['a', 'b', 'c', 'd'], 'decoy')).toEqual(['a', 'b', 'c', 'd']);

    // Over HTTP: an email of four accounts whose password opens the fourth alone signs in to it.
    const orgs = await Promise.all([0, 1, 2, 3].map(() => createTestOrg(t)));
    const email = `four.${process.pid}.${Date.now()}@example.org`;
    for (const org of orgs.slice(0, 3))
      await createUser(t.db, { organizationId: org.id, email, role: 'viewer' });
    const fourth = await createTestUser(t.db, orgs[3]!.id, 'editor', email);
    const signedIn = await signInForm(email, fourth.password);
    expect(signedIn.statusCode).toBe(303);
    const { rows } = await t.db.query<{ user_id: number }>(
      'SELECT user_id FROM dashboard_sessions WHERE token_hash = $1',
      [hashToken(sessionCookie(signedIn).slice('rm_session='.length))],
    );
    expect(rows.map((r) => r.user_id)).toEqual([fourth.id]);
    expect((await signInForm(email, 'not the password of any')).statusCode).toBe(401);
  });

  describe('the add form sent again', () => {
    const onceOf = (body: string) => /name="once" value="([^"]+)"/.exec(body)![1]!;
    const passwordOf = (body: string) => /data-testid="one-time-password">([^<]+)</.exec(body)?.[1];

    it('leads to a page that shows the password once: that page again (Back, a reload) shows none', async () => {
      const org = await createTestOrg(t);
      const admin = await injectSignIn(
        t.app,
        (await createTestUser(t.db, org.id, 'integrations_admin')).email,
      );
      const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
      const fields = { once: onceOf(page.body), email: 'new.reviewer@example.org', role: 'editor' };
      const answer = await injectForm(t.app, admin, '/dashboard/users/', fields);
      expect(answer.headers.location).toBe('/dashboard/users/new/');
      const first = await followRedirect(t.app, admin, answer);
      const password = passwordOf(first.body);
      expect(password).toBeDefined();
      expect(first.body).toContain('new.reviewer@example.org</bdi> can now sign in');
      // In no address, no header of the answer: the cookie holds the form's value, which opens it.
      expect(JSON.stringify(answer.headers)).not.toContain(password!);
      // Stored sealed, never as it is, and erased once shown.
      const { rows } = await t.db.query<{ row: string; sealed: boolean }>(
        'SELECT users::text AS row, form_sealed IS NOT NULL AS sealed FROM users WHERE organization_id = $1',
        [org.id],
      );
      expect(rows.map((r) => r.row).join('\n')).not.toContain(password!);
      expect(rows.map((r) => r.row).join('\n')).not.toContain(fields.once);
      expect(rows.some((r) => r.sealed)).toBe(false);
      const again = await followRedirect(t.app, admin, answer);
      expect(passwordOf(again.body)).toBeUndefined();
      expect(again.body).toContain('The one-time password was shown once, on this page, when it was made');
      // Without its cookie (reloaded once seen, its address): no password to show, said plainly.
      const bare = await t.app.inject({ url: '/dashboard/users/new/', headers: { cookie: admin.cookie } });
      expect(passwordOf(bare.body)).toBeUndefined();
      const said = bare.body.replace(/\s+/g, ' ');
      expect(said).toContain('There is no one-time password to show here');
      expect(said).toContain('disable that user in the list below, then enable them for a new one');
      expect(said).not.toContain('was shown once, on this page');

      // The form sent again once its password was seen: the user exists, no password made or shown.
      const later = await injectForm(t.app, admin, '/dashboard/users/', fields);
      expect(later.statusCode).toBe(303);
      const listed = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
      expect(listed.body).toContain('is already a user of this organization');
      expect(passwordOf(listed.body)).toBeUndefined();
    });

    it('two sends at once (a double click) add one user and the last answer leads to its password', async () => {
      const org = await createTestOrg(t);
      const admin = await injectSignIn(
        t.app,
        (await createTestUser(t.db, org.id, 'integrations_admin')).email,
      );
      const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
      const fields = { once: onceOf(page.body), email: 'twice@example.org', role: 'viewer' };
      const answers = await Promise.all(
        [1, 2].map(() => injectForm(t.app, admin, '/dashboard/users/', fields)),
      );
      expect(answers.map((a) => a.statusCode)).toEqual([303, 303]);
      const shown = await followRedirect(t.app, admin, answers[1]!);
      expect(passwordOf(shown.body)).toBeDefined();
      expect(shown.body).toContain('This form was sent more than once');
      const { rows } = await t.db.query('SELECT 1 FROM users WHERE organization_id = $1 AND email = $2', [
        org.id,
        fields.email,
      ]);
      expect(rows).toHaveLength(1);
    });

    it('from another page (another form value) it says the user exists and shows no password', async () => {
      const org = await createTestOrg(t);
      const admin = await injectSignIn(
        t.app,
        (await createTestUser(t.db, org.id, 'integrations_admin')).email,
      );
      const onceNow = async () =>
        onceOf((await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } })).body);
      const email = 'other.page@example.org';
      await injectForm(t.app, admin, '/dashboard/users/', { once: await onceNow(), email, role: 'viewer' });
      const other = await injectForm(t.app, admin, '/dashboard/users/', {
        once: await onceNow(),
        email,
        role: 'viewer',
      });
      expect(other.statusCode).toBe(303);
    });
  });

  it("Enable pressed twice leads to the one-time password its first press made; another page's press makes none", async () => {
    const org = await createTestOrg(t);
    const admin = await signInAs(t, org.id, 'integrations_admin');
    const passwordOf = (body: string) => /data-testid="one-time-password">([^<]+)</.exec(body)?.[1];
    const away = await createTestUser(t.db, org.id, 'editor');
    await disableUser(t.db, away.id);
    const page = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    const url = `/dashboard/users/${away.id}/enable/`;
    const start = page.body.indexOf(`action="${url}"`);
    const once = /name="once" value="([^"]+)"/.exec(page.body.slice(start))![1]!;
    // The first press's answer dropped by the browser (a double click): the second leads to its password.
    await injectForm(t.app, admin, url, { once });
    const again = await followRedirect(t.app, admin, await injectForm(t.app, admin, url, { once }));
    const password = passwordOf(again.body);
    expect(password).toBeDefined();
    expect(again.body).toContain('This form was sent more than once');
    // The password shown works: it is the one stored.
    const { rows } = await t.db.query<{ hash: string }>(
      'SELECT password_hash AS hash FROM users WHERE id = $1',
      [away.id],
    );
    expect(rows[0]!.hash).toMatch(/^\$argon2id\$/);
    expect(
      (await postSignInForm(t.app, { email: away.email, password: password!, next: '/dashboard/' }))
        .statusCode,
    ).toBe(303);
    // From another page (another value): no password, the way to one said.
    const other = await injectForm(t.app, admin, url, { once: 'x'.repeat(43) });
    expect(other.statusCode).toBe(303);
    const listed = await t.app.inject({ url: '/dashboard/users/', headers: { cookie: admin.cookie } });
    expect(listed.body).toContain('no new one-time password was made');
  });
});
