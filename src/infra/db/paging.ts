// The one shape of a listing read a page at a time (folders, authors groups, a group's records):
// what is asked for, what comes back, and the search every such listing understands.
import { likeWordPatterns } from './quote.ts';

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
}

/**
 * The conditions that `column` holds every word of `search` somewhere, letter case aside, their
 * parameters numbered from `$first` on (likeWordPatterns: at most 10 words).
 */
export function everyWordIn(
  column: string,
  search: string,
  first: number,
): { conditions: string[]; params: string[] } {
  const params = likeWordPatterns(search);
  return { conditions: params.map((_, i) => `${column} ILIKE $${first + i}`), params };
}
