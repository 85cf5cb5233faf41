// The probe an attacker inside organization B runs against organization A, route by route, made
// permanent. Every route the app registers is classified here (a route added later fails the first
// test until it is); every route that takes an id is asked with A's real ids by B's API key or by B's
// signed-in user of each role, and must answer exactly as for an id that names nothing (status, code,
// message, and the same SQL statements sent: no count oracle), with A's rows unchanged. What B's
// answers draw on (candidates, emails, conflicts, marks, flags, journals, pages, exports, parsed
// files) is compared with those of an organization that uploaded the same before A did anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestOrg, testConfig, type TestOrg } from '../helpers/app.ts';
import { createTestDatabase, notingStatements, type TestDatabase } from '../helpers/db.ts';
import {
  createTestUser,
  injectForm,
  injectSignIn,
  signInAs,
  type InjectSession,
} from '../helpers/dashboard.ts';
import {
  fillRoute,
  MISSING_ROWS,
  TENANT_ROW_NAME,
  tenantRows,
  tenantSnapshot,
  type Rows,
} from '../helpers/tenant-rows.ts';
import { baseFields, fixture, rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';
import { buildApp } from '../../src/app.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';
import { checkFolderSettings, ensureFolder, saveFolderSettings } from '../../src/folders/folders.ts';
import { linkJournal } from '../../src/journals/links.ts';
import { changeMark } from '../../src/manuscripts/marks.ts';
import { updateSettings } from '../../src/organizations/organizations.ts';
import { flagAuthorConflict } from '../../src/referee-finder/external-coi.ts';
import { claimDueEvents, saveWebhook } from '../../src/webhooks/store.ts';
import { can, ROLES, type Role } from '../../src/users/roles.ts';
import type { DashboardRouteInfo } from '../../src/dashboard/framework.ts';

/**
 * Who may call a route, and which ids in its path name an organization's rows:
 * - `api`: an organization's API key; the answer is that organization's alone.
 * - `dashboard`: an organization's signed-in user; the answer is that organization's alone.
 * - `public`: anyone; the answer holds nothing of any organization (corpus pages, docs, health, sign-in).
 * - `system`: the operator (by address, METRICS_ALLOW); figures that name no organization.
 * `ids`: the path's parameters that name an organization's rows (each probed with another's);
 * `corpus`: the path's parameters that name the shared corpus (a journal, an author), anyone's to name.
 */
type Access =
  | { kind: 'api' | 'dashboard'; ids: readonly string[]; corpus?: readonly string[] }
  | { kind: 'public' | 'system' };

const api = (...ids: string[]): Access => ({ kind: 'api', ids });
const dashboard = (...ids: string[]): Access => ({ kind: 'dashboard', ids });
const PUBLIC: Access = { kind: 'public' };

/** Every route of the app, by `METHOD path` (HEAD follows GET). */
const ROUTES: Record<string, Access> = {
  'GET /docs': PUBLIC,
  'GET /docs/static/index.html': PUBLIC,
  'GET /docs/static/swagger-initializer.js': PUBLIC,
  'GET /docs/json': PUBLIC,
  'GET /docs/yaml': PUBLIC,
  'GET /docs/static/*': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /healthz': PUBLIC,
  'GET /favicon.ico': PUBLIC,
  'GET /readyz': PUBLIC,
  'GET /metrics': { kind: 'system' },
  'GET /authors/:id': PUBLIC,
  'GET /works/:id': PUBLIC,
  'GET /dashboard/assets/dashboard.css': PUBLIC,
  'GET /dashboard/sign-in/': PUBLIC,
  'POST /dashboard/sign-in/': PUBLIC,

  'GET /api/external/custom-fields/all/': api(),
  'GET /api/external/recommend-journals/:origin_id/': api('origin_id'),
  'GET /api/external/author-from-group/:group_id/:client_id/': api('group_id', 'client_id'),
  'POST /api/external/author-from-group/:group_id/:client_id/': api('group_id', 'client_id'),
  'DELETE /api/external/author-from-group/:group_id/:client_id/': api('group_id', 'client_id'),
  'POST /api/external/author-from-group/:group_id/:client_id/partial/': api('group_id', 'client_id'),
  // origin_id and folder name in the form: B's own manuscript and folder (the indirect probe below).
  'POST /api/external/proposal/': api(),

  'POST /dashboard/sign-out/': dashboard(),
  'GET /dashboard/password/': dashboard(),
  'POST /dashboard/password/': dashboard(),
  'GET /dashboard': dashboard(),
  'GET /dashboard/settings/': dashboard(),
  'POST /dashboard/settings/': dashboard(),
  'GET /dashboard/api-keys/': dashboard(),
  'POST /dashboard/api-keys/': dashboard(),
  'GET /dashboard/api-keys/new/': dashboard(),
  'GET /dashboard/api-keys/:keyId/revoke/': dashboard('keyId'),
  'POST /dashboard/api-keys/:keyId/revoke/': dashboard('keyId'),
  'GET /dashboard/users/': dashboard(),
  'POST /dashboard/users/': dashboard(),
  'GET /dashboard/users/new/': dashboard(),
  'POST /dashboard/users/:userId/role/': dashboard('userId'),
  'POST /dashboard/users/:userId/enable/': dashboard('userId'),
  'POST /dashboard/users/:userId/disable/': dashboard('userId'),
  'GET /dashboard/custom-fields/': dashboard(),
  'POST /dashboard/custom-fields/': dashboard(),
  'GET /dashboard/custom-fields/:fieldId/': dashboard('fieldId'),
  'POST /dashboard/custom-fields/:fieldId/': dashboard('fieldId'),
  'GET /dashboard/custom-fields/:fieldId/delete/': dashboard('fieldId'),
  'POST /dashboard/custom-fields/:fieldId/delete/': dashboard('fieldId'),
  'GET /dashboard/groups/': dashboard(),
  'POST /dashboard/groups/': dashboard(),
  'GET /dashboard/groups/:groupId/': dashboard('groupId'),
  'POST /dashboard/groups/:groupId/name/': dashboard('groupId'),
  'GET /dashboard/groups/:groupId/delete/': dashboard('groupId'),
  'POST /dashboard/groups/:groupId/delete/': dashboard('groupId'),
  'GET /dashboard/groups/:groupId/new-record/': dashboard('groupId'),
  'POST /dashboard/groups/:groupId/records/': dashboard('groupId'),
  'GET /dashboard/groups/:groupId/records/:clientId/': dashboard('groupId', 'clientId'),
  'POST /dashboard/groups/:groupId/records/:clientId/': dashboard('groupId', 'clientId'),
  'GET /dashboard/groups/:groupId/records/:clientId/delete/': dashboard('groupId', 'clientId'),
  'POST /dashboard/groups/:groupId/records/:clientId/delete/': dashboard('groupId', 'clientId'),
  'GET /dashboard/groups/:groupId/import/': dashboard('groupId'),
  'POST /dashboard/groups/:groupId/import/': dashboard('groupId'),
  'GET /dashboard/groups/:groupId/export/': dashboard('groupId'),
  'GET /dashboard/folders/': dashboard(),
  'GET /dashboard/folders/:folderId/': dashboard('folderId'),
  'POST /dashboard/folders/:folderId/settings/': dashboard('folderId'),
  'POST /dashboard/folders/:folderId/custom-values/': dashboard('folderId'),
  'POST /dashboard/folders/:folderId/journals/': dashboard('folderId'),
  'POST /dashboard/folders/:folderId/journals/:sourceId/unlink/': {
    kind: 'dashboard',
    ids: ['folderId'],
    corpus: ['sourceId'],
  },
  'GET /dashboard/manuscripts/upload/': dashboard(),
  'POST /dashboard/manuscripts/upload/': dashboard(),
  'GET /dashboard/manuscripts/': dashboard(),
  'GET /dashboard/manuscripts/:manuscriptId/': dashboard('manuscriptId'),
  'GET /dashboard/manuscripts/:manuscriptId/export/': dashboard('manuscriptId'),
  'POST /dashboard/manuscripts/:manuscriptId/custom-values/': dashboard('manuscriptId'),
  'POST /dashboard/manuscripts/:manuscriptId/candidates/:authorId/mark/': {
    kind: 'dashboard',
    ids: ['manuscriptId'],
    corpus: ['authorId'],
  },
  'POST /dashboard/manuscripts/:manuscriptId/candidates/:authorId/unmark/': {
    kind: 'dashboard',
    ids: ['manuscriptId'],
    corpus: ['authorId'],
  },
  'POST /dashboard/manuscripts/:manuscriptId/candidates/:authorId/conflict/': {
    kind: 'dashboard',
    ids: ['manuscriptId'],
    corpus: ['authorId'],
  },
  'POST /dashboard/manuscripts/:manuscriptId/candidates/:authorId/no-conflict/': {
    kind: 'dashboard',
    ids: ['manuscriptId'],
    corpus: ['authorId'],
  },
  'GET /dashboard/webhooks/': dashboard(),
  'POST /dashboard/webhooks/': dashboard(),
  'GET /dashboard/webhooks/secret/': dashboard(),
  'POST /dashboard/webhooks/secret/': dashboard(),
  'POST /dashboard/webhooks/deliveries/:deliveryId/retry/': dashboard('deliveryId'),
};

/**
 * What each form post with an id sends: a form its own organization's row would accept (so that the
 * probe reaches the row, not a refusal of the form), with A's ids wherever the form names a row.
 */
const forms = (rows: Rows): Record<string, Record<string, string>> => ({
  'POST /dashboard/api-keys/:keyId/revoke/': { confirm: 'yes' },
  'POST /dashboard/users/:userId/role/': { role: 'integrations_admin' },
  'POST /dashboard/custom-fields/:fieldId/': { name: 'Taken over' },
  'POST /dashboard/custom-fields/:fieldId/delete/': { confirm: 'yes' },
  'POST /dashboard/groups/:groupId/name/': { name: 'Taken over' },
  'POST /dashboard/groups/:groupId/delete/': { confirm: 'yes' },
  'POST /dashboard/groups/:groupId/records/': { client_id: 'intruder', name: 'Intruder' },
  'POST /dashboard/groups/:groupId/records/:clientId/': { name: 'Taken over' },
  'POST /dashboard/groups/:groupId/records/:clientId/delete/': { confirm: 'yes' },
  'POST /dashboard/groups/:groupId/import/': { csv: 'client_id,name\nintruder,Intruder\n' },
  'POST /dashboard/folders/:folderId/settings/': { effect: 'highlight', groups: rows.groupId! },
  'POST /dashboard/folders/:folderId/custom-values/': { [`cf_${rows.fieldId}`]: 'Taken over' },
  'POST /dashboard/folders/:folderId/journals/': { source_id: rows.sourceId! },
  'POST /dashboard/manuscripts/:manuscriptId/custom-values/': {},
});

/** The API's path parameters by the names tenantRows gives their rows. */
const API_ROW_NAMES: Record<string, string> = {
  group_id: 'groupId',
  client_id: 'clientId',
  origin_id: 'originId',
};

let t: { db: TestDatabase };
/** The app over a database that notes every statement: a foreign id must send what a missing one does. */
let noted: ReturnType<typeof notingStatements>;
let app: FastifyInstance;
let orgA: TestOrg;
let orgB: TestOrg;
let rowsA: Rows;
let rowsB: Rows;

beforeAll(async () => {
  t = { db: await createTestDatabase() };
  noted = notingStatements(t.db);
  // Nothing in the background (the webhook worker's claims, the index's polls) between the statements.
  const config = testConfig({ indexPollMs: 600_000 });
  app = await buildApp({
    config: { ...config, webhooks: { ...config.webhooks, worker: false } },
    db: noted.db,
  });
  await app.ready();
  orgA = await createTestOrg(t);
  orgB = await createTestOrg(t);
  rowsA = await tenantRows(t.db, orgA.id);
  // B has rows of every kind too: its pages then have something to list, and must list only those.
  rowsB = await tenantRows(t.db, orgB.id);
});
afterAll(async () => {
  await app?.close();
  await t?.db.destroy();
});

function routeKeys(): string[] {
  return app.routeTable.flatMap((r) => r.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${r.url}`));
}

const paramsOf = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

/**
 * An answer as it may differ between a foreign id and a missing one: not at all, the ids aside (every
 * number and UUID, and the string ids given, stand for themselves).
 */
function shapeOf(res: { statusCode: number; body: string }, ids: readonly string[]) {
  let body = res.body.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>');
  // Longer first: a missing origin_id holds a missing client_id ("ms-nobody", "nobody").
  for (const id of ids.filter((v) => /[^0-9]/.test(v)).sort((x, y) => y.length - x.length)) {
    body = body.split(encodeURIComponent(id)).join('<id>').split(id).join('<id>');
  }
  // Tokens made for each form shown (a form's `once`, the session's CSRF token) are no answer's content.
  body = body.replace(/[A-Za-z0-9_-]{20,}/g, '<token>');
  return { status: res.statusCode, body: body.replace(/[0-9]+/g, '<n>') };
}

/** The statements a request sent, by their text (parameters aside: they hold the ids). */
async function statementsOf<T>(send: () => Promise<T>): Promise<{ res: T; sql: string[] }> {
  const from = noted.statements.length;
  const res = await send();
  return { res, sql: noted.statements.slice(from) };
}

describe('every route is classified', () => {
  it('names each registered route, and each classified route exists with the parameters it says', () => {
    const registered = routeKeys();
    const unclassified = registered.filter((key) => !(key in ROUTES));
    expect(unclassified, 'routes without a decision: classify them in ROUTES').toEqual([]);
    expect(Object.keys(ROUTES).filter((key) => !registered.includes(key))).toEqual([]);
    for (const [key, access] of Object.entries(ROUTES)) {
      const path = key.slice(key.indexOf(' ') + 1);
      if (access.kind === 'api') expect(path, key).toMatch(/^\/api\/external\//);
      if (access.kind === 'api' || access.kind === 'dashboard') {
        expect([...access.ids, ...(access.corpus ?? [])].sort(), key).toEqual(paramsOf(path).sort());
      }
    }
    // The dashboard's own table agrees: a signed-in route is `dashboard`, a public one `public`.
    for (const route of app.dashboardRoutes) {
      const key = `${route.method} ${route.url.replace(/\/$/, '') === '/dashboard' ? '/dashboard' : route.url}`;
      expect(ROUTES[key]?.kind, key).toBe(route.action === 'public' ? 'public' : 'dashboard');
    }
  });

  it('answers the same to anyone on a public page without parameters, signed in to an organization or not', async () => {
    const session = await injectSignIn(
      app,
      (await createTestUser(t.db, orgA.id, 'integrations_admin')).email,
    );
    let probed = 0;
    for (const [key, access] of Object.entries(ROUTES)) {
      const [method, path] = key.split(' ') as [string, string];
      if (access.kind !== 'public' || method !== 'GET' || path.includes(':') || path.includes('*')) continue;
      if (path === '/dashboard/sign-in/') continue; // a form of its own each time (its token)
      const anonymous = await app.inject({ method: 'GET', url: path });
      const insider = await app.inject({
        method: 'GET',
        url: path,
        headers: { ...orgA.headers, cookie: session.cookie },
      });
      expect(insider.statusCode, key).toBe(anonymous.statusCode);
      expect(insider.body, key).toBe(anonymous.body);
      probed++;
    }
    expect(probed).toBeGreaterThan(8);
  });
});

describe("B's API key on A's ids", () => {
  /** Each API route with ids, asked as B with A's ids (`rows`), and its body if it takes one. */
  const apiCalls = (rows: Rows) =>
    Object.entries(ROUTES).flatMap(([key, access]) => {
      if (access.kind !== 'api' || access.ids.length === 0) return [];
      const [method, path] = key.split(' ') as ['GET' | 'POST' | 'DELETE', string];
      const url = path.replace(/:(\w+)/g, (_, name: string) =>
        encodeURIComponent(rows[API_ROW_NAMES[name] ?? name] ?? `<no row for ${name}>`),
      );
      const payload = method === 'POST' ? { name: 'Intruder', emails: ['intruder@example.org'] } : undefined;
      return [{ key, method, url, ...(payload ? { payload } : {}) }];
    });

  it('answers every route exactly as for ids that name nothing, sends the same statements, and changes nothing of A', async () => {
    const before = await tenantSnapshot(t.db, orgA.id);
    const foreign = apiCalls(rowsA);
    const missing = apiCalls(MISSING_ROWS);
    expect(foreign.map((c) => c.key)).toEqual(
      Object.entries(ROUTES)
        .filter(([, access]) => access.kind === 'api' && access.ids.length > 0)
        .map(([key]) => key),
    );
    const ids = [...Object.values(rowsA), ...Object.values(MISSING_ROWS)];
    // B's key verified once before (the verifier keeps it a while): every pair then starts alike.
    await app.inject({ url: '/api/external/custom-fields/all/', headers: orgB.headers });
    for (const [i, call] of foreign.entries()) {
      const a = await statementsOf(() => app.inject({ ...call, headers: orgB.headers }));
      const m = await statementsOf(() => app.inject({ ...missing[i]!, headers: orgB.headers }));
      expect(a.res.statusCode, `${call.key}: ${a.res.body}`).toBe(404);
      expect(shapeOf(a.res, ids), call.key).toEqual(shapeOf(m.res, ids));
      expect(a.sql, call.key).toEqual(m.sql);
      expect(a.res.body, call.key).not.toContain(TENANT_ROW_NAME);
    }
    expect(await tenantSnapshot(t.db, orgA.id)).toBe(before);
  });
});

describe("B's signed-in users, of each role, on A's ids", () => {
  /**
   * A request as a browser makes it: a post's answer followed where it leads (303), the page shown
   * with what the post left for it (a refusal's message). Both answers are compared, and the next
   * request starts with nothing left over.
   */
  async function call(
    session: InjectSession,
    method: string,
    url: string,
    form: Record<string, string> = {},
  ) {
    const first =
      method === 'GET'
        ? await app.inject({ method: 'GET', url, headers: { cookie: session.cookie } })
        : await injectForm(app, session, url, form);
    const location = first.headers.location;
    if (first.statusCode !== 303 || typeof location !== 'string') return first;
    const next = await app.inject({ method: 'GET', url: location, headers: { cookie: session.cookie } });
    return {
      statusCode: first.statusCode,
      body: `${location}\n${next.statusCode}\n${next.body}`,
      headers: first.headers,
    };
  }

  for (const role of ROLES) {
    it(`${role}: every dashboard route with an id answers as for a missing id, sends the same statements, and changes nothing of A`, async () => {
      const before = await tenantSnapshot(t.db, orgA.id);
      const email = (await createTestUser(t.db, orgB.id, role)).email;
      let session = await injectSignIn(app, email);
      const withIds = Object.entries(ROUTES).filter(
        (entry): entry is [string, Extract<Access, { ids: readonly string[] }>] =>
          entry[1].kind === 'dashboard' && entry[1].ids.length > 0,
      );
      expect(withIds.length).toBeGreaterThan(20);
      const ids = [...Object.values(rowsA), ...Object.values(MISSING_ROWS)];
      const routeInfo = new Map(app.dashboardRoutes.map((r) => [`${r.method} ${r.url}`, r]));
      for (const [key, access] of withIds) {
        const [method, path] = key.split(' ') as [DashboardRouteInfo['method'], string];
        // A's ids in the organization's place; corpus ids (a journal, an author) A's too: anyone's.
        const foreignUrl = fillRoute(path, rowsA);
        const missingUrl = fillRoute(
          path,
          Object.fromEntries(
            paramsOf(path).map((p) => [p, (access.ids.includes(p) ? MISSING_ROWS : rowsA)[p]!]),
          ),
        );
        const a = await statementsOf(() => call(session, method, foreignUrl, forms(rowsA)[key]));
        const m = await statementsOf(() => call(session, method, missingUrl, forms(MISSING_ROWS)[key]));
        const what = `${role} ${key}: ${a.res.statusCode} ${a.res.body.slice(0, 200)}`;
        const action = routeInfo.get(key)?.action;
        const allowed = action !== undefined && action !== 'public' && can(role, action);
        if (allowed) expect(a.res.statusCode, what).toBe(404);
        expect(shapeOf(a.res, ids), what).toEqual(shapeOf(m.res, ids));
        expect(a.sql, what).toEqual(m.sql);
        expect(a.res.body, what).not.toContain(TENANT_ROW_NAME);
        // A post that signed the session out (none should, with a missing id) would end the walk.
        if (a.res.headers['set-cookie']) session = await injectSignIn(app, email);
      }
      expect(await tenantSnapshot(t.db, orgA.id)).toBe(before);
    });
  }
});

describe("what B's answers draw on holds nothing of A's", () => {
  const X_ORCID = '0000-0002-7100-0027';
  const ADA_ORCID = '0000-0002-7100-0035';
  /** The same upload for every organization: a form with its file, the origin_id and folder A uses too. */
  const form = (overrides: Record<string, string | number> = {}) =>
    rankingFields({
      origin_id: 'ms-shared',
      folder: 'JSHARED',
      title: 'Message passing graph neural networks for molecular property prediction',
      abstract: TOPIC,
      author1_name: 'Nobody Incorpus',
      ...overrides,
    });
  const pdf = () => [{ name: 'manuscript.pdf', bytes: fixture('manuscripts/deep-rules/manuscript.pdf') }];

  /** An answer of B's as it may differ from the control's: by the manuscript's id alone. */
  function answerOf(res: { statusCode: number; json(): unknown }) {
    const { manuscript_id: _id, ...rest } = res.json() as { manuscript_id: number; candidates: unknown[] };
    return { status: res.statusCode, ...rest };
  }

  /** Everything B sees of one manuscript and its organization, API and dashboard, as comparable text. */
  async function everythingSeenBy(org: TestOrg, session: InjectSession) {
    const uploaded = await upload(app, { apiKey: org.apiKey, fields: form(), files: pdf() });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const id = (uploaded.json() as { manuscript_id: number }).manuscript_id;
    const get = (url: string, headers: Record<string, string>) => app.inject({ url, headers });
    const key = org.headers;
    const cookie = { cookie: session.cookie };
    const seen = {
      upload: answerOf(uploaded),
      journals: (await get('/api/external/recommend-journals/ms-shared/', key)).json(),
      linkedJournals: (
        await get('/api/external/recommend-journals/ms-shared/?journals_corpus=org_journals', key)
      ).json(),
      fields: (await get('/api/external/custom-fields/all/', key)).json(),
      pages: [] as { status: number; body: string }[],
    };
    for (const url of [
      `/dashboard/manuscripts/${id}/`,
      `/dashboard/manuscripts/${id}/?filter=conflicts`,
      `/dashboard/manuscripts/${id}/export/`,
      '/dashboard/manuscripts/?search=ms-shared',
      '/dashboard/manuscripts/?search=molecular',
      '/dashboard/groups/?search=grouped',
      '/dashboard/folders/',
      '/dashboard/webhooks/',
      '/dashboard/',
    ]) {
      seen.pages.push(shapeOf(await get(url, cookie), [String(id)]));
    }
    return { id, seen };
  }

  // Three uploads of a PDF, a corpus ingested and ~30 pages: about a minute on a loaded machine.
  it(
    'candidates, emails, conflicts, marks, flags, groups, journals, fields, parsed files, pages and exports: as for an organization A never touched',
    { timeout: 600_000 },
    async () => {
      const corpus = await buildCorpus(t.db, [
        { authors: [{ name: 'Xena Grouped', orcid: X_ORCID }, { name: 'Bo Coauthor' }] },
        { authors: [{ name: 'Xena Grouped', orcid: X_ORCID }] },
        { authors: [{ name: 'Ada Learnt', orcid: ADA_ORCID }, { name: 'Bo Coauthor' }] },
        { authors: [{ name: 'Ada Learnt', orcid: ADA_ORCID }] },
        { authors: [{ name: 'Yuri Marked' }] },
        { authors: [{ name: 'Yuri Marked' }] },
        { authors: [{ name: 'Zoe Flagged' }] },
        { authors: [{ name: 'Zoe Flagged' }] },
      ]);
      await app.refmatch.index.refresh();

      // The control: an organization that uploads before A has done anything.
      const control = await createTestOrg(t);
      const controlView = await everythingSeenBy(
        control,
        await signInAs({ app, db: t.db }, control.id, 'editor'),
      );
      const names = (controlView.seen.upload.candidates as { name: string }[]).map((c) => c.name);
      expect(names).toEqual(
        expect.arrayContaining(['Xena Grouped', 'Ada Learnt', 'Yuri Marked', 'Zoe Flagged']),
      );

      // A does all it can with the same origin_id, folder and file: a group holding a candidate (with
      // an email), its folder's settings on it, its manuscript naming a candidate as its author (with
      // an email: learnt), a mark, a conflict flag by id and one by email, its settings, a linked
      // journal, custom fields, a webhook.
      const a = await createTestOrg(t);
      await saveWebhook(
        t.db,
        a.id,
        { url: 'https://hooks.a-press.example/in', secret: null, enabled: true },
        {
          allowPrivateAddresses: false,
        },
      );
      const group = await createGroup(t.db, a.id, 'Grouped reviewers');
      const record = await app.inject({
        method: 'POST',
        url: `/api/external/author-from-group/${group.group_id}/xena/`,
        headers: a.headers,
        payload: { name: 'Xena Grouped', orcids: [X_ORCID], emails: ['xena@a-group.example'] },
      });
      expect(record.statusCode, record.body).toBe(200);
      const folder = await ensureFolder(t.db, a.id, 'JSHARED');
      await saveFolderSettings(
        t.db,
        folder,
        await checkFolderSettings(t.db, a.id, {
          groupIds: [group.group_id],
          effect: 'limit_to',
          boostMultiplier: null,
        }),
      );
      await updateSettings(t.db, a.id, { prefer: 'parsed', include_conflicts: false, max_candidates: 2 });
      const ownUpload = await upload(app, {
        apiKey: a.apiKey,
        fields: form({
          author1_name: 'Ada Learnt',
          author1_orcid: ADA_ORCID,
          author1_email: 'ada@a-press.example',
        }),
        files: pdf(),
      });
      expect(ownUpload.statusCode, ownUpload.body).toBe(200);
      const aManuscript = (ownUpload.json() as { manuscript_id: number }).manuscript_id;
      await changeMark(t.db, {
        organizationId: a.id,
        manuscriptId: aManuscript,
        authorId: corpus.authorId('Yuri Marked'),
        marked: true,
        by: 'editor@a-press.example',
      });
      await flagAuthorConflict(t.db, a.id, 'ms-shared', corpus.authorId('Zoe Flagged'));
      await t.db.query(`INSERT INTO external_coi (organization_id, origin_id, email) VALUES ($1, NULL, $2)`, [
        a.id,
        'xena@a-group.example',
      ]);
      const source = await t.db.query<{ id: number }>(
        `INSERT INTO sources (source_key, title) VALUES ('S-a-press', 'Journal of A') RETURNING id`,
      );
      await linkJournal(t.db, a.id, 'JSHARED', source.rows[0]!.id);
      for (const owner of ['author_from_group', 'folder', 'proposal'] as const) {
        await createCustomField(t.db, a.id, { owner, dataKind: 'str', name: `A's ${owner}` });
      }
      const marked = await app.inject({
        url: `/dashboard/manuscripts/${aManuscript}/`,
        headers: { cookie: (await signInAs({ app, db: t.db }, a.id, 'editor')).cookie },
      });
      expect(marked.body).toContain('editor@a-press.example');

      // B, after all of it, sees exactly what the control saw.
      const b = await createTestOrg(t);
      const bSession = await signInAs({ app, db: t.db }, b.id, 'editor');
      const bView = await everythingSeenBy(b, bSession);
      expect(bView.seen).toEqual(controlView.seen);
      const everything = JSON.stringify(bView.seen);
      for (const mine of [
        'a-group.example',
        'a-press.example',
        'Journal of A',
        "A's ",
        'Grouped reviewers',
      ]) {
        expect(everything).not.toContain(mine);
      }

      // Webhooks: B's and A's events each go to their own organization's URL, none to the other's.
      await saveWebhook(
        t.db,
        b.id,
        { url: 'https://hooks.b-press.example/in', secret: null, enabled: true },
        {
          allowPrivateAddresses: false,
        },
      );
      const again = await upload(app, { apiKey: b.apiKey, fields: form(), files: pdf() });
      expect(again.statusCode).toBe(200);
      const claimed = await claimDueEvents(t.db, 1_000, 60_000);
      const urls = new Map([
        [a.id, 'https://hooks.a-press.example/in'],
        [b.id, 'https://hooks.b-press.example/in'],
      ]);
      expect(claimed.filter((e) => urls.has(e.organization_id)).length).toBeGreaterThanOrEqual(2);
      for (const event of claimed) {
        if (urls.has(event.organization_id)) expect(event.url).toBe(urls.get(event.organization_id));
      }
    },
  );
});

describe("B's own rows, with A's ids in what B sends", () => {
  it("a body naming A's group, custom field, origin_id or folder name is answered as one naming none, and changes nothing of A", async () => {
    const before = await tenantSnapshot(t.db, orgA.id);
    const ids = [...Object.values(rowsA), ...Object.values(MISSING_ROWS)];
    const actions = new Map(app.dashboardRoutes.map((r) => [`${r.method} ${r.url}`, r.action]));
    const sessions = new Map<Role, InjectSession>();
    const sessionFor = async (route: string) => {
      const action = actions.get(route);
      const role = ROLES.find((r) => action !== undefined && action !== 'public' && can(r, action))!;
      if (!sessions.has(role)) sessions.set(role, await signInAs({ app, db: t.db }, orgB.id, role));
      return sessions.get(role)!;
    };
    const posts = (rows: Rows): { route: string; form: Record<string, string | string[]> }[] => [
      {
        route: 'POST /dashboard/folders/:folderId/settings/',
        form: { effect: 'highlight', groups: [rowsB.groupId!, rows.groupId!] },
      },
      {
        route: 'POST /dashboard/folders/:folderId/custom-values/',
        form: { [`cf_${rows.fieldId}`]: 'Taken over' },
      },
      {
        route: 'POST /dashboard/groups/:groupId/records/:clientId/',
        // The record's name as it is: the post changes B's record only by what the field would.
        form: { name: TENANT_ROW_NAME, [`cf_${rows.fieldId}`]: 'Taken over' },
      },
    ];
    const foreign = posts(rowsA);
    const missing = posts(MISSING_ROWS);
    for (const [i, post] of foreign.entries()) {
      const session = await sessionFor(post.route);
      const url = fillRoute(post.route.slice('POST '.length), rowsB);
      // Once before: what the post does to B's own row the first time (a record linked again) is done.
      await injectForm(app, session, url, missing[i]!.form);
      const a = await statementsOf(() => injectForm(app, session, url, post.form));
      const m = await statementsOf(() => injectForm(app, session, url, missing[i]!.form));
      const what = `${post.route}: ${a.res.statusCode} ${a.res.body.slice(0, 300)}`;
      expect(shapeOf(a.res, ids), what).toEqual(shapeOf(m.res, ids));
      expect(a.sql, what).toEqual(m.sql);
    }
    // The API: A's custom field as a key of B's record, refused as an unknown key.
    const record = (key: string) =>
      statementsOf(() =>
        app.inject({
          method: 'POST',
          url: `/api/external/author-from-group/${rowsB.groupId}/r1/`,
          headers: orgB.headers,
          payload: { name: 'Mine', [key]: 'Taken over' },
        }),
      );
    await app.inject({ url: '/api/external/custom-fields/all/', headers: orgB.headers }); // the key verified
    const a = await record(rowsA.fieldId!);
    const m = await record(MISSING_ROWS.fieldId!);
    expect(a.res.statusCode).toBe(400);
    expect(shapeOf(a.res, ids)).toEqual(shapeOf(m.res, ids));
    expect(a.sql).toEqual(m.sql);
    // An upload naming A's origin_id and A's folder is B's own manuscript, in B's own folder.
    const uploaded = await upload(app, {
      apiKey: orgB.apiKey,
      fields: baseFields({ origin_id: rowsA.originId!, folder: 'JFOLD' }),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { manuscript_id: id } = uploaded.json() as { manuscript_id: number };
    expect(id).not.toBe(Number(rowsA.manuscriptId));
    const owner = await t.db.query<{ organization_id: number }>(
      `SELECT f.organization_id FROM manuscripts m JOIN folders f ON f.id = m.folder_id WHERE m.id = $1`,
      [id],
    );
    expect(owner.rows).toEqual([{ organization_id: orgB.id }]);
    expect(await tenantSnapshot(t.db, orgA.id)).toBe(before);
  });
});
