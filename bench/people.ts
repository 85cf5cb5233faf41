// npm run bench:people: one person, one candidate, and contactable candidates, on real corpora.
// For each corpus (ingested through the real ingestion on server PostgreSQL, a schema of its own,
// dropped afterwards), the referee finder's top 50 for manuscripts made of real works (title,
// abstract, authors by name and affiliation), counted twice in the same run:
//   - baseline: every record its own person (authors.person_id cleared);
//   - people: after `refmatch people relink` (timed: the backfill of a whole corpus).
// In each top 50, pairs of candidates that look like one person written twice: names compatible
// (corpus/authors/names.ts) but written differently ("Derek F. Wong", "Derek Wong"), and of those the ones
// with a shared co-author (strong). Pairs written identically are reported apart: on the ACL the
// Anthology gives one id to a name unless it has told its people apart, so two candidates with one
// written name are namesakes it separated, not duplicates. The oracle is name-based: it is the
// measure the issue names, not a ground truth of identity.
// Emails: the share of the top-50 candidates with an email, by source (corpus affiliation strings).
//   npm run bench:people [-- --corpus acl,demo,openalex] [--queries 300]
import { readFile } from 'node:fs/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../src/infra/db/index.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { ingestFiles } from '../src/corpus/ingest/ingest.ts';
import { worksKind } from '../src/corpus/openalex/entities.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import { openWorkIndex } from '../src/retrieval/db-work-index.ts';
import { findCandidatesWith } from '../src/referee-finder/find-candidates.ts';
import type { ManuscriptForRanking, RankedCandidate } from '../src/referee-finder/types.ts';
import { peopleRelinkCommand } from '../src/corpus/commands.ts';
import { parseConfig } from '../src/infra/config.ts';
import { namesCompatible } from '../src/corpus/authors/names.ts';
import { foldWords } from '../src/infra/text-fold.ts';
import { DEMO_CORPUS } from '../src/corpus/ingest/demo-corpus.ts';
import {
  abstractFromInvertedIndex,
  ACL_WORKS_PATH,
  aclDataAvailable,
  aclManuscript,
  loadAclWorks,
  splitHoldout,
  type AclWork,
} from './lib/acl-holdout.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const CORPORA = (arg('corpus') ?? 'acl,demo,openalex').split(',');
const QUERIES = Number(arg('queries') ?? 300);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/people_bench';
const OPENALEX_200 = path.resolve(
  import.meta.dirname,
  '../test/fixtures/openalex/openalexPro-biodiversity-finance-200works.jsonl',
);

const FILES: Record<string, string> = { acl: ACL_WORKS_PATH, demo: DEMO_CORPUS, openalex: OPENALEX_200 };

interface Counts {
  lists: number;
  candidates: number;
  compatiblePairs: number;
  strongPairs: number;
  listsWithPair: number;
  identicalPairs: number;
  withEmail: number;
  examples: Map<string, number>;
}

async function openSchema(): Promise<{ db: Database; drop(): Promise<void> }> {
  const schema = `people_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const db = openPostgres({ connectionString: SERVER_URL, schema, maxConnections: 6 });
  await migrate(db);
  return {
    db,
    drop: async () => {
      await db.close();
      const c = new pg.Client({ connectionString: SERVER_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

/** Manuscripts made of real works: the ACL hold-out (as the quality benches), or the file's works. */
async function queriesFor(corpus: string): Promise<AclWork[]> {
  if (corpus === 'openalex') {
    // Plain JSON lines; the R client's records carry the abstract as text.
    const lines = (await readFile(OPENALEX_200, 'utf8')).split('\n').filter((l) => l.trim());
    return lines
      .map((l) => JSON.parse(l) as OpenAlexRecord)
      .map((r) => ({
        key: r.id,
        title: r.title ?? '',
        abstract: r.abstract ?? abstractFromInvertedIndex(r.abstract_inverted_index),
        year: r.publication_year ?? null,
        venueKey: null,
        venueName: null,
        authors: (r.authorships ?? []).map((a) => ({
          key: a.author?.id ?? '',
          name: a.author?.display_name ?? '',
          orcid: a.author?.orcid ?? null,
          affiliations: a.raw_affiliation_strings ?? [],
        })),
      }))
      .filter((w) => w.title && w.abstract)
      .slice(0, QUERIES);
  }
  const works = await loadAclWorks(FILES[corpus]);
  return splitHoldout(works)
    .heldOut.filter((w) => w.title && w.abstract)
    .slice(0, QUERIES);
}

interface OpenAlexRecord {
  id: string;
  title?: string | null;
  abstract?: string | null;
  publication_year?: number | null;
  abstract_inverted_index?: Record<string, number[]> | null;
  authorships?: Array<{
    author?: { id?: string; display_name?: string; orcid?: string | null };
    raw_affiliation_strings?: string[];
  }>;
}

async function coauthorPairs(db: Database, ids: number[]): Promise<Set<string>> {
  // Pairs of these records (or persons) with a co-author in common.
  const { rows } = await db.query<{ a: number; b: number }>(
    `WITH c AS (
       SELECT DISTINCT coalesce(x.person_id, x.id) AS who, o.author_id AS co
         FROM authors x JOIN authorships s ON s.author_id = x.id
         JOIN authorships o ON o.work_id = s.work_id AND o.author_id <> s.author_id
        WHERE x.id = ANY($1::int[]) OR x.person_id = ANY($1::int[]))
     SELECT DISTINCT c1.who AS a, c2.who AS b FROM c c1 JOIN c c2 ON c1.co = c2.co AND c1.who < c2.who`,
    [ids],
  );
  return new Set(rows.map((r) => `${r.a}:${r.b}`));
}

async function measure(
  db: Database,
  find: (m: ManuscriptForRanking) => Promise<RankedCandidate[]>,
  queries: AclWork[],
  orgId: number,
): Promise<Counts & { ms: number[] }> {
  const counts: Counts & { ms: number[] } = {
    lists: 0,
    candidates: 0,
    compatiblePairs: 0,
    strongPairs: 0,
    listsWithPair: 0,
    identicalPairs: 0,
    withEmail: 0,
    examples: new Map(),
    ms: [],
  };
  for (const [i, w] of queries.entries()) {
    const t0 = performance.now();
    const candidates = await find(aclManuscript(w, i, orgId));
    counts.ms.push(performance.now() - t0);
    counts.lists++;
    counts.candidates += candidates.length;
    counts.withEmail += candidates.filter((c) => c.email).length;
    const pairs: Array<[RankedCandidate, RankedCandidate]> = [];
    for (let x = 0; x < candidates.length; x++) {
      for (let y = x + 1; y < candidates.length; y++) {
        const a = candidates[x]!;
        const b = candidates[y]!;
        if (foldWords(a.name) === foldWords(b.name)) counts.identicalPairs++;
        else if (namesCompatible(a.name, b.name)) pairs.push([a, b]);
      }
    }
    if (pairs.length) {
      counts.listsWithPair++;
      counts.compatiblePairs += pairs.length;
      const shared = await coauthorPairs(
        db,
        pairs.flatMap(([a, b]) => [a.author_id, b.author_id]),
      );
      for (const [a, b] of pairs) {
        const key =
          a.author_id < b.author_id ? `${a.author_id}:${b.author_id}` : `${b.author_id}:${a.author_id}`;
        const strong = shared.has(key);
        if (strong) counts.strongPairs++;
        const label = `${a.name} / ${b.name}${strong ? ' (shared co-author)' : ''}`;
        counts.examples.set(label, (counts.examples.get(label) ?? 0) + 1);
      }
    }
  }
  return counts;
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

function line(label: string, c: Counts & { ms: number[] }): string {
  const share = c.candidates ? ((100 * c.withEmail) / c.candidates).toFixed(1) : '0';
  return (
    `${label.padEnd(9)} lists ${c.lists}, candidates ${c.candidates}; compatible-name pairs ${c.compatiblePairs} ` +
    `(${c.strongPairs} with a shared co-author) in ${c.listsWithPair} lists; identical-name pairs ${c.identicalPairs}; ` +
    `with email ${c.withEmail} (${share}%); finder p50/p95 ${pct(c.ms, 50).toFixed(0)}/${pct(c.ms, 95).toFixed(0)} ms`
  );
}

async function runCorpus(corpus: string): Promise<void> {
  const file = FILES[corpus];
  if (!file) throw new Error(`unknown corpus ${corpus}`);
  if (corpus === 'acl' && !aclDataAvailable()) {
    console.log('[acl] ../shared/data/acl-anthology/works.jsonl.gz is missing: skipped');
    return;
  }
  const { db, drop } = await openSchema();
  try {
    const t0 = Date.now();
    const report = await ingestFiles({ db, progress: () => {} }, worksKind, [file]);
    console.log(
      `[${corpus}] ingested ${report.records} works in ${((Date.now() - t0) / 1000).toFixed(1)} s; ` +
        `authors given an email ${report.authors_given_emails}, records relinked to people ${report.authors_relinked_to_people}`,
    );
    const stats = await db.query<{ records: number; people: number; merged: number; emails: number }>(
      `SELECT count(*)::int AS records, count(DISTINCT coalesce(person_id, id))::int AS people,
              count(*) FILTER (WHERE person_id IS NOT NULL)::int AS merged,
              count(*) FILTER (WHERE emails <> '{}')::int AS emails FROM authors`,
    );
    console.log(`[${corpus}] authors`, stats.rows[0]);
    const withAt = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM authorships WHERE array_to_string(raw_affiliations, ' ') LIKE '%@%'`,
    );
    console.log(`[${corpus}] authorships with an '@' in an affiliation string: ${withAt.rows[0]!.n}`);
    const org = await createOrganization(db, { name: 'bench', features: ['referee_finder'] });
    const index = await openWorkIndex(db, { pollMs: 0 });
    const queries = await queriesFor(corpus);
    const find = async (m: ManuscriptForRanking) =>
      (
        await findCandidatesWith({ db, index, publicBaseUrl: 'http://bench' }, m, {
          filters: {},
          groups: null,
          includeConflicts: true,
          includeWithoutEmail: true,
          maxCandidates: 50,
        })
      ).candidates;
    try {
      await db.query('UPDATE authors SET person_id = NULL WHERE person_id IS NOT NULL');
      const baseline = await measure(db, find, queries, org.id);
      const t1 = Date.now();
      // The relink runs on the serving thread when the server runs it as a job: how long it held
      // the event loop at most (a timer every millisecond, delayed by whatever ran in between).
      const stalls = monitorEventLoopDelay({ resolution: 1 });
      stalls.enable();
      const relink = await peopleRelinkCommand.run(
        { config: parseConfig({ LOG_LEVEL: 'silent' }), db, progress: () => {} },
        {} as Record<string, never>,
      );
      stalls.disable();
      console.log(
        `[${corpus}] people relink (whole corpus) in ${((Date.now() - t1) / 1000).toFixed(1)} s; ` +
          `the event loop held at most ${(stalls.max / 1e6).toFixed(0)} ms (p99 ${(stalls.percentile(99) / 1e6).toFixed(0)} ms)`,
        relink,
      );
      // A sample of the people of several records, to read by eye (the rule's precision has no
      // ground truth here): every 1 in N by person id, the names of their records.
      const sample = await db.query<{ names: string[]; keys: string[] }>(
        `SELECT array_agg(display_name ORDER BY id) AS names, array_agg(author_key ORDER BY id) AS keys
           FROM authors WHERE person_id IS NOT NULL GROUP BY person_id ORDER BY md5(person_id::text) LIMIT 25`,
      );
      console.log(`[${corpus}] sample of people of several records:`);
      for (const r of sample.rows) console.log(`  ${r.names.join(' | ')}   (${r.keys.join(', ')})`);
      const people = await measure(db, find, queries, org.id);
      console.log(`[${corpus}] ${line('baseline', baseline)}`);
      console.log(`[${corpus}] ${line('people', people)}`);
      const ratio = baseline.compatiblePairs ? people.compatiblePairs / baseline.compatiblePairs : NaN;
      console.log(
        `[${corpus}] compatible-name pairs in top 50s, people / baseline: ${people.compatiblePairs} / ` +
          `${baseline.compatiblePairs} = ${ratio.toFixed(3)}; with a shared co-author ${people.strongPairs} / ${baseline.strongPairs}`,
      );
      const left = [...people.examples.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
      if (left.length)
        console.log(`[${corpus}] pairs left (lists):`, left.map(([k, n]) => `${k} ×${n}`).join('; '));
    } finally {
      await index.close();
    }
  } finally {
    await drop();
  }
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: SERVER_URL.replace(/\/[^/]*$/, '/postgres') });
  await admin.connect();
  const name = new URL(SERVER_URL).pathname.slice(1);
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!exists.rowCount) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  console.log(`bench:people ${new Date().toISOString()} queries ${QUERIES}, corpora ${CORPORA.join(',')}`);
  for (const corpus of CORPORA) await runCorpus(corpus);
}

await main();
