// npm run bench:conflicts: how many conflicts of interest the referee finder finds, by kind, on real
// manuscripts, against another checkout's finder on the same database in the same run. There is no
// ground truth of conflicts here: the bench counts what each side flags in the top 50 and prints a
// sample of the flags one side raises and the other does not, with their evidence, to read by eye.
//
// The ACL corpus (../shared/data) is ingested through the real ingestion into a schema of its own on
// server PostgreSQL (dropped afterwards); the manuscripts are held-out ACL works, their authors with
// the first affiliation each stated (ACL records carry no emails, institutions nor references, so
// this measures names and affiliation strings).
//   npm run bench:conflicts [-- --queries 300] [--before <checkout>] [--sample 15]
//   --before: another checkout (a worktree of an earlier commit, with node_modules linked); its
//   finder runs beside this one's, each over its own index of the same database.
//   --form-names first: the form names the first author alone (an editorial system that sends the
//   corresponding author) and the file all of them, merged with `prefer=supplied` (src/manuscripts/
//   merge.ts): the others are the manuscript's `fileOnlyAuthors`, which a checkout before them ignores.
//   Besides the conflicts, counts the manuscript's own authors (by their corpus record) ranked as
//   candidates of it.
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Database } from '../src/infra/db/index.ts';
import { openPostgres } from '../src/infra/db/postgres.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { ingestFiles } from '../src/corpus/ingest/ingest.ts';
import { worksKind } from '../src/corpus/openalex/entities.ts';
import { openAlexKey } from '../src/corpus/openalex/ids.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import type { ManuscriptForRanking } from '../src/referee-finder/types.ts';
import type { Conflict, ConflictKind } from '../src/referee-finder/conflict-policy.ts';
import { CONFLICT_KINDS } from '../src/referee-finder/conflict-policy.ts';
import {
  ACL_WORKS_PATH,
  aclDataAvailable,
  loadAclWorks,
  aclManuscript,
  splitHoldout,
} from './lib/acl-holdout.ts';

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const QUERIES = Number(arg('queries') ?? 300);
const SAMPLE = Number(arg('sample') ?? 15);
const BEFORE = arg('before') ? path.resolve(arg('before')!) : null;
const FORM_NAMES = arg('form-names') ?? 'all';
if (FORM_NAMES !== 'all' && FORM_NAMES !== 'first') throw new Error('--form-names: all or first');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HERE = path.resolve(import.meta.dirname, '..');

type Finder = (m: ManuscriptForRanking) => Promise<Map<number, { name: string; conflicts: Conflict[] }>>;

/** A checkout's finder over its own index of `db` (its modules from its own src). */
async function finderOf(root: string, db: Database): Promise<{ find: Finder; close(): Promise<void> }> {
  const { findCandidatesWith } = (await import(
    path.join(root, 'src/referee-finder/find-candidates.ts')
  )) as typeof import('../src/referee-finder/find-candidates.ts');
  const { openWorkIndex } = (await import(
    path.join(root, 'src/retrieval/db-work-index.ts')
  )) as typeof import('../src/retrieval/db-work-index.ts');
  const index = await openWorkIndex(db, { pollMs: 0 });
  return {
    find: async (m) => {
      const result = await findCandidatesWith({ db, index, publicBaseUrl: 'http://bench' }, m, {
        filters: {},
        groups: null,
        includeConflicts: true,
        includeWithoutEmail: true,
        maxCandidates: 50,
      });
      return new Map(
        result.candidates.map((c) => [
          c.author_id,
          { name: c.name, conflicts: result.conflicts.get(c.author_id) ?? [] },
        ]),
      );
    },
    close: () => index.close(),
  };
}

const describeConflict = (c: Conflict): string =>
  c.kind === 'aff_conflicts'
    ? `"${c.evidence.candidate_affiliation}" ~ "${c.evidence.manuscript_affiliation}" (${c.evidence.by})`
    : c.kind === 'coauth_conflicts'
      ? `co-wrote work ${c.evidence.work.id} with manuscript author ${c.evidence.manuscript_author_id}`
      : c.kind;

async function main(): Promise<void> {
  if (!aclDataAvailable()) {
    console.log(`bench:conflicts: ${ACL_WORKS_PATH} is missing (../shared/data): nothing to measure.`);
    return;
  }
  const schema = `conflicts_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const db = openPostgres({ connectionString: SERVER_URL, schema, maxConnections: 6 });
  try {
    await migrate(db);
    const t0 = Date.now();
    const report = await ingestFiles({ db, progress: () => {} }, worksKind, [ACL_WORKS_PATH]);
    console.log(`ingested ${report.records} ACL works in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const org = await createOrganization(db, { name: 'bench', features: ['referee_finder'] });
    const queries = splitHoldout(await loadAclWorks(ACL_WORKS_PATH))
      .heldOut.filter((w) => w.title && w.abstract)
      .slice(0, QUERIES);
    const sides = [{ label: 'this checkout', root: HERE }];
    if (BEFORE) sides.push({ label: `before (${BEFORE})`, root: BEFORE });
    const finders = await Promise.all(sides.map((s) => finderOf(s.root, db)));
    const counts = sides.map(() => new Map<ConflictKind, number>(CONFLICT_KINDS.map((k) => [k, 0])));
    const ownAuthorsRanked = sides.map(() => 0);
    const fileOnlyFlags = sides.map(() => 0);
    const recordOf = new Map(
      (await db.query<{ id: number; author_key: string }>('SELECT id, author_key FROM authors')).rows.map(
        (r) => [r.author_key, r.id],
      ),
    );
    const only: string[][] = [[], []];
    let candidates = 0;
    for (const [i, w] of queries.entries()) {
      const whole = aclManuscript(w, i, org.id);
      const m =
        FORM_NAMES === 'first'
          ? { ...whole, authors: whole.authors.slice(0, 1), fileOnlyAuthors: whole.authors.slice(1) }
          : whole;
      const own = new Set(w.authors.flatMap((a) => recordOf.get(openAlexKey(a.key) ?? '') ?? []));
      const lists = [];
      for (const f of finders) lists.push(await f.find(m));
      candidates += lists[0]!.size;
      lists.forEach((list, s) => {
        for (const [id, { conflicts }] of list) {
          if (own.has(id)) ownAuthorsRanked[s]!++;
          for (const kind of new Set(conflicts.map((c) => c.kind)))
            counts[s]!.set(kind, counts[s]!.get(kind)! + 1);
          if (conflicts.some((c) => 'manuscript_author_only_in_file' in c.evidence)) fileOnlyFlags[s]!++;
        }
      });
      if (lists.length < 2) continue;
      for (const [s, list] of lists.entries()) {
        const other = lists[1 - s]!;
        for (const [id, { name, conflicts }] of list) {
          const theirs = new Set(other.get(id)?.conflicts.map((c) => c.kind) ?? []);
          for (const c of conflicts) {
            if (!theirs.has(c.kind) && other.has(id)) {
              only[s]!.push(`${name} for "${w.title.slice(0, 60)}": ${c.kind} ${describeConflict(c)}`);
            }
          }
        }
      }
    }
    console.log(
      `${queries.length} held-out ACL works as manuscripts (form names ${FORM_NAMES} authors), ` +
        `${candidates} candidates in their top 50s`,
    );
    console.log(
      `  manuscripts' own authors ranked as their candidates: ${sides.map((s, k) => `${s.label}: ${ownAuthorsRanked[k]}`).join('; ')}`,
    );
    console.log(
      `  candidates with evidence from an author read from the file alone: ${sides.map((s, k) => `${s.label}: ${fileOnlyFlags[k]}`).join('; ')}`,
    );
    for (const kind of CONFLICT_KINDS) {
      const [after, before] = counts.map((c) => c.get(kind)!);
      console.log(
        `  ${kind.padEnd(20)} ${sides[0]!.label}: ${after}` +
          (before !== undefined
            ? `; before: ${before}; ratio ${before ? (after! / before).toFixed(3) : '—'}`
            : ''),
      );
    }
    if (BEFORE) {
      for (const [s, list] of only.entries()) {
        console.log(
          `flags only ${sides[s]!.label} raises: ${list.length}; a sample (every ${Math.max(1, Math.floor(list.length / SAMPLE))}th):`,
        );
        const step = Math.max(1, Math.floor(list.length / SAMPLE));
        for (let k = 0; k < list.length && k / step < SAMPLE; k += step) console.log(`  ${list[k]}`);
      }
    }
    await Promise.all(finders.map((f) => f.close()));
  } finally {
    await db.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
    await admin.end();
  }
}

await main();
