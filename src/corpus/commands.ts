// The corpus's commands: `refmatch ingest ...` (queued as jobs unless --wait) and `refmatch people
// relink`. Declared here with their options; each handler loads the ingest runner when it runs, so
// that `refmatch --help` does not (see src/cli/registry.ts).
import { defineCommand, defineGroup, type CommandContext, type OptionSpec } from '../infra/cli/command.ts';
import { commaList, intOption, pathArgument } from '../infra/cli/options.ts';
import { errors } from '../infra/app-error.ts';
import type { IngestOptions, RecordKind } from './ingest/runner.ts';
import {
  BULK_MODES,
  DEFAULT_BATCH_SIZE,
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type BulkMode,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest/modes.ts';
import { SNAPSHOT_ENTITIES, type SnapshotEntity } from './openalex/openalex-snapshot.ts';
import type { RecordKindName } from './openalex/entities.ts';

interface IngestArgs {
  files: string[];
  batchSize?: number;
  parseThread?: ParseThreadMode;
  initialLoad?: InitialLoadMode;
  bulk?: BulkMode;
}

/** The options every ingest of records shares. */
const INGEST_OPTIONS: OptionSpec[] = [
  { flags: '--batch-size <n>', description: 'records per transaction', parse: intOption },
  {
    flags: '--parse-thread <mode>',
    description: 'read and parse in a worker thread beside the database writes',
    choices: PARSE_THREAD_MODES,
    default: 'auto',
  },
  {
    flags: '--initial-load <mode>',
    description: 'works into an empty corpus: COPY straight into the tables (auto)',
    choices: INITIAL_LOAD_MODES,
    default: 'auto',
  },
  {
    flags: '--bulk <mode>',
    description:
      'initial load: build the secondary indexes after the COPYs (auto: on server PostgreSQL, files from 2 MB)',
    choices: BULK_MODES,
    default: 'auto',
  },
];

/** The options every ingest shares, checked once: the CLI parses them, the admin channel passes them on. */
function validateIngestOptions(args: Omit<IngestArgs, 'files'>): void {
  const batchSize = args.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 100_000) {
    throw errors.validation('--batch-size must be between 1 and 100000');
  }
  if (!PARSE_THREAD_MODES.includes(args.parseThread ?? 'auto')) {
    throw errors.validation('--parse-thread must be auto, always or never');
  }
  if (!INITIAL_LOAD_MODES.includes(args.initialLoad ?? 'auto')) {
    throw errors.validation('--initial-load must be auto or never');
  }
  if (!BULK_MODES.includes(args.bulk ?? 'auto')) {
    throw errors.validation('--bulk must be auto, always or never');
  }
}

function validateIngest(args: IngestArgs): void {
  if (!Array.isArray(args.files) || args.files.length === 0)
    throw errors.validation('Give at least one FILE');
  validateIngestOptions(args);
}

function ingestOptions(ctx: CommandContext, args: Omit<IngestArgs, 'files'>): IngestOptions {
  return {
    parseThread: args.parseThread ?? 'auto',
    initialLoad: args.initialLoad ?? 'auto',
    bulk: args.bulk ?? 'auto',
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
}

type Entities = typeof import('./openalex/entities.ts');

/** `ingest <kind>`; `pick` finds the record kind in the entities module once that is loaded. */
function ingestCommand<T>(kind: RecordKindName, pick: (entities: Entities) => RecordKind<T>) {
  return defineCommand({
    name: `ingest ${kind}`,
    description: `OpenAlex ${kind} records: JSON lines (plain or .gz) or one JSON object per file`,
    arguments: [{ syntax: '<files...>', parse: pathArgument }],
    options: INGEST_OPTIONS,
    // Each batch commits with its checkpoint: a job claimed again resumes where the last one stopped.
    queueable: true,
    validate: validateIngest,
    async run(ctx, args: IngestArgs) {
      validateIngest(args);
      const [entities, { ingestFiles }] = await Promise.all([
        import('./openalex/entities.ts'),
        import('./ingest/ingest.ts'),
      ]);
      // Inside a server, the admin channel runs its after-command hooks (e.g. an index refresh).
      return ingestFiles(
        ctx,
        pick(entities),
        args.files,
        args.batchSize ?? DEFAULT_BATCH_SIZE,
        ingestOptions(ctx, args),
      );
    },
  });
}

type SnapshotArgs = Omit<IngestArgs, 'files'> & { dir: string; entities?: string[] };

function validateSnapshot(args: SnapshotArgs): void {
  const entities = args.entities ?? SNAPSHOT_ENTITIES;
  const unknown = entities.filter((e) => !(SNAPSHOT_ENTITIES as readonly string[]).includes(e));
  if (unknown.length > 0 || entities.length === 0) {
    throw errors.validation(`--entities takes some of ${SNAPSHOT_ENTITIES.join(', ')}`);
  }
  validateIngestOptions(args);
}

export const ingestSnapshotCommand = defineCommand({
  name: 'ingest openalex-snapshot',
  description:
    'An OpenAlex snapshot as published (<entity>/updated_date=*/*.gz, manifests, merged_ids): the ' +
    'partitions not loaded yet, then the merged ids not applied yet (docs/corpus.md)',
  arguments: [{ syntax: '<dir>', parse: pathArgument }],
  options: [
    {
      flags: '--entities <list>',
      description: `comma-separated, of ${SNAPSHOT_ENTITIES.join(',')} (default: all)`,
      parse: commaList,
    },
    ...INGEST_OPTIONS,
  ],
  // Files resume from their checkpoints, loaded partitions and applied merged-ids files are recorded,
  // and a chunk of merges applied again changes nothing: a job claimed again ends the same.
  queueable: true,
  validate: validateSnapshot,
  async run(ctx, args: SnapshotArgs) {
    validateSnapshot(args);
    const { ingestSnapshot } = await import('./ingest/snapshot-load.ts');
    return ingestSnapshot(ctx, args.dir, {
      ...ingestOptions(ctx, args),
      batchSize: args.batchSize ?? DEFAULT_BATCH_SIZE,
      ...(args.entities ? { entities: args.entities as SnapshotEntity[] } : {}),
    });
  },
});

export const ingestRetractionsCommand = defineCommand({
  name: 'ingest retractions',
  description:
    'Retraction Watch CSV: marks the original papers of retractions as retracted (a notice with a value the ' +
    'API would refuse, a NUL or a run of too many combining marks, is a bad record, named by its line)',
  arguments: [{ syntax: '<file>', parse: pathArgument }],
  // Marking a work retracted again changes nothing: run again from the start, it ends the same.
  queueable: true,
  async run(ctx, args: { file: string }) {
    const { ingestRetractions } = await import('./ingest/retractions.ts');
    return ingestRetractions(ctx, args.file);
  },
});

/**
 * The backfill of a corpus loaded before people and affiliation addresses existed (or after their
 * rules changed): every record's person decided again, every affiliation string read for addresses.
 */
export const peopleRelinkCommand = defineCommand({
  name: 'people relink',
  description: "decide every record's person again and read addresses from affiliation strings",
  async run(ctx) {
    const [{ extractCorpusEmails }, { linkPeople }, { recomputePendingMetrics }] = await Promise.all([
      import('./authors/emails.ts'),
      import('./authors/people.ts'),
      import('./authors/metrics-refresh.ts'),
    ]);
    const authorsGivenEmails = await extractCorpusEmails(ctx.db, 'all');
    const { authors_relinked } = await linkPeople(ctx.db, 'all');
    const recomputed = await recomputePendingMetrics(ctx.db);
    if (recomputed > 0) await ctx.db.exec('ANALYZE authors');
    const { rows } = await ctx.db.query<{ people: number; records: number }>(
      `SELECT count(DISTINCT person_id)::int AS people, count(*)::int AS records
         FROM authors WHERE person_id IS NOT NULL`,
    );
    return {
      authors_given_emails: authorsGivenEmails,
      authors_relinked,
      authors_recomputed: recomputed,
      people_of_several_records: rows[0]?.people ?? 0,
      records_in_them: rows[0]?.records ?? 0,
    };
  },
});

export const corpusCommands = [
  defineGroup('ingest', 'Load scholarly records into the corpus'),
  ingestCommand('works', (e) => e.worksKind),
  ingestCommand('authors', (e) => e.authorsKind),
  ingestCommand('sources', (e) => e.sourcesKind),
  ingestCommand('institutions', (e) => e.institutionsKind),
  ingestSnapshotCommand,
  ingestRetractionsCommand,
  defineGroup('corpus', 'Corpus upkeep (runs as a job unless --wait)'),
  defineGroup('people', 'One person, one candidate: author records of one researcher'),
  peopleRelinkCommand,
];
