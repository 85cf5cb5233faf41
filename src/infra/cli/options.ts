// Option parsers and the runner type shared by every domain's CLI registration.
import { InvalidArgumentError } from 'commander';

export function intOption(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export function boolOption(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
}

/** For repeatable options: `--option a --option b` gives ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** Runs a named command and prints its JSON result; the one way every CLI action ends. */
export type RunCommand = (name: string, args: Record<string, unknown>) => Promise<void>;

/**
 * A long command: with --wait it runs at once and prints its result (as before there were jobs);
 * without, it is queued as a job (src/jobs) and the job is printed.
 */
export function runOrQueue(run: RunCommand, wait: boolean, name: string, args: Record<string, unknown>) {
  return wait ? run(name, args) : run('job enqueue', { name, args });
}
