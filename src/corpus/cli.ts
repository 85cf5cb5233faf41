import path from 'node:path';
import { Option, type Command as Program } from 'commander';
import { intOption, runOrQueue, type RunCommand } from '../infra/cli/options.ts';
import {
  BULK_MODES,
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type BulkMode,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest/modes.ts';
import { SNAPSHOT_ENTITIES } from './openalex/openalex-snapshot.ts';

interface IngestFlags {
  batchSize?: number;
  parseThread: ParseThreadMode;
  initialLoad: InitialLoadMode;
  bulk: BulkMode;
  wait?: boolean;
}

const WAIT = 'run here and now and print the report (without it: queue a job and print it)';

/** The options every ingest of records shares. */
function withIngestOptions(command: Program): Program {
  return command
    .option('--batch-size <n>', 'records per transaction', intOption)
    .addOption(
      new Option('--parse-thread <mode>', 'read and parse in a worker thread beside the database writes')
        .choices(PARSE_THREAD_MODES)
        .default('auto'),
    )
    .addOption(
      new Option('--initial-load <mode>', 'works into an empty corpus: COPY straight into the tables (auto)')
        .choices(INITIAL_LOAD_MODES)
        .default('auto'),
    )
    .addOption(
      new Option(
        '--bulk <mode>',
        'initial load: build the secondary indexes after the COPYs (auto: files from 2 MB)',
      )
        .choices(BULK_MODES)
        .default('auto'),
    )
    .option('--wait', WAIT);
}

function ingestArgs(o: IngestFlags) {
  return {
    ...(o.batchSize ? { batchSize: o.batchSize } : {}),
    parseThread: o.parseThread,
    initialLoad: o.initialLoad,
    bulk: o.bulk,
  };
}

export function registerCorpusCli(program: Program, run: RunCommand): void {
  const ingest = program.command('ingest').description('Load scholarly records into the corpus');
  // Paths are resolved here: a server reached through the admin channel has another working directory.
  for (const kind of ['works', 'authors', 'sources', 'institutions']) {
    withIngestOptions(
      ingest
        .command(`${kind} <files...>`)
        .description(`OpenAlex ${kind} records: JSON lines (plain or .gz) or one JSON object per file`),
    ).action((files: string[], o: IngestFlags) =>
      runOrQueue(run, o.wait === true, `ingest ${kind}`, {
        files: files.map((f) => path.resolve(f)),
        ...ingestArgs(o),
      }),
    );
  }
  withIngestOptions(
    ingest
      .command('openalex-snapshot <dir>')
      .description(
        'An OpenAlex snapshot as published (<entity>/updated_date=*/*.gz, manifests, merged_ids): the ' +
          'partitions not loaded yet, then the merged ids not applied yet (docs/corpus.md)',
      )
      .option('--entities <list>', `comma-separated, of ${SNAPSHOT_ENTITIES.join(',')} (default: all)`, (v) =>
        v.split(',').map((e) => e.trim()),
      ),
  ).action((dir: string, o: IngestFlags & { entities?: string[] }) =>
    runOrQueue(run, o.wait === true, 'ingest openalex-snapshot', {
      dir: path.resolve(dir),
      ...(o.entities ? { entities: o.entities } : {}),
      ...ingestArgs(o),
    }),
  );
  ingest
    .command('retractions <file>')
    .description('Retraction Watch CSV: marks the original papers of retractions as retracted')
    .option('--wait', WAIT)
    .action((file: string, o: { wait?: boolean }) =>
      runOrQueue(run, o.wait === true, 'ingest retractions', { file: path.resolve(file) }),
    );

  const corpus = program.command('corpus').description('Corpus upkeep (runs as a job unless --wait)');
  corpus
    .command('metrics')
    .description('Recompute the metrics of the authors queued for it (h-index, citations, academic age)')
    .option('--all', 'queue every author first')
    .option('--wait', WAIT)
    .action((o: { all?: boolean; wait?: boolean }) =>
      runOrQueue(run, o.wait === true, 'corpus metrics', { all: o.all === true }),
    );
  corpus
    .command('relink')
    .description("Link every authors group's records to the corpus's authors again")
    .option('--wait', WAIT)
    .action((o: { wait?: boolean }) => runOrQueue(run, o.wait === true, 'corpus relink', {}));
  program
    .command('people')
    .description('One person, one candidate: author records of one researcher')
    .command('relink')
    .description("decide every record's person again and read addresses from affiliation strings")
    .action(() => run('people relink', {}));
}
