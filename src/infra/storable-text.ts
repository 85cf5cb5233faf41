// The one rule for text that PostgreSQL cannot store, or that costs too much to fold: a NUL character
// (text columns refuse it: SQLSTATE 22021, and 22P05 inside jsonb), a lone UTF-16 surrogate (it has
// no UTF-8 form; the drivers would silently store U+FFFD instead) and a run of more combining marks
// than `MAX_MARKS_IN_A_ROW`. Applied to every input at the HTTP edge (src/http/storable-text.ts) and
// to what the CLI's commands read from files.

const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Most combining marks one character may carry in a row: Unicode's stream-safe limit (UAX #15, 30
 * non-starters), which no written language comes near. Past it, text is refused as well: both
 * normalisations that fold text sort a run of marks into canonical order by insertion, at the square
 * of the run's length (PostgreSQL's `normalize`, in `fold_text`: a title of 2,000 marks 44 ms on a
 * server, searched again at every dashboard search of the titles; V8's: 21 s for 100,000).
 */
export const MAX_MARKS_IN_A_ROW = 30;
const MARK_RUNS = /\p{M}+/gu;
/** What `textProblem` says of such a run; a refusal of these alone is worded as such. */
export const MARKS_PROBLEM = `must not hold more than ${MAX_MARKS_IN_A_ROW} combining marks in a row (Unicode's stream-safe limit)`;

/** Whether anything but ASCII is there to look at (most values are ASCII: one fast test). */
// eslint-disable-next-line no-control-regex
const NOT_ASCII = /[^\x00-\x7f]/;

/**
 * Whether `text` has a run of more marks than the limit. Each run read once: a pattern asking for
 * 31 marks in a row tried again from each mark of a run (1.2 s for 2,000 cells of 1,000 characters
 * of runs of 30 marks, against 50 ms, in V8 alone).
 */
export function hasLongMarkRun(text: string): boolean {
  MARK_RUNS.lastIndex = 0;
  for (let run = MARK_RUNS.exec(text); run; run = MARK_RUNS.exec(text))
    // Counted in characters: a mark beyond the BMP is two UTF-16 units.
    if (run[0].length > MAX_MARKS_IN_A_ROW && [...run[0]].length > MAX_MARKS_IN_A_ROW) return true;
  return false;
}

/**
 * `text` with each run of more marks than the limit cut to the limit's first marks: for text that
 * is read rather than sent (a manuscript's parsed title, abstract and authors), which is kept, not
 * refused, and would be folded by `fold_text` as a title at every search of the titles.
 */
export function withMarkRunsCut(text: string): string {
  if (!NOT_ASCII.test(text) || !hasLongMarkRun(text)) return text;
  return text.replace(MARK_RUNS, (run) => {
    const marks = [...run];
    return marks.length > MAX_MARKS_IN_A_ROW ? marks.slice(0, MAX_MARKS_IN_A_ROW).join('') : run;
  });
}

/**
 * What is wrong with `text` as input (a NUL, a lone surrogate, a run of more marks than the limit),
 * or null: the one rule, also asked of each cell of a group's CSV import.
 */
export function textProblem(text: string): string | null {
  const found = UNSTORABLE.exec(text);
  if (!found) {
    if (!NOT_ASCII.test(text) || !hasLongMarkRun(text)) return null;
    return MARKS_PROBLEM;
  }
  return found[0] === '\0'
    ? 'must not contain NUL characters'
    : 'must not contain unpaired UTF-16 surrogates (text that is not valid Unicode)';
}

/**
 * The first of a row's values (by column, in the order given) that cannot be stored, with why; null
 * when all can. For the files the CLI reads, whose cells come through no HTTP hook.
 */
export function firstTextProblem(
  values: Readonly<Record<string, string | null>>,
): { column: string; problem: string } | null {
  for (const [column, value] of Object.entries(values)) {
    const problem = value === null ? null : textProblem(value);
    if (problem) return { column, problem };
  }
  return null;
}
