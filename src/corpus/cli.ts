import path from 'node:path';
import { Option, type Command as Program } from 'commander';
import { intOption, runOrQueue, type RunCommand } from '../infra/cli/options.ts';
import {
  INITIAL_LOAD_MODES,
  PARSE_THREAD_MODES,
  type InitialLoadMode,
  type ParseThreadMode,
} from './ingest-modes.ts';

export function registerCorpusCli(program: Program, run: RunCommand): void {
  const ingest = program.command('ingest').description('Load scholarly records into the corpus');
  for (const kind of ['works', 'authors', 'sources', 'institutions']) {
    ingest
      .command(`${kind} <files...>`)
      .description(`OpenAlex ${kind} records: JSON lines (plain or .gz) or one JSON object per file`)
      .option('--batch-size <n>', 'records per transaction', intOption)
      .addOption(
        new Option('--parse-thread <mode>', 'read and parse in a worker thread beside the database writes')
          .choices(PARSE_THREAD_MODES)
          .default('auto'),
      )
      .addOption(
        new Option(
          '--initial-load <mode>',
          'works into an empty corpus: COPY straight into the tables (auto)',
        )
          .choices(INITIAL_LOAD_MODES)
          .default('auto'),
      )
      .option('--wait', 'run here and now and print the report (without it: queue a job and print it)')
      // Paths are resolved here: a server reached through the admin channel has another working directory.
      .action(
        (
          files: string[],
          o: {
            batchSize?: number;
            parseThread: ParseThreadMode;
            initialLoad: InitialLoadMode;
            wait?: boolean;
          },
        ) =>
          runOrQueue(run, o.wait === true, `ingest ${kind}`, {
            files: files.map((f) => path.resolve(f)),
            ...(o.batchSize ? { batchSize: o.batchSize } : {}),
            parseThread: o.parseThread,
            initialLoad: o.initialLoad,
          }),
      );
  }
  ingest
    .command('retractions <file>')
    .description('Retraction Watch CSV: marks the original papers of retractions as retracted')
    .option('--wait', 'run here and now and print the report (without it: queue a job and print it)')
    .action((file: string, o: { wait?: boolean }) =>
      runOrQueue(run, o.wait === true, 'ingest retractions', { file: path.resolve(file) }),
    );

  const corpus = program.command('corpus').description('Corpus upkeep (runs as a job unless --wait)');
  corpus
    .command('metrics')
    .description('Recompute the metrics of the authors queued for it (h-index, citations, academic age)')
    .option('--all', 'queue every author first')
    .option('--wait', 'run here and now and print the report (without it: queue a job and print it)')
    .action((o: { all?: boolean; wait?: boolean }) =>
      runOrQueue(run, o.wait === true, 'corpus metrics', { all: o.all === true }),
    );
  corpus
    .command('relink')
    .description("Link every authors group's records to the corpus's authors again")
    .option('--wait', 'run here and now and print the report (without it: queue a job and print it)')
    .action((o: { wait?: boolean }) => runOrQueue(run, o.wait === true, 'corpus relink', {}));
}
