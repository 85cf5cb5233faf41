// The one shape of a listing read a page at a time (folders, authors groups, a group's records):
// what is asked for, what comes back, and the search every such listing understands.
import type { Queryable } from './types.ts';
import { likeWordPatterns, quoteIdent } from './quote.ts';

/** What a listing is asked for: the search typed (words, any order) and the window of rows. */
export interface PageRequest {
  search: string;
  limit: number;
  offset: number;
}

/** A window of a listing's rows, and how many rows match in all. */
export interface CountedPage<T> {
  total: number;
  rows: T[];
  /** False when the matches were counted only up to a limit (`total`: more match; a group's records search). */
  counted?: boolean;
}

/**
 * The condition that the name `column` holds the LIKE pattern `pattern` (parameter `param`), letter
 * case and accents aside, folded as foldAccents folds (fold_text, migration 0104): "espanola" finds
 * "Española", "muller" finds "Müller", "glavaš" finds "Glavas". Every dashboard search over names
 * goes through it (everyWordIn) or compares text stored folded by it (everyWordInFolded, a group's
 * records): the groups' and records' searches folded, the folders' and the journals' did not.
 * Folding every name made a scan about twice as long: a word typed in ASCII is matched by ILIKE in
 * an ASCII name, and only a name with other characters is folded; a word typed with accents is
 * matched against every name folded.
 */
function foldedLike(column: string, param: string, pattern: string): string {
  return /^[ -~]*$/.test(pattern)
    ? `(${column} ILIKE ${param} OR (${column} ~ E'[^\\x01-\\x7f]' AND fold_text(${column}) LIKE lower(${param})))`
    : `fold_text(${column}) LIKE fold_text(${param})`;
}

/**
 * The conditions that the name `column` holds every word of `search` somewhere, letter case and
 * accents aside (foldedLike), or that one of `alsoIn` (ids, emails: matched letter case aside, not
 * folded) holds it, their parameters numbered from `$first` on (likeWordPatterns: at most 10 words).
 */
export function everyWordIn(
  column: string,
  search: string,
  first: number,
  alsoIn: readonly string[] = [],
): { conditions: string[]; params: string[] } {
  const params = likeWordPatterns(search);
  const conditions = params.map((pattern, i) => {
    const p = `$${first + i}`;
    const name = foldedLike(column, p, pattern);
    return alsoIn.length === 0 ? name : `(${[name, ...alsoIn.map((c) => `${c} ILIKE ${p}`)].join(' OR ')})`;
  });
  return { conditions, params };
}

/**
 * everyWordIn over text the rows keep already folded for it: `folded` holds fold_text of the name,
 * `lowered` the other text searched (ids, emails) lower-cased, its parts a line end apart (no word
 * holds one). The same rows as everyWordIn over the text as written, and no row folded or lower-cased
 * at the search, only each word: a group's records search folded every name beyond ASCII and
 * lower-cased every client id and email of the group for each word, twice (migration 0113).
 */
export function everyWordInFolded(
  folded: string,
  lowered: string,
  search: string,
  first: number,
): { conditions: string[]; params: string[] } {
  const params = likeWordPatterns(search);
  const conditions = params.map((_, i) => {
    const p = `$${first + i}`;
    return `(${folded} LIKE fold_text(${p}) OR ${lowered} LIKE lower(${p}))`;
  });
  return { conditions, params };
}

/**
 * An organization's named rows of `table` (as `alias`, with `organization_id` and `name`) that a
 * page lists: the condition that they are the organization's and hold every word of `search`
 * (everyWordIn over the name), its parameters (`$1` the organization), and how many rows meet it.
 * One definition for the pages of an organization's groups and of its folders.
 */
export async function countedNameMatches(
  db: Queryable,
  table: string,
  alias: string,
  organizationId: number,
  search: string,
): Promise<{ where: string; params: unknown[]; total: number }> {
  const words = everyWordIn(`${alias}.name`, search, 2);
  const where = [`${alias}.organization_id = $1`, ...words.conditions].join(' AND ');
  const params: unknown[] = [organizationId, ...words.params];
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM ${quoteIdent(table)} ${quoteIdent(alias)} WHERE ${where}`,
    params,
  );
  return { where, params, total: rows[0]!.n };
}
