// Hostile text, on both drivers (PGlite in memory, a fresh server PostgreSQL database): Unicode built
// to cost where the service folds text (`foldAccents` in TypeScript, `fold_text` and `normalize` in
// SQL), through the upload (4.5), the journal recommendation (4.6), a group's records (4.2) and the
// dashboard's searches; numbers at and past their limits in query strings; and the pages a client
// may ask for in a flood (/openapi.json, /docs, /healthz, /readyz). Prints per probe the status, CPU
// (the process's: PGlite runs in it, a server's work does not), heap growth, and the longest the
// event loop was held (the longest gap of a 1 ms timer).
//
//   node --expose-gc --import tsx bench/hostile-text.ts
//   BENCH_ROOT=<another checkout>: its src and migrations (a "before"); BENCH_ONLY=<part of a label>
//   BENCH_DRIVERS=pglite|postgres (default both; DATABASE_URL names the server, a database is made
//   and dropped)
import path from 'node:path';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { signedInUser } from './lib/dashboard-session.ts';
import { makeDocx, paragraph, wordBodyParagraphs } from '../test/parsing/make-files.ts';

const ONLY = process.env.BENCH_ONLY ?? '';
const MB = 1024 * 1024;

const { buildApp, parseConfig, migrate, createOrganization } = await checkoutApp();
const { updateSettings } = await fromCheckout<typeof import('../src/organizations/organizations.ts')>(
  'src/organizations/organizations.ts',
);
const { createGroup } = await fromCheckout<typeof import('../src/authors-groups/store.ts')>(
  'src/authors-groups/store.ts',
);

/** `n` characters of `unit` repeated. */
const repeat = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/**
 * One letter and `n - 1` combining marks whose canonical classes come in reverse (U+0301, class
 * 230, then U+0316, class 220): a normalisation puts each U+0316 before every U+0301 by insertion.
 */
function reversedMarks(n: number): string {
  const half = Math.floor((n - 1) / 2);
  return `a${'\u0301'.repeat(half)}${'\u0316'.repeat(n - 1 - half)}`;
}

/** The same marks in canonical order: what a normalisation leaves as it is. */
function orderedMarks(n: number): string {
  const half = Math.floor((n - 1) / 2);
  return `a${'\u0316'.repeat(half)}${'\u0301'.repeat(n - 1 - half)}`;
}

/** Words separated by zero-width and bidi controls (ZWSP, ZWJ, LRO, RLO, PDF, LRI, PDI, BOM). */
function controlled(n: number): string {
  return repeat('word\u200b\u200d\u202d\u202e\u202c\u2066\u2069\ufeff', n);
}

function multipart(fields: Record<string, string>): { type: string; body: Buffer } {
  const boundary = '----hostiletext';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  return {
    type: `multipart/form-data; boundary=${boundary}`,
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8'),
  };
}

interface Figures {
  driver: string;
  name: string;
  status: string;
  wall: number;
  cpu: number;
  heap: number;
  held: number;
}
const results: Figures[] = [];

/** The longest gap of a 1 ms timer while `send` runs, with CPU and heap growth. */
async function measured(send: () => Promise<string>) {
  let last = performance.now();
  let max = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    max = Math.max(max, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  if (global.gc) global.gc();
  const heap0 = process.memoryUsage().heapUsed;
  timer = setTimeout(tick, 1);
  const cpu0 = processCpuMs();
  const t0 = performance.now();
  let status: string;
  try {
    status = await send();
  } catch (error) {
    status = `threw ${(error as Error).message.slice(0, 100)}`;
  }
  const wall = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearTimeout(timer);
  return {
    status,
    wall,
    cpu: processCpuMs() - cpu0,
    heap: (process.memoryUsage().heapUsed - heap0) / MB,
    held: max,
  };
}

function said(res: { statusCode: number; body: string; headers: Record<string, unknown> }): string {
  if (/^application\/json/.test(String(res.headers['content-type']))) {
    try {
      const body = JSON.parse(res.body) as {
        error?: { code?: string; message?: string; details?: Array<{ path?: string; message?: string }> };
      };
      const first = body.error?.details?.[0];
      if (body.error)
        return `${res.statusCode} ${body.error.code}: ${body.error.message?.slice(0, 90)}${first ? ` [${first.path}: ${first.message?.slice(0, 90)}]` : ''}`;
    } catch {
      // not JSON after all: the status alone
    }
  }
  if (res.statusCode === 303) return `303 → ${String(res.headers.location).slice(0, 60)}`;
  return `${res.statusCode} (${(res.body.length / 1024).toFixed(0)} KB)`;
}

await onEachBenchDatabase('hostile_text', async (db, driver) => {
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  const config = {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://refmatch.test', REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  const org = await createOrganization(db, {
    name: 'Hostile text',
    features: ['referee_finder', 'recommend_journals'],
  });
  const headers = { 'x-apikey': org.api_key };
  const editor = await signedInUser(app, db, org.id, 'editor');

  async function probe(name: string, send: () => Promise<string>): Promise<void> {
    if (!name.includes(ONLY)) return;
    const m = await measured(send);
    results.push({ driver, name, ...m });
    console.log(
      `${driver} | ${name} | ${m.status} | wall ${m.wall.toFixed(0)} ms | CPU ${m.cpu.toFixed(0)} ms | heap ${m.heap.toFixed(1)} MB | held ${m.held.toFixed(0)} ms`,
    );
  }

  let uploads = 0;
  const upload = async (fields: Record<string, string>) => {
    const { type, body } = multipart({
      folder: 'JOUR',
      origin_id: `text-${++uploads}`,
      title: 'A study of text',
      abstract: 'We study text.',
      authors_count: '1',
      author1_name: 'Ada Lovelace',
      ...fields,
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...headers, 'content-type': type },
      payload: body,
    });
    return `${said(res)} (${fields.origin_id ?? `text-${uploads}`})`;
  };
  const journals = async (originId: string) =>
    said(
      await app.inject({
        url: `/api/external/recommend-journals/${originId}/?all_journals=true`,
        headers,
      }),
    );

  // 1. Unicode through the folds.
  await probe('nothing (the floor: what the loop is held meanwhile)', async () => 'idle');
  await probe('upload, a normal manuscript (baseline)', () => upload({}));
  await probe('upload, abstract 100,000: one letter and reversed marks', () =>
    upload({ origin_id: 'marks-100k', abstract: reversedMarks(100_000) }),
  );
  await probe('4.6 on it', () => journals('marks-100k'));
  await probe('upload, abstract 100,000: the same marks in canonical order', () =>
    upload({ abstract: orderedMarks(100_000) }),
  );
  await probe('upload, abstract 20,000: reversed marks', () => upload({ abstract: reversedMarks(20_000) }));
  await probe('upload, abstract 100,000: words and reversed runs of 30 marks', () =>
    upload({ abstract: repeat(`word ${reversedMarks(30)} `, 100_000) }),
  );
  await probe('upload, title 2,000: reversed marks', () =>
    upload({ origin_id: 'title-marks', title: reversedMarks(2_000) }),
  );
  await probe('upload, abstract 100,000 of U+FDFA (NFKD: 18 characters each)', () =>
    upload({ abstract: '\ufdfa'.repeat(100_000) }),
  );
  await probe('upload, abstract 100,000 of ß and İ (case folding that changes length)', () =>
    upload({ abstract: repeat('ßİ', 100_000) }),
  );
  await probe('upload, abstract 100,000 of zero-width and bidi controls between words', () =>
    upload({ abstract: controlled(100_000) }),
  );
  const authors = (n: number, name: (i: number) => string, affiliation: (i: number) => string) => {
    const fields: Record<string, string> = { authors_count: String(n) };
    for (let i = 1; i <= n; i++) {
      fields[`author${i}_name`] = name(i);
      fields[`author${i}_aff`] = affiliation(i);
    }
    return fields;
  };
  await probe('upload, 1,000 authors: names of 1,000 reversed marks, affiliations of 2,000', () =>
    upload(
      authors(
        1000,
        (i) => `Ab${i} ${reversedMarks(990)}`,
        () => reversedMarks(2_000),
      ),
    ),
  );
  await probe('upload, 100 authors: names of 1,000 reversed marks, affiliations of 2,000', () =>
    upload(
      authors(
        100,
        (i) => `Ab${i} ${reversedMarks(990)}`,
        () => reversedMarks(2_000),
      ),
    ),
  );

  // A group's records named with marks (4.2), then searched from the dashboard.
  const groupId = (await createGroup(db, org.id, 'Marked')).group_id;
  await probe('4.2, a record named by 1,000 reversed marks', async () =>
    said(
      await app.inject({
        method: 'POST',
        url: `/api/external/author-from-group/${groupId}/m1/`,
        headers,
        payload: { name: reversedMarks(1_000), affiliations: [reversedMarks(2_000)] },
      }),
    ),
  );
  await probe('4.2, 200 records named by 1,000 reversed marks', async () => {
    let last = '';
    for (let i = 0; i < 200; i++) {
      last = said(
        await app.inject({
          method: 'POST',
          url: `/api/external/author-from-group/${groupId}/r${i}/`,
          headers,
          payload: { name: `${reversedMarks(996)}${i}` },
        }),
      );
    }
    return `200 sent, the last ${last}`;
  });
  const marksQuery = encodeURIComponent(reversedMarks(1_000));
  await probe('dashboard, the group searched for 1,000 reversed marks (the search cap)', async () =>
    said(
      await app.inject({
        url: `/dashboard/groups/${groupId}/?q=${marksQuery}`,
        headers: { cookie: editor.cookie },
      }),
    ),
  );
  await probe('dashboard, the manuscripts searched for 1,000 reversed marks', async () =>
    said(
      await app.inject({
        url: `/dashboard/manuscripts/?q=${marksQuery}`,
        headers: { cookie: editor.cookie },
      }),
    ),
  );
  // Titles folded again at each search of them (fold_text(title), migration 0109).
  await probe('upload, 50 titles of 2,000 reversed marks', async () => {
    const statuses = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      const status = (await upload({ title: `${reversedMarks(1_990)} t${i}` })).split(' ')[0]!;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    return [...statuses].map(([s, k]) => `${k} × ${s}`).join(', ');
  });
  await probe('upload, 50 titles of 2,000: runs of 30 reversed marks', async () => {
    const statuses = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      const status = (await upload({ title: repeat(`${reversedMarks(30)} `, 1_990) + ` t${i}` })).split(
        ' ',
      )[0]!;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    return [...statuses].map(([s, k]) => `${k} × ${s}`).join(', ');
  });
  // A file's title: kept, not refused (an organization preferring the parsed metadata).
  const parsedOrg = await createOrganization(db, { name: 'Parsed titles', features: ['recommend_journals'] });
  await updateSettings(db, parsedOrg.id, { prefer: 'parsed' });
  const parsedEditor = await signedInUser(app, db, parsedOrg.id, 'editor');
  await probe('upload, 20 DOCX titled by 2,000 reversed marks (prefer parsed)', async () => {
    const statuses = new Map<string, number>();
    for (let i = 0; i < 20; i++) {
      const docx = makeDocx([
        paragraph(`Graph networks ${reversedMarks(1_990)} d${i}`, 'Title'),
        paragraph('Ada Lovelace'),
        ...wordBodyParagraphs(5),
      ]);
      const boundary = '----hostiletextdocx';
      const head = Object.entries({
        folder: 'JOUR',
        origin_id: `docx-${i}`,
        title: 'Placeholder',
        abstract: 'We study text.',
        authors_count: '1',
        author1_name: 'Ada Lovelace',
      })
        .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join('');
      const res = await app.inject({
        method: 'POST',
        url: '/api/external/proposal/',
        headers: {
          'x-apikey': parsedOrg.api_key,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: Buffer.concat([
          Buffer.from(
            `${head}--${boundary}\r\ncontent-disposition: form-data; name="source_file"; filename="t.docx"\r\ncontent-type: application/octet-stream\r\n\r\n`,
          ),
          Buffer.from(docx),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      });
      statuses.set(String(res.statusCode), (statuses.get(String(res.statusCode)) ?? 0) + 1);
    }
    const { rows } = await db.query<{ n: number }>(
      'SELECT max(length(title))::integer AS n FROM manuscripts WHERE organization_id = $1',
      [parsedOrg.id],
    );
    return `${[...statuses].map(([s, k]) => `${k} × ${s}`).join(', ')}, the longest title stored ${rows[0]!.n} characters`;
  });
  for (const again of ['', ' again'])
    await probe(`dashboard, the DOCX titles searched for "d1"${again}`, async () =>
      said(
        await app.inject({ url: '/dashboard/manuscripts/?q=d1', headers: { cookie: parsedEditor.cookie } }),
      ),
    );
  await probe('dashboard, the manuscripts searched for "t1"', async () =>
    said(await app.inject({ url: '/dashboard/manuscripts/?q=t1', headers: { cookie: editor.cookie } })),
  );
  await probe('dashboard, the manuscripts searched for "t1" again', async () =>
    said(await app.inject({ url: '/dashboard/manuscripts/?q=t1', headers: { cookie: editor.cookie } })),
  );

  // The dashboard's forms: sign-in, a custom field's definition, a group's CSV import (a file's cells
  // reach no hook).
  const cookieOf = (setCookie: unknown, name: string) =>
    [setCookie]
      .flat()
      .map(String)
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';')[0] ?? '';
  await probe('dashboard sign-in, email and password of 1,000 reversed marks', async () => {
    const page = await app.inject({ url: '/dashboard/sign-in/', remoteAddress: '10.9.0.1' });
    const token = cookieOf(page.headers['set-cookie'], 'rm_login_csrf');
    return said(
      await app.inject({
        method: 'POST',
        url: '/dashboard/sign-in/',
        remoteAddress: '10.9.0.1',
        headers: { cookie: token },
        payload: {
          _csrf: token.split('=')[1] ?? '',
          email: `${reversedMarks(1_000)}@example.org`,
          password: reversedMarks(1_000),
        },
      }),
    );
  });
  await probe('dashboard, a custom field named by 200 reversed marks', async () =>
    said(
      await app.inject({
        method: 'POST',
        url: '/dashboard/custom-fields/',
        headers: { cookie: editor.cookie },
        payload: { _csrf: editor.csrf, owner: 'folder', data_kind: 'string', name: reversedMarks(200) },
      }),
    ),
  );
  const importCsv = (rows: number, name: (i: number) => string) => {
    const boundary = '----hostiletextimport';
    const csv = `client_id,name\n${Array.from({ length: rows }, (_, i) => `c${i},${name(i)}`).join('\n')}\n`;
    return Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${editor.csrf}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="csv"\r\n\r\n\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="marks.csv"\r\nContent-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  };
  for (const [label, name] of [
    ['names of 999 reversed marks', (i: number) => `${reversedMarks(995)}${i}`],
    [
      'names of runs of 30 reversed marks (1,000 characters)',
      (i: number) => `${repeat(`${reversedMarks(30)} `, 990)}${i}`,
    ],
  ] as const) {
    await probe(`dashboard, a group import of 2,000 rows: ${label}`, async () => {
      const importGroup = (await createGroup(db, org.id, `Import ${label}`)).group_id;
      const res = await app.inject({
        method: 'POST',
        url: `/dashboard/groups/${importGroup}/import/`,
        headers: {
          cookie: editor.cookie,
          'content-type': 'multipart/form-data; boundary=----hostiletextimport',
        },
        payload: importCsv(2_000, name),
      });
      const problems = /Nothing was imported: ([^<.]*)/.exec(res.body)?.[1];
      return `${said(res)}${problems ? `: ${problems}` : ''}`;
    });
  }

  // 2. Numbers at and past their limits in query strings.
  for (const value of [
    '1e309',
    '-0',
    '0x10',
    '99999999999999999999',
    '2147483648',
    '%ff%fe',
    '1'.repeat(4000),
  ]) {
    await probe(`dashboard, manuscripts ?page=${value.slice(0, 24)}`, async () =>
      said(
        await app.inject({
          url: `/dashboard/manuscripts/?page=${value}`,
          headers: { cookie: editor.cookie },
        }),
      ),
    );
    await probe(`4.6 ?limit=${value.slice(0, 24)}`, async () =>
      said(await app.inject({ url: `/api/external/recommend-journals/marks-100k/?limit=${value}`, headers })),
    );
  }
  await probe('4.6, limit repeated 1,500 times', async () =>
    said(
      await app.inject({
        url: `/api/external/recommend-journals/marks-100k/?${'limit=5&'.repeat(1_000)}`,
        headers,
      }),
    ),
  );
  await probe('dashboard, manuscripts ?page[]=1&page[a]=2 x 500', async () =>
    said(
      await app.inject({
        url: `/dashboard/manuscripts/?${'page[]=1&page[a]=2&'.repeat(500)}`,
        headers: { cookie: editor.cookie },
      }),
    ),
  );

  // 3. The pages a flood asks for.
  for (const [url, n] of [
    ['/openapi.json', 200],
    ['/docs', 200],
    ['/docs/json', 200],
    ['/healthz', 5_000],
    ['/readyz', 5_000],
  ] as const) {
    await probe(`${url} x ${n}`, async () => {
      const statuses = new Map<number, number>();
      let bytes = 0;
      for (let i = 0; i < n; i += 50) {
        const answers = await Promise.all(
          Array.from({ length: Math.min(50, n - i) }, () => app.inject({ url })),
        );
        for (const a of answers) {
          statuses.set(a.statusCode, (statuses.get(a.statusCode) ?? 0) + 1);
          bytes += a.rawPayload.length;
        }
      }
      return `${[...statuses].map(([s, k]) => `${k} × ${s}`).join(', ')}, ${(bytes / n / 1024).toFixed(1)} KB each`;
    });
  }

  await app.close();
});

if (process.env.BENCH_JSON === '1') console.log(JSON.stringify(results));
