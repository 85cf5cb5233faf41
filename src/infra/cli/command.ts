// A CLI command is a named operation over the database. Defining it once lets the same code run in
// the CLI's own process (server PostgreSQL, or PGlite when no server holds the data directory) or
// inside the running server, reached through its loopback admin channel (admin-channel.ts).
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';

export interface ProgressEvent {
  /** What is being counted, e.g. "works". */
  unit: string;
  done: number;
  /** Known total, or null when streaming an input of unknown length. */
  total: number | null;
  message?: string;
}

export interface CommandContext {
  config: Config;
  db: Database;
  /** Reports progress of a long command; the CLI draws it as a bar or as periodic lines. */
  progress(event: ProgressEvent): void;
  /** Set when the command runs inside a serving process: lets it refresh in-memory state. */
  server?: ServerHooks;
  /** Set when the command runs as a job: aborted on cancel or shutdown; a long command stops between steps. */
  signal?: AbortSignal;
  /** Set when the command runs as a job claimed again after its worker stopped without finishing it. */
  resumed?: boolean;
}

/** What a running server exposes to commands executed on its behalf. */
export interface ServerHooks {
  /** Drop cached API-key verifications and organization settings. */
  invalidateAuth(): void;
  /** Other capabilities register refreshers here (e.g. the corpus index after an ingest). */
  afterCommand: Array<(commandName: string) => Promise<void>>;
}

/** A positional argument as typed, e.g. `<files...>`; its value reaches `run` under its bare name. */
export interface ArgumentSpec {
  /** Commander syntax: `<name>` required, `[name]` optional, `<name...>` variadic (last only). */
  syntax: string;
  description?: string;
  /** Turns the typed text into the value; for a variadic argument, each value in turn. */
  parse?: (value: string) => unknown;
}

/** An option as typed, e.g. `--org <id>`; its value reaches `run` under its camel-cased name (`org`). */
export interface OptionSpec {
  flags: string;
  description: string;
  required?: boolean;
  /** Shown in the help and given when the option is absent. */
  default?: string;
  choices?: readonly string[];
  /** Turns the typed text into the value; `previous` is the value so far (repeatable options). */
  parse?: (value: string, previous: never) => unknown;
}

/** What every command's declaration says for the CLI: its name and how it is typed. */
interface Declared {
  /** Space-separated name as typed, e.g. "org create"; the first word names its group, if any. */
  name: string;
  description?: string;
  arguments?: readonly ArgumentSpec[];
  options?: readonly OptionSpec[];
  /** Reached by name only (the admin channel, the job worker), not offered by the CLI's parser. */
  internal?: boolean;
}

/**
 * A command over the database, declared once: the CLI builds its parser from the declaration, and the
 * CLI process, the server's admin channel and the job worker find it by name. The values parsed from
 * the arguments and options reach `run` as `args` (a flag without a value as true or false).
 */
export interface Command<A = Record<string, unknown>, R = unknown> extends Declared {
  run(ctx: CommandContext, args: A): Promise<R>;
  /**
   * Can run as a job on the queue (src/jobs): its work resumes safely when a killed worker's job is
   * claimed again. The CLI queues it unless given `--wait`. `validate` is then also called when the job
   * is queued, so bad arguments are refused at once rather than by a failed job.
   */
  queueable?: boolean;
  validate?(args: A): void;
}

/** A command that runs in the CLI's own process without the database (`parse`, `serve`). */
export interface LocalCommand<A = Record<string, unknown>> extends Declared {
  local: true;
  run(config: Config, args: A): Promise<void>;
}

/** The description of a group of commands (`org` for `org create`, `org list`...). */
export interface CommandGroup {
  group: string;
  description: string;
}

export function defineCommand<A, R>(command: Command<A, R>): Command<A, R> {
  return command;
}

export function defineLocalCommand<A>(command: Omit<LocalCommand<A>, 'local'>): LocalCommand<A> {
  return { ...command, local: true };
}

export function defineGroup(group: string, description: string): CommandGroup {
  return { group, description };
}
