// Dashboard users and sessions for tests: a user with a password of the test's choosing (set through
// the same store the password page uses), and sign-in over HTTP in-process for `app.inject` tests.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Queryable } from '../../src/infra/db/index.ts';
import type { Role } from '../../src/users/roles.ts';
import {
  cookiesOf,
  createUserWithPassword,
  injectSignIn,
  TEST_PASSWORD,
  type InjectSession,
} from './dashboard-sign-in.ts';

export {
  csrfOf,
  injectSignIn,
  postSignInForm,
  TEST_PASSWORD,
  type InjectSession,
} from './dashboard-sign-in.ts';

let counter = 0;

export interface TestUser {
  id: number;
  email: string;
  role: Role;
  password: string;
}

/** A user who has already replaced the one-time password with TEST_PASSWORD. */
export async function createTestUser(
  db: Queryable,
  organizationId: number,
  role: Role,
  email = `${role}.${++counter}.${process.pid}@example.org`,
): Promise<TestUser> {
  const { id } = await createUserWithPassword(db, { organizationId, email, role });
  return { id, email, role, password: TEST_PASSWORD };
}

/** A new user of `role` in the organization, signed in through the form (createTestUser, injectSignIn). */
export async function signInAs(
  t: { app: FastifyInstance; db: Queryable },
  organizationId: number,
  role: Role,
): Promise<InjectSession> {
  return injectSignIn(t.app, (await createTestUser(t.db, organizationId, role)).email);
}

/** The HTML of the page at `url` as the session sees it. */
export async function pageAs(app: FastifyInstance, session: InjectSession, url: string): Promise<string> {
  return (await app.inject({ url, headers: { cookie: session.cookie } })).body;
}

/** A form post as a signed-in browser sends it (URL-encoded, with the CSRF token). */
export function injectForm(
  app: FastifyInstance,
  session: InjectSession,
  url: string,
  fields: Record<string, string | string[]> = {},
) {
  const body = new URLSearchParams();
  body.append('_csrf', session.csrf);
  for (const [name, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  }
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: body.toString(),
  });
}

/**
 * The page a post led to (303), opened as the browser opens it: with the cookies the answer set (a
 * new key's page, `shown-once.ts`, needs the cookie holding its form's value).
 */
export function followRedirect(
  app: FastifyInstance,
  session: InjectSession,
  answer: { statusCode: number; body: string; headers: Record<string, unknown> },
) {
  expect(answer.statusCode, answer.body).toBe(303);
  const set = cookiesOf(answer.headers['set-cookie'] as string | string[] | undefined);
  const cookies = [session.cookie, ...[...set].filter(([, v]) => v !== '').map(([k, v]) => `${k}=${v}`)];
  return app.inject({ url: String(answer.headers.location), headers: { cookie: cookies.join('; ') } });
}

/**
 * The names the page's buttons give a screen reader, read from its markup: each button's text, less
 * what is hidden from assistive technology (`aria-hidden`, the label `actionButton` shows beside a
 * longer name), tags dropped but `<bdi>`, which keeps a user-written value isolated for direction,
 * white space collapsed. (Chromium's accessibility tree says the same, without the `<bdi>`:
 * right-to-left.browser.test.ts.)
 */
export function buttonNames(body: string): string[] {
  return [...body.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/g)].map((m) =>
    m[1]!
      .replace(/<span aria-hidden="true">[\s\S]*?<\/span\s*>/g, '')
      .replace(/<(?!\/?bdi>)[^>]*>/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}
