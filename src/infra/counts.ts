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
