// Round 25: the corpus as hostile input. OpenAlex records are outside data that `refmatch ingest`
// reads (src/corpus/); this bench writes files of records built to cost, and reads each through the
// ingest's reader (`readBatches` with the works kind: lines read, parsed, turned into rows and staged,
// everything but the database's write) in a child process of its own, so that a probe that runs the
// process out of memory is reported as such instead of ending the bench. Per probe: the lines
// ingested and refused (the first refusal's reason), CPU and wall time, the child's peak RSS, and the
// ratio of CPU and RSS to a benign file of the same size read in the same run.
//
//   npm run bench:hostile-corpus                          # this checkout
//   BENCH_ROOT=<checkout> npm run bench:hostile-corpus    # another (the "before")
//   BENCH_ONLY=<text> ...                                 # only the probes whose label holds it
//   BENCH_INGEST=1 ...                                    # also the whole ingest of the mixed file into PGlite
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import { once } from 'node:events';

const root = path.resolve(process.env.BENCH_ROOT ?? path.join(import.meta.dirname, '..'));
const fromRoot = <M>(relative: string) => import(pathToFileURL(path.join(root, relative)).href) as Promise<M>;

interface Outcome {
  records: number;
  bad: number;
  firstBad: string | null;
  cpuMs: number;
  wallMs: number;
  peakRssMb: number;
  error: string | null;
}

/** In the child: reads `file` as the ingest does (or ingests it into PGlite) and prints an Outcome. */
async function child(file: string, mode: string, batchSize?: number): Promise<void> {
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  let records = 0;
  let bad = 0;
  let firstBad: string | null = null;
  let error: string | null = null;
  try {
    if (mode === 'ingest') {
      const [{ openPglite }, { migrate }, { ingestFiles }, { worksKind }] = await Promise.all([
        fromRoot<typeof import('../src/infra/db/pglite.ts')>('src/infra/db/pglite.ts'),
        fromRoot<typeof import('../src/infra/db/migrate.ts')>('src/infra/db/migrate.ts'),
        fromRoot<typeof import('../src/corpus/ingest/ingest.ts')>('src/corpus/ingest/ingest.ts'),
        fromRoot<typeof import('../src/corpus/openalex/entities.ts')>('src/corpus/openalex/entities.ts'),
      ]);
      const db = await openPglite({});
      await migrate(db);
      const report = await ingestFiles({ db, progress: () => {} }, worksKind, [file], batchSize, {
        parseThread: 'never',
      });
      records = report.records;
      bad = report.bad_count;
      firstBad = report.files[0]?.bad_records[0]?.reason ?? null;
      const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM works');
      firstBad = `${rows[0]!.n} works stored; ${firstBad ?? ''}`;
      await db.close();
    } else {
      const [{ readBatches }, { worksKind }] = await Promise.all([
        fromRoot<typeof import('../src/corpus/ingest/batches.ts')>('src/corpus/ingest/batches.ts'),
        fromRoot<typeof import('../src/corpus/openalex/entities.ts')>('src/corpus/openalex/entities.ts'),
      ]);
      const stream = await readBatches(worksKind, file, 0, 100);
      for (;;) {
        const batch = await stream.next();
        if (!batch) break;
        records += batch.records;
        bad += batch.bad.length;
        firstBad ??= batch.bad[0]?.reason ?? null;
        stream.committed(batch.seq);
      }
      await stream.close();
    }
  } catch (e) {
    error = (e as Error).message.slice(0, 120);
  }
  const u = process.cpuUsage(cpu0);
  const outcome: Outcome = {
    records,
    bad,
    firstBad: firstBad?.slice(0, 120) ?? null,
    cpuMs: Math.round((u.user + u.system) / 1000),
    wallMs: Math.round(performance.now() - started),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    error,
  };
  process.stdout.write(`${JSON.stringify(outcome)}\n`);
}

let counter = 0;
function work(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  counter++;
  return {
    id: `https://openalex.org/W${9_000_000_000 + counter}`,
    title: `A study of hostile records, number ${counter}`,
    publication_year: 2021,
    type: 'article',
    cited_by_count: 3,
    abstract_inverted_index: { We: [0], study: [1], records: [2] },
    authorships: [],
    referenced_works: [],
    ...overrides,
  };
}

const word = (i: number) => `w${i.toString(36)}`;
const author = (i: number, extra: Record<string, unknown> = {}) => ({
  author: { id: `https://openalex.org/A${5_000_000_000 + i}`, display_name: `Author Number ${word(i)}` },
  institutions: [],
  raw_affiliation_strings: [`Department ${i}, University of Somewhere`],
  ...extra,
});
const institution = (i: number) => ({
  id: `https://openalex.org/I${7_000_000_000 + i}`,
  display_name: `Institute of Studies ${word(i)}`,
  country_code: 'DE',
});

/** A benign work of about `bytes` bytes: an abstract of distinct words, each at its own position. */
function benignOfSize(bytes: number): Record<string, unknown> {
  const index: Record<string, number[]> = {};
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    index[`${word(i)}x`] = [i % 100_000];
    size += word(i).length + 12;
  }
  return work({ abstract_inverted_index: index });
}

const lines = (records: unknown[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;

/** Writes `count` copies of `part` (then `tail`) gzipped into `file`, streaming. */
async function gzipRepeated(file: string, head: string, part: string, count: number, tail: string) {
  const gzip = createGzip({ level: 9 });
  const out = createWriteStream(file);
  gzip.pipe(out);
  gzip.write(head);
  const block = part.repeat(Math.max(1, Math.floor((1 << 20) / part.length)));
  const perBlock = Math.max(1, Math.floor((1 << 20) / part.length));
  for (let n = 0; n < count; n += perBlock) {
    if (!gzip.write(block)) await once(gzip, 'drain');
  }
  gzip.end(tail);
  await once(out, 'finish');
}

interface Probe {
  label: string;
  /** Writes the probe's file into dir; returns its path. */
  make(dir: string): Promise<string>;
  /** The label of the benign probe it is compared with. */
  baseline?: string;
  mode?: 'read' | 'ingest';
  /** The ingest's batch size (its default when not given). */
  batchSize?: number;
}

const LONG_WORD = 'a'.repeat(10_000);
const positions = (n: number) => Array.from({ length: n }, (_, i) => i);
const write = async (dir: string, name: string, text: string) => {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
};

const probes: Probe[] = [
  {
    label: 'benign: 1 work of 1 MB (an abstract of distinct words)',
    make: (dir) => write(dir, 'benign-1mb.jsonl', lines([benignOfSize(1 << 20)])),
  },
  {
    label: 'index: one 10,000-character word at 100,000 positions (0.6 MB line, 1 GB abstract)',
    baseline: 'benign: 1 work of 1 MB',
    make: (dir) =>
      write(
        dir,
        'index-amplified.jsonl',
        lines([work({ abstract_inverted_index: { [LONG_WORD]: positions(100_000) } }), work()]),
      ),
  },
  {
    label: 'index: one 1,000-character word at 100,000 positions (0.6 MB line, 100 MB abstract)',
    baseline: 'benign: 1 work of 1 MB',
    make: (dir) =>
      write(
        dir,
        'index-amplified-small.jsonl',
        lines([
          work({ abstract_inverted_index: { [LONG_WORD.slice(0, 1000)]: positions(100_000) } }),
          work(),
        ]),
      ),
  },
  {
    label: 'index: the same, keys escaped (the string path)',
    baseline: 'benign: 1 work of 1 MB',
    make: (dir) =>
      write(
        dir,
        'index-amplified-escaped.jsonl',
        lines([
          work({
            abstract_inverted_index: { [`\t${LONG_WORD.slice(0, 1000)}`]: positions(100_000), x: [5] },
          }),
          work(),
        ]),
      ),
  },
  {
    label: 'benign: 1 work of 4 MB (an abstract of distinct words)',
    make: (dir) => write(dir, 'benign-4mb.jsonl', lines([benignOfSize(4 << 20)])),
  },
  {
    label: 'authorships: one author at 40,000 institutions (4 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'institutions.jsonl',
        lines([
          work({
            authorships: [
              author(1, { institutions: Array.from({ length: 40_000 }, (_, i) => institution(i)) }),
            ],
          }),
          work(),
        ]),
      ),
  },
  {
    label: 'authorships: 40,000 of one author id, each a raw name of its own (4 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'variants.jsonl',
        lines([
          work({
            authorships: Array.from({ length: 40_000 }, (_, i) => ({
              ...author(1),
              raw_author_name: `Author N. ${word(i)}`,
            })),
          }),
          work(),
        ]),
      ),
  },
  {
    label: 'authorships: 40,000 distinct authors (4 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'authors.jsonl',
        lines([work({ authorships: Array.from({ length: 40_000 }, (_, i) => author(i)) }), work()]),
      ),
  },
  {
    label: 'referenced_works: 200,000 ids (5 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'references.jsonl',
        lines([
          work({
            referenced_works: Array.from(
              { length: 200_000 },
              (_, i) => `https://openalex.org/W${1_000_000 + i}`,
            ),
          }),
          work(),
        ]),
      ),
  },
  {
    label: 'nesting: a member 1,000,000 arrays deep (2 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'deep.jsonl',
        `${JSON.stringify(work()).slice(0, -1)},"concepts":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}\n${JSON.stringify(work())}\n`,
      ),
  },
  {
    label: 'nesting: an index 1,000,000 objects deep (the string path, 8 MB line)',
    baseline: 'benign: 1 work of 4 MB',
    make: (dir) =>
      write(
        dir,
        'deep-index.jsonl',
        `${JSON.stringify(work()).slice(0, -1)},"abstract_inverted_index":${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}}\n${JSON.stringify(work())}\n`,
      ),
  },
  {
    label: 'text: invalid UTF-8 and lone surrogates in title and names',
    baseline: 'benign: 1 work of 1 MB',
    make: async (dir) => {
      const file = path.join(dir, 'utf8.jsonl');
      const good = JSON.stringify(work({ title: 'A title \\ud800 with \\udfff lone halves' })).replaceAll(
        '\\\\u',
        '\\u',
      );
      const bytes = Buffer.concat([
        Buffer.from(`${good}\n`),
        Buffer.from(`${JSON.stringify(work({ title: 'bad XX bytes' })).replace('XX', '\u0000\u0000')}\n`),
        Buffer.from(JSON.stringify(work({ title: 'invalid: ' }))),
        Buffer.from([0x0a]),
      ]);
      // Two bytes no UTF-8 has (0xC0 0xFF) inside the second title.
      const at = bytes.indexOf(Buffer.from('bad ')) + 4;
      bytes[at] = 0xc0;
      bytes[at + 1] = 0xff;
      await writeFile(file, bytes);
      return file;
    },
  },
  {
    label: 'benign: 100 MB of works (1,600 of 64 KB)',
    make: (dir) => {
      const record = lines([benignOfSize(64 << 10)]);
      const text = Array.from({ length: 1600 }, (_, i) => record.replace('W9', `W${8000 + i}`)).join('');
      return write(dir, 'benign-100mb.jsonl', text);
    },
  },
  {
    label: '.gz bomb: one line of 1 GB (no LF; 1 MB compressed)',
    baseline: 'benign: 100 MB of works',
    make: async (dir) => {
      const file = path.join(dir, 'bomb-line.jsonl.gz');
      const head = `${JSON.stringify(work()).slice(0, -1)},"title":"`;
      await gzipRepeated(file, head, 'a'.repeat(1024), 1 << 20, `"}\n${JSON.stringify(work())}\n`);
      return file;
    },
  },
  {
    label: '.gz bomb: a whole-file JSON array padded to 1 GB (1 MB compressed)',
    baseline: 'benign: 100 MB of works',
    make: async (dir) => {
      const file = path.join(dir, 'bomb-array.json.gz');
      await gzipRepeated(
        file,
        `[\n${JSON.stringify(work())},\n`,
        ' '.repeat(1024),
        1 << 20,
        `${JSON.stringify(work())}\n]\n`,
      );
      return file;
    },
  },
  {
    label: 'ingest into PGlite: the mixed file (hostile lines between good works)',
    mode: 'ingest',
    make: async (dir) => {
      const text = [
        work(),
        work({ abstract_inverted_index: { [LONG_WORD]: positions(100_000) } }),
        work(),
        work({
          authorships: [
            author(1, { institutions: Array.from({ length: 40_000 }, (_, i) => institution(i)) }),
          ],
        }),
        work(),
      ].map((r) => JSON.stringify(r));
      text.splice(3, 0, `${JSON.stringify(work()).slice(0, -1)},"title":"${'b'.repeat(40 << 20)}"}`);
      return write(dir, 'mixed.jsonl', `${text.join('\n')}\n`);
    },
  },
  {
    label: 'ingest into PGlite: 6 works a batch each, one author id under 30,000 new raw names in each',
    mode: 'ingest',
    batchSize: 1,
    make: (dir) =>
      write(
        dir,
        'many-names.jsonl',
        lines(
          Array.from({ length: 6 }, (_, w) =>
            work({
              authorships: Array.from({ length: 30_000 }, (_, i) => ({
                ...author(1),
                raw_author_name: `Author N. ${word(w * 30_000 + i)}`,
              })),
            }),
          ),
        ),
      ),
  },
];

if (process.argv[2] === '--child') {
  await child(
    process.argv[3]!,
    process.argv[4] ?? 'read',
    process.argv[5] ? Number(process.argv[5]) : undefined,
  );
} else {
  const only = process.env.BENCH_ONLY;
  const dir = await mkdtemp(path.join(tmpdir(), 'hostile-corpus-'));
  const head = (() => {
    try {
      return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  })();
  console.log(`checkout ${root} (${head}); each probe read in a child process (--max-old-space-size=4096)`);
  const results = new Map<string, Outcome>();
  try {
    for (const probe of probes) {
      if (only && !probe.label.includes(only) && !probe.label.startsWith('benign')) continue;
      if (probe.mode === 'ingest' && !process.env.BENCH_INGEST) continue;
      const file = await probe.make(dir);
      const size = (await stat(file)).size;
      const run = spawnSync(
        process.execPath,
        [
          '--max-old-space-size=4096',
          '--import',
          'tsx',
          import.meta.filename,
          '--child',
          file,
          probe.mode ?? 'read',
        ],
        { encoding: 'utf8', env: { ...process.env }, maxBuffer: 1 << 20 },
      );
      const last = run.stdout.trim().split('\n').pop() ?? '';
      let outcome: Outcome;
      try {
        outcome = JSON.parse(last) as Outcome;
      } catch {
        const why = run.signal ?? `exit ${run.status}`;
        const said = (run.stderr.match(/(FATAL ERROR[^\n]*|RangeError[^\n]*|Error:[^\n]*)/) ?? [''])[0];
        outcome = {
          records: 0,
          bad: 0,
          firstBad: null,
          cpuMs: NaN,
          wallMs: NaN,
          peakRssMb: NaN,
          error: `child died (${why}) ${said}`.slice(0, 140),
        };
      }
      results.set(probe.label, outcome);
      const base = probe.baseline
        ? [...results].find(([label]) => label.startsWith(probe.baseline!))?.[1]
        : undefined;
      const ratio = (a: number, b: number | undefined) =>
        b && Number.isFinite(a) ? `${(a / b).toFixed(1)}x` : '-';
      console.log(
        [
          probe.label,
          `  file ${(size / 1e6).toFixed(2)} MB; ${outcome.records} records, ${outcome.bad} refused${outcome.firstBad ? ` (${outcome.firstBad})` : ''}${outcome.error ? `; ERROR ${outcome.error}` : ''}`,
          `  CPU ${outcome.cpuMs} ms (${ratio(outcome.cpuMs, base?.cpuMs)} of its baseline), wall ${outcome.wallMs} ms, peak RSS ${outcome.peakRssMb} MB (${ratio(outcome.peakRssMb, base?.peakRssMb)})`,
        ].join('\n'),
      );
      await rm(file, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
