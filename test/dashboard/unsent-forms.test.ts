// A form sent after its session expired (docs/dashboard.md): what was typed is kept with the ended
// session, found by the form's CSRF token, and shown again on the form's page when the same user
// signs in again in the same browser; never a secret, never for someone else, never from a post
// another site made, and nothing after a sign-out.
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, listenOnLoopback, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectSignIn, TEST_PASSWORD, type InjectSession } from '../helpers/dashboard.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { UNSENT_FORM_COOKIE } from '../../src/dashboard/cookies.ts';

let t: TestApp;
let orgId: number;

beforeAll(async () => {
  t = await createTestApp();
  orgId = (await createTestOrg(t)).id;
});
afterAll(async () => t?.close());

function cookieOf(setCookie: string | string[] | undefined, name: string): string | undefined {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const found = list.find((c) => c.startsWith(`${name}=`));
  return found?.split(';')[0]!.slice(name.length + 1);
}

/** The session ends as an 8-hour one does: expired, and the browser no longer sends its cookie. */
async function expire(userId: number): Promise<void> {
  await t.db.query(
    `UPDATE dashboard_sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
    [userId],
  );
}

/** A form post of a browser whose session cookie is gone: the form's CSRF token, no cookie. */
function postWithoutSession(url: string, csrf: string, fields: Record<string, string>, cookie?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
  });
}

/**
 * Signs in through the form, carrying `cookie` (the unsent form's), to `next` (home) and into the
 * `organization` chosen when the email has accounts in several; returns the answer and the session.
 */
async function signInWith(
  email: string,
  cookie: string | undefined,
  options: { next?: string; organization?: number } = {},
) {
  const form = await t.app.inject({ url: '/dashboard/sign-in/', headers: cookie ? { cookie } : {} });
  const login = cookieOf(form.headers['set-cookie'], 'rm_login_csrf')!;
  const res = await t.app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/',
    headers: { cookie: [`rm_login_csrf=${login}`, cookie].filter(Boolean).join('; ') },
    payload: {
      _csrf: login,
      email,
      password: TEST_PASSWORD,
      next: options.next ?? '/dashboard/',
      ...(options.organization === undefined ? {} : { organization: String(options.organization) }),
    },
  });
  expect(res.statusCode, res.body).toBe(303);
  const session: InjectSession = {
    cookie: `rm_session=${cookieOf(res.headers['set-cookie'], 'rm_session')!}`,
    csrf: '',
  };
  return { res, session };
}

const get = (session: InjectSession, url: string) =>
  t.app.inject({ url, headers: { cookie: session.cookie } });

describe('a form sent after the session ended', () => {
  it('is shown again, as typed, on its page when the same user signs in again', async () => {
    const editor = await createTestUser(t.db, orgId, 'editor');
    const session = await injectSignIn(t.app, editor.email);
    const group = await createGroup(t.db, orgId, 'Late reviewers');
    await expire(editor.id);

    const sent = await postWithoutSession(`/dashboard/groups/${group.group_id}/records/`, session.csrf, {
      client_id: 'late-1',
      name: 'Zoë Late <b>',
      emails: 'zoe@late.example',
    });
    expect(sent.statusCode).toBe(303);
    const kept = cookieOf(sent.headers['set-cookie'], UNSENT_FORM_COOKIE);
    expect(kept).toBe(encodeURIComponent(session.csrf));
    expect(String(sent.headers['set-cookie'])).toMatch(
      /rm_unsent_form=[^;]+; Path=\/dashboard; Max-Age=86400; HttpOnly; SameSite=Lax/,
    );
    // Nothing saved.
    expect((await t.db.query('SELECT 1 FROM group_authors WHERE client_id = $1', ['late-1'])).rows).toEqual(
      [],
    );

    const cookie = `${UNSENT_FORM_COOKIE}=${kept}`;
    const signInPage = await t.app.inject({ url: sent.headers.location as string, headers: { cookie } });
    expect(signInPage.body).toContain('where what you typed is kept for you to check and send again');
    const { res } = await signInWith(editor.email, cookie);
    // To the form's page, though sign-in was asked for home; the cookie is spent.
    const formPage = `/dashboard/groups/${group.group_id}/new-record/`;
    expect(res.headers.location).toBe(formPage);
    expect(String(res.headers['set-cookie'])).toContain(`${UNSENT_FORM_COOKIE}=; Path=/dashboard; Max-Age=0`);
    const again: InjectSession = {
      cookie: `rm_session=${cookieOf(res.headers['set-cookie'], 'rm_session')!}`,
      csrf: '',
    };
    const page = (await get(again, formPage)).body;
    expect(page).toContain('Not saved yet: you were signed out before this was sent.');
    expect(page).toContain('value="late-1"');
    expect(page).toContain('value="Zoë Late &lt;b&gt;"');
    expect(page).toContain('zoe@late.example</textarea>');
    // Shown once; and the ended session is gone.
    expect((await get(again, formPage)).body).not.toContain('late-1');
    expect(
      (await t.db.query('SELECT 1 FROM dashboard_sessions WHERE csrf_token = $1', [session.csrf])).rows,
    ).toEqual([]);
  });

  it('keeps no secret, and shows nothing to another user signing in with the cookie', async () => {
    const admin = await createTestUser(t.db, orgId, 'integrations_admin');
    const other = await createTestUser(t.db, orgId, 'integrations_admin');
    const session = await injectSignIn(t.app, admin.email);
    await expire(admin.id);
    const secret = 'typed-secret-after-expiry-1234';
    const sent = await postWithoutSession('/dashboard/webhooks/', session.csrf, {
      url: 'https://127.0.0.1/late-hook',
      secret,
    });
    const kept = cookieOf(sent.headers['set-cookie'], UNSENT_FORM_COOKIE)!;
    expect(kept).toBeDefined();
    const { rows } = await t.db.query<{ flash: { form: Record<string, string> } }>(
      'SELECT flash FROM dashboard_sessions WHERE csrf_token = $1',
      [session.csrf],
    );
    expect(rows[0]!.flash.form).toEqual({ url: 'https://127.0.0.1/late-hook' });
    expect(JSON.stringify(rows)).not.toContain(secret);

    // Someone else at the same browser: home, nothing of the admin's form.
    const { res, session: theirs } = await signInWith(other.email, `${UNSENT_FORM_COOKIE}=${kept}`);
    expect(res.headers.location).toBe('/dashboard/');
    expect((await get(theirs, '/dashboard/webhooks/')).body).not.toContain('late-hook');
    // The admin's ended session keeps it for the admin.
    const { res: mine, session: admins } = await signInWith(admin.email, `${UNSENT_FORM_COOKIE}=${kept}`);
    expect(mine.headers.location).toBe('/dashboard/webhooks/');
    const page = (await get(admins, '/dashboard/webhooks/')).body;
    expect(page).toContain('value="https://127.0.0.1/late-hook"');
    expect(page).not.toContain(secret);
  });

  it('keeps a form sent in one organization for it when the same email signs into another, saying so', async () => {
    const first = await createTestOrg(t);
    const other = await createTestOrg(t);
    await t.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [first.id, 'Journal of Kept Forms']);
    const email = `two.journals.${other.id}@example.org`;
    const here = await createTestUser(t.db, first.id, 'editor', email);
    await createTestUser(t.db, other.id, 'editor', email);
    const { res: signedIn, session } = await signInWith(email, undefined, { organization: first.id });
    expect(signedIn.statusCode).toBe(303);
    session.csrf = /name="_csrf" value="([^"]+)"/.exec(
      (await get(session, '/dashboard/password/')).body,
    )![1]!;
    const group = await createGroup(t.db, first.id, `Two journals ${other.id}`);
    await expire(here.id);
    const sent = await postWithoutSession(`/dashboard/groups/${group.group_id}/records/`, session.csrf, {
      client_id: 'kept-for-a',
      name: 'Kept For A',
    });
    const cookie = `${UNSENT_FORM_COOKIE}=${cookieOf(sent.headers['set-cookie'], UNSENT_FORM_COOKIE)!}`;
    const formPage = `/dashboard/groups/${group.group_id}/new-record/`;

    // Into the other organization: not led to this organization's page (a "not found" there), told
    // where the form waits, and the cookie left as it is (it was cleared, and the form lost).
    const { res: elsewhere, session: theirs } = await signInWith(email, cookie, {
      next: formPage,
      organization: other.id,
    });
    expect(elsewhere.headers.location).toBe('/dashboard/');
    expect(String(elsewhere.headers['set-cookie'])).not.toContain(`${UNSENT_FORM_COOKIE}=`);
    const home = (await get(theirs, '/dashboard/')).body;
    expect(home).toContain('is kept for that organization, not used here: sign in to');
    expect(home).toContain('not used here: sign in to <bdi>Journal of Kept Forms</bdi> within a day');
    expect(home).not.toContain('Kept For A');
    expect(
      await t.db.query('SELECT 1 FROM group_authors WHERE client_id = $1', ['kept-for-a']),
    ).toMatchObject({
      rows: [],
    });

    // Back into the first organization in that browser: the form, as typed, on its page.
    const { res: back, session: mine } = await signInWith(email, cookie, {
      next: formPage,
      organization: first.id,
    });
    expect(back.headers.location).toBe(formPage);
    const page = (await get(mine, formPage)).body;
    expect(page).toContain('Not saved yet: you were signed out before this was sent.');
    expect(page).toContain('value="Kept For A"');
  });

  it("keeps nothing from a post without the ended session's token (another site), nor after a sign-out", async () => {
    const editor = await createTestUser(t.db, orgId, 'editor');
    await injectSignIn(t.app, editor.email);
    const group = await createGroup(t.db, orgId, 'Forged reviewers');
    await expire(editor.id);
    const url = `/dashboard/groups/${group.group_id}/records/`;
    const forged = await postWithoutSession(url, 'a-token-another-site-guessed', {
      client_id: 'forged-1',
      name: 'F',
    });
    expect(forged.statusCode).toBe(303);
    expect(cookieOf(forged.headers['set-cookie'], UNSENT_FORM_COOKIE)).toBeUndefined();
    // Without its token the ended session holds nothing: signing in shows no form.
    const { res } = await signInWith(editor.email, undefined);
    expect(res.headers.location).toBe('/dashboard/');
    const { rows } = await t.db.query<{ flash: unknown }>(
      'SELECT flash FROM dashboard_sessions WHERE user_id = $1 AND flash IS NOT NULL',
      [editor.id],
    );
    expect(rows).toEqual([]);

    // Signed out (on a shared computer): the session is gone, and what a form sends is not kept.
    const leaving = await injectSignIn(t.app, editor.email);
    const out = await t.app.inject({
      method: 'POST',
      url: '/dashboard/sign-out/',
      headers: { cookie: leaving.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `_csrf=${leaving.csrf}`,
    });
    expect(out.statusCode).toBe(303);
    const late = await postWithoutSession(url, leaving.csrf, { client_id: 'after-out', name: 'A' });
    expect(late.statusCode).toBe(303);
    expect(cookieOf(late.headers['set-cookie'], UNSENT_FORM_COOKIE)).toBeUndefined();
  });

  describe("a group's import (a multipart form, its body read by the route)", () => {
    const boundary = '----refmatch-unsent-boundary';
    const MULTIPART = `multipart/form-data; boundary=${boundary}`;

    /** The import form's body as a browser sends it: the token first. */
    function importBody(
      csrf: string,
      sent: { csv?: string; file?: { name: string; bytes: Buffer | string } },
    ): Buffer {
      const field = (name: string, value: string) =>
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
      return Buffer.concat([
        field('_csrf', csrf),
        // The form's one-time value (form-seal.ts): not kept, the page shown again gives a new one.
        field('once', 'one-time-value-of-the-page'),
        field('csv', sent.csv ?? ''),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${sent.file?.name ?? ''}"\r\n` +
            `Content-Type: text/csv\r\n\r\n`,
        ),
        sent.file ? Buffer.from(sent.file.bytes) : Buffer.alloc(0),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    }

    /** The import form as a browser sends it, without the session's cookie. */
    function postImport(groupId: number, csrf: string, sent: Parameters<typeof importBody>[1]) {
      return t.app.inject({
        method: 'POST',
        url: `/dashboard/groups/${groupId}/import/`,
        headers: { 'content-type': MULTIPART },
        payload: importBody(csrf, sent),
      });
    }

    async function importAfterExpiry(sent: Parameters<typeof postImport>[2]) {
      const editor = await createTestUser(t.db, orgId, 'editor');
      const session = await injectSignIn(t.app, editor.email);
      const group = await createGroup(t.db, orgId, `Imported late ${editor.id}`);
      await expire(editor.id);
      const answer = await postImport(group.group_id, session.csrf, sent);
      expect(answer.statusCode).toBe(303);
      const kept = cookieOf(answer.headers['set-cookie'], UNSENT_FORM_COOKIE);
      const formPage = `/dashboard/groups/${group.group_id}/import/`;
      expect(answer.headers.location).toBe(
        `/dashboard/sign-in/?next=${encodeURIComponent(formPage)}&unsaved=1`,
      );
      const keptCookie = kept ? `${UNSENT_FORM_COOKIE}=${kept}` : undefined;
      // The sign-in page the browser is sent to, saying what became of the form.
      const signInPage = (
        await t.app.inject({
          url: String(answer.headers.location),
          headers: keptCookie ? { cookie: keptCookie } : {},
        })
      ).body;
      const { res, session: again } = await signInWith(editor.email, keptCookie);
      return { group, kept, res, again, formPage, session, signInPage };
    }

    const CSV = 'client_id,name,emails\nlate-a,Ana Late,ana@late.example\nlate-b,"Bo, Late",';

    it('keeps a pasted CSV: after signing in the import page has it in its field, nothing imported', async () => {
      const { group, kept, res, again, formPage, signInPage } = await importAfterExpiry({ csv: CSV });
      expect(kept).toBeDefined();
      expect(signInPage).toContain('where what you typed is kept for you to check and send again');
      expect(res.headers.location).toBe(formPage);
      const page = (await get(again, formPage)).body;
      expect(page).toContain('Not saved yet: you were signed out before this was sent.');
      expect(page).toContain('late-b,&quot;Bo, Late&quot;,</textarea>');
      expect(
        (await t.db.query('SELECT 1 FROM group_authors WHERE group_id = $1', [group.group_id])).rows,
      ).toEqual([]);
    });

    it("keeps a chosen file's text in the field, saying so; a file not UTF-8 is named, not kept", async () => {
      const text = await importAfterExpiry({ file: { name: 'reviewers.csv', bytes: CSV } });
      const page = (await get(text.again, text.formPage)).body;
      expect(page).toContain('The file <bdi>reviewers.csv</bdi> is kept as text');
      expect(page).toContain('late-a,Ana Late,ana@late.example');

      const binary = await importAfterExpiry({
        file: { name: 'book.xlsx', bytes: Buffer.from([0x50, 0x4b, 0, 0xff]) },
      });
      const shown = (await get(binary.again, binary.formPage)).body;
      expect(shown).toContain(
        'The file <bdi>book.xlsx</bdi> was not kept (it is not UTF-8 text): choose it again.',
      );
      expect(shown).toMatch(/<textarea id="csv"[^>]*><\/textarea>/);
      // Nothing typed and the file not kept: nothing is said to be kept.
      expect(binary.signInPage).not.toContain('what you typed is kept');
      expect(shown).toContain('nothing of it could be kept to show again');
      expect(shown).not.toContain('What you typed is below');
    });

    /** A file past the 1 MiB a form may send, within the file's own limit. */
    const big = `client_id,name\n${Array.from({ length: 40_000 }, (_, i) => `r${i},Person number ${i}`).join('\n')}`;

    it('past the body limit keeps nothing of it and says to choose the file again', async () => {
      const { again, formPage, signInPage } = await importAfterExpiry({
        file: { name: 'all.csv', bytes: big },
      });
      // The sign-in page said "what you typed is kept", and the import page "What you typed is below".
      expect(signInPage).not.toContain('what you typed is kept');
      expect(signInPage).toContain(
        'It could not be kept either: sign in to go back to the page, which says what to send again.',
      );
      const page = (await get(again, formPage)).body;
      expect(page).toContain(
        'Not saved: you were signed out before this was sent, and nothing of it could be kept to show again. It was too large to keep (over 1 MiB): choose the file again',
      );
      expect(page).not.toContain('What you typed is below');
      expect(page).not.toContain('Person number 1');
    });

    // A browser still sending the body when the answer comes gets a connection reset, not the answer,
    // if the server closes the socket with the body unread (Chromium showed its own error page for
    // an import sent after the session ended: sent-again.browser.test.ts under load).
    it.each([
      ['past the body limit', true],
      ["with a token no ended session gave (another site's)", false],
    ])(
      'sent slowly over a socket, %s: the whole body is read before the answer, never reset',
      async (_, ours) => {
        const editor = await createTestUser(t.db, orgId, 'editor');
        const session = await injectSignIn(t.app, editor.email);
        const group = await createGroup(t.db, orgId, `Sent slowly ${editor.id}`);
        await expire(editor.id);
        const port = t.app.server.listening ? portOf(t.app.server.address()) : await listenOnLoopback(t.app);
        const body = importBody(ours ? session.csrf : 'a-token-another-site-guessed', {
          file: { name: 'all.csv', bytes: big },
        });
        const answer = await sendSlowly(port, `/dashboard/groups/${group.group_id}/import/`, body);
        expect(answer.error).toBeUndefined();
        expect(answer.written).toBe(body.length);
        expect(answer.head).toMatch(/^HTTP\/1\.1 303 /);
        expect(answer.head).toContain('location: /dashboard/sign-in/?next=');
      },
      120_000,
    );

    // Not read before the answer; the connection then closes lingering (unread-body.ts), reading what
    // is still sent within a bound, so that a reset does not lose the answer: this test lost it once.
    it('declared longer than a file and a form may be: answered without reading it, the connection closed, the answer not lost', async () => {
      const editor = await createTestUser(t.db, orgId, 'editor');
      const session = await injectSignIn(t.app, editor.email);
      const group = await createGroup(t.db, orgId, `Sent too long ${editor.id}`);
      await expire(editor.id);
      const port = t.app.server.listening ? portOf(t.app.server.address()) : await listenOnLoopback(t.app);
      const body = importBody(session.csrf, { file: { name: 'all.csv', bytes: big } });
      const bound = t.config.fileLimitBytes + t.config.bodyLimitBytes;
      const answer = await sendSlowly(port, `/dashboard/groups/${group.group_id}/import/`, body, bound + 1);
      expect(answer.head).toMatch(/^HTTP\/1\.1 303 /);
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('location: /dashboard/sign-in/?next=');
    }, 120_000);

    it("keeps nothing of a post no ended session sent (another site's)", async () => {
      const editor = await createTestUser(t.db, orgId, 'editor');
      await injectSignIn(t.app, editor.email);
      const group = await createGroup(t.db, orgId, `Forged import ${editor.id}`);
      await expire(editor.id);
      const forged = await postImport(group.group_id, 'a-token-another-site-guessed', { csv: CSV });
      expect(forged.statusCode).toBe(303);
      expect(cookieOf(forged.headers['set-cookie'], UNSENT_FORM_COOKIE)).toBeUndefined();
      const { rows } = await t.db.query(
        'SELECT 1 FROM dashboard_sessions WHERE user_id = $1 AND flash IS NOT NULL',
        [editor.id],
      );
      expect(rows).toEqual([]);
    });
  });
});

function portOf(address: ReturnType<Server['address']>): number {
  if (typeof address !== 'object' || !address) throw new Error('the test server has no port');
  return address.port;
}

/**
 * POSTs `body` over a socket in 16 KiB pieces with a pause between them, as a browser's upload
 * arrives (`declared` its Content-Length): what was answered (its head), how much of the body was
 * written, and any socket error (a reset) before the answer and the body were both done.
 */
function sendSlowly(port: number, path: string, body: Buffer, declared = body.length) {
  return new Promise<{ head: string; written: number; error?: string }>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    let written = 0;
    let error: string | undefined;
    const finish = () => resolve({ head: received.split('\r\n\r\n')[0] ?? '', written, error });
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e.code ?? e.message));
    socket.on('close', finish);
    socket.once('connect', async () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Content-Type: multipart/form-data; boundary=----refmatch-unsent-boundary\r\n` +
          `Content-Length: ${declared}\r\n\r\n`,
      );
      for (let at = 0; at < body.length && !error && !socket.destroyed; at += 16_384) {
        const piece = body.subarray(at, at + 16_384);
        await new Promise<void>((done) => socket.write(piece, () => done()));
        if (!error) written += piece.length;
        await new Promise((pause) => setTimeout(pause, 2));
      }
      // The answer, then the socket ended by us: a server that waits for the body answers after it.
      const answered = () => received.includes('\r\n\r\n');
      // Waited for as an event, bounded generously for a loaded machine (the tests' own timeout is
      // twice this, so that an answer that never comes is seen missing rather than timed out).
      const until = Date.now() + 60_000;
      while (!answered() && !error && !socket.destroyed && Date.now() < until) {
        await new Promise((pause) => setTimeout(pause, 20));
      }
      socket.end();
    });
  });
}
