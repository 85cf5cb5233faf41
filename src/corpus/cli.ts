import path from 'node:path';
import { Option, type Command as Program } from 'commander';
import { intOption, type RunCommand } from '../cli/options.ts';
import {
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest-modes.ts';
import { SNAPSHOT_ENTITIES } from './openalex-snapshot.ts';

interface IngestFlags {
  batchSize?: number;
  parseThread: ParseThreadMode;
  initialLoad: InitialLoadMode;
}

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
    );
}

function ingestArgs(o: IngestFlags) {
  return {
    ...(o.batchSize ? { batchSize: o.batchSize } : {}),
    parseThread: o.parseThread,
    initialLoad: o.initialLoad,
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
      run(`ingest ${kind}`, { files: files.map((f) => path.resolve(f)), ...ingestArgs(o) }),
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
    run('ingest openalex-snapshot', {
      dir: path.resolve(dir),
      ...(o.entities ? { entities: o.entities } : {}),
      ...ingestArgs(o),
    }),
  );
  ingest
    .command('retractions <file>')
    .description('Retraction Watch CSV: marks the original papers of retractions as retracted')
    .action((file: string) => run('ingest retractions', { file: path.resolve(file) }));
  program
    .command('people')
    .description('One person, one candidate: author records of one researcher')
    .command('relink')
    .description("decide every record's person again and read addresses from affiliation strings")
    .action(() => run('people relink', {}));
}
