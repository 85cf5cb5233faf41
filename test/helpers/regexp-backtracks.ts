// A pattern's cost on an input, counted rather than timed: the backtracks V8's regexp engine makes
// (a pattern read again from each character of a run backtracks over the run from each: n² of them,
// or 2^n for one that tries each way to split it). A test that timed such a pattern failed on a slow,
// loaded machine; a count of backtracks is the same on any machine.
import v8 from 'node:v8';

type WithBacktrackLimit = (source: string, flags: string, limit: number) => RegExp;

/**
 * V8's own test hook, `%NewRegExpWithBacktrackLimit`: a RegExp whose match gives up (answers null)
 * past `limit` backtracks. The intrinsic syntax is allowed while the hook is compiled and called,
 * then off again (V8 may compile a function's body again later, after dropping its bytecode: a
 * function made once failed so in a later test file of the same worker).
 */
function withBacktrackLimit(source: string, flags: string, limit: number): RegExp {
  v8.setFlagsFromString('--allow-natives-syntax');
  try {
    const hook = new Function(
      'source',
      'flags',
      'limit',
      'return %NewRegExpWithBacktrackLimit(source, flags, limit);',
    ) as WithBacktrackLimit;
    return hook(source, flags, limit);
  } finally {
    v8.setFlagsFromString('--no-allow-natives-syntax');
  }
}

/**
 * Whether `pattern` settles `input` (finds its match, or finds there is none) within `backtracks` of
 * V8's backtracks. It is tried from each position as `exec` tries it, and the probe's empty
 * alternative matches where the pattern matches nowhere: so the probe answers null only when the
 * limit was reached. V8's optimizations are off while it runs: a greedy loop over a character class
 * steps back without counting (`[*]+$` from each mark of a run of 40,000 counted 40,000 backtracks,
 * not 800 million).
 */
export function settlesWithin(pattern: RegExp, input: string, backtracks: number): boolean {
  const probe = withBacktrackLimit(
    String.raw`^(?:[^]*?(?:${pattern.source})|)`,
    pattern.flags.replace(/[gy]/g, ''),
    backtracks,
  );
  // The flag is read when the probe is compiled, at its first exec: set around it, and put back.
  v8.setFlagsFromString('--no-regexp-optimization');
  try {
    return probe.exec(input) !== null;
  } finally {
    v8.setFlagsFromString('--regexp-optimization');
  }
}
