import { defineCommand, type CommandContext } from '../infra/cli/command.ts';
import { errors } from '../infra/errors.ts';
import { authorsKind, institutionsKind, sourcesKind, worksKind } from './openalex/entities.ts';
import { DEFAULT_BATCH_SIZE, ingestFiles } from './ingest/ingest.ts';
import type { IngestOptions, RecordKind } from './ingest/runner.ts';
import {
  BULK_MODES,
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type BulkMode,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest/modes.ts';
import { ingestRetractions } from './ingest/retractions.ts';
import { ingestSnapshot } from './ingest/snapshot-load.ts';
import { SNAPSHOT_ENTITIES, type SnapshotEntity } from './openalex/openalex-snapshot.ts';
import { extractCorpusEmails } from './authors/emails.ts';
import { recomputePendingMetrics } from './authors/metrics-refresh.ts';
import { linkPeople } from './authors/people.ts';

interface IngestArgs {
  files: string[];
  batchSize?: number;
  parseThread?: ParseThreadMode;
  initialLoad?: InitialLoadMode;
  bulk?: BulkMode;
}

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

function ingestCommand<T>(kind: RecordKind<T>) {
  return defineCommand({
    name: `ingest ${kind.kind}`,
    // Each batch commits with its checkpoint: a job claimed again resumes where the last one stopped.
    queueable: true,
    validate: validateIngest,
    async run(ctx, args: IngestArgs) {
      validateIngest(args);
      // Inside a server, the admin channel runs its after-command hooks (e.g. an index refresh).
      return ingestFiles(
        ctx,
        kind,
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
  // Files resume from their checkpoints, loaded partitions and applied merged-ids files are recorded,
  // and a chunk of merges applied again changes nothing: a job claimed again ends the same.
  queueable: true,
  validate: validateSnapshot,
  async run(ctx, args: SnapshotArgs) {
    validateSnapshot(args);
    return ingestSnapshot(ctx, args.dir, {
      ...ingestOptions(ctx, args),
      batchSize: args.batchSize ?? DEFAULT_BATCH_SIZE,
      ...(args.entities ? { entities: args.entities as SnapshotEntity[] } : {}),
    });
  },
});

export const ingestRetractionsCommand = defineCommand({
  name: 'ingest retractions',
  // Marking a work retracted again changes nothing: run again from the start, it ends the same.
  queueable: true,
  async run(ctx, args: { file: string }) {
    return ingestRetractions(ctx, args.file);
  },
});

/**
 * The backfill of a corpus loaded before people and affiliation addresses existed (or after their
 * rules changed): every record's person decided again, every affiliation string read for addresses.
 */
export const peopleRelinkCommand = defineCommand({
  name: 'people relink',
  async run(ctx) {
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
  peopleRelinkCommand,
  ingestCommand(worksKind),
  ingestCommand(authorsKind),
  ingestCommand(sourcesKind),
  ingestCommand(institutionsKind),
  ingestRetractionsCommand,
  ingestSnapshotCommand,
];
