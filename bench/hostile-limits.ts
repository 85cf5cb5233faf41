// The surfaces round 17 left (docs/benchmarks/hostile-uploads.md, round 18): headers at their limits
// over a real socket, the organization caps under concurrent creates on both drivers, and every
// dashboard list and the API's reads at their largest legal page numbers and searches. In process
// (`buildApp`, default limits, no corpus). Prints per probe the status, the error code, the answer's
// size, wall time, and the ratio to a baseline measured in the same run (a plain 4.7 for the headers,
// a page 1 for the lists); for the caps, how many rows the parallel creates left against the cap.
//
//   npm run bench:hostile-limits
//   BENCH_ROOT=<another checkout>: its src and migrations (a before measured beside the after)
//   BENCH_DRIVERS=pglite,postgres (default both; the server one a database of its own on DATABASE_URL's
//   server, else postgres://postgres@127.0.0.1:5432/test, dropped afterwards)
//   BENCH_PARALLEL (default 40): creates sent at once; BENCH_CAP (default 5): the cap they race for
//   BENCH_PARTS=headers,caps,pages,values (default all; values: the pages at the custom values' and
//   options' caps)
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/infra/db/index.ts';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { signedInUser } from './lib/dashboard-session.ts';

const PARTS = (process.env.BENCH_PARTS ?? 'headers,caps,pages,values').split(',');
const PARALLEL = Number(process.env.BENCH_PARALLEL ?? 40);
const CAP = Number(process.env.BENCH_CAP ?? 5);

const { buildApp, parseConfig, openPglite, migrate, createOrganization } = await checkoutApp();
const { setLimitOverrides } = await fromCheckout<typeof import('../src/organizations/limits.ts')>(
  'src/organizations/limits.ts',
);
const { createGroup, writeGroupAuthor } = await fromCheckout<typeof import('../src/authors-groups/store.ts')>(
  'src/authors-groups/store.ts',
);
const { createCustomField } = await fromCheckout<typeof import('../src/custom-fields/store.ts')>(
  'src/custom-fields/store.ts',
);
const { saveCustomValues } = await fromCheckout<
  typeof import('../src/custom-fields/folder-manuscript-values.ts')
>('src/custom-fields/folder-manuscript-values.ts');
const { ensureFolder } =
  await fromCheckout<typeof import('../src/folders/folders.ts')>('src/folders/folders.ts');

/** A fresh PGlite database in memory, migrated by the checkout; `drop` closes it. */
async function openMigratedPglite(): Promise<{ db: Database; drop: () => Promise<void> }> {
  const db = await openPglite();
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  return { db, drop: () => db.close() };
}

async function startApp(db: Database): Promise<FastifyInstance> {
  const config = {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://refmatch.test', REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  return app;
}

/** A new user of `role`, signed in, and a way to post its forms (URL-encoded, with its CSRF token). */
async function signIn(
  app: FastifyInstance,
  db: Database,
  organizationId: number,
  role: 'integrations_admin' | 'editor',
) {
  const { cookie, csrf } = await signedInUser(app, db, organizationId, role);
  return {
    cookie,
    form: (url: string, fields: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
      }),
  };
}

const pad = (value: unknown, width: number) => String(value).padStart(width);

// ---------------------------------------------------------------------------------------------------
// Headers at their limits, over a real socket (what app.inject never sends: Node's parser and its
// limits). Each answer must be a status below 500 in the error catalogue's JSON shape, within 5 s.

function rawRequest(port: number, request: string | Buffer): Promise<{ text: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const done = () => resolve({ text, ms: performance.now() - t0 });
    const timer = setTimeout(() => {
      text = `HANG ${text}`;
      socket.destroy();
    }, 5000);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      done();
    });
    socket.on('error', () => {});
    socket.write(request);
  });
}

async function headersPart(): Promise<void> {
  const { db, drop } = await openMigratedPglite();
  const app = await startApp(db);
  const org = await createOrganization(db, {
    name: 'Headers',
    features: ['referee_finder', 'recommend_journals'],
  });
  const group = await createGroup(db, org.id, 'G');
  const editor = await signIn(app, db, org.id, 'editor');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as net.AddressInfo).port;
  const key = org.api_key;
  const head = (method: string, url: string, lines: string[], body = '') =>
    `${method} ${url} HTTP/1.1\r\nHost: refmatch.test\r\nConnection: close\r\n` +
    (body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : '') +
    lines.map((l) => `${l}\r\n`).join('') +
    `\r\n${body}`;
  const FIELDS = '/api/external/custom-fields/all/';
  const RECORD = `/api/external/author-from-group/${group.group_id}/r1/`;
  const UPLOAD = '/api/external/proposal/';
  const json = '{"name":"Ada Lovelace"}';
  const part = (headers: string, value = 'x') =>
    `--b\r\nContent-Disposition: form-data; name="title"${headers}\r\n\r\n${value}\r\n--b--\r\n`;
  const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i));
  const IMPORT = `/dashboard/groups/${group.group_id}/import/`;
  const probes: [string, string | Buffer][] = [
    ['4.7, a plain request (baseline)', head('GET', FIELDS, [`X-ApiKey: ${key}`])],
    ['4.7, a plain request (baseline)', head('GET', FIELDS, [`X-ApiKey: ${key}`])],
    ['X-ApiKey of 15,000 characters', head('GET', FIELDS, [`X-ApiKey: ${'k'.repeat(15_000)}`])],
    ['X-ApiKey twice, the same', head('GET', FIELDS, [`X-ApiKey: ${key}`, `X-ApiKey: ${key}`])],
    ['X-ApiKey of latin-1 bytes', Buffer.from(head('GET', FIELDS, [`X-ApiKey: \xe9\xff${key}`]), 'latin1')],
    ['X-ApiKey empty', head('GET', FIELDS, ['X-ApiKey: '])],
    ['Authorization: Bearer <key>', head('GET', FIELDS, [`Authorization: Bearer ${key}`])],
    [
      'Authorization: Basic',
      head('GET', FIELDS, [`Authorization: Basic ${Buffer.from(`u:${key}`).toString('base64')}`]),
    ],
    ['Authorization of 15,000 characters', head('GET', FIELDS, [`Authorization: ${'x'.repeat(15_000)}`])],
    ['Accept: application/xml', head('GET', FIELDS, [`X-ApiKey: ${key}`, 'Accept: application/xml'])],
    [
      'Accept of 1,300 types',
      head('GET', FIELDS, [`X-ApiKey: ${key}`, `Accept: ${many(1300, (i) => `a/b${i};q=0.5`).join(',')}`]),
    ],
    [
      'Accept-Encoding of 1,300 codings',
      head('GET', FIELDS, [`X-ApiKey: ${key}`, `Accept-Encoding: ${'gzip;q=0.5,'.repeat(1300)}`]),
    ],
    ['1,900 headers', head('GET', FIELDS, [`X-ApiKey: ${key}`, ...many(1900, (i) => `X-H${i}: v`)])],
    [
      '3,000 headers (past 16 KiB)',
      head('GET', FIELDS, [`X-ApiKey: ${key}`, ...many(3000, (i) => `X${i}: v`)]),
    ],
    [
      'one header of 17,000 bytes',
      head('GET', FIELDS, [`X-ApiKey: ${key}`, `X-Long: ${'v'.repeat(17_000)}`]),
    ],
    [
      'X-Request-Id of 10,000',
      head('GET', FIELDS, [`X-ApiKey: ${key}`, `X-Request-Id: ${'r'.repeat(10_000)}`]),
    ],
    [
      'Host of 15,000',
      `GET ${FIELDS} HTTP/1.1\r\nHost: ${'h'.repeat(15_000)}\r\nConnection: close\r\nX-ApiKey: ${key}\r\n\r\n`,
    ],
    [
      'Cookie of 1,200 pairs (dashboard)',
      head('GET', '/dashboard/', [`Cookie: ${many(1200, (i) => `c${i}=v`).join('; ')}`]),
    ],
    [
      '4.2 JSON; charset=latin1',
      head('POST', RECORD, [`X-ApiKey: ${key}`, 'Content-Type: application/json; charset=latin1'], json),
    ],
    [
      '4.2 JSON; 2,500 parameters',
      head(
        'POST',
        RECORD,
        [`X-ApiKey: ${key}`, `Content-Type: application/json; ${'a=b; '.repeat(2500)}`],
        json,
      ),
    ],
    ['4.2 JSON;;;;', head('POST', RECORD, [`X-ApiKey: ${key}`, 'Content-Type: application/json;;;;'], json)],
    [
      '4.2 APPLICATION/JSON',
      head('POST', RECORD, [`X-ApiKey: ${key}`, 'Content-Type: APPLICATION/JSON'], json),
    ],
    [
      '4.2 application/vnd.api+json',
      head('POST', RECORD, [`X-ApiKey: ${key}`, 'Content-Type: application/vnd.api+json'], json),
    ],
    ['4.2 no Content-Type', head('POST', RECORD, [`X-ApiKey: ${key}`], json)],
    [
      '4.5 multipart, no boundary',
      head('POST', UPLOAD, [`X-ApiKey: ${key}`, 'Content-Type: multipart/form-data'], part('')),
    ],
    [
      '4.5 boundary empty',
      head('POST', UPLOAD, [`X-ApiKey: ${key}`, 'Content-Type: multipart/form-data; boundary='], part('')),
    ],
    [
      '4.5 boundary of 71 characters',
      head(
        'POST',
        UPLOAD,
        [`X-ApiKey: ${key}`, `Content-Type: multipart/form-data; boundary=${'b'.repeat(71)}`],
        part(''),
      ),
    ],
    [
      '4.5 boundary of 10,000 characters',
      head(
        'POST',
        UPLOAD,
        [`X-ApiKey: ${key}`, `Content-Type: multipart/form-data; boundary=${'b'.repeat(10_000)}`],
        part(''),
      ),
    ],
    [
      '4.5 a part of 5,000 headers',
      head(
        'POST',
        UPLOAD,
        [`X-ApiKey: ${key}`, 'Content-Type: multipart/form-data; boundary=b'],
        part(`\r\n${'X-A: b\r\n'.repeat(5000).slice(0, -2)}`),
      ),
    ],
    [
      '4.5 a part of 3,000 parameters',
      head(
        'POST',
        UPLOAD,
        [`X-ApiKey: ${key}`, 'Content-Type: multipart/form-data; boundary=b'],
        part(`; ${'x=y; '.repeat(3000)}`),
      ),
    ],
    [
      '4.5 a file name of 100,000',
      head(
        'POST',
        UPLOAD,
        [`X-ApiKey: ${key}`, 'Content-Type: multipart/form-data; boundary=b'],
        `--b\r\nContent-Disposition: form-data; name="source_file"; filename="${'f'.repeat(100_000)}.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--b--\r\n`,
      ),
    ],
    [
      'group import, boundary of 300 (dashboard)',
      head(
        'POST',
        IMPORT,
        [`Cookie: ${editor.cookie}`, `Content-Type: multipart/form-data; boundary=${'b'.repeat(300)}`],
        part(''),
      ),
    ],
    [
      'group import, no boundary (dashboard)',
      head('POST', IMPORT, [`Cookie: ${editor.cookie}`, 'Content-Type: multipart/form-data'], part('')),
    ],
    [
      'Transfer-Encoding and Content-Length',
      `POST ${RECORD} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-ApiKey: ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n`,
    ],
    [
      'Content-Length of 20 digits',
      `POST ${RECORD} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-ApiKey: ${key}\r\nContent-Type: application/json\r\nContent-Length: 99999999999999999999\r\n\r\n`,
    ],
  ];
  console.log(`\n## Headers at their limits (PGlite, a real socket)\n`);
  console.log(
    `  ${'probe'.padEnd(38)} ${'status'.padStart(6)} ${'code'.padEnd(24)} ${'ms'.padStart(6)} ${'x base'.padStart(6)}`,
  );
  let baseline = 0;
  let bad = 0;
  let warm = false;
  for (const [label, request] of probes) {
    const { text, ms } = await rawRequest(port, request);
    // The first request warms the route up; the second is the baseline.
    if (!warm) {
      warm = true;
      continue;
    }
    if (baseline === 0) baseline = ms;
    const status = Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0);
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    let code = '';
    try {
      code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? '(JSON)';
    } catch {
      code = status === 0 ? 'no answer' : '(not JSON)';
    }
    const message = /"message":"([^"]*)"/.exec(body)?.[1] ?? /<title>([^<]*)/.exec(body)?.[1] ?? '';
    const dashboard = label.includes('(dashboard)');
    if (status === 0 || status >= 500 || (code === '(not JSON)' && !dashboard)) bad++;
    console.log(
      `  ${label.padEnd(38)} ${pad(status, 6)} ${code.padEnd(24)} ${pad(ms.toFixed(1), 6)} ${pad((ms / baseline).toFixed(1), 6)}  ${message.slice(0, 90)}`,
    );
  }
  console.log(`  answers that were 5xx, none, or (the API's) not JSON: ${bad}`);
  await app.close();
  await drop();
}

// ---------------------------------------------------------------------------------------------------
// The organization caps under concurrent creates: the cap lowered to CAP for the organization, then
// PARALLEL creates sent at once over app.inject (the dashboard's forms, the API's record and upload),
// and the rows counted afterwards.

interface CapProbe {
  label: string;
  limit: string;
  create: (i: number) => Promise<{ statusCode: number; body: string }>;
  count: string;
}

async function capsPart(db: Database, driver: string): Promise<void> {
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  const app = await startApp(db);
  const org = await createOrganization(db, {
    name: 'Caps',
    features: ['referee_finder', 'recommend_journals'],
  });
  const admin = await signIn(app, db, org.id, 'integrations_admin');
  const editor = await signIn(app, db, org.id, 'editor');
  const group = await createGroup(db, org.id, 'Pool');
  const apiKey = { 'x-apikey': org.api_key };
  // One user and one key exist already (the admin, the organization's key): the cap counts them.
  const probes: CapProbe[] = [
    {
      label: 'authors groups (dashboard form)',
      limit: 'authors_groups',
      create: (i) => editor.form('/dashboard/groups/', { name: `Group ${i}` }),
      count: 'SELECT count(*)::int AS n FROM authors_groups WHERE organization_id = $1',
    },
    {
      label: 'custom fields (dashboard form)',
      limit: 'custom_fields',
      create: (i) =>
        editor.form('/dashboard/custom-fields/', { owner: 'folder', data_kind: 'str', name: `Field ${i}` }),
      count: 'SELECT count(*)::int AS n FROM custom_fields WHERE organization_id = $1',
    },
    {
      label: 'API keys (dashboard form)',
      limit: 'api_keys',
      create: (i) =>
        admin.form('/dashboard/api-keys/', {
          label: `key ${i}`,
          once: `once-value-${i}-${'x'.repeat(20)}`,
        }),
      count: 'SELECT count(*)::int AS n FROM api_keys WHERE organization_id = $1 AND revoked_at IS NULL',
    },
    {
      label: 'users (dashboard form)',
      limit: 'users',
      create: (i) => admin.form('/dashboard/users/', { email: `user${i}@example.org`, role: 'viewer' }),
      count: 'SELECT count(*)::int AS n FROM users WHERE organization_id = $1',
    },
    {
      label: 'records of one group (4.2)',
      limit: 'records_per_group',
      create: (i) =>
        app.inject({
          method: 'POST',
          url: `/api/external/author-from-group/${group.group_id}/rec-${i}/`,
          headers: apiKey,
          payload: { name: `Author ${i}` },
        }),
      count: `SELECT count(*)::int AS n FROM group_authors WHERE group_id = ${group.group_id}`,
    },
    {
      label: 'folders (4.5, a new folder each)',
      limit: 'folders',
      create: (i) => {
        const boundary = 'bench-boundary';
        const fields: Record<string, string> = {
          folder: `J${i}`,
          origin_id: `ms-${i}`,
          title: 'Neural machine translation',
          abstract: 'We study translation.',
          authors_count: '0',
          exclude_candidates: '1',
        };
        const payload = Object.entries(fields)
          .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
          .join('')
          .concat(`--${boundary}--\r\n`);
        return app.inject({
          method: 'POST',
          url: '/api/external/proposal/',
          headers: { ...apiKey, 'content-type': `multipart/form-data; boundary=${boundary}` },
          payload,
        });
      },
      count: 'SELECT count(*)::int AS n FROM folders WHERE organization_id = $1',
    },
    {
      label: 'the webhook (dashboard form; one an organization)',
      limit: '',
      create: (i) =>
        admin.form('/dashboard/webhooks/', {
          url: `https://hooks${i}.example.org/refmatch`,
          enabled: 'on',
        }),
      count: 'SELECT count(*)::int AS n FROM webhooks WHERE organization_id = $1',
    },
  ];
  console.log(`\n## Caps under ${PARALLEL} concurrent creates, the cap ${CAP} (${driver})\n`);
  console.log(
    `  ${'what'.padEnd(48)} ${'cap'.padStart(4)} ${'rows'.padStart(5)} ${'wall ms'.padStart(8)} ${'CPU ms'.padStart(7)}  statuses`,
  );
  for (const probe of probes) {
    if (probe.limit) await setLimitOverrides(db, org.id, { [probe.limit]: CAP });
    const cpu0 = processCpuMs();
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => probe.create(i)));
    const wall = performance.now() - t0;
    const cpu = processCpuMs() - cpu0;
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
    const odd = answers.find((a) => a.statusCode >= 500);
    const rows = (await db.query<{ n: number }>(probe.count, probe.count.includes('$1') ? [org.id] : []))
      .rows[0]!.n;
    const cap = probe.limit ? CAP : 1;
    console.log(
      `  ${probe.label.padEnd(48)} ${pad(cap, 4)} ${pad(rows, 5)}${rows > cap ? '!' : ' '}${pad(wall.toFixed(0), 7)} ${pad(cpu.toFixed(0), 7)}  ${[...statuses].map(([s, n]) => `${n}×${s}`).join(' ')}${odd ? `  (a 5xx: ${odd.body?.slice(0, 160)})` : ''}`,
    );
  }
  await app.close();
}

// ---------------------------------------------------------------------------------------------------
// Every list at its largest legal page and search (a page number up to 100,000, a search up to 1,000
// characters), and the pages and answers that show custom values with every field at its largest
// legal value: 200 fields of the organization (LIMIT_CUSTOM_FIELDS) of 10,000 characters each.

const header = () =>
  console.log(
    `  ${'probe'.padEnd(58)} ${'status'.padStart(6)} ${'bytes'.padStart(9)} ${'ms'.padStart(7)} ${'x base'.padStart(7)}`,
  );

const MAX_PAGE = 100_000;
const SEARCH_MAX = 1_000;
const FIELD_CHARS = 10_000;

async function pagesPart(): Promise<void> {
  const { db, drop } = await openMigratedPglite();
  const app = await startApp(db);
  const org = await createOrganization(db, {
    name: 'Pages',
    features: ['referee_finder', 'recommend_journals'],
  });
  const editor = await signIn(app, db, org.id, 'editor');
  const admin = await signIn(app, db, org.id, 'integrations_admin');
  const group = await createGroup(db, org.id, 'Pool');
  const RECORDS = Number(process.env.BENCH_PAGE_RECORDS ?? 2_000);
  for (let i = 0; i < RECORDS; i++) {
    await writeGroupAuthor(
      db,
      { organizationId: org.id, groupId: group.group_id, clientId: `rec-${i}` },
      {
        name: `Author Number ${i}`,
        emails: [`a${i}@example.org`],
        orcids: null,
        articles: null,
        affiliations: null,
        custom_values: {},
      },
    );
  }
  const words = (n: number) =>
    'abcdefghi '
      .repeat(Math.ceil(n / 10))
      .slice(0, n)
      .trim();
  const lists = [
    ['groups', '/dashboard/groups/', editor],
    ['a group records', `/dashboard/groups/${group.group_id}/`, editor],
    ['folders', '/dashboard/folders/', editor],
    ['manuscripts', '/dashboard/manuscripts/', editor],
    ['users', '/dashboard/users/', admin],
    ['API keys', '/dashboard/api-keys/', admin],
    ['webhook', '/dashboard/webhooks/', admin],
    ['custom fields', '/dashboard/custom-fields/', editor],
  ] as const;
  console.log(`\n## Lists at their largest legal page and search (PGlite, a group of ${RECORDS} records)\n`);
  header();
  let worst = 0;
  for (const [label, url, session] of lists) {
    let baseline = 0;
    for (const [variant, query] of [
      ['page 1 (warm-up)', ''],
      ['page 1', ''],
      [`page ${MAX_PAGE.toLocaleString('en')}`, `?page=${MAX_PAGE}`],
      [`page ${(MAX_PAGE + 1).toLocaleString('en')} (past the cap)`, `?page=${MAX_PAGE + 1}`],
      [
        `search of ${SEARCH_MAX} characters, page ${MAX_PAGE.toLocaleString('en')}`,
        `?q=${encodeURIComponent(words(SEARCH_MAX))}&page=${MAX_PAGE}`,
      ],
      [`search of 500 one-letter words`, `?q=${encodeURIComponent('a '.repeat(500).trim())}`],
    ] as const) {
      const t0 = performance.now();
      const answer = await app.inject({ url: `${url}${query}`, headers: { cookie: session.cookie } });
      const ms = performance.now() - t0;
      if (variant.includes('warm-up')) continue;
      if (variant === 'page 1') baseline = ms;
      else worst = Math.max(worst, ms / baseline);
      console.log(
        `  ${`${label}, ${variant}`.padEnd(58)} ${pad(answer.statusCode, 6)} ${pad(answer.rawPayload.length, 9)} ${pad(ms.toFixed(1), 7)} ${pad((ms / baseline).toFixed(1), 7)}`,
      );
    }
  }
  console.log(`  the worst ratio to its list's page 1: ${worst.toFixed(1)}`);
  await app.close();
  await drop();
}

async function valuesPart(): Promise<void> {
  const { db, drop } = await openMigratedPglite();
  const app = await startApp(db);
  const org = await createOrganization(db, {
    name: 'Values',
    features: ['referee_finder', 'recommend_journals'],
  });
  const editor = await signIn(app, db, org.id, 'editor');
  const group = await createGroup(db, org.id, 'Pool');
  for (const clientId of ['rec-0', 'rec-1']) {
    await writeGroupAuthor(
      db,
      { organizationId: org.id, groupId: group.group_id, clientId },
      { name: 'Author', emails: null, orcids: null, articles: null, affiliations: null, custom_values: {} },
    );
  }

  // Custom values at their largest: the 200 fields split over the three owners, each value 10,000
  // characters that HTML and JSON must escape (quotes, angle brackets, ampersands).
  const owners = ['author_from_group', 'folder', 'proposal'] as const;
  const fields: Record<(typeof owners)[number], string[]> = {
    author_from_group: [],
    folder: [],
    proposal: [],
  };
  for (let i = 0; i < 200; i++) {
    const owner = owners[i % 3]!;
    const field = await createCustomField(db, org.id, {
      owner,
      dataKind: 'str',
      name: `Field ${i} ${'n'.repeat(80)}`,
    });
    fields[owner].push(field.api_id);
  }
  const value = `<"&'>`.repeat(FIELD_CHARS / 5);
  await writeGroupAuthor(
    db,
    { organizationId: org.id, groupId: group.group_id, clientId: 'rec-0' },
    {
      name: 'Author Number 0',
      emails: null,
      orcids: null,
      articles: null,
      affiliations: null,
      custom_values: Object.fromEntries(fields.author_from_group.map((id) => [id, value])),
    },
  );
  const folderId = await ensureFolder(db, org.id, 'JFULL');
  await saveCustomValues(
    db,
    org.id,
    'folder',
    folderId,
    fields.folder.map((id) => [id, value]),
  );
  const apiKey = { 'x-apikey': org.api_key };
  console.log(
    `\n## Custom values at their largest (200 fields of ${FIELD_CHARS.toLocaleString('en')} characters to escape)\n`,
  );
  header();
  const probes = [
    [
      '4.7 the custom fields (baseline: a record of no values, 4.1)',
      `/api/external/author-from-group/${group.group_id}/rec-1/`,
      apiKey,
    ],
    ['4.7 the custom fields', '/api/external/custom-fields/all/', apiKey],
    [
      `4.1 a record with ${fields.author_from_group.length} values`,
      `/api/external/author-from-group/${group.group_id}/rec-0/`,
      apiKey,
    ],
    [
      'the record page (dashboard)',
      `/dashboard/groups/${group.group_id}/records/rec-0/`,
      { cookie: editor.cookie },
    ],
    [
      `the folder page, ${fields.folder.length} values (dashboard)`,
      `/dashboard/folders/${folderId}/`,
      { cookie: editor.cookie },
    ],
  ] as const;
  let baseline = 0;
  for (const [label, url, headers] of probes) {
    await app.inject({ url, headers });
    const cpu0 = processCpuMs();
    const t0 = performance.now();
    const answer = await app.inject({ url, headers });
    const ms = performance.now() - t0;
    const cpu = processCpuMs() - cpu0;
    if (baseline === 0) baseline = ms;
    console.log(
      `  ${label.padEnd(58)} ${pad(answer.statusCode, 6)} ${pad(answer.rawPayload.length, 9)} ${pad(ms.toFixed(1), 7)} ${pad((ms / baseline).toFixed(1), 7)}  CPU ${cpu.toFixed(0)} ms`,
    );
  }

  // Options at their caps (options 20,000 and option_characters 500,000 an organization,
  // options_per_field 1,000): 20 fields of the records of 1,000 options of 25 characters each, one
  // organization a kind; the record's page shows them all, a folder's page (no field of its own) none.
  for (const kind of ['single_option', 'multi_option'] as const) {
    const other = await createOrganization(db, { name: `Options ${kind}`, features: ['referee_finder'] });
    const otherEditor = await signIn(app, db, other.id, 'editor');
    const otherGroup = await createGroup(db, other.id, 'Pool');
    for (let k = 0; k < 20; k++) {
      await createCustomField(db, other.id, {
        owner: 'author_from_group',
        dataKind: kind,
        name: `Choice ${k}`,
        options: Array.from({ length: 1_000 }, (_, i) => `<"&'> ${k} ${i} `.padEnd(25, 'o')),
      });
    }
    await writeGroupAuthor(
      db,
      { organizationId: other.id, groupId: otherGroup.group_id, clientId: 'rec-0' },
      { name: 'Author', emails: null, orcids: null, articles: null, affiliations: null, custom_values: {} },
    );
    const otherFolder = await ensureFolder(db, other.id, 'JOPT');
    for (const [label, url] of [
      [
        `the record page, 20 ${kind} fields of 1,000 options`,
        `/dashboard/groups/${otherGroup.group_id}/records/rec-0/`,
      ],
      [`a folder page, no field (the ${kind} organization)`, `/dashboard/folders/${otherFolder}/`],
    ] as const) {
      await app.inject({ url, headers: { cookie: otherEditor.cookie } });
      const cpu0 = processCpuMs();
      const t0 = performance.now();
      const answer = await app.inject({ url, headers: { cookie: otherEditor.cookie } });
      const ms = performance.now() - t0;
      const cpu = processCpuMs() - cpu0;
      console.log(
        `  ${label.padEnd(58)} ${pad(answer.statusCode, 6)} ${pad(answer.rawPayload.length, 9)} ${pad(ms.toFixed(1), 7)} ${pad((ms / baseline).toFixed(1), 7)}  CPU ${cpu.toFixed(0)} ms`,
      );
    }
  }
  await app.close();
  await drop();
}

console.log(`hostile limits, checkout ${CHECKOUT}, ${new Date().toISOString()}`);
if (PARTS.includes('headers')) await headersPart();
if (PARTS.includes('caps')) await onEachBenchDatabase('hostile_limits', capsPart);
if (PARTS.includes('pages')) await pagesPart();
if (PARTS.includes('values')) await valuesPart();
