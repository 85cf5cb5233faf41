// An ingest run over several files: each file through the ingestion loop, then the author metrics of
// the authors it touched, then the group authors whose links may have changed.
import type { CommandContext } from '../../infra/cli/command.ts';
import type { Database } from '../../infra/db/index.ts';
import { ingestFile, type FileReport, type IngestOptions, type RecordKind } from './runner.ts';
import { queuePendingRanges, recomputePendingMetrics } from '../authors/metrics-refresh.ts';
import { relinkAfterIngest } from '../authors/linking.ts';
import { addCorpusEmails, findCorpusEmails } from '../authors/emails.ts';
import { linkPeople } from '../authors/people.ts';
import { DEFAULT_BATCH_SIZE } from './modes.ts';

export { DEFAULT_BATCH_SIZE };

export interface IngestReport extends AfterIngestReport {
  files: FileReport[];
  records: number;
  bad_count: number;
}

/** ANALYZE of each of these, at once: on the server each runs on a connection (and core) of its own. */
function analyze(db: Database, tables: readonly string[]): Promise<void> {
  return Promise.all(tables.map((t) => db.exec(`ANALYZE ${t}`))).then(() => {});
}

/** ANALYZEs of works and of authorships, started by the run once it writes neither any more. */
export interface WorksAnalyzed {
  works: Promise<void>;
  authorships: Promise<void>;
}

function analyzeWorks(db: Database): WorksAnalyzed {
  const started = { works: analyze(db, ['works']), authorships: analyze(db, ['authorships']) };
  // Awaited by afterIngest; a failure meanwhile must not surface as unhandled.
  started.works.catch(() => {});
  started.authorships.catch(() => {});
  return started;
}

/**
 * Metrics of the pending authors, then relinking; also what a run resumed after a crash finishes.
 * `relinkAll`: a file of the run took the initial load, whose authors are every author of the
 * corpus (and are no longer queued): every name key is relinked. `worksAnalyzed`: the ANALYZEs of
 * works and authorships already started after the run's last write to them.
 */
export async function afterIngest(
  db: Database,
  relinkAll = false,
  worksAnalyzed: WorksAnalyzed = analyzeWorks(db),
): Promise<AfterIngestReport> {
  // The initial load's queued ranges as rows first: their authors are touched too (the recompute
  // turns ranges into rows itself as well, for its other callers; here it finds none left).
  await queuePendingRanges(db);
  // After an initial load every name key is touched (its authors are the corpus's), and read as such.
  const nameKeys: ReadonlySet<string> | 'all' = relinkAll
    ? 'all'
    : new Set(
        (
          await db.query<{ name_key: string }>(
            `SELECT DISTINCT a.name_key FROM author_metrics_pending p JOIN authors a ON a.id = p.author_id
              WHERE a.name_key IS NOT NULL`,
          )
        ).rows.map((r) => r.name_key),
      );
  // Statistics first: after a bulk load the planner would otherwise plan the joins below for the
  // near-empty tables it last saw; the referee finder's authorship queries too (it guessed a
  // 150-work authorship lookup to match most of the table and scanned all of it: 4-10x slower).
  // The addresses and people read authors and authorships only; works' ANALYZE (the longest, 0.35 s
  // of the ACL's end) goes on beside them until the recompute, which joins works.
  await Promise.all([worksAnalyzed.authorships, analyze(db, ['authors, author_metrics_pending'])]);
  // Addresses and people before the metrics: a person's metrics are computed over all its records.
  // The addresses are read while the people are linked (neither depends on the other) and written
  // after, so that the two never update authors at once.
  const emailsFound = findCorpusEmails(db, nameKeys);
  emailsFound.catch(() => {});
  const people = await linkPeople(db, nameKeys);
  const emails = await addCorpusEmails(db, await emailsFound);
  await worksAnalyzed.works;
  const authors = await recomputePendingMetrics(db);
  // Again for authors alone when the recompute rewrote enough of them to move the statistics the
  // filters read (the metric columns): the share at which autovacuum would analyze the table. An
  // initial load wrote its metrics before the ANALYZE above; its recompute is the people's few.
  if (authors > 0 && authors >= REANALYZE_SHARE * (await estimatedAuthors(db)))
    await db.exec('ANALYZE authors');
  const relinked = await relinkAfterIngest(db, nameKeys);
  return {
    authors_recomputed: authors,
    group_authors_relinked: relinked,
    authors_given_emails: emails,
    authors_relinked_to_people: people.authors_relinked,
  };
}

/** autovacuum_analyze_scale_factor's default. */
const REANALYZE_SHARE = 0.1;

/** The authors' row count as the last ANALYZE estimated it (0 before any). */
async function estimatedAuthors(db: Database): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT greatest(reltuples, 0)::float8 AS n FROM pg_class WHERE oid = 'authors'::regclass`,
  );
  return rows[0]?.n ?? 0;
}

export interface AfterIngestReport {
  authors_recomputed: number;
  group_authors_relinked: number;
  /** Authors who gained an address from their works' affiliation strings (corpus/authors/emails.ts). */
  authors_given_emails: number;
  /** Author records whose person changed (corpus/authors/people.ts). */
  authors_relinked_to_people: number;
}

export async function ingestFiles<T>(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  kind: RecordKind<T>,
  files: readonly string[],
  batchSize = DEFAULT_BATCH_SIZE,
  options: IngestOptions = {},
): Promise<IngestReport> {
  const reports: FileReport[] = [];
  let worksAnalyzed: WorksAnalyzed | undefined;
  for (const [i, file] of files.entries()) {
    const last = i === files.length - 1;
    const report = await ingestFile(ctx, kind, file, batchSize, {
      ...options,
      // Once the last file's batches are in, the run writes no more works or authorships (the
      // initial load's end and the recompute write authors): their statistics are gathered
      // meanwhile.
      ...(last ? { onBatchesWritten: () => void (worksAnalyzed = analyzeWorks(ctx.db)) } : {}),
    });
    reports.push(report);
  }
  const after = await afterIngest(
    ctx.db,
    reports.some((r) => r.initial_load),
    worksAnalyzed,
  );
  return {
    files: reports,
    records: reports.reduce((n, r) => n + r.records, 0),
    bad_count: reports.reduce((n, r) => n + r.bad_count, 0),
    ...after,
  };
}
