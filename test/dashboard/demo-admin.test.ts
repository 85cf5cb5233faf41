// `npm start` prints how to sign in to the dashboard as the demo organization's integrations admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { postSignInForm } from '../helpers/dashboard.ts';
import { DEMO_ADMIN_EMAIL, ensureDemoAdmin } from '../../src/system/demo.ts';
import { resetPassword } from '../../src/users/users.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function signInStatus(email: string, password: string): Promise<string | undefined> {
  const res = await postSignInForm(t.app, { email, password });
  return res.headers.location as string | undefined;
}

describe('the demo integrations admin', () => {
  it('is created once with a printed one-time password that signs in; later starts print how to reset it', async () => {
    const org = await createTestOrg(t);
    const lines: string[] = [];
    await ensureDemoAdmin(t.db, org.id, 'http://127.0.0.1:8000', (l) => lines.push(l));
    expect(lines.join('\n')).toContain('http://127.0.0.1:8000/dashboard/');
    expect(lines.join('\n')).toContain(`Email: ${DEMO_ADMIN_EMAIL}`);
    const password = /One-time password .*: (\S+)$/m.exec(lines.join('\n'))![1]!;
    // It signs in (the dashboard then asks for a password of their own: sign-in.browser.test.ts).
    expect(await signInStatus(DEMO_ADMIN_EMAIL, password)).toBe('/dashboard/');

    const again: string[] = [];
    await ensureDemoAdmin(t.db, org.id, 'http://127.0.0.1:8000', (l) => again.push(l));
    expect(again.join('\n')).not.toContain(password);
    const userId = Number(/user password --user (\d+)/.exec(again.join('\n'))![1]);
    const reset = await resetPassword(t.db, userId);
    expect(await signInStatus(DEMO_ADMIN_EMAIL, password)).toBeUndefined();
    expect(await signInStatus(DEMO_ADMIN_EMAIL, reset.password)).toBe('/dashboard/');
  });
});
