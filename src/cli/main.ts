// The `refmatch` CLI. Each command prints JSON on stdout and errors on stderr with a non-zero exit;
// names and output shapes are a contract that scripts rely on: add, never rename. The commands are
// declared in their domains (registry.ts lists them); this file turns the declarations into commander's
// parser: `folder settings` becomes `folder` > `settings`, each declared option a commander option.
import { Argument, Option, Command as Program } from 'commander';
import { defineLocalCommand, type Command, type LocalCommand } from '../infra/cli/command.ts';
import { parseConfig, type Config } from '../infra/config.ts';
import { terminalJson, terminalText } from '../infra/cli/terminal-json.ts';
import { cliDeclarations } from './registry.ts';

type RunCommand = (name: string, args: Record<string, unknown>) => Promise<void>;

const WAIT = 'run here and now and print the report (without it: queue a job and print it)';

const serveCommand = defineLocalCommand({
  name: 'serve',
  description: 'Start the HTTP service (what `npm start` runs)',
  async run(config) {
    // Loaded only here: the server pulls in the whole app, which every other command can do without.
    const { startServer, handleSignals } = await import('../server.ts');
    handleSignals(await startServer(config));
  },
});

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
      process.stdout.write(`${terminalJson(result, 2)}\n`);
    } catch (error) {
      progress.stop();
      throw error;
    }
  };
}

/** The name under which commander keeps an argument's value: `<files...>` -> files. */
function argumentKey(syntax: string): string {
  return syntax.replace(/[<>[\].]/g, '');
}

/**
 * Adds one declared command to the program. Its action hands on the parsed values as the command's
 * args: arguments first, then options in declared order, a flag without a value as true or false, an
 * absent option left out (the handler's validation sees what was typed, and applies its defaults).
 */
function addCommand(
  parent: Program,
  word: string,
  declared: Command<never, unknown> | LocalCommand<never>,
  action: (args: Record<string, unknown>, wait: boolean) => Promise<void>,
): void {
  const command = parent.command(word);
  if (declared.description) command.description(declared.description);
  for (const spec of declared.arguments ?? []) {
    const argument = new Argument(spec.syntax, spec.description);
    const parse = spec.parse;
    if (parse && argument.variadic) {
      argument.argParser((value: string, previous: unknown[] = []) => [...previous, parse(value)]);
    } else if (parse) argument.argParser<unknown>(parse);
    command.addArgument(argument);
  }
  const options = (declared.options ?? []).map((spec) => {
    const option = new Option(spec.flags, spec.description);
    if (spec.choices) option.choices(spec.choices);
    // The previous value commander passes is the parser's own earlier result (or undefined).
    if (spec.parse) option.argParser(spec.parse as (value: string, previous: unknown) => unknown);
    if (spec.default !== undefined) option.default(spec.default);
    if (spec.required) option.makeOptionMandatory();
    command.addOption(option);
    return option;
  });
  const queueable = 'queueable' in declared && declared.queueable === true;
  if (queueable) command.option('--wait', WAIT);
  command.action(async (...received: unknown[]) => {
    const args: Record<string, unknown> = {};
    (declared.arguments ?? []).forEach((spec, i) => {
      if (received[i] !== undefined) args[argumentKey(spec.syntax)] = received[i];
    });
    const values = command.opts<Record<string, unknown>>();
    for (const option of options) {
      const key = option.attributeName();
      const value = values[key];
      if (option.isBoolean() && !option.negate) args[key] = value === true;
      else if (value !== undefined) args[key] = value;
    }
    await action(args, values.wait === true);
  });
}

export function buildProgram(getConfig: () => Config): Program {
  const program = new Program('refmatch')
    .description('Referee and journal recommendation service')
    .option(
      '--create-data-dir',
      'create a new, empty database if none is found (else the command refuses, naming where it looked)',
    )
    .showHelpAfterError()
    // commander's errors quote an argument as typed or globbed (a file named "--\e[2J" is an unknown
    // option): each line escaped, its own line breaks kept ("(Did you mean ...?)" is a second line).
    .configureOutput({
      outputError: (message, write) => write(message.split('\n').map(terminalText).join('\n')),
    })
    .exitOverride();
  const run = makeRunner(getConfig, () => program.opts<{ createDataDir?: boolean }>().createDataDir === true);

  const groups = new Map<string, Program>();
  for (const declared of [serveCommand, ...cliDeclarations]) {
    if ('group' in declared) {
      groups.set(declared.group, program.command(declared.group).description(declared.description));
      continue;
    }
    if (declared.internal) continue;
    const words = declared.name.split(' ');
    const [first, second] = words;
    const parent = second === undefined ? program : groups.get(first!);
    if (!parent || words.length > 2) throw new Error(`No group declared for the command ${declared.name}`);
    const word = second ?? first!;
    if ('local' in declared) {
      const local = declared as LocalCommand<Record<string, unknown>>;
      addCommand(parent, word, declared, (args) => local.run(getConfig(), args));
    } else {
      const name = declared.name;
      // A queueable command without --wait is queued as a job (src/jobs) and the job is printed.
      addCommand(parent, word, declared, (args, wait) =>
        declared.queueable && !wait ? run('job enqueue', { name, args }) : run(name, args),
      );
    }
  }
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
      `${terminalJson({ error: { code: errorCode(error), message: e.message ?? String(error) } })}\n`,
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
