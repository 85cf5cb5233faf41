// Addresses refused before any route runs (a malformed percent-encoding, an over-long path segment):
// under /dashboard/ a page a browser can show, with the dashboard's security headers; elsewhere the
// API's one JSON error shape.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

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
