// The author-from-group endpoints (spec 4.1-4.4) at their caps, in process (PGlite, `buildApp`,
// default limits): the largest bodies the limits allow (a 1 MiB JSON body: every list at 1,000 items,
// affiliations and titles as long as the body lets them be, 200 custom fields), written by a name
// the corpus shares with many authors who state many affiliations; then read, partial update and
// delete, and two deletes of one record at once. Prints wall, CPU and heap growth per probe, and the
// statuses answered.
//
//   npx tsx bench/hostile-authors.ts
//   BENCH_ROOT=<another checkout> npx tsx bench/hostile-authors.ts   (its src, the same probes)
//   BENCH_BEFORE=<another checkout> npx tsx bench/hostile-authors.ts (it, then this one; ratios)
//   BENCH_NAMESAKES (default 20): corpus authors named as the record; BENCH_STATED (default 25):
//   affiliations each of them states; BENCH_HYPER_WORKS (200) works of BENCH_HYPER_AUTHORS (2,000)
//   authors each, a large collaboration's; BENCH_READS (100): reads of the largest record in a loop; BENCH_ONLY: only the bodies whose label contains it
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  checkoutApp,
  fromCheckout,
  printBeforeAfter,
  probesOnCheckout,
  startCheckoutApp,
} from './lib/checkout.ts';

const { createOrganization } = await checkoutApp();
const { createGroup } = await fromCheckout<typeof import('../src/authors-groups/store.ts')>(
  'src/authors-groups/store.ts',
);
const { createCustomField } = await fromCheckout<typeof import('../src/custom-fields/store.ts')>(
  'src/custom-fields/store.ts',
);
const { ingestFiles } = await fromCheckout<typeof import('../src/corpus/ingest/ingest.ts')>(
  'src/corpus/ingest/ingest.ts',
);
const { worksKind } = await fromCheckout<typeof import('../src/corpus/openalex/entities.ts')>(
  'src/corpus/openalex/entities.ts',
);

const NAMESAKES = Number(process.env.BENCH_NAMESAKES ?? 20);
const STATED = Number(process.env.BENCH_STATED ?? 25);
const ONLY = process.env.BENCH_ONLY ?? '';
const HYPER_WORKS = Number(process.env.BENCH_HYPER_WORKS ?? 200);
const HYPER_AUTHORS = Number(process.env.BENCH_HYPER_AUTHORS ?? 2000);
const NAME = 'Wei Wang';
const BODY_LIMIT = 1024 * 1024;
const READS = Number(process.env.BENCH_READS ?? 100);

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** A string of about `length` characters, different for each `seed`, that reads as an affiliation. */
function affiliation(seed: number, length: number): string {
  const head = `Department of Physics ${seed}, University of Hostile Town ${seed}, `;
  return (head + 'Faculty of Things Studied Far Away '.repeat(Math.ceil(length / 35))).slice(0, length);
}

/** Items as long as the body allows, `count` of them, inside `bytes` of JSON. */
function fill(count: number, bytes: number, make: (i: number, length: number) => string): string[] {
  const length = Math.min(2000, Math.floor(bytes / count) - 4);
  return Array.from({ length: count }, (_, i) => make(i, length));
}

interface Result {
  name: string;
  status: number;
  wall: number;
  cpu: number;
  heap: number;
}

const JSON_OUT = process.env.BENCH_JSON === '1';
const results: Result[] = [];

function line(r: Result): string {
  const heap = `${r.heap >= 0 ? '+' : ''}${r.heap.toFixed(1)} MB`;
  return `${r.status}, wall ${r.wall.toFixed(0)} ms, CPU ${r.cpu.toFixed(0)} ms, heap ${heap}`;
}

async function main(): Promise<void> {
  const { db, app, config } = await startCheckoutApp();
  const org = await createOrganization(db, { name: 'Hostile', features: ['referee_finder'] });
  const group = await createGroup(db, org.id, 'Pool');
  const headers = { 'x-apikey': org.api_key };

  // Namesakes of the record's name, each on works stating affiliations of its own.
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hostile-authors-'));
  const works = [];
  for (let a = 0; a < NAMESAKES; a++) {
    for (let w = 0; w < STATED; w++) {
      works.push({
        id: `https://openalex.org/W9${String(a * STATED + w).padStart(8, '0')}`,
        doi: `https://doi.org/10.5555/hostile.${a}.${w}`,
        title: `A study of namesake ${a} number ${w}`,
        publication_year: 2020,
        type: 'article',
        cited_by_count: 0,
        is_retracted: false,
        authorships: [
          {
            author_position: 'first',
            author: { id: `https://openalex.org/A9${String(a).padStart(8, '0')}`, display_name: NAME },
            institutions: [],
            raw_author_name: NAME,
            raw_affiliation_strings: [`Institute ${a}-${w} of Corpus Studies, Corpus City`],
          },
        ],
        referenced_works: [],
      });
    }
  }
  const file = path.join(dir, 'works.jsonl');
  await writeFile(file, `${works.map((w) => JSON.stringify(w)).join('\n')}\n`);
  await ingestFiles({ db, progress: () => {} }, worksKind as never, [file]);

  // Works of a large collaboration: every one of HYPER_WORKS written by the same HYPER_AUTHORS.
  await db.query(
    `INSERT INTO authors (author_key, display_name, name_key)
     SELECT 'H' || i, 'Collaborator ' || i || ' Wang', 'wang' FROM generate_series(1, $1::integer) i`,
    [HYPER_AUTHORS],
  );
  await db.query(
    `INSERT INTO works (work_key, title, doi)
     SELECT 'HW' || i, 'Collaboration paper ' || i, '10.5555/big.' || i FROM generate_series(1, $1::integer) i`,
    [HYPER_WORKS],
  );
  await db.query(
    `INSERT INTO authorships (work_id, position, author_id)
     SELECT w.id, row_number() OVER (PARTITION BY w.id ORDER BY a.id), a.id
       FROM works w JOIN authors a ON a.author_key LIKE 'H%' WHERE w.work_key LIKE 'HW%'`,
  );

  const fields: string[] = [];
  for (let i = 0; i < config.limits.custom_fields; i++) {
    const field = await createCustomField(db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: `Field ${i}`,
    });
    fields.push(field.api_id);
  }

  const url = (clientId: string, partial = false) =>
    `/api/external/author-from-group/${group.group_id}/${clientId}/${partial ? 'partial/' : ''}`;

  async function probe(name: string, send: () => Promise<number>): Promise<void> {
    const heap0 = process.memoryUsage().heapUsed;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    const status = await send();
    const wall = performance.now() - t0;
    const cpu = cpuMs() - cpu0;
    const heap = (process.memoryUsage().heapUsed - heap0) / 1024 / 1024;
    results.push({ name, status, wall, cpu, heap });
    if (!JSON_OUT) console.log(`${name}: ${line({ name, status, wall, cpu, heap })}`);
  }
  const post =
    (clientId: string, body: unknown, partial = false) =>
    async () =>
      (await app.inject({ method: 'POST', url: url(clientId, partial), headers, payload: body as object }))
        .statusCode;
  const budget = BODY_LIMIT - 4096;

  const bodies: Record<string, Record<string, unknown>> = {
    'affiliations 1,000 × ~1,000 characters': {
      name: NAME,
      affiliations: fill(1000, budget, (i, n) => affiliation(i, n)),
    },
    'affiliations 500 × 2,000 characters': {
      name: NAME,
      affiliations: fill(500, budget, (i, n) => affiliation(i, n)),
    },
    'affiliations 1,000 × ~1,000 characters of one segment (cores as long)': {
      name: NAME,
      affiliations: fill(1000, budget, (i, n) =>
        `University of ${i} ${'corpus studies institute '.repeat(Math.ceil(n / 25))}`.slice(0, n),
      ),
    },
    'articles 1,000 titles × ~1,000 characters': {
      name: NAME,
      articles: fill(1000, budget, (i, n) => `A title ${i} ${'of words '.repeat(n)}`.slice(0, n)),
    },
    'articles 1,000 DOIs of the namesakes': {
      name: NAME,
      articles: Array.from({ length: 1000 }, (_, i) => `10.5555/hostile.${i % NAMESAKES}.${i % STATED}`),
    },
    'articles 1,000 DOIs of works of a large collaboration': {
      name: NAME,
      articles: Array.from({ length: 1000 }, (_, i) => `10.5555/big.${1 + (i % HYPER_WORKS)}`),
    },
    'every list 1,000 items, ~250 bytes each': {
      name: 'W'.repeat(1000),
      emails: fill(1000, budget / 4, (i, n) => `${'e'.repeat(n - 20)}${i}@example.org`),
      orcids: Array.from({ length: 1000 }, (_, i) => `0000-0002-${String(1000 + i).padStart(4, '0')}-000X`),
      articles: fill(1000, budget / 4, (i, n) => `10.1234/${'x'.repeat(n - 12)}${i}`),
      affiliations: fill(1000, budget / 4, (i, n) => affiliation(i, n)),
    },
    '200 custom fields × 5,000 characters': {
      name: NAME,
      ...Object.fromEntries(fields.map((id) => [id, 'v'.repeat(Math.floor(budget / fields.length) - 60)])),
    },
  };
  let n = 0;
  for (const [label, body] of Object.entries(bodies)) {
    if (!label.includes(ONLY)) continue;
    const bytes = Buffer.byteLength(JSON.stringify(body));
    await probe(`4.2 create, ${label} (${(bytes / 1024).toFixed(0)} KiB)`, post(`c${++n}`, body));
    // The same lists in reverse order: new linking inputs, so the linker runs again.
    const reversed = Object.fromEntries(
      Object.entries(body).map(([k, v]) => [k, Array.isArray(v) ? [...(v as unknown[])].reverse() : v]),
    );
    await probe(`4.3 partial, ${label}`, post(`c${n}`, reversed, true));
    await probe(
      `4.1 read, ${label}`,
      async () => (await app.inject({ url: url(`c${n}`), headers })).statusCode,
    );
  }
  await post('d', { name: NAME })();
  await probe('4.4 delete, twice at once', async () => {
    const both = await Promise.all(
      [0, 1].map(() => app.inject({ method: 'DELETE', url: url('d'), headers })),
    );
    return Number(both.map((r) => r.statusCode).join(''));
  });
  // One key reading the first record written (the largest) in a loop, 4 at once.
  await probe(`4.1 read ×${READS} of the first record, 4 at once (statuses: ×200 / ×429)`, async () => {
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next++ < READS) statuses.push((await app.inject({ url: url('c1'), headers })).statusCode);
      }),
    );
    return statuses.filter((s) => s === 200).length * 1000 + statuses.filter((s) => s === 429).length;
  });
  await app.close();
}

const BEFORE = process.env.BENCH_BEFORE;
const before = BEFORE ? probesOnCheckout<Result>(import.meta.filename, BEFORE) : null;
await main();
if (JSON_OUT) console.log(JSON.stringify(results));
if (BEFORE && before) printBeforeAfter(BEFORE, before, results, line);
