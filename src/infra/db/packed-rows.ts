// Many small rows handed over as one JSON document.
import { quoteIdent } from './quote.ts';
import type { Queryable } from './types.ts';

/**
 * Runs `sql` and returns its rows, sent by the database as one JSON document instead of row by row.
 * For the queries that return thousands of small rows on the upload's path: PGlite pays ~5-7 µs a
 * row to hand rows over, so 18,909 rows of three integers (the authorships of a pool of 200
 * prolific authors at 1M works) took it 100-140 ms as rows and 26-33 ms as one document, and the
 * 18,504 name records of "Lee", "Yu" and 20 other family names 145-150 ms against 36-50 ms.
 *
 * (The metrics recompute packs its authorships the same way, one document per person:
 * corpus/authors/metrics-refresh.ts.)
 *
 * `columns` are the row's fields, in order. Only for integers, text, booleans and arrays of them:
 * JSON has no dates, and numbers beyond 2^53 lose digits.
 */
export async function queryPacked<R extends object>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  columns: ReadonlyArray<keyof R & string>,
): Promise<R[]> {
  const fields = columns.map((c) => `t.${quoteIdent(c)}`).join(', ');
  const { rows } = await db.query<{ packed: string }>(
    `SELECT coalesce(json_agg(json_build_array(${fields})), '[]')::text AS packed FROM (${sql}) t`,
    params,
  );
  const tuples = JSON.parse(rows[0]!.packed) as unknown[][];
  return tuples.map((tuple) => {
    const row: Record<string, unknown> = {};
    columns.forEach((c, i) => (row[c] = tuple[i]));
    return row as R;
  });
}
