// A refused sign-in over HTTP in-process: the inputs the message concerns are marked invalid and
// described by it, so a screen reader says why when it reaches them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { createTestUser, postSignInForm, TEST_PASSWORD } from '../helpers/dashboard.ts';

let t: TestApp;
let email: string;
beforeAll(async () => {
  t = await createTestApp();
  const org = await createTestOrg(t);
  email = (await createTestUser(t.db, org.id, 'editor')).email;
});
afterAll(async () => t?.close());

/** The attributes of the input with this id, as one string. */
function inputTag(body: string, id: string): string {
  return new RegExp(`<input\\s[^>]*id="${id}"[^>]*>`).exec(body)?.[0] ?? '';
}

describe('a refused sign-in', () => {
  it('marks the email and the password when they do not open an account, described by the message', async () => {
    const res = await postSignInForm(t.app, { email, password: 'not the password' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toMatch(
      /<p id="sign-in-error" class="flash error" role="alert">\s*The email or the password is not right\./,
    );
    for (const id of ['email', 'password']) {
      // Unmarked, a screen reader reaching the field read it as if nothing were wrong.
      expect(inputTag(res.body, id)).toContain('aria-invalid="true"');
      expect(inputTag(res.body, id)).toContain('aria-describedby="sign-in-error"');
    }
  });

  it('marks only the email when it is longer than any address', async () => {
    const res = await postSignInForm(t.app, {
      email: `${'a'.repeat(330)}@example.org`,
      password: TEST_PASSWORD,
    });
    expect(res.statusCode).toBe(401);
    expect(inputTag(res.body, 'email')).toContain('aria-invalid="true"');
    expect(inputTag(res.body, 'password')).not.toContain('aria-invalid');
  });

  it('marks nothing on the sign-in form as first shown', async () => {
    const res = await t.app.inject({ url: '/dashboard/sign-in/' });
    expect(res.body).not.toContain('aria-invalid');
  });
});
