// Every control a role is shown, on every page it may read, is one it may use, and every action it may
// do on a page is shown there (docs/dashboard.md, "Roles"). Each role walks every dashboard page its
// permissions let it read (the registered routes, `dashboardRoutes`), over an organization holding one
// of each thing; each form the page shows that posts is posted as shown (its hidden fields) and must
// not be refused 403, each link and search it shows must open, and each action of the one permission
// table (`PERMISSIONS`) the role has, which a form posts on that page, must have a form there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp } from '../helpers/app.ts';
import { createTestUser, injectForm, injectSignIn, type InjectSession } from '../helpers/dashboard.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { can, ROLES, type Action } from '../../src/users/roles.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { linkJournal } from '../../src/journals/links.ts';
import { createUser } from '../../src/users/users.ts';
import { enqueueEvent, saveWebhook } from '../../src/webhooks/store.ts';
import type { DashboardRouteInfo } from '../../src/dashboard/framework.ts';

let t: TestApp;
/** A corpus author every upload below ranks (a candidate's row has its controls). */
let candidate = 0;

beforeAll(async () => {
  // Each role signs in again after every post it sends (a post may end its session): some 100 sign-ins
  // from one address in a minute on a quiet machine, past the password checks an address may ask
  // for (rate-limited on its own in password-checks.test.ts). On a loaded machine the minute ran out
  // between tests and hid it.
  t = await createTestApp({ rateLimits: { ...testConfig().rateLimits, passwordChecksPerAddress: 0 } });
  const corpus = await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert', affiliation: 'University of Tests' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
  candidate = corpus.authorId('Ada Expert');
});
afterAll(async () => {
  await t?.close();
});

/** Per path parameter of the routes, an id of a row of the organization. */
type Rows = Record<string, string>;

/**
 * An organization holding one of each thing a page shows a control for: a group and its record,
 * custom fields of the three owners, a ranked manuscript with candidates, a folder with a linked
 * journal, another user, an API key, a webhook with a delivery. One per role, as posting what a page
 * shows changes it (a question's confirmed delete).
 */
async function organizationWithOneOfEach(): Promise<{ id: number; rows: Rows }> {
  const org = await createTestOrg(t);
  const group = await createGroup(t.db, org.id, 'Reviewer pool');
  const editor = await injectSignIn(t.app, (await createTestUser(t.db, org.id, 'editor')).email);
  const added = await injectForm(t.app, editor, `/dashboard/groups/${group.group_id}/records/`, {
    client_id: 'rp-1',
    name: 'Gus Member',
  });
  expect(added.statusCode, added.body).toBe(303);
  const field = await createCustomField(t.db, org.id, {
    owner: 'author_from_group',
    dataKind: 'str',
    name: 'Stage',
  });
  for (const owner of ['folder', 'proposal'] as const)
    await createCustomField(t.db, org.id, { owner, dataKind: 'str', name: `Handling ${owner}` });
  const uploaded = await upload(t.app, {
    apiKey: org.apiKey,
    fields: rankingFields({
      origin_id: 'CTRL-1',
      folder: 'JCTRL',
      abstract: TOPIC,
      author1_name: 'Someone Else',
    }),
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const manuscript = (
    await t.db.query<{ id: number; folder_id: number }>(
      'SELECT id, folder_id FROM manuscripts WHERE organization_id = $1',
      [org.id],
    )
  ).rows[0]!;
  const source = (
    await t.db.query<{ id: number }>(
      `INSERT INTO sources (source_key, title, type) VALUES ($1, 'Journal of Controls', 'journal') RETURNING id`,
      [`test:controls-${org.id}`],
    )
  ).rows[0]!.id;
  await linkJournal(t.db, org.id, 'JCTRL', source);
  const other = await createUser(t.db, {
    organizationId: org.id,
    email: `other.${org.id}@example.org`,
    role: 'viewer',
  });
  const key = await t.db.query<{ id: number }>('SELECT id FROM api_keys WHERE organization_id = $1 LIMIT 1', [
    org.id,
  ]);
  await saveWebhook(
    t.db,
    org.id,
    { url: 'https://hooks.example.org/hook', secret: null, enabled: true },
    { allowPrivateAddresses: false },
  );
  await enqueueEvent(t.db, org.id, 'proposal_uploaded', { origin_id: 'CTRL-1', title: 'Controls' });
  const delivery = await t.db.query<{ id: number }>(
    'SELECT id::int AS id FROM webhook_outbox WHERE organization_id = $1 LIMIT 1',
    [org.id],
  );
  return {
    id: org.id,
    rows: {
      groupId: String(group.group_id),
      clientId: 'rp-1',
      fieldId: field.api_id,
      folderId: String(manuscript.folder_id),
      manuscriptId: String(manuscript.id),
      authorId: String(candidate),
      sourceId: String(source),
      userId: String(other.id),
      keyId: String(key.rows[0]!.id),
      deliveryId: String(delivery.rows[0]!.id),
    },
  };
}

function fill(url: string, rows: Rows): string {
  return url.replace(/:(\w+)/g, (_, name: string) => {
    const value = rows[name];
    if (value === undefined) throw new Error(`No row for the path parameter :${name}; add one above`);
    return encodeURIComponent(value);
  });
}

/** The route a concrete address is served by: of those whose pattern it fits, the one with fewest parameters. */
function routeServing(method: 'GET' | 'POST', address: string): DashboardRouteInfo | undefined {
  const path = address.split(/[?#]/)[0]!;
  return t.app.dashboardRoutes
    .filter((r) => r.method === method)
    .filter((r) => new RegExp(`^${r.url.replace(/:\w+/g, '[^/]+')}$`).test(path))
    .sort((a, b) => (a.url.match(/:/g)?.length ?? 0) - (b.url.match(/:/g)?.length ?? 0))[0];
}

/**
 * The page a post's form is on: the page route whose address is the longest beginning of the post's
 * (`/folders/:folderId/` for `/folders/:folderId/journals/:sourceId/unlink/`; a question's own page
 * for a confirmed delete).
 */
function pageOfPost(post: DashboardRouteInfo): string | undefined {
  return t.app.dashboardRoutes
    .filter((r) => r.method === 'GET' && post.url.startsWith(r.url))
    .sort((a, b) => b.url.length - a.url.length)[0]?.url;
}

function unescaped(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

interface ShownForm {
  method: string;
  action: string;
  hidden: Record<string, string>;
}

/** Every form of a page, with the hidden fields it posts (what a button press sends). */
function formsOf(body: string): ShownForm[] {
  return [...body.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((m) => {
    const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(m[1]!)?.[1];
    const hidden = Object.fromEntries(
      [...m[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((h) => [
        h[1]!,
        unescaped(h[2]!),
      ]),
    );
    return {
      method: (attr('method') ?? 'get').toLowerCase(),
      action: unescaped(attr('action') ?? ''),
      hidden,
    };
  });
}

/** The dashboard's own addresses the page links to. */
function linksOf(body: string): string[] {
  return [...body.matchAll(/<a\b[^>]*\bhref="(\/dashboard\/[^"]*)"/g)].map((m) => unescaped(m[1]!));
}

describe('every control a role is shown is one it may use, and each it may use is shown', () => {
  for (const role of ROLES) {
    it(`as ${role}`, async () => {
      const org = await organizationWithOneOfEach();
      const email = (await createTestUser(t.db, org.id, role)).email;
      let session: InjectSession = await injectSignIn(t.app, email);
      const pages = t.app.dashboardRoutes.filter(
        (r) => r.method === 'GET' && r.action !== 'public' && can(role, r.action),
      );
      const posts = new Map<string, ShownForm>();
      const opened = new Set<string>();
      for (const page of pages) {
        const address = fill(page.url, org.rows);
        const res = await t.app.inject({ url: address, headers: { cookie: session.cookie } });
        expect(res.statusCode, `${role} GET ${address}`).toBe(200);
        // An export is a file, with no control in it.
        if (!String(res.headers['content-type']).startsWith('text/html')) continue;
        const forms = formsOf(res.body);
        const shown = new Set<Action | 'public'>();
        for (const form of forms) {
          if (form.method !== 'post') {
            opened.add(form.action);
            continue;
          }
          const route = routeServing('POST', form.action);
          expect(
            route,
            `${role} ${address}: a form posts to ${form.action}, which no route serves`,
          ).toBeDefined();
          shown.add(route!.action);
          expect(
            route!.action !== 'public' && can(role, route!.action),
            `${role} is shown on ${address} a form posting to ${form.action} (${route!.action}), which the role may not do`,
          ).toBe(true);
          posts.set(`${form.action} ${JSON.stringify(form.hidden)}`, form);
        }
        for (const link of linksOf(res.body)) opened.add(link);
        // What the role may do on this page, by the posts whose forms belong to it.
        const mayDoHere = new Set(
          t.app.dashboardRoutes
            .filter((r) => r.method === 'POST' && r.action !== 'public' && can(role, r.action))
            .filter((r) => pageOfPost(r) === page.url)
            .map((r) => r.action),
        );
        for (const action of mayDoHere) {
          expect(
            shown.has(action),
            `${role} may ${action} on ${address}, but no form of the page does it`,
          ).toBe(true);
        }
      }
      // Each link and search shown opens, for this role.
      for (const link of opened) {
        const res = await t.app.inject({ url: link, headers: { cookie: session.cookie } });
        expect(res.statusCode, `${role}: the link ${link} answered ${res.statusCode}`).not.toBe(403);
      }
      // Each form shown, sent as shown, is not refused for the role (a form may refuse its empty
      // fields, 400, or a question may be answered 303; never 403).
      for (const form of posts.values()) {
        const { _csrf: _token, ...fields } = form.hidden;
        const res = await injectForm(t.app, session, form.action, fields);
        expect(res.statusCode, `${role} POST ${form.action}: ${res.body.slice(0, 300)}`).not.toBe(403);
        // A post may have ended this session (sign-out, a changed password): start a fresh one.
        session = await injectSignIn(t.app, email);
      }
      expect(posts.size).toBeGreaterThan(0);
    });
  }
});

describe("a post's message is shown once, on the page it leads to, never on a later page", () => {
  for (const role of ['integrations_admin', 'account_manager', 'editor'] as const) {
    it(`as ${role}, every post sent empty`, async () => {
      const org = await organizationWithOneOfEach();
      const email = (await createTestUser(t.db, org.id, role)).email;
      let session: InjectSession = await injectSignIn(t.app, email);
      const posts = t.app.dashboardRoutes.filter(
        (r) =>
          r.method === 'POST' &&
          r.action !== 'public' &&
          can(role, r.action) &&
          // These end the session or replace its password: nothing after them shows its message.
          !/\/(sign-out|password)\/$/.test(r.url),
      );
      for (const post of posts) {
        const address = fill(post.url, org.rows);
        const sent = await injectForm(t.app, session, address, {});
        if (sent.statusCode === 303) {
          await t.app.inject({ url: String(sent.headers.location), headers: { cookie: session.cookie } });
        }
        const later = await t.app.inject({ url: '/dashboard/folders/', headers: { cookie: session.cookie } });
        expect(
          later.body,
          `${role} POST ${address} (${sent.statusCode}): its message again on a later page`,
        ).not.toMatch(/class="flash /);
        session = await injectSignIn(t.app, email);
      }
      expect(posts.length).toBeGreaterThan(0);
    });
  }
});
