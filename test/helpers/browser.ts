// Browser tests: the real app listening on 127.0.0.1 (port 0), Debian's Chromium driven headless by
// playwright-core, and axe-core injected into each page to check accessibility.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from './app.ts';
import type { Config } from '../../src/infra/config.ts';
import type { Role } from '../../src/users/roles.ts';
import { createTestUser, TEST_PASSWORD } from './dashboard.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const CHROMIUM = '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface ListeningApp extends TestApp {
  url: string;
}

/** The real app on a real test database, listening on a port the OS chose. */
export async function startListeningApp(overrides: Partial<Config> = {}): Promise<ListeningApp> {
  const t = await createTestApp(overrides);
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...t, url: address };
}

/** The listening app and the browser a test file drives it with (`useBrowserApp`). */
export interface BrowserApp extends ListeningApp {
  browser: Browser;
}

/**
 * The set-up every browser test file shares: Chromium launched and the app listening (`overrides` for
 * its config), both before the file's first test, both closed after its last. The object returned is
 * filled in by that `beforeAll`: call this at the top of the file, before any `beforeAll` of its own
 * that uses it (hooks run in the order they are declared).
 */
export function useBrowserApp(overrides: Partial<Config> = {}): BrowserApp {
  const t = {} as BrowserApp;
  beforeAll(async () => {
    const [browser, app] = await Promise.all([launchBrowser(), startListeningApp(overrides)]);
    Object.assign(t, app, { browser });
  });
  afterAll(async () => {
    await t.browser?.close();
    await t.close?.();
  });
  return t;
}

/**
 * A page signed in as a new user of `role` in the organization, in a browser context of its own
 * (`width` px wide, the browser's default otherwise), waiting at most 15 s for each step.
 */
export async function signedInPage(
  t: BrowserApp,
  organizationId: number,
  role: Role,
  options: { width?: number; email?: string } = {},
): Promise<Page> {
  const user = await createTestUser(t.db, organizationId, role, options.email);
  const context = await t.browser.newContext(
    options.width ? { viewport: { width: options.width, height: 800 } } : {},
  );
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await signIn(page, t.url, user.email, TEST_PASSWORD);
  return page;
}

/** Signs in through the form, as a person would: by the labels and the button's name. */
export async function signIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/sign-in/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForLoadState();
}

/** One rule axe-core found broken on a page: its id, how serious, and the elements (CSS selectors). */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: unknown[][];
}

/**
 * Every violation axe-core finds on the page, whatever its impact. The script is evaluated through
 * the DevTools protocol, which the page's Content-Security-Policy does not govern, so the policy stays
 * as strict as production's.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // A string is evaluated as a script by the protocol itself (an eval inside the page would be refused).
  if (!(await page.evaluate('typeof window.axe === "object"'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface Found {
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: unknown[] }>;
    }
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Found[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target),
    }));
  });
}

/** Whether a violation is one the tests fail on: serious or critical. */
export function isSerious(violation: AxeViolation): boolean {
  return violation.impact === 'serious' || violation.impact === 'critical';
}

/** Runs axe-core on the page and fails on any serious or critical violation. */
export async function expectAccessible(page: Page): Promise<void> {
  const serious = (await axeViolations(page)).filter(isSerious);
  expect(serious, `${page.url()}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/**
 * With DASHBOARD_SCREENSHOTS=<dir> set, saves a PNG of the page, or of a part of it, there (how
 * docs/dashboard/ is made: `DASHBOARD_SCREENSHOTS=docs/dashboard npx vitest run test/dashboard/*.browser.test.ts`).
 */
export async function screenshot(page: Page, name: string, part?: Locator): Promise<void> {
  const dir = process.env.DASHBOARD_SCREENSHOTS;
  if (!dir) return;
  // A part of the page (one table row), or the whole page.
  if (part) await part.screenshot({ path: `${dir}/${name}.png` });
  else await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
