// The `refmatch` CLI. Each command prints JSON on stdout and errors on stderr with a non-zero exit;
// names and output shapes are a contract that scripts rely on: add, never rename.
import { Command as Program } from 'commander';
import type { RunCommand } from '../infra/cli/options.ts';
import { parseConfig, type Config } from '../infra/config.ts';
import { registerOrganizationCli } from '../organizations/cli.ts';
import { registerAuthorsGroupCli } from '../authors-groups/cli.ts';
import { registerCustomFieldCli } from '../custom-fields/cli.ts';
import { registerJournalCli } from '../journals/cli.ts';
import { registerCorpusCli } from '../corpus/cli.ts';
import { registerRefereeFinderCli } from '../referee-finder/cli.ts';
import { registerParsingCli } from '../parsing/cli.ts';
import { registerFolderCli } from '../folders/cli.ts';
import { registerManuscriptCli } from '../manuscripts/cli.ts';
import { registerUserCli } from '../users/cli.ts';
import { registerJobCli } from '../jobs/cli.ts';

function makeRunner(getConfig: () => Config, create: () => boolean): RunCommand {
  return async (name, args) => {
    // Loaded when a command runs: the commands pull in the database drivers and every domain, which
    // `--help` and argument errors do without (the CLI answers --help in a fraction of the time).
    const [{ executeCommand }, { progressRenderer }] = await Promise.all([
      import('./execute.ts'),
      import('../infra/cli/progress.ts'),
    ]);
    const progress = progressRenderer(process.stderr);
    try {
      const result = await executeCommand(getConfig(), name, args, progress.update, {
        create: create(),
      });
      progress.stop();
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } catch (error) {
      progress.stop();
      throw error;
    }
  };
}

export function buildProgram(getConfig: () => Config): Program {
  const program = new Program('refmatch')
    .description('Referee and journal recommendation service')
    .option(
      '--create-data-dir',
      'create a new, empty database if none is found (else the command refuses, naming where it looked)',
    )
    .showHelpAfterError()
    .exitOverride();
  const run = makeRunner(getConfig, () => program.opts<{ createDataDir?: boolean }>().createDataDir === true);

  program
    .command('serve')
    .description('Start the HTTP service (what `npm start` runs)')
    .action(async () => {
      // Loaded only here: the server pulls in the whole app, which every other command can do without.
      const { startServer, handleSignals } = await import('../server.ts');
      const server = await startServer(getConfig());
      handleSignals(server);
    });

  program
    .command('migrate')
    .description('Apply database migrations')
    .action(() => run('migrate', {}));

  registerOrganizationCli(program, run);
  registerAuthorsGroupCli(program, run);
  registerCustomFieldCli(program, run);
  registerJournalCli(program, run);
  registerCorpusCli(program, run);
  registerRefereeFinderCli(program, run);
  registerParsingCli(program, getConfig);
  registerFolderCli(program, run);
  registerManuscriptCli(program, run);
  registerUserCli(program, run);
  registerJobCli(program, run);
  return program;
}

async function main(): Promise<void> {
  let config: Config | undefined;
  const getConfig = () => (config ??= parseConfig(process.env));
  const program = buildProgram(getConfig);
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    const e = error as { code?: string; exitCode?: number; message?: string };
    if (
      e.code === 'commander.helpDisplayed' ||
      e.code === 'commander.version' ||
      e.code === 'commander.help'
    ) {
      process.exit(0);
    }
    if (e.code?.startsWith('commander.')) process.exit(e.exitCode ?? 2);
    process.stderr.write(
      `${JSON.stringify({ error: { code: errorCode(error), message: e.message ?? String(error) } })}\n`,
    );
    process.exit(1);
  }
}

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; name?: string };
  if (typeof e.code === 'string' && /^[a-z_]+$/.test(e.code)) return e.code;
  if (e.name === 'ConfigError') return 'invalid_config';
  if (e.name === 'DataDirLockedError') return 'data_dir_locked';
  return 'command_failed';
}

await main();
