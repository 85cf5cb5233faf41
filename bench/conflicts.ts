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
//   --variants all (or a comma-separated list of kinds, bench/lib/author-variants.ts): the form spells
//   the authors otherwise ("Wong Derek F.", "D. F. Wong", "Mueller", "MIT", an email domain alone),
//   one general rule a kind, seeded. Per kind and side: the conflicts (candidate and kind) found with
//   the names as the corpus writes them that the variant still finds (recall), the flags it raises
//   that those do not (to read by eye: a sample is printed), the manuscript's own authors ranked as
//   candidates, and the authors' resolution (resolve-authors.ts): how many of those found in the corpus
//   with the exact names are still found, and how many other records a variant makes them (a
//   namesake taken for the author). ORCIDs are left out on both, as most forms send none.
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
import { VARIANT_KINDS, authorsVariant, type VariantKind } from './lib/author-variants.ts';
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
const VARIANTS: VariantKind[] | null = arg('variants')
  ? arg('variants') === 'all'
    ? [...VARIANT_KINDS]
    : (arg('variants')!.split(',') as VariantKind[])
  : null;
for (const v of VARIANTS ?? []) if (!VARIANT_KINDS.includes(v)) throw new Error(`--variants: no kind ${v}`);
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HERE = path.resolve(import.meta.dirname, '..');

type Finder = (m: ManuscriptForRanking) => Promise<Map<number, { name: string; conflicts: Conflict[] }>>;
type Resolver = (m: ManuscriptForRanking) => Promise<number[][]>;

/** A checkout's finder over its own index of `db` (its modules from its own src). */
async function finderOf(
  root: string,
  db: Database,
): Promise<{ find: Finder; resolve: Resolver; close(): Promise<void> }> {
  const { findCandidatesWith } = (await import(
    path.join(root, 'src/referee-finder/find-candidates.ts')
  )) as typeof import('../src/referee-finder/find-candidates.ts');
  const { openWorkIndex } = (await import(
    path.join(root, 'src/retrieval/db-work-index.ts')
  )) as typeof import('../src/retrieval/db-work-index.ts');
  const { resolveManuscriptAuthors } = (await import(
    path.join(root, 'src/referee-finder/resolve-authors.ts')
  )) as typeof import('../src/referee-finder/resolve-authors.ts');
  const index = await openWorkIndex(db, { pollMs: 0 });
  return {
    resolve: async (m) => (await resolveManuscriptAuthors(db, m.authors, m.organizationId)).perAuthor,
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
    // With --variants, works whose authors state an affiliation (809 of the 2,000), so that the
    // affiliation kinds have something to rewrite.
    const queries = splitHoldout(await loadAclWorks(ACL_WORKS_PATH))
      .heldOut.filter((w) => w.title && w.abstract)
      .filter((w) => !VARIANTS || w.authors.some((a) => a.affiliations.length > 0))
      .slice(0, QUERIES);
    const sides = [{ label: 'this checkout', root: HERE }];
    if (BEFORE) sides.push({ label: `before (${BEFORE})`, root: BEFORE });
    const finders = await Promise.all(sides.map((s) => finderOf(s.root, db)));
    if (VARIANTS) {
      await measureVariants(db, org.id, queries, sides, finders, VARIANTS);
      await Promise.all(finders.map((f) => f.close()));
      return;
    }
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

interface VariantCounts {
  manuscripts: number;
  baselineFlags: number;
  keptFlags: number;
  newFlags: number;
  ownRanked: number;
  dropped: number;
  authorsFound: number;
  authorsKept: number;
  otherRecords: number;
  sample: string[];
}

/** --variants: each kind's rewriting of the form's authors against the names as the corpus writes them. */
async function measureVariants(
  db: Database,
  organizationId: number,
  queries: Awaited<ReturnType<typeof loadAclWorks>>,
  sides: Array<{ label: string }>,
  finders: Array<{ find: Finder; resolve: Resolver }>,
  kinds: VariantKind[],
): Promise<void> {
  const recordOf = new Map(
    (await db.query<{ id: number; author_key: string }>('SELECT id, author_key FROM authors')).rows.map(
      (r) => [r.author_key, r.id],
    ),
  );
  // Names two or more corpus records carry as written: the namesakes a variant must not merge.
  const namesakes = new Set(
    (
      await db.query<{ display_name: string }>(
        'SELECT display_name FROM authors GROUP BY display_name HAVING count(*) > 1',
      )
    ).rows.map((r) => r.display_name),
  );
  let authorsWithNamesake = 0;
  const counts = sides.map(
    () =>
      new Map<VariantKind, VariantCounts>(
        kinds.map((k) => [
          k,
          {
            manuscripts: 0,
            baselineFlags: 0,
            keptFlags: 0,
            newFlags: 0,
            ownRanked: 0,
            dropped: 0,
            authorsFound: 0,
            authorsKept: 0,
            otherRecords: 0,
            sample: [],
          },
        ]),
      ),
  );
  const flagsOf = (list: Map<number, { conflicts: Conflict[] }>) =>
    new Set([...list].flatMap(([id, { conflicts }]) => conflicts.map((c) => `${id}:${c.kind}`)));
  const t0 = Date.now();
  for (const [i, w] of queries.entries()) {
    const exact = aclManuscript(w, i, organizationId);
    exact.authors = exact.authors.map((a) => ({ ...a, orcid: null }));
    authorsWithNamesake += exact.authors.filter((a) => namesakes.has(a.name)).length;
    const own = new Set(w.authors.flatMap((a) => recordOf.get(openAlexKey(a.key) ?? '') ?? []));
    for (const [s, f] of finders.entries()) {
      const baseList = await f.find(exact);
      const baseFlags = flagsOf(baseList);
      const baseResolved = await f.resolve(exact);
      for (const kind of kinds) {
        const authors = authorsVariant(kind, exact.authors, variantSeed(i, kind));
        if (authors.every((a, k) => JSON.stringify(a) === JSON.stringify(exact.authors[k]))) continue;
        const c = counts[s]!.get(kind)!;
        c.manuscripts++;
        const m = { ...exact, authors };
        const list = await f.find(m);
        const flags = flagsOf(list);
        c.baselineFlags += baseFlags.size;
        for (const flag of baseFlags) if (flags.has(flag)) c.keptFlags++;
        for (const [id, { name, conflicts }] of list) {
          // The manuscript's own authors are counted apart: their flags are no conflict with a referee.
          if (own.has(id)) {
            c.ownRanked++;
            continue;
          }
          // A candidate the exact names left below the top 50 came in as another left: its flags
          // are compared with nothing (the referees dropped are counted below).
          if (!baseList.has(id)) continue;
          for (const conflict of conflicts) {
            if (baseFlags.has(`${id}:${conflict.kind}`)) continue;
            c.newFlags++;
            if (c.sample.length < 200)
              c.sample.push(
                `${name} for "${w.title.slice(0, 50)}" (${authors.map((a) => a.name).join('; ')}): ${conflict.kind} ${describeConflict(conflict)}`,
              );
          }
        }
        const resolved = await f.resolve(m);
        // A candidate of the exact names the variant takes for a manuscript author (and leaves out).
        const takenFor = new Set(resolved.flat());
        for (const id of baseList.keys()) if (takenFor.has(id) && !own.has(id)) c.dropped++;
        baseResolved.forEach((ids, k) => {
          if (!ids.length) return;
          c.authorsFound++;
          const now = new Set(resolved[k]);
          if (ids.some((id) => now.has(id))) c.authorsKept++;
          const before = new Set(ids);
          c.otherRecords += resolved[k]!.filter((id) => !before.has(id)).length;
        });
      }
    }
    if ((i + 1) % 10 === 0)
      console.log(`  ${i + 1}/${queries.length} manuscripts, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
  console.log(
    `${queries.length} held-out ACL works as manuscripts (ORCIDs left out), top 50s; ` +
      `${authorsWithNamesake} of their authors carry a name two corpus records carry`,
  );
  for (const [s, side] of sides.entries()) {
    console.log(`${side.label}:`);
    console.log(
      `  ${'kind'.padEnd(15)} changed  conflicts kept/exact (recall)  new flags  own ranked  dropped  authors kept/found  other records`,
    );
    for (const [kind, c] of counts[s]!) {
      const recall = c.baselineFlags ? (c.keptFlags / c.baselineFlags).toFixed(3) : '—';
      console.log(
        `  ${kind.padEnd(15)} ${String(c.manuscripts).padStart(7)}  ${`${c.keptFlags}/${c.baselineFlags} (${recall})`.padStart(28)}` +
          `  ${String(c.newFlags).padStart(9)}  ${String(c.ownRanked).padStart(10)}  ${String(c.dropped).padStart(7)}  ${`${c.authorsKept}/${c.authorsFound}`.padStart(18)}  ${String(c.otherRecords).padStart(13)}`,
      );
    }
  }
  for (const [s, side] of sides.entries()) {
    for (const [kind, c] of counts[s]!) {
      if (!c.sample.length) continue;
      const step = Math.max(1, Math.floor(c.sample.length / SAMPLE));
      console.log(`new flags, ${side.label}, ${kind}: ${c.newFlags}; a sample (every ${step}th):`);
      for (let k = 0; k < c.sample.length && k / step < SAMPLE; k += step) console.log(`  ${c.sample[k]}`);
    }
  }
}

/** Each manuscript and kind its own seed, the same on every run and side. */
function variantSeed(i: number, kind: VariantKind): number {
  return (i + 1) * 1009 + VARIANT_KINDS.indexOf(kind) * 7919;
}

await main();
