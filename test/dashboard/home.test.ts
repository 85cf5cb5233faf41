// The home page says what each page is for, under its link: a new editor met a list of names
// ("Folders", "Custom fields") and opened each to learn what it held.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { signInAs } from '../helpers/dashboard.ts';
import { NAV } from '../../src/dashboard/nav.ts';
import { can, ROLES } from '../../src/users/roles.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('the home page', () => {
  it("each role's pages are listed with what each is for, as the link's description", async () => {
    const org = await createTestOrg(t);
    for (const role of ROLES) {
      const session = await signInAs(t, org.id, role);
      const body = (await t.app.inject({ url: '/dashboard/', headers: { cookie: session.cookie } })).body;
      const main = body.slice(body.indexOf('<main'), body.indexOf('</main>'));
      const cards = [
        ...main.matchAll(
          /<a href="([^"]+)" aria-describedby="([^"]+)">([^<]+)<\/a>\s*<p id="([^"]+)">([^<]+)<\/p>/g,
        ),
      ];
      const expected = NAV.filter((e) => e.href !== '/dashboard/' && can(role, e.action));
      expect(
        cards.map((c) => c[1]),
        role,
      ).toEqual(expected.map((e) => e.href));
      for (const [i, card] of cards.entries()) {
        expect(card[2]).toBe(card[4]);
        expect(card[5]!.replace(/&#39;/g, "'")).toBe(expected[i]!.summary);
      }
    }
  });
});
