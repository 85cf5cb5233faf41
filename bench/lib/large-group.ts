// A large authors group for the benches of its pages and search (bench/hostile-group-search.ts,
// bench/hostile-group-pages.ts): generated records, half the names with a letter beyond ASCII, in no
// order of their ids (as an import gives them).
import type { Queryable } from '../../src/infra/db/index.ts';

const FIRST = [
  'Anna',
  'José',
  'Jürgen',
  'Łukasz',
  'Søren',
  'Zoë',
  'Mark',
  'Ana',
  'Çağla',
  'Björn',
  'Li',
  'Peter',
];
const LAST = [
  'Müller',
  'García',
  'Yıldız',
  'Dvořák',
  'Smith',
  'Nguyễn',
  'Johnson',
  'Østergaard',
  'Brown',
  'Lee',
];

/** A name from i, not in the order of the ids (as an import gives them): two of three with a letter beyond ASCII. */
export function nameOf(i: number): string {
  const h = (i * 2_654_435_761) >>> 0;
  return `${FIRST[h % FIRST.length]} ${String.fromCharCode(65 + ((h >>> 8) % 26))}. ${LAST[(h >>> 12) % LAST.length]} ${h.toString(16)}`;
}

/**
 * Writes `records` records into the group (client ids rec-0, rec-1, ...; names by nameOf, one or two
 * emails each), 5,000 a statement, and ANALYZEs them.
 */
export async function fillLargeGroup(
  db: Queryable,
  organizationId: number,
  groupId: number,
  records: number,
): Promise<void> {
  for (let at = 0; at < records; at += 5_000) {
    const ids: string[] = [];
    const names: string[] = [];
    const emails: string[] = [];
    for (let i = at; i < Math.min(records, at + 5_000); i++) {
      ids.push(`rec-${i}`);
      names.push(nameOf(i));
      emails.push(i % 3 === 0 ? `r${i}@example.org r${i}@univ.example.edu` : `r${i}@example.org`);
    }
    await db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails)
       SELECT $1, c, $2, n, string_to_array(e, ' ') FROM unnest($3::text[], $4::text[], $5::text[]) AS t(c, n, e)`,
      [groupId, organizationId, ids, names, emails],
    );
  }
  await db.query('ANALYZE group_authors');
}
