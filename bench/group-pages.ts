// npx tsx bench/group-pages.ts: what the dashboard's authors-groups pages cost on a group of 200,000
// records (src/authors-groups/store.ts: listGroupPage, listGroupAuthors), on PGlite and on
// server PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, in a fresh database
// dropped afterwards). The baseline, in the same run on the same rows: the queries as they were
// before migration 0103 (a count(*) of every group's records for the list, a count(*) of the group
// for its size, every page sorted without an index in name order; the index dropped meanwhile).
// Also the middle page by OFFSET through the name index (as read until the dashboard's keyset
// links) against by Next (listGroupAuthorsNextTo).
// And a search of more matches than SEARCH_COUNT_LIMIT ("ab", ~11% of the names): its first page,
// its last page read from the end of the name index (listGroupAuthorsNextTo, no record named: the
// pager's "Last page") against the same page by Next from the record before it (until then the only
// way, at the end of a walk of every page).
// Options (environment): BENCH_RECORDS (default 200000), BENCH_ROUNDS (default 30),
// BENCH_DRIVERS (default "pglite,postgres").
import type { Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import {
  createGroup,
  listGroupAuthors,
  listGroupAuthorsNextTo,
  listGroupPage,
} from '../src/authors-groups/store.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const PAGE = 50;

function median(ms: number[]): number {
  const sorted = [...ms].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await fn();
    out.push(performance.now() - start);
  }
  return median(out);
}

/** The reads as they were before migration 0103. */
const before = {
  groups: (db: Database, org: number) =>
    db.query(
      `SELECT g.id AS group_id, g.name,
              (SELECT count(*)::integer FROM group_authors a WHERE a.group_id = g.id) AS authors
         FROM authors_groups g WHERE g.organization_id = $1 ORDER BY g.id`,
      [org],
    ),
  page: async (db: Database, org: number, group: number, offset: number) => {
    const where = `organization_id = $1 AND group_id = $2
       AND ($3 = '%%' OR name ILIKE $3 OR client_id ILIKE $3 OR array_to_string(emails, ' ') ILIKE $3)`;
    const params = [org, group, '%%'];
    await db.query(`SELECT count(*)::integer AS n FROM group_authors WHERE ${where}`, params);
    await db.query(
      `SELECT g.client_id, g.name, g.emails, g.linked_author_id, a.display_name AS linked_author_name
         FROM (SELECT client_id, name, emails, linked_author_id FROM group_authors WHERE ${where}
                ORDER BY lower(name), client_id LIMIT $4 OFFSET $5) g
         LEFT JOIN authors a ON a.id = g.linked_author_id
        ORDER BY lower(g.name), g.client_id`,
      [...params, PAGE, offset],
    );
  },
};

async function measure(db: Database, label: string): Promise<void> {
  await migrate(db);
  const org = await createOrganization(db, { name: 'Bench', features: [] });
  const group = await createGroup(db, org.id, 'Pool');
  for (let i = 0; i < 5; i++) await createGroup(db, org.id, `Small ${i}`);
  // Names in no order of their ids, as a real import gives them.
  await db.query(
    `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails)
     SELECT $1, 'r' || i, $2, 'Name ' || md5(i::text), ARRAY['r' || i || '@example.org']
       FROM generate_series(1, $3::integer) i`,
    [group.group_id, org.id, RECORDS],
  );
  await db.query('ANALYZE group_authors');
  const key = { organizationId: org.id, groupId: group.group_id };
  const lastPage = Math.floor((RECORDS - 1) / PAGE) * PAGE;
  const middlePage = Math.floor(RECORDS / 2 / PAGE) * PAGE;
  // The record before the middle page, as its page's Next link names it (the dashboard's keyset).
  const { rows: preceding } = await db.query<{ client_id: string }>(
    'SELECT client_id FROM group_authors WHERE group_id = $1 ORDER BY lower(name), client_id OFFSET $2 LIMIT 1',
    [group.group_id, middlePage - 1],
  );
  const middleKey = preceding[0]!.client_id;

  const after = {
    groups: await timed(() => listGroupPage(db, org.id, { search: '', limit: PAGE, offset: 0 })),
    first: await timed(() => listGroupAuthors(db, key, { search: '', limit: PAGE, offset: 0 })),
    middle: await timed(() => listGroupAuthors(db, key, { search: '', limit: PAGE, offset: 2_000 })),
    last: await timed(() => listGroupAuthors(db, key, { search: '', limit: PAGE, offset: lastPage })),
    middleByNext: await timed(() =>
      listGroupAuthorsNextTo(db, key, { search: '', limit: PAGE, clientId: middleKey, backward: false }),
    ),
    search: await timed(() => listGroupAuthors(db, key, { search: 'r1234@', limit: PAGE, offset: 0 })),
  };
  // A search past SEARCH_COUNT_LIMIT: its first page, and its last page two ways.
  const { rows: matches } = await db.query<{ client_id: string }>(
    `SELECT client_id FROM group_authors WHERE group_id = $1 AND search_name LIKE '%ab%'
      ORDER BY lower(name) DESC, client_id DESC LIMIT $2`,
    [group.group_id, PAGE + 1],
  );
  const { rows: matched } = await db.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM group_authors WHERE group_id = $1 AND search_name LIKE '%ab%'`,
    [group.group_id],
  );
  const beforeLast = matches.at(-1)!.client_id;
  const wide = {
    first: await timed(() => listGroupAuthors(db, key, { search: 'ab', limit: PAGE, offset: 0 })),
    lastByNext: await timed(() =>
      listGroupAuthorsNextTo(db, key, { search: 'ab', limit: PAGE, clientId: beforeLast, backward: false }),
    ),
    lastFromEnd: await timed(() =>
      listGroupAuthorsNextTo(db, key, { search: 'ab', limit: PAGE, backward: true }),
    ),
  };
  // The middle page as main read it until the keyset: an OFFSET through the name index (its kept count aside).
  const middleByOffset = await timed(() =>
    db.query(
      `SELECT client_id, name, emails, linked_author_id FROM group_authors
        WHERE organization_id = $1 AND group_id = $2 ORDER BY lower(name), client_id LIMIT $3 OFFSET $4`,
      [org.id, group.group_id, PAGE, middlePage],
    ),
  );
  await db.query('DROP INDEX group_authors_name_order_idx');
  const base = {
    groups: await timed(() => before.groups(db, org.id)),
    first: await timed(() => before.page(db, org.id, group.group_id, 0)),
    middle: await timed(() => before.page(db, org.id, group.group_id, 2_000)),
    last: await timed(() => before.page(db, org.id, group.group_id, lastPage)),
  };
  console.log(
    `${label}, a group of ${RECORDS} records and 5 small ones; medians of ${ROUNDS}, ms (before / after = speed-up):`,
  );
  const row = (name: string, b: number, a: number) =>
    console.log(
      `  ${name.padEnd(34)} ${b.toFixed(1).padStart(8)} ${a.toFixed(1).padStart(8)}  ${(b / a).toFixed(1)}x`,
    );
  row('groups list (sizes)', base.groups, after.groups);
  row('records, first page', base.first, after.first);
  row('records, page 41', base.middle, after.middle);
  row(`records, last page (${lastPage / PAGE + 1})`, base.last, after.last);
  row(`middle page (${middlePage / PAGE + 1}): OFFSET / Next`, middleByOffset, after.middleByNext);
  console.log(
    `  ${'records, a search (count + page)'.padEnd(34)} ${'-'.padStart(8)} ${after.search.toFixed(1).padStart(8)}  (unchanged: it scans the group)`,
  );
  console.log(
    `  a search of ${matched[0]!.n} matches ("ab"; counted to the limit, read + count): first page ${wide.first.toFixed(1)}, last page by Next from the record before it ${wide.lastByNext.toFixed(1)} (after a walk of every page), last page from the end ${wide.lastFromEnd.toFixed(1)}`,
  );
}

await onEachBenchDatabase('bench_group_pages', measure);
