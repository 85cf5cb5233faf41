// The server checks every dashboard action: each role on each registered dashboard route (a forbidden
// action answers 403). That a user of one organization reaches nothing of another through any route
// is test/organizations/route-isolation.test.ts's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';
import { can, ROLE_LABELS, ROLES, type Action, type Role } from '../../src/users/roles.ts';
import { fillRoute, tenantRows, type Rows } from '../helpers/tenant-rows.ts';
import type { DashboardRouteInfo } from '../../src/dashboard/framework.ts';

let t: TestApp;
let orgA: number;
let rowsA: Rows;
const users = new Map<Role, { email: string }>();

beforeAll(async () => {
  t = await createTestApp();
  orgA = (await createTestOrg(t)).id;
  rowsA = await tenantRows(t.db, orgA);
  for (const role of ROLES) users.set(role, await createTestUser(t.db, orgA, role));
});
afterAll(async () => {
  await t?.close();
});

type SignedInRoute = DashboardRouteInfo & { action: Action };

function routes(): SignedInRoute[] {
  return t.app.dashboardRoutes.filter((r): r is SignedInRoute => r.action !== 'public');
}

async function call(session: InjectSession, route: DashboardRouteInfo, url: string) {
  return route.method === 'GET'
    ? t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } })
    : injectForm(t.app, session, url);
}

describe('the permission table is enforced on every dashboard route', () => {
  it('covers the pages of part A and the manuscripts and webhooks pages at least', () => {
    const urls = new Set(routes().map((r) => r.url));
    for (const url of [
      '/dashboard/settings/',
      '/dashboard/api-keys/',
      '/dashboard/users/',
      '/dashboard/custom-fields/',
      '/dashboard/manuscripts/',
      '/dashboard/manuscripts/:manuscriptId/',
      '/dashboard/manuscripts/:manuscriptId/candidates/:authorId/mark/',
      '/dashboard/manuscripts/:manuscriptId/candidates/:authorId/unmark/',
      '/dashboard/webhooks/',
      '/dashboard/webhooks/deliveries/:deliveryId/retry/',
    ]) {
      expect(urls.has(url)).toBe(true);
    }
  });

  for (const role of ROLES) {
    it(`${role}: each action outside its permissions answers 403, each within them does not`, async () => {
      const email = users.get(role)!.email;
      let session = await injectSignIn(t.app, email);
      for (const route of routes()) {
        const res = await call(session, route, fillRoute(route.url, rowsA));
        const allowed = can(role, route.action);
        expect(res.statusCode === 403, `${role} ${route.method} ${route.url} -> ${res.statusCode}`).toBe(
          !allowed,
        );
        // The refusal names the role, and for a form says nothing was saved.
        if (!allowed) {
          expect(res.body).toContain(
            route.method === 'POST'
              ? `Your role, ${ROLE_LABELS[role]}, does not allow this: nothing was saved.`
              : `Your role, ${ROLE_LABELS[role]}, does not allow this page.`,
          );
        }
        // An allowed post may have ended this session (sign-out): start a fresh one.
        if (allowed && route.method === 'POST') session = await injectSignIn(t.app, email);
      }
    });
  }
});
