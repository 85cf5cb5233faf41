// A dashboard user signed in through the real sign-in form, for in-process benches of the dashboard
// (the checkout's own users store: BENCH_ROOT's when a before is measured). The sign-in itself is the
// tests' (test/helpers/dashboard-sign-in.ts).
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../src/infra/db/index.ts';
import {
  createUserWithPassword,
  injectSignIn,
  type InjectSession,
} from '../../test/helpers/dashboard-sign-in.ts';
import { fromCheckout } from './checkout.ts';

const users = await fromCheckout<typeof import('../../src/users/users.ts')>('src/users/users.ts');

/** A new user of `role` in the organization, signed in: its session cookie and CSRF token. */
export async function signedInUser(
  app: FastifyInstance,
  db: Queryable,
  organizationId: number,
  role: 'integrations_admin' | 'editor',
): Promise<InjectSession> {
  const email = `${role}.${organizationId}@example.org`;
  await createUserWithPassword(db, { organizationId, email, role }, users);
  return injectSignIn(app, email);
}
