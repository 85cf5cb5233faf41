import { defineCommand } from '../infra/cli/command.ts';
import { errors } from '../infra/errors.ts';
import { authorsKind, institutionsKind, sourcesKind, worksKind } from './entities.ts';
import { DEFAULT_BATCH_SIZE, ingestFiles } from './ingest.ts';
import type { RecordKind } from './ingest-runner.ts';
import {
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest-modes.ts';
import { ingestRetractions } from './retractions.ts';

interface IngestArgs {
  files: string[];
  batchSize?: number;
  parseThread?: ParseThreadMode;
  initialLoad?: InitialLoadMode;
}

function validateIngest(args: IngestArgs): void {
  if (!Array.isArray(args.files) || args.files.length === 0)
    throw errors.validation('Give at least one FILE');
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
      return ingestFiles(ctx, kind, args.files, args.batchSize ?? DEFAULT_BATCH_SIZE, {
        parseThread: args.parseThread ?? 'auto',
        initialLoad: args.initialLoad ?? 'auto',
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    },
  });
}

export const ingestRetractionsCommand = defineCommand({
  name: 'ingest retractions',
  // Marking a work retracted again changes nothing: run again from the start, it ends the same.
  queueable: true,
  async run(ctx, args: { file: string }) {
    return ingestRetractions(ctx, args.file);
  },
});

export const corpusCommands = [
  ingestCommand(worksKind),
  ingestCommand(authorsKind),
  ingestCommand(sourcesKind),
  ingestCommand(institutionsKind),
  ingestRetractionsCommand,
];
