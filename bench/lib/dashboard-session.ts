// A dashboard user signed in through the real sign-in form, for in-process benches of the dashboard
// (the checkout's own users store: BENCH_ROOT's when a before is measured).
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../src/infra/db/index.ts';
import { fromCheckout } from './checkout.ts';

const PASSWORD = 'correct horse battery staple';

const { createUser, changePassword } =
  await fromCheckout<typeof import('../../src/users/users.ts')>('src/users/users.ts');

/** The `name=value` of the cookie `name` among those an answer set, or ''. */
export function cookieOf(setCookie: string | string[] | undefined, name: string): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`)) ?? '';
}

/** A new user of `role` in the organization, signed in: its session cookie and CSRF token. */
export async function signedInUser(
  app: FastifyInstance,
  db: Queryable,
  organizationId: number,
  role: 'integrations_admin' | 'editor',
): Promise<{ cookie: string; csrf: string }> {
  const email = `${role}.${organizationId}@example.org`;
  const created = await createUser(db, { organizationId, email, role });
  await changePassword(db, {
    userId: created.id,
    current: created.password,
    next: PASSWORD,
    keepSession: Buffer.alloc(0),
  });
  const login = await app.inject({ url: '/dashboard/sign-in/' });
  const loginCookie = cookieOf(login.headers['set-cookie'], 'rm_login_csrf');
  const answer = await app.inject({
    method: 'POST',
    url: '/dashboard/sign-in/',
    headers: { cookie: loginCookie },
    payload: { _csrf: loginCookie.split('=')[1]!, email, password: PASSWORD },
  });
  const cookie = cookieOf(answer.headers['set-cookie'], 'rm_session');
  const page = await app.inject({ url: '/dashboard/password/', headers: { cookie } });
  return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(page.body)![1]! };
}
