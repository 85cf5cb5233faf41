// A dashboard user with a password of the caller's choosing, signed in through the real sign-in form
// over HTTP in-process: one definition for the tests (test/helpers/dashboard.ts) and the in-process
// benches (bench/lib/dashboard-session.ts, which pass the users store of the checkout they measure).
// No test runner needed: a failed sign-in throws.
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../src/infra/db/index.ts';
import type { Role } from '../../src/users/roles.ts';
import * as thisCheckoutUsers from '../../src/users/users.ts';

export const TEST_PASSWORD = 'correct horse battery staple';

/** The users store a user is made with: this checkout's, or a bench's other checkout's. */
export type UsersStore = Pick<typeof thisCheckoutUsers, 'createUser' | 'changePassword'>;

export interface InjectSession {
  cookie: string;
  csrf: string;
}

/** A new user who has already replaced the one-time password with `password`. */
export async function createUserWithPassword(
  db: Queryable,
  user: { organizationId: number; email: string; role: Role; password?: string },
  users: UsersStore = thisCheckoutUsers,
): Promise<{ id: number }> {
  const created = await users.createUser(db, user);
  await users.changePassword(db, {
    userId: created.id,
    current: created.password,
    next: user.password ?? TEST_PASSWORD,
    keepSession: Buffer.alloc(0),
  });
  return { id: created.id };
}

/** The cookies an answer set, by name. */
export function cookiesOf(setCookie: string | string[] | undefined): Map<string, string> {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  const out = new Map<string, string>();
  for (const c of list) {
    const [pair] = c.split(';');
    const eq = pair!.indexOf('=');
    out.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return out;
}

/** The hidden `_csrf` value of the first form on an HTML page. */
export function csrfOf(page: string): string {
  const token = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
  if (!token) throw new Error('no CSRF field on the page');
  return token;
}

/**
 * Posts the sign-in form as a browser does: the form's page first (for its login token cookie), then
 * the fields with that token. `headers` go with both requests (an address, say). The answer as it is.
 */
export async function postSignInForm(
  app: FastifyInstance,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const form = await app.inject({ method: 'GET', url: '/dashboard/sign-in/', headers });
  const loginCsrf = cookiesOf(form.headers['set-cookie']).get('rm_login_csrf')!;
  return app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/',
    headers: { ...headers, cookie: `rm_login_csrf=${loginCsrf}` },
    payload: { _csrf: loginCsrf, ...fields },
  });
}

/** Signs in through the real sign-in form; the session cookie and the session's CSRF token. */
export async function injectSignIn(
  app: FastifyInstance,
  email: string,
  password: string = TEST_PASSWORD,
): Promise<InjectSession> {
  const signedIn = await postSignInForm(app, { email, password });
  if (signedIn.statusCode !== 303) {
    throw new Error(`the sign-in form answered ${signedIn.statusCode}, not 303: ${signedIn.body}`);
  }
  const cookie = `rm_session=${cookiesOf(signedIn.headers['set-cookie']).get('rm_session')!}`;
  const home = await app.inject({ method: 'GET', url: '/dashboard/password/', headers: { cookie } });
  return { cookie, csrf: csrfOf(home.body) };
}
