// A count as a person reads it in a message, thousands separated: "2,000". The one definition, below
// the dashboard so that a store's message the dashboard shows (a record's limits) writes its counts
// as the page around it does: the import said "“aaa…” (3,000 characters)" beside "must have 1 to
// 1000 characters" (lint forbids `toLocaleString` in src/dashboard but for html.ts).

/** A count thousands separated, as every page of the dashboard says it: "2,000". */
export function formatCount(n: number): string {
  return n.toLocaleString('en');
}

/** A count and its noun, the count's thousands separated: "2,000 records". */
export function countOf(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/**
 * A value a message quotes back, cut short past `max` characters to its first `keep` and its length
 * said: "abc… (3,000 characters)". The one spelling for the dashboard's messages (`quotedBack`) and
 * a command's (`refmatch coi import`'s rejections), which had each their own.
 */
export function cutShort(value: string, max: number, keep = max): string {
  if (value.length <= max) return value;
  return `${value.slice(0, keep)}… (${countOf(value.length, 'character', 'characters')})`;
}
