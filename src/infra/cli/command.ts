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

export interface Command<A = Record<string, unknown>, R = unknown> {
  /** Space-separated name as typed, e.g. "org create". */
  name: string;
  /** Whether the command only reads or changes nothing important; informational. */
  run(ctx: CommandContext, args: A): Promise<R>;
  /**
   * Can run as a job on the queue (src/jobs): its work resumes safely when a killed worker's job is
   * claimed again. `validate` is then also called when the job is queued, so bad arguments are refused
   * at once rather than by a failed job.
   */
  queueable?: boolean;
  validate?(args: A): void;
}

export function defineCommand<A, R>(command: Command<A, R>): Command<A, R> {
  return command;
}
