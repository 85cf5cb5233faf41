// Addresses refused before any route runs (a malformed percent-encoding, an over-long path segment):
// under /dashboard/ a page a browser can show, with the dashboard's security headers; elsewhere the
// API's one JSON error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectSignIn } from '../helpers/dashboard.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('dashboard addresses refused before a route', () => {
  it('a malformed percent-encoding under /dashboard/ answers an HTML page, 400', async () => {
    for (const url of ['/dashboard/groups/%E0%A4%A/', '/dashboard/manuscripts/%ZZ/']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toBeTruthy();
      expect(res.body).toContain('The URL is not validly percent-encoded');
      expect(res.body).toContain('href="/dashboard/"');
    }
  });

  it('a path segment over the limit under /dashboard/ answers an HTML page, 414', async () => {
    const res = await t.app.inject({ url: `/dashboard/groups/${'9'.repeat(2000)}/` });
    expect(res.statusCode).toBe(414);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
  });

  it('the API, and a path that only starts like the dashboard, keep the JSON error', async () => {
    for (const url of ['/api/external/authors_groups/%E0%A4%A/', '/dashboardx/%ZZ']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: { code: 'bad_url', message: expect.any(String) } });
    }
  });
});

describe("a page's address edited by hand", () => {
  /** The page's main region as read: its text, its links. */
  async function read(cookie: string, url: string) {
    const res = await t.app.inject({ url, headers: { cookie } });
    const main = /<main[^>]*>([\s\S]*?)<\/main>/.exec(res.body)![1]!;
    const text = main
      .replace(/<\/?bdi>/g, '')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
      .trim();
    const links = [...main.matchAll(/<a href="([^"]*)"[^>]*>([^<]*)</g)].map(
      (m) => `${m[2]!.replace(/\s+/g, ' ').trim()} -> ${m[1]!.replace(/&amp;/g, '&')}`,
    );
    return { status: res.statusCode, text, links };
  }

  it('says which part of the address, as written, and what goes there, with a way to the page without it', async () => {
    const org = await createTestOrg(t);
    const user = await createTestUser(t.db, org.id, 'editor');
    const { cookie } = await injectSignIn(t.app, user.email);
    // A number in the path: said by what it numbers, the value as written, no schema names.
    const path = await read(cookie, '/dashboard/manuscripts/abc/');
    expect(path.status).toBe(400);
    expect(path.text).toContain("This address is not one the dashboard's links make");
    expect(path.text).toContain(
      'The manuscript number in the address, “abc”, must be a whole number, in digits.',
    );
    expect(path.text).not.toMatch(/manuscriptId|request is not valid/);
    expect(path.links).toContain('Go to Manuscripts -> /dashboard/manuscripts/');
    // Options: each as written, in words ("1 or more", not ">= 1"); the way back keeps the others.
    const options = await read(cookie, '/dashboard/manuscripts/?before=0&q=graphs');
    expect(options.text).toContain('The option before in the address, “0”, must be 1 or more.');
    expect(options.text).not.toContain('>=');
    expect(options.links).toContain('Open the page without before -> /dashboard/manuscripts/?q=graphs');
    const sorted = await read(cookie, '/dashboard/manuscripts/1/?sort=fame&order=up');
    expect(sorted.text).toContain(
      'The option sort in the address, “fame”, must be one of: score, hIndex, citationsCount, articlesCount, name.',
    );
    expect(sorted.text).toContain('The option order in the address, “up”, must be one of: asc, desc.');
    expect(sorted.links).toContain('Open the page without sort, order -> /dashboard/manuscripts/1/');
    // A long value by its length, not pasted back whole.
    const long = await read(cookie, `/dashboard/folders/?q=${'x'.repeat(3000)}`);
    expect(long.text).toContain('(3,000 characters)”, must be at most 1,000 characters long.');
    expect(long.text).not.toContain('x'.repeat(100));
  });
});
