// Parsers of option and argument values, shared by every domain's command declarations.
import path from 'node:path';
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

/** `a, b,c` gives ['a', 'b', 'c']. */
export function commaList(value: string): string[] {
  return value.split(',').map((e) => e.trim());
}

/** A path resolved where it is typed: a server reached through the admin channel has another working directory. */
export function pathArgument(value: string): string {
  return path.resolve(value);
}
