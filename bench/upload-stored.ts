// npx tsx bench/upload-stored.ts: what one API key's uploads store and cost, in process on PGlite
// with the default limits (docs/benchmarks/hostile-files.md, round 8).
//   1. A flood of uploads, 8 at once for BENCH_SECONDS (default 30), each a new origin_id:
//      `form`, 1,000 authors of 1,000-character names and 2,000-character affiliations with a
//      2,000-character title and a 100,000-character abstract (random text, as stored: it does not
//      compress); `file`, a small form and a DOCX whose reference list of random entries fills the
//      text limit. Answers by status, manuscripts stored, growth of the manuscripts table, CPU.
//   2. On the demo corpus: a DOCX whose reference list of the corpus's own titles fills the text
//      limit, uploaded with candidates, then its journal recommendation (4.6) three times, beside a
//      normal 40-reference DOCX: CPU of each.
// BENCH_ROOT=<another checkout> runs the same against that checkout's src and migrations (before).
// BENCH_PARTS=flood,recommend (default both).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/infra/db/index.ts';
import { makeDocx, paragraph } from '../test/parsing/make-files.ts';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PARTS = (process.env.BENCH_PARTS ?? 'flood,recommend').split(',');
const MB = 1024 * 1024;

const { buildApp, parseConfig, openPglite, migrate, createOrganization } = await checkoutApp();
const { ensureDemoCorpus } = await fromCheckout<typeof import('../src/corpus/ingest/demo-corpus.ts')>(
  'src/corpus/ingest/demo-corpus.ts',
);

const random = (n: number) => randomBytes(n).toString('base64').replace(/[+/=]/g, 'x').slice(0, n);
function words(n: number): string {
  const out: string[] = [];
  for (let length = 0; length < n;) {
    const word = random(3 + (length % 7));
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, n);
}
/** Units until their characters reach `chars`. */
function fill(unit: (i: number) => string, chars: number): string[] {
  const out: string[] = [];
  for (let i = 0, n = 0; n < chars; i++) {
    const u = unit(i);
    out.push(u);
    n += u.length;
  }
  return out;
}
const cpuSeconds = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function encode(fields: Record<string, string>, file: Uint8Array | null) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('source_file', new Blob([file]), 'paper.docx');
  const request = new Request('http://bench/', { method: 'POST', body: form });
  return { type: request.headers.get('content-type')!, bytes: Buffer.from(await request.arrayBuffer()) };
}

async function start(db: Database): Promise<{ app: FastifyInstance; apiKey: string }> {
  const config = {
    ...parseConfig({ LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'http://bench', REFMATCH_DEMO: 'false' }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  const org = await createOrganization(db, {
    name: `bench ${Date.now()}`,
    features: ['referee_finder', 'recommend_journals'],
  });
  return { app, apiKey: org.api_key };
}

async function flood(shape: 'form' | 'file'): Promise<void> {
  const db = await openPglite();
  await migrate(db, `${CHECKOUT}/migrations`);
  const { app, apiKey } = await start(db);
  const file =
    shape === 'file'
      ? makeDocx([
          paragraph('A Study', 'Title'),
          paragraph('References', 'Heading1'),
          ...fill(
            (i) =>
              paragraph(
                `${random(8)}, A., ${random(8)}, B. (${1990 + (i % 30)}). ${words(60)}. ${random(12)}, 12(3), 45-67.`,
              ),
            15 * MB,
          ),
        ])
      : null;
  const fields = (originId: string): Record<string, string> => {
    const f: Record<string, string> = { folder: 'F', origin_id: originId, exclude_candidates: '1' };
    if (shape === 'file')
      return { ...f, title: 'A study', abstract: '', authors_count: '1', author1_name: 'Ada' };
    Object.assign(f, { title: words(2000), abstract: words(100_000), authors_count: '1000' });
    for (let k = 1; k <= 1000; k++) {
      f[`author${k}_name`] = words(1000);
      f[`author${k}_aff`] = words(2000);
    }
    return f;
  };
  // Four bodies of random text, each sent again under a new origin_id of the same length.
  const bodies = await Promise.all([0, 1, 2, 3].map((i) => encode(fields(`tmpl${i}`), file)));
  const tableBytes = async () =>
    Number((await db.query<{ s: string }>(`SELECT pg_total_relation_size('manuscripts') AS s`)).rows[0]!.s);
  const before = await tableBytes();
  const statuses = new Map<number, number>();
  const cpu = process.cpuUsage();
  const end = Date.now() + SECONDS * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (Date.now() < end) {
        const body = bodies[sent % 4]!;
        const id = `o${String(sent++ % 10_000).padStart(4, '0')}`;
        const payload = Buffer.from(body.bytes.toString('latin1').replace(/tmpl\d/, id), 'latin1');
        const res = await app.inject({
          method: 'POST',
          url: '/api/external/proposal/',
          headers: { 'x-apikey': apiKey, 'content-type': body.type },
          payload,
        });
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode === 429) await new Promise((r) => setTimeout(r, 200));
      }
    }),
  );
  const spent = cpuSeconds(cpu);
  const stored = Number((await db.query<{ c: string }>('SELECT count(*) AS c FROM manuscripts')).rows[0]!.c);
  console.log(
    `flood ${shape}, ${SECONDS} s: request ${(bodies[0]!.bytes.length / MB).toFixed(2)} MB; answers ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `manuscripts stored ${stored}; table grew ${(((await tableBytes()) - before) / MB) | 0} MB; CPU ${spent.toFixed(1)} s`,
  );
  await app.close();
  await db.close();
}

async function recommend(): Promise<void> {
  const db = await openPglite();
  await migrate(db, `${CHECKOUT}/migrations`);
  await ensureDemoCorpus(db, () => {});
  const { app, apiKey } = await start(db);
  const works = (
    await db.query<{ title: string; y: number }>(
      'SELECT title, publication_year AS y FROM works WHERE title IS NOT NULL ORDER BY id LIMIT 5000',
    )
  ).rows;
  const entry = (i: number) => {
    const w = works[i % works.length]!;
    return paragraph(`Author${i % 50}, A., Writer, B. (${w.y}). ${w.title}. In Proceedings of ACL, 45-67.`);
  };
  const head = [
    paragraph('Neural machine translation for low resource languages', 'Title'),
    paragraph('Jane Roe, John Public'),
    paragraph('Abstract'),
    paragraph('We study neural machine translation and parsing. '.repeat(20)),
  ];
  const files = {
    'normal (40 references)': makeDocx([
      ...head,
      paragraph('Body. '.repeat(200)),
      paragraph('References', 'Heading1'),
      ...Array.from({ length: 40 }, (_, i) => entry(i)),
    ]),
    'reference list filling the text limit': makeDocx([
      ...head,
      paragraph('References', 'Heading1'),
      ...fill(entry, 15 * MB),
    ]),
  };
  let n = 0;
  for (const [name, file] of Object.entries(files)) {
    const originId = `r${n++}`;
    const fields = {
      folder: 'F',
      origin_id: originId,
      title: 'T',
      abstract: '',
      authors_count: '1',
      author1_name: 'Ada Lovelace',
    };
    const body = await encode(fields, file);
    const cpu = process.cpuUsage();
    const res = await app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { 'x-apikey': apiKey, 'content-type': body.type },
      payload: body.bytes,
    });
    const uploadCpu = cpuSeconds(cpu);
    const info = (res.json() as { debug_info: { parsed_references: number } }).debug_info;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = process.cpuUsage();
      await app.inject({
        method: 'GET',
        url: `/api/external/recommend-journals/${originId}/`,
        headers: { 'x-apikey': apiKey },
      });
      times.push(Math.round(cpuSeconds(c) * 1000));
    }
    const row = (
      await db.query<{ refs: number }>(
        `SELECT pg_column_size("references") AS refs FROM manuscripts WHERE origin_id = $1`,
        [originId],
      )
    ).rows[0]!;
    console.log(
      `${name}, ${(file.length / 1024) | 0} KB: references kept ${info.parsed_references} (${(row.refs / 1024) | 0} KB stored); ` +
        `upload with candidates ${Math.round(uploadCpu * 1000)} ms CPU (in-process parse included); recommendation CPU ms ${times.join(', ')}`,
    );
  }
  await app.close();
  await db.close();
}

console.log(`# bench/upload-stored.ts, ${new Date().toISOString()}, src of ${CHECKOUT}`);
if (PARTS.includes('flood')) {
  await flood('form');
  await flood('file');
}
if (PARTS.includes('recommend')) await recommend();
process.exit(0);
