// The upload (spec 4.5) and the journal recommendation (4.6) at their caps, in process (PGlite over
// the demo corpus, `buildApp`, default limits): the longest title and abstract the form allows
// (ASCII, CJK, one word, many tiny words, one phrase repeated), the most authors it allows, each
// with the longest name, affiliation, email and ORCID (names the corpus shares with many authors),
// the most fields, a file at the size cap (a PDF and a DOCX), extreme integers, concurrent re-posts
// of one origin_id into two folders, and 4.6 on the largest manuscript. Prints per probe: status,
// wall, CPU and heap growth, and the longest the event loop was held while it ran (the serving
// thread held by one request holds every other request): the larger of perf_hooks
// monitorEventLoopDelay's maximum and the longest gap between runs of a 1 ms timer (the monitor
// records no sample at all when the whole probe is one turn of the loop, as an upload on PGlite was),
// and the most CPU time the process spent between two runs of that timer (which a loaded machine,
// where the thread waits for a core, does not inflate).
// Bodies are handed over in 64 KiB chunks, as a socket does.
//
//   npx tsx bench/hostile-uploads.ts                   (or npm run bench:hostile-uploads)
//   BENCH_ROOT=<another checkout> npx tsx bench/hostile-uploads.ts   (its src, the same probes)
//   BENCH_BEFORE=<another checkout> npx tsx bench/hostile-uploads.ts (it, then this one; ratios)
//   BENCH_ONLY: only the probes whose label contains it; BENCH_SKIP_FILES=1: no 50 MB files
//   BENCH_STALLS=1: when each probe's longest hold of the loop ended, on the clock of the samples of
//     `node --cpu-prof --import tsx bench/hostile-uploads.ts` (what ran then: bench/profile-window.ts)
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { makeArticlePdf, makeDocx, paragraph } from '../test/parsing/make-files.ts';
import { yieldToEventLoop } from '../src/infra/event-loop.ts';
import {
  CHECKOUT,
  checkoutApp,
  fromCheckout,
  printBeforeAfter,
  probesOnCheckout,
  startCheckoutApp,
} from './lib/checkout.ts';

const ONLY = process.env.BENCH_ONLY ?? '';
const SKIP_FILES = process.env.BENCH_SKIP_FILES === '1';
const JSON_OUT = process.env.BENCH_JSON === '1';
const STALLS = process.env.BENCH_STALLS === '1';
const MB = 1024 * 1024;
// The form's caps (docs/api.md, limits): as the service documents them.
const TITLE = 2_000;
const ABSTRACT = 100_000;
const AUTHORS = Number(process.env.BENCH_AUTHORS ?? 1_000);
const NAME = 1_000;
const AFF = 2_000;
const EMAIL = 320;
const ORCID = 100;
const FIELDS = 4_200;

const { createOrganization } = await checkoutApp();
const { ensureDemoCorpus } = await fromCheckout<typeof import('../src/corpus/ingest/demo-corpus.ts')>(
  'src/corpus/ingest/demo-corpus.ts',
);

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

const random = (n: number) => randomBytes(n).toString('base64').replace(/[+/=]/g, 'x').slice(0, n);

/** Words of 3-9 random letters up to `n` characters: every one a term of its own. */
function randomWords(n: number): string {
  const out: string[] = [];
  for (let length = 0; length < n;) {
    const word = random(3 + (length % 7)).toLowerCase();
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ').slice(0, n);
}

/** `unit` repeated to exactly `n` characters. */
const repeat = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** A probe's request; `encoded`, when given, is awaited before the probe is timed. */
type Send = (() => Promise<string>) & { readonly encoded?: Promise<unknown> };

interface Result {
  name: string;
  status: string;
  wall: number;
  cpu: number;
  heap: number;
  /** Longest event-loop delay while the probe ran, ms. */
  stall: number;
  /** The most CPU time (ms) the process spent between two runs of the 1 ms timer. */
  stallCpu?: number;
}
const results: Result[] = [];

function line(r: Result): string {
  const heap = `${r.heap >= 0 ? '+' : ''}${r.heap.toFixed(1)} MB`;
  return `${r.status}, wall ${r.wall.toFixed(0)} ms, CPU ${r.cpu.toFixed(0)} ms, heap ${heap}, loop stalled ${r.stall.toFixed(0)} ms (${(r.stallCpu ?? NaN).toFixed(0)} ms CPU)`;
}

/**
 * A body in 64 KiB chunks, each in a turn of the event loop of its own, as a socket's reads arrive:
 * a sync generator's chunks were all parsed in one run of microtasks, which held the loop for the
 * whole multipart parse (400 ms of a 1,000-author form) where a server never does.
 */
async function* chunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    yield bytes.subarray(at, at + 64 * 1024);
    await yieldToEventLoop();
  }
}

/** A multipart body (the platform's FormData, as a client would send it). */
async function encode(fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file) form.append('source_file', new Blob([file.bytes]), file.name);
  const request = new Request('http://bench/', { method: 'POST', body: form });
  return { type: request.headers.get('content-type')!, bytes: Buffer.from(await request.arrayBuffer()) };
}

/**
 * The small article PDF, grown to `size` bytes by an incremental update holding one unreferenced
 * stream of random bytes (a scanned figure's weight): a valid PDF whose text is the article's.
 */
function paddedPdf(size: number): Uint8Array {
  const base = Buffer.from(makeArticlePdf('Neural machine translation for low resource languages'));
  const text = base.toString('latin1');
  const prevXref = Number(/startxref\n(\d+)/.exec(text)![1]);
  const objects = Number(/\/Size (\d+)/.exec(text)![1]);
  const digits = (v: number) => String(v).padStart(10, '0');
  const head = (length: number) => `${objects} 0 obj\n<< /Length ${digits(length)} >>\nstream\n`;
  const end = '\nendstream\nendobj\n';
  const tail = (xrefAt: number) =>
    `xref\n${objects} 1\n${digits(base.length)} 00000 n \n` +
    `trailer\n<< /Size ${objects + 1} /Root 1 0 R /Prev ${prevXref} >>\nstartxref\n${digits(xrefAt)}\n%%EOF\n`;
  // Every number written in ten digits: the parts' lengths do not depend on the values.
  const length = size - base.length - head(0).length - end.length - tail(0).length;
  const xrefAt = base.length + head(0).length + length + end.length;
  return new Uint8Array(
    Buffer.concat([
      base,
      Buffer.from(head(length), 'latin1'),
      randomBytes(length),
      Buffer.from(end + tail(xrefAt), 'latin1'),
    ]),
  );
}

/** A DOCX of a short article with a picture of random bytes (nothing to compress), `size` bytes in all. */
function paddedDocx(size: number): Uint8Array {
  const text = [
    paragraph('Neural machine translation for low resource languages', 'Title'),
    paragraph('Jane Roe, John Public'),
    paragraph('Abstract'),
    paragraph('We study neural machine translation between languages with little parallel data. '.repeat(5)),
  ];
  const picture = randomBytes(size);
  let bytes = size - makeDocx(text).length - 100;
  for (let tries = 0; ; tries++) {
    const docx = makeDocx(text, [{ name: 'word/media/image1.png', data: picture.subarray(0, bytes) }]);
    if (docx.length === size || bytes <= 0 || tries === 8) return docx;
    bytes += size - docx.length;
  }
}

async function main(): Promise<void> {
  const { db, app, config } = await startCheckoutApp('http://bench', (db) => ensureDemoCorpus(db, () => {}));
  const fileLimit = config.fileLimitBytes;
  const org = await createOrganization(db, {
    name: 'Hostile uploads',
    features: ['referee_finder', 'recommend_journals'],
  });
  const headers = { 'x-apikey': org.api_key };

  // The corpus's most shared family names, and the names written with them: manuscript authors
  // every one of whom has many namesakes to tell apart.
  const common = (
    await db.query<{ display_name: string }>(
      `SELECT a.display_name FROM authors a
         JOIN (SELECT name_key FROM authors WHERE name_key IS NOT NULL GROUP BY name_key
               ORDER BY count(*) DESC LIMIT 5) k ON k.name_key = a.name_key
        ORDER BY a.id LIMIT ${AUTHORS}`,
    )
  ).rows.map((r) => r.display_name);
  const corpusTitles = (
    await db.query<{ title: string }>(
      `SELECT title FROM works WHERE title IS NOT NULL AND abstract IS NOT NULL ORDER BY id LIMIT 2000`,
    )
  ).rows.map((r) => r.title);
  const aclText = (n: number) => repeat(corpusTitles.join('. ') + '. ', n);

  const delay = monitorEventLoopDelay({ resolution: 10 });
  // And by hand: a timer that asks to run every millisecond, and the longest gap between its runs.
  // The same gaps counted in the process's CPU time: on a shared machine at load 15 a gap of the
  // timer is mostly time the thread waited for a core (a probe of 44 ms CPU "held" the loop 353 ms).
  // CPU time counts what ran meanwhile: the serving thread, and any worker thread busy then (the
  // parser's, on the file probes: an upper bound there).
  let gap = {
    max: 0,
    last: 0,
    cpuMax: 0,
    cpuLast: 0,
    endedAt: 0n,
    timer: undefined as NodeJS.Timeout | undefined,
  };
  const tick = () => {
    const now = performance.now();
    const cpu = cpuMs();
    if (now - gap.last > gap.max) {
      gap.max = now - gap.last;
      gap.endedAt = process.hrtime.bigint() / 1000n;
    }
    gap.cpuMax = Math.max(gap.cpuMax, cpu - gap.cpuLast);
    gap.last = now;
    gap.cpuLast = cpu;
    gap.timer = setTimeout(tick, 1);
  };
  async function probe(name: string, send: Send): Promise<void> {
    if (!name.includes(ONLY)) return;
    // A form is encoded before the probe: what is measured is the service's part alone (the
    // encoding of a 3.6 MB form held the bench's own loop ~100 ms).
    await send.encoded;
    if (global.gc) global.gc();
    const heap0 = process.memoryUsage().heapUsed;
    const cpu0 = cpuMs();
    delay.reset();
    delay.enable();
    gap = {
      max: 0,
      last: performance.now(),
      cpuMax: 0,
      cpuLast: cpuMs(),
      endedAt: 0n,
      timer: setTimeout(tick, 1),
    };
    const t0 = performance.now();
    let status: string;
    try {
      status = await send();
    } catch (error) {
      status = `threw ${(error as Error).message.slice(0, 80)}`;
    }
    const wall = performance.now() - t0;
    // The monitor's timer records a turn that held the loop when it next runs: let it run once.
    await new Promise((resolve) => setTimeout(resolve, 20));
    delay.disable();
    clearTimeout(gap.timer);
    const cpu = cpuMs() - cpu0;
    const heap = (process.memoryUsage().heapUsed - heap0) / MB;
    const stall = Math.max(delay.max / 1e6, gap.max);
    const r = { name, status, wall, cpu, heap, stall, stallCpu: gap.cpuMax };
    results.push(r);
    if (!JSON_OUT) console.log(`${name}: ${line(r)}`);
    // Where to look in a profile of the run (node --cpu-prof): its samples' times are on this clock.
    if (STALLS)
      console.log(`  longest gap of the timer: ${gap.max.toFixed(0)} ms, ended at ${gap.endedAt} µs`);
  }

  const upload = async (body: { type: string; bytes: Buffer }) =>
    app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...headers, 'content-type': body.type, 'content-length': String(body.bytes.length) },
      // In 64 KiB chunks, as a socket hands a body over: one 50 MB chunk would be parsed in one turn.
      payload: Readable.from(chunks(body.bytes)),
    });
  const statusOf = (res: { statusCode: number; body: string }) => {
    if (res.statusCode === 200) {
      const body = JSON.parse(res.body) as { candidates: unknown[] | null };
      return `200 (${body.candidates === null ? 'no' : body.candidates.length} candidates)`;
    }
    const code = (JSON.parse(res.body) as { error?: { code?: string } }).error?.code ?? '';
    return `${res.statusCode} ${code}`;
  };
  let n = 0;
  const base = (extra: Record<string, string> = {}): Record<string, string> => ({
    folder: 'HOSTILE',
    origin_id: `u${++n}`,
    title: 'Neural machine translation for low resource languages',
    abstract: 'We study transfer learning for translation between languages with little parallel data.',
    authors_count: '1',
    author1_name: 'Ada Lovelace',
    ...extra,
  });
  // Encoded when the probe runs (not when it is listed: BENCH_ONLY skips most), before it is timed.
  const post = (fields: Record<string, string>, file?: { bytes: Uint8Array; name: string }): Send => {
    let body: Promise<{ type: string; bytes: Buffer }> | undefined;
    const encoded = () => (body ??= encode(fields, file));
    const send = async () => statusOf(await upload(await encoded()));
    // A getter (Object.assign would call it, encoding every form as it is listed).
    return Object.defineProperty(send, 'encoded', { get: encoded });
  };

  // Warm up the index, the parser pool and the caches: the first upload pays for them.
  await post(base())();
  await probe('normal manuscript (baseline)', post(base()));

  const abstracts: Record<string, string> = {
    'ASCII random words': randomWords(ABSTRACT),
    'ACL titles (corpus terms)': aclText(ABSTRACT),
    CJK: repeat('神经机器翻译低资源语言的迁移学习研究方法与实验结果分析。', ABSTRACT),
    'one word': repeat('a', ABSTRACT),
    'one hyphenated word': repeat('ab-', ABSTRACT - 1) + 'c',
    'many tiny words': repeat('ab ', ABSTRACT),
    'one phrase repeated': repeat('neural machine translation ', ABSTRACT),
  };
  for (const [label, abstract] of Object.entries(abstracts)) {
    const title = label === 'CJK' ? repeat('神经机器翻译', TITLE) : abstract.slice(0, TITLE);
    await probe(
      `title ${TITLE} + abstract ${ABSTRACT} characters, ${label}`,
      post(base({ title, abstract })),
    );
  }
  await probe('abstract one 1 MB word (over the cap)', post(base({ abstract: repeat('a', MB) })));
  await probe('abstract 4 MB (the field cap)', post(base({ abstract: repeat('ab ', 4 * MB) })));

  // The most authors the form allows, each at every field's cap.
  const authorFields = (names: (k: number) => string, aff: (k: number) => string) => {
    const f: Record<string, string> = { authors_count: String(AUTHORS) };
    for (let k = 1; k <= AUTHORS; k++) {
      f[`author${k}_name`] = names(k);
      f[`author${k}_aff`] = aff(k);
      f[`author${k}_email`] = `${repeat(`e${k}x`, EMAIL - 20)}@example${k % 7}.org`.slice(0, EMAIL);
      f[`author${k}_orcid`] = repeat(`0000-0002-${String(1000 + k).padStart(4, '0')}-000X `, ORCID).trim();
    }
    return f;
  };
  const longName = (k: number) => repeat(`${common[k % common.length]} `, NAME).trim();
  const institution = (k: number) =>
    repeat(
      `Department of Computer Science ${k % 50}, University of Edinburgh, Carnegie Mellon University, Institute ${k}, `,
      AFF,
    );
  await probe(
    `${AUTHORS} authors at every field's cap (${NAME}-character names of common corpus names)`,
    post(base(authorFields(longName, institution))),
  );
  await probe(
    `${AUTHORS} authors, corpus names (namesakes), ${AFF}-character affiliations`,
    post(base(authorFields((k) => common[k % common.length]!, institution))),
  );
  await probe(
    `${AUTHORS} authors, one corpus name, distinct affiliations`,
    post(
      base(
        authorFields(
          () => common[0]!,
          (k) => `${random(40)} University ${k}, ${random(30)}`,
        ),
      ),
    ),
  );
  await probe(
    `${AUTHORS} authors, corpus names, abstract ${ABSTRACT} of corpus terms, title ${TITLE}`,
    post(
      base({
        ...authorFields((k) => common[k % common.length]!, institution),
        title: aclText(TITLE),
        abstract: aclText(ABSTRACT),
      }),
    ),
  );

  // Names written to cost the most per character: every word with a letter that transliterates
  // ("ä" read as "ae" too), each author's name its own.
  await probe(
    `${AUTHORS} authors, ${NAME}-character names of umlauted words`,
    post(
      base(
        authorFields(
          (k) => `${repeat('Jürgen Müller-Lüdenschöß ', NAME - 8).trim()} X${k}`,
          (k) => `University ${k}`,
        ),
      ),
    ),
  );

  // Affiliations written to cost the most per character: every character a segment separator (no
  // segment at all), and 2,000 characters of short distinct organizations (each segment one).
  await probe(
    `${AUTHORS} authors, affiliations of ${AFF} "(" (letterless segments)`,
    post(
      base(
        authorFields(
          (k) => `Writer${k} Person`,
          (k) => `${k} ${repeat('(', AFF - 6)}`,
        ),
      ),
    ),
  );
  await probe(
    `${AUTHORS} authors, affiliations of ${AFF} characters of distinct universities`,
    post(
      base(
        authorFields(
          (k) => common[k % common.length]!,
          (k) =>
            Array.from({ length: 300 }, (_, i) => `Univ ${k}x${i}`)
              .join(',')
              .slice(0, AFF),
        ),
      ),
    ),
  );

  // The most fields: every author field of 1,000 authors, and more the form ignores.
  const most: Record<string, string> = base(
    authorFields(
      (k) => `A${k} Writer`,
      (k) => `U${k}`,
    ),
  );
  for (let i = 0; Object.keys(most).length < FIELDS; i++) most[`note${i}`] = 'x';
  await probe(`${FIELDS} fields`, post(most));
  await probe(`${FIELDS + 1} fields (over the cap)`, post({ ...most, extra_field: 'x' }));

  // Integers at and past their extremes.
  const extremes: Record<string, Record<string, string>> = {
    'authors_count 2147483647': { authors_count: '2147483647' },
    'authors_count 2147483648': { authors_count: '2147483648' },
    'authors_count -1': { authors_count: '-1' },
    'authors_count 1.5': { authors_count: '1.5' },
    'authors_count 1e3': { authors_count: '1e3' },
    'authors_count 400-digit number': { authors_count: '9'.repeat(400) },
    'min_h_index 2147483647 (nothing passes)': { min_h_index: '2147483647' },
    'every filter 0..0': {
      min_h_index: '0',
      max_h_index: '0',
      min_academic_age: '0',
      max_academic_age: '0',
      min_articles_count: '0',
      max_articles_count: '0',
    },
    'exclude_candidates false': { exclude_candidates: 'false' },
    'folder 256 characters': { folder: repeat('F', 256) },
    'folder 257 characters': { folder: repeat('F', 257) },
    'author 1001': { author1001_name: 'X' },
  };
  for (const [label, extra] of Object.entries(extremes)) {
    await probe(label, post(base(extra)));
  }

  // Re-posts of one origin_id at once, alternating two folders: one manuscript, in one of them.
  await probe(
    '8 re-posts of one origin_id at once into two folders (statuses; manuscripts, folder)',
    async () => {
      const bodies = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          encode({ ...base({ folder: i % 2 ? 'FOLDER-B' : 'FOLDER-A' }), origin_id: 'race' }),
        ),
      );
      const answers = await Promise.all(bodies.map(upload));
      const ids = new Set(
        answers.map((r) => (JSON.parse(r.body) as { manuscript_id?: number }).manuscript_id),
      );
      const stored = await db.query<{ c: number; folder: string }>(
        `SELECT count(*)::int AS c, min(f.name) AS folder FROM manuscripts m JOIN folders f ON f.id = m.folder_id
        WHERE m.origin_id = 'race'`,
      );
      const statuses = answers.map((r) => r.statusCode).join(',');
      return `${statuses}; ids ${ids.size}; rows ${stored.rows[0]!.c} in ${stored.rows[0]!.folder}`;
    },
  );

  if (!SKIP_FILES) {
    // Encoded before the probe: what is measured is the service's part alone.
    const sent = async (label: string, bytes: Uint8Array, name: string) => {
      const body = await encode(base(), { bytes, name });
      await probe(label, async () => statusOf(await upload(body)));
    };
    const pdf = paddedPdf(fileLimit);
    const docx = paddedDocx(fileLimit);
    await sent(`PDF at the file cap (${(pdf.length / MB).toFixed(1)} MB)`, pdf, 'p.pdf');
    await sent(`DOCX at the file cap (${(docx.length / MB).toFixed(1)} MB)`, docx, 'p.docx');
    await sent('PDF one byte over the file cap', paddedPdf(fileLimit + 1), 'p.pdf');
  }

  // A DOCX read to the text limit (PARSE_MAX_CHARS, 2 M characters of prose): what the manuscript
  // stores then, carried over by a re-post of the form without the file, and read again by 4.6.
  const longText = base({ origin_id: 'long-text', exclude_candidates: '1' });
  const prose = aclText(config.parsing.maxChars + 10_000);
  const paragraphs = [
    paragraph(longText.title!, 'Title'),
    paragraph('Abstract'),
    paragraph(prose.slice(0, 2_000)),
  ];
  for (let at = 2_000; at < prose.length; at += 20_000)
    paragraphs.push(paragraph(prose.slice(at, at + 20_000)));
  const longDocx = makeDocx(paragraphs);
  await probe(
    `DOCX read to the text limit (${(config.parsing.maxChars / 1e6).toFixed(0)} M characters)`,
    post(longText, { bytes: longDocx, name: 'long.docx' }),
  );
  await probe('the same manuscript re-posted without its file (the text carried over)', post(longText));
  await probe('4.6 on the manuscript read to the text limit', async () => {
    const res = await app.inject({ url: `/api/external/recommend-journals/long-text/`, headers });
    return res.statusCode === 200
      ? `200 (${(JSON.parse(res.body) as { recommended_journals: unknown[] }).recommended_journals.length} journals)`
      : statusOf(res);
  });

  // 4.6 on the largest manuscript: its title and abstract at their caps, 1,000 authors of corpus names.
  const largest = base({
    ...authorFields((k) => common[k % common.length]!, institution),
    title: aclText(TITLE),
    abstract: aclText(ABSTRACT),
    exclude_candidates: '1',
  });
  await post(largest)();
  const journals = (query: string) => async () => {
    const res = await app.inject({
      url: `/api/external/recommend-journals/${largest.origin_id}/${query}`,
      headers,
    });
    if (res.statusCode !== 200) return statusOf(res);
    return `200 (${(JSON.parse(res.body) as { recommended_journals: unknown[] }).recommended_journals.length} journals)`;
  };
  await probe('4.6 largest manuscript, all_journals', journals(''));
  await probe('4.6 largest manuscript, all_journals again (kept answer)', journals(''));
  await probe(
    '4.6 largest manuscript, org_journals (none linked)',
    journals('?journals_corpus=org_journals'),
  );
  await probe('4.6 largest manuscript, limit=100', journals('?limit=100'));
  await probe('4.6 unknown journals_corpus', journals('?journals_corpus=mine'));
  await app.close();
  await db.close();
}

const BEFORE = process.env.BENCH_BEFORE;
const before = BEFORE ? probesOnCheckout<Result>(import.meta.filename, BEFORE) : null;
if (!JSON_OUT) console.log(`# bench/hostile-uploads.ts, ${new Date().toISOString()}, src of ${CHECKOUT}`);
await main();
if (JSON_OUT) console.log(JSON.stringify(results));
if (BEFORE && before) printBeforeAfter(BEFORE, before, results, line);
process.exit(0);
