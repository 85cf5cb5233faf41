// One person, one candidate: author records of the corpus that are one researcher share a person
// (authors.person_id, migration 0065). The rule (`groupPeople`, pure) and the SQL that gathers its
// facts (`linkPeople`) are apart.
//
// Two records are one person when
//   - they carry the same ORCID; or
//   - their names are compatible but written differently ("Derek F. Wong", "Derek Fai Wong", "D. F.
//     Wong", "Wei-Nan" and "Weinan": corpus/authors/names.ts) and the works agree: a shared co-author,
//     or a shared affiliation (with an initial for a given name, or the first part of a hyphenated
//     one alone, "Wei" for "Wei-Qiang": two shared co-authors, or one and the affiliation).
// Never when
//   - they carry different ORCIDs;
//   - they are on one work together (two people wrote it);
//   - their names are written identically: the catalogue had the name and kept the records apart on
//     purpose (the ACL Anthology's "Yang Liu" of ICT and of Edinburgh; OpenAlex's disambiguation),
//     and a shared co-author is no evidence against that decision;
//   - merging would put two names that are not compatible in one person ("J. Smith" joining both
//     "John Smith" and "Jane Smith");
//   - by names, a record whose works point to two records that cannot be one person ("Wei Zhang"
//     sharing co-authors with "Wei-Qiang Zhang" and "Wei-Nan Zhang"): a short name is often a
//     catalogue's bucket for several people.
import type { Database, Queryable } from '../../infra/db/index.ts';
import { affiliationCoresMatch, cachedAffiliationCore } from './affiliations.ts';
import { forEachSliced, TimeSlicer } from '../../infra/event-loop.ts';
import { QUEUE_AUTHOR } from './metrics-refresh.ts';
import { queryPacked } from '../../infra/db/packed-rows.ts';
import {
  familyCore,
  firstGivenForms,
  givenNameShortened,
  parsedNamesCompatible,
  parsePersonName,
  type PersonName,
} from './names.ts';
import { foldWords } from '../../infra/text-fold.ts';
import { appendTo } from '../../infra/collections.ts';

export interface AuthorRecord {
  id: number;
  name: string;
  orcid: string | null;
  /** Ids of the record's works. */
  works: ReadonlySet<number>;
  /** The record's co-authors (their person or record ids). */
  coauthors: ReadonlySet<number>;
  /** Affiliation cores (corpus/authors/affiliations.ts affiliationCore) of the record's works. */
  affiliations: readonly string[];
}

interface Parsed {
  record: AuthorRecord;
  name: PersonName | null;
  folded: string;
  initialOnly: boolean;
  /** The blocks the record is compared within (blockKeys). */
  blocks: readonly string[];
}

/**
 * The blocks a record is compared within: its family name and first initial, and its ORCID. Two
 * records can be one person only if they share one.
 */
function blockKeys(name: PersonName | null, orcid: string | null): string[] {
  const keys: string[] = [];
  if (name && name.given[0]) keys.push(`n:${familyCore(name)}:${name.given[0][0]}`);
  if (orcid) keys.push(`o:${orcid}`);
  return keys;
}

function parse(
  record: AuthorRecord,
  name = parsePersonName(record.name),
  folded = foldWords(record.name),
  blocks = blockKeys(name, record.orcid),
): Parsed {
  return {
    record,
    name,
    folded,
    initialOnly: !name || (name.given[0]?.length ?? 0) <= 1,
    blocks,
  };
}

function shareWork(a: AuthorRecord, b: AuthorRecord): boolean {
  const [small, large] = a.works.size <= b.works.size ? [a.works, b.works] : [b.works, a.works];
  for (const w of small) if (large.has(w)) return true;
  return false;
}

function sameOrcid(a: Parsed, b: Parsed): boolean {
  return a.record.orcid !== null && a.record.orcid === b.record.orcid;
}

/** Whether two records may never be one person (checked across every pair a merge would join). */
function apart(a: Parsed, b: Parsed): boolean {
  if (a.record.orcid && b.record.orcid && a.record.orcid !== b.record.orcid) return true;
  // The names before the works: comparing two names costs less than comparing two sets of works.
  if (!sameOrcid(a, b) && (a.folded === b.folded || !parsedNamesCompatible(a.name, b.name))) return true;
  return shareWork(a.record, b.record);
}

/**
 * Calls `visit` for each pair of a name block's members (one family name and first initial) whose
 * first given names agree: equal, or one of them an initial. Other pairs cannot have compatible
 * names, and skipping them keeps a large block from costing its square (the ACL's linkable
 * records: 370,000 pairs in their blocks, of which a few percent agree).
 */
function forEachAgreeingPair(
  members: readonly number[],
  names: ReadonlyArray<PersonName | null>,
  visit: (i: number, j: number) => void,
): void {
  const initials: number[] = [];
  const byFirst = new Map<string, number[]>();
  for (const i of members) {
    const name = names[i]!;
    if (name.given[0]!.length === 1) {
      initials.push(i);
      continue;
    }
    // A hyphenated first name meets its parts together too ("Wei-Nan", "Weinan"): a pair it is in
    // twice is visited twice, which every caller's `visit` allows.
    for (const first of firstGivenForms(name)) appendTo(byFirst, first, i);
  }
  forEachPair(initials, visit);
  for (const list of byFirst.values()) {
    forEachPair(list, visit);
    for (const i of initials) for (const j of list) visit(i, j);
  }
}

function forEachPair(list: readonly number[], visit: (i: number, j: number) => void): void {
  for (let x = 0; x < list.length; x++) for (let y = x + 1; y < list.length; y++) visit(list[x]!, list[y]!);
}

/** Calls `visit` for each pair of a block's members that could be one person by name or ORCID. */
function forEachBlockPair(
  block: string,
  members: readonly number[],
  names: ReadonlyArray<PersonName | null>,
  visit: (i: number, j: number) => void,
): void {
  if (block.startsWith('n:')) forEachAgreeingPair(members, names, visit);
  else forEachPair(members, visit);
}

/** How strongly two records' works say they are one person (0: not enough); names aside. */
function evidence(a: Parsed, b: Parsed): number {
  if (sameOrcid(a, b)) return 1000;
  let shared = 0;
  const [small, large] =
    a.record.coauthors.size <= b.record.coauthors.size
      ? [a.record.coauthors, b.record.coauthors]
      : [b.record.coauthors, a.record.coauthors];
  for (const c of small) if (c !== a.record.id && c !== b.record.id && large.has(c)) shared++;
  const affiliation = a.record.affiliations.some((x) =>
    b.record.affiliations.some((y) => affiliationCoresMatch(x, y)),
  );
  const strength = shared * 2 + (affiliation ? 1 : 0);
  // An initial ("D. Wong") is weaker than a written given name, and so is the first part of a
  // hyphenated one alone ("Wei Zhang" for "Wei-Qiang Zhang"): they need more.
  const needed = a.initialOnly || b.initialOnly || givenNameShortened(a.name, b.name) ? 3 : 1;
  return strength >= needed ? strength : 0;
}

/**
 * The people among these records: lists of record ids of two or more records each (records alone are
 * left out). Pairs are considered strongest evidence first, and a pair is joined only if no two
 * records of the joined people are `apart`.
 */
export function groupPeople(records: readonly AuthorRecord[]): number[][] {
  return groupParsed(records.map((r) => parse(r)));
}

/** groupPeople over records whose names the caller has parsed already (linkPass parses each once). */
function groupParsed(parsed: readonly Parsed[]): number[][] {
  // Candidate pairs: same family name and first initial (names), or the same ORCID.
  const blocks = new Map<string, number[]>();
  parsed.forEach((p, i) => {
    for (const k of p.blocks) appendTo(blocks, k, i);
  });
  const sameName = (i: number, j: number) =>
    parsed[i]!.folded !== parsed[j]!.folded && parsedNamesCompatible(parsed[i]!.name, parsed[j]!.name);
  const found: Array<{ i: number; j: number; strength: number; byOrcid: boolean }> = [];
  // A pair can share a name block and an ORCID block: considered once.
  const seen = new Set<number>();
  const names = parsed.map((p) => p.name);
  for (const [block, members] of blocks) {
    forEachBlockPair(block, members, names, (x, y) => {
      const [i, j] = x < y ? [x, y] : [y, x];
      const key = i * parsed.length + j;
      if (seen.has(key)) return;
      seen.add(key);
      if (apart(parsed[i]!, parsed[j]!)) return;
      const strength = evidence(parsed[i]!, parsed[j]!);
      if (strength > 0) found.push({ i, j, strength, byOrcid: sameOrcid(parsed[i]!, parsed[j]!) });
    });
  }
  // A record whose works point to two records that cannot be one person ("Wei Zhang" sharing
  // co-authors with "Wei-Qiang Zhang" and with "Wei-Nan Zhang"; "Y. Liu" with two "Yang Liu"s) is
  // merged by its ORCID only: such a short name is often a catalogue's bucket for several people.
  const partners = parsed.map(() => [] as number[]);
  for (const p of found) {
    if (p.byOrcid) continue;
    partners[p.i]!.push(p.j);
    partners[p.j]!.push(p.i);
  }
  const ambiguous = partners.map((ps) => ps.some((a, x) => ps.slice(x + 1).some((b) => !sameName(a, b))));
  const pairs = found.filter((p) => p.byOrcid || (!ambiguous[p.i] && !ambiguous[p.j]));
  pairs.sort((a, b) => b.strength - a.strength || a.i - b.i || a.j - b.j);
  const members = parsed.map((_, i) => [i]);
  const root = parsed.map((_, i) => i);
  for (const { i, j } of pairs) {
    const ri = root[i]!;
    const rj = root[j]!;
    if (ri === rj) continue;
    const a = members[ri]!;
    const b = members[rj]!;
    if (a.some((x) => b.some((y) => apart(parsed[x]!, parsed[y]!)))) continue;
    for (const y of b) root[y] = ri;
    a.push(...b);
    members[rj] = [];
  }
  return members
    .filter((m, i) => m.length > 1 && root[i] === i)
    .map((m) => m.map((i) => parsed[i]!.record.id).sort((x, y) => x - y));
}

// The records of these name keys, of the name keys their ORCIDs and persons reach, with their facts.
// The three reads of a pass come as JSON documents (queryPacked): on the ACL, 41,231 records, 16,832
// authorships and 64,733 co-author rows, which PGlite hands over at several microseconds a row.
const BLOCK_AUTHORS = `
WITH k AS (SELECT unnest($1::text[]) AS name_key),
base AS (SELECT a.id, a.orcid, a.person_id FROM authors a JOIN k USING (name_key)),
keys AS (
  SELECT name_key FROM k
  UNION SELECT b.name_key FROM base JOIN authors b ON b.orcid = base.orcid WHERE base.orcid IS NOT NULL
  UNION SELECT b.name_key FROM base JOIN authors b ON b.person_id = base.person_id WHERE base.person_id IS NOT NULL
)
SELECT a.id, a.display_name, a.orcid, a.person_id FROM authors a JOIN keys USING (name_key)`;

const WORKS_OF = `
SELECT s.author_id, s.work_id, s.raw_affiliations, i.name AS institution
  FROM authorships s LEFT JOIN institutions i ON i.id = s.institution_ids[1]
 WHERE s.author_id = ANY($1::int[])`;

// Each record's co-authors as records, with the person each was in when read: a pass reads its own
// records' co-authors as the persons it decides (linkPass), the others' as they are.
const COAUTHORS_OF = `
SELECT DISTINCT s.author_id, o.author_id AS coauthor, p.person_id
  FROM authorships s JOIN authorships o ON o.work_id = s.work_id AND o.author_id <> s.author_id
  JOIN authors p ON p.id = o.author_id
 WHERE s.author_id = ANY($1::int[])`;

const SET_PERSONS = `
UPDATE authors SET person_id = x.person_id
  FROM unnest($1::int[], $2::int[]) AS x(id, person_id)
 WHERE authors.id = x.id AND authors.person_id IS DISTINCT FROM x.person_id`;

const QUEUE = `
INSERT INTO author_metrics_pending (author_id) SELECT DISTINCT unnest($1::int[]) ORDER BY 1 ${QUEUE_AUTHOR}`;

// Name keys where a link can be made or undone: shared by two or more records, or holding a record
// with an ORCID (other name keys' records may carry it) or of a person. A name key's records are
// the only ones whose names can be compatible with each other (`nameKey` is the family core the
// blocks below start with), so a key with one record, no ORCID and no person has nothing to decide:
// most of an ingest's keys (69% of the ACL records' keys hold one record).
const LINKABLE = `GROUP BY name_key
HAVING count(*) > 1 OR bool_or(person_id IS NOT NULL) OR bool_or(orcid IS NOT NULL) ORDER BY name_key`;
const LINKABLE_NAME_KEYS = `SELECT name_key FROM authors WHERE name_key IS NOT NULL ${LINKABLE}`;
const LINKABLE_AMONG = `SELECT name_key FROM authors WHERE name_key = ANY($1::text[]) ${LINKABLE}`;
/** Pairs of a record among $1 and a co-author of theirs among $2, with the record's name key. */
const COAUTHOR_PAIRS = `
SELECT DISTINCT s.author_id AS id, a.name_key, o.author_id AS coauthor FROM authorships o
  JOIN authorships s ON s.work_id = o.work_id AND s.author_id <> o.author_id
  JOIN authors a ON a.id = s.author_id
 WHERE o.author_id = ANY($2::int[]) AND s.author_id = ANY($1::int[]) AND a.name_key IS NOT NULL`;

/**
 * Name keys decided in one pass: records of one pass are decided together until they agree (linkPass),
 * records of different passes in rounds, each reading the whole of its name keys again; so the larger
 * the pass, the fewer the rounds (the ACL's 6,876 linkable keys in passes of 5,000 took a second round
 * over 289 of them). Bounded for memory: a pass holds its keys' records, and the facts of those that
 * have a possible partner.
 */
export const KEYS_PER_PASS = 10_000;

export interface LinkPeopleReport {
  /** Records whose person changed (their metrics are queued for the recompute). */
  authors_relinked: number;
}

/**
 * Decides the people among the records of these name keys (every name key when 'all': the backfill
 * of a corpus loaded before people existed, or after the rule changed) and writes each record's
 * person_id. Records whose person changed are queued for the metrics recompute, with every record
 * of their persons: a person's metrics are computed over all of them (corpus/authors/metrics-refresh.ts).
 */
export async function linkPeople(
  db: Database,
  nameKeys: Iterable<string> | 'all',
  keysPerPass = KEYS_PER_PASS,
): Promise<LinkPeopleReport> {
  let { rows } =
    nameKeys === 'all'
      ? await db.query<{ name_key: string }>(LINKABLE_NAME_KEYS)
      : await db.query<{ name_key: string }>(LINKABLE_AMONG, [[...new Set(nameKeys)]]);
  const relinked = new Set<number>();
  // A pass reads co-authors as their persons, so the evidence of two records changes when a co-author
  // of theirs joins or leaves a person. Within a pass, its own records' persons are decided until they
  // no longer change (linkPass). A record decided in an earlier pass (or round) than a change to one of
  // its co-authors read that co-author as it was: after each round those records are decided again,
  // with what they reach (`reach`), until nothing changes. Without it a second relink changed what the
  // first decided, and the ingest's people depended on where its passes split. Bounded: more evidence
  // can also be less (two co-authors become one person), so the rounds stop after MAX_ROUNDS whatever
  // happens.
  const decidedAt = new Map<number, number>();
  let passes = 0;
  let focus: Set<number> | undefined;
  for (let round = 0; round < MAX_ROUNDS && rows.length > 0; round++) {
    const keys = rows.map((r) => r.name_key);
    const changedAt = new Map<number, number>();
    for (let i = 0; i < keys.length; i += keysPerPass) {
      const pass = await linkPass(db, keys.slice(i, i + keysPerPass), focus);
      passes++;
      for (const id of pass.compared) decidedAt.set(id, passes);
      for (const id of pass.changed) changedAt.set(id, passes);
    }
    for (const id of changedAt.keys()) relinked.add(id);
    if (changedAt.size === 0) break;
    // Stale only if a decision came before a change (never when the round was one pass).
    let firstDecided = Infinity;
    for (const at of decidedAt.values()) firstDecided = Math.min(firstDecided, at);
    if (firstDecided >= passes) break;
    const pairs = await db.query<{ id: number; name_key: string; coauthor: number }>(COAUTHOR_PAIRS, [
      [...decidedAt.keys()],
      [...changedAt.keys()],
    ]);
    const stale = pairs.rows.filter((p) => decidedAt.get(p.id)! < changedAt.get(p.coauthor)!);
    focus = new Set(stale.map((p) => p.id));
    rows = [...new Set(stale.map((p) => p.name_key))].sort().map((name_key) => ({ name_key }));
  }
  return { authors_relinked: relinked.size };
}

const MAX_ROUNDS = 5;
/** Decisions of one pass's persons, each reading its co-authors as the one before decided them. */
const MAX_ITERATIONS = 5;

/** The records (indexes) and blocks connected to the focus records through blocks and persons. */
function reach(
  authors: ReadonlyArray<{ id: number; person_id: number | null }>,
  blocksOf: readonly string[][],
  focus: ReadonlySet<number>,
): { records: Set<number>; blocks: Set<string> } {
  const sets = connectedSets(
    authors.map((_, i) => i),
    (i) => {
      const person = authors[i]!.person_id;
      return person === null ? blocksOf[i]! : [...blocksOf[i]!, `p:${person}`];
    },
  );
  const records = new Set<number>();
  const blocks = new Set<string>();
  for (const set of sets) {
    if (!set.some((i) => focus.has(authors[i]!.id))) continue;
    for (const i of set) {
      records.add(i);
      for (const block of blocksOf[i]!) blocks.add(block);
    }
  }
  return { records, blocks };
}

/**
 * The given records (indexes) in sets that share a key, directly or through others; each set in the
 * records' order, the sets in the order of their first record.
 */
function connectedSets(records: readonly number[], keysOf: (i: number) => readonly string[]): number[][] {
  const root = new Map<number, number>(records.map((i) => [i, i]));
  const find = (i: number): number => {
    let r = i;
    while (root.get(r) !== r) r = root.get(r)!;
    root.set(i, r);
    return r;
  };
  const firstOfKey = new Map<string, number>();
  for (const i of records) {
    for (const key of keysOf(i)) {
      const first = firstOfKey.get(key);
      if (first === undefined) firstOfKey.set(key, i);
      else root.set(find(i), find(first));
    }
  }
  const sets = new Map<number, number[]>();
  for (const i of records) {
    const r = find(i);
    const set = sets.get(r);
    if (set) set.push(i);
    else sets.set(r, [i]);
  }
  return [...sets.values()];
}

/**
 * Decides the people of these name keys' records. Returns the records whose person changed, and those
 * compared with another (the only ones whose decision co-authors can change).
 */
async function linkPass(
  db: Database,
  keys: string[],
  focus?: ReadonlySet<number>,
): Promise<{ changed: number[]; compared: number[] }> {
  const authors = await queryPacked<{
    id: number;
    display_name: string;
    orcid: string | null;
    person_id: number | null;
  }>(db, BLOCK_AUTHORS, [keys], ['id', 'display_name', 'orcid', 'person_id']);
  if (authors.length < 2) return { changed: [], compared: [] };
  // A job the server runs links people on the serving thread: the long loops below give the event
  // loop a turn every few milliseconds (a pass parses tens of thousands of names).
  const slicer = new TimeSlicer();
  // Facts only for records that have someone to be compared with (most records have nobody).
  // Each name parsed and folded once, for the blocks here and for the rule (groupParsed).
  const parsedNames: Array<PersonName | null> = [];
  const folded: string[] = [];
  const blocksOf: string[][] = [];
  const byBlock = new Map<string, number[]>();
  await forEachSliced(
    authors,
    (a, i) => {
      const n = parsePersonName(a.display_name);
      parsedNames.push(n);
      folded.push(foldWords(a.display_name));
      const blocks = blockKeys(n, a.orcid);
      for (const k of blocks) appendTo(byBlock, k, i);
      blocksOf.push(blocks);
    },
    slicer,
  );
  // In a later round only what the focus records reach is decided again (their blocks, and the
  // blocks and persons those reach): a decision joins records of one block, or of one person, only.
  const decided = focus ? reach(authors, blocksOf, focus) : null;
  // A record needs its facts only if some record could be its person: the same ORCID, or a name
  // compatible with its own but written differently (most records of a block are neither).
  const needed = new Set<number>();
  await forEachSliced(
    [...byBlock],
    ([block, members]) => {
      if (decided && !decided.blocks.has(block)) return;
      forEachBlockPair(block, members, parsedNames, (i, j) => {
        const a = authors[i]!;
        const b = authors[j]!;
        const linkable =
          (a.orcid !== null && a.orcid === b.orcid) ||
          (folded[i] !== folded[j] && parsedNamesCompatible(parsedNames[i]!, parsedNames[j]!));
        if (linkable) {
          needed.add(a.id);
          needed.add(b.id);
        }
      });
    },
    slicer,
  );
  authors.forEach((a, i) => {
    if (a.person_id !== null && (!decided || decided.records.has(i))) needed.add(a.id);
  });
  const ids = [...needed];
  const [works, coauthors] = await Promise.all([
    queryPacked<{
      author_id: number;
      work_id: number;
      raw_affiliations: string[];
      institution: string | null;
    }>(db, WORKS_OF, [ids], ['author_id', 'work_id', 'raw_affiliations', 'institution']),
    queryPacked<{ author_id: number; coauthor: number; person_id: number | null }>(
      db,
      COAUTHORS_OF,
      [ids],
      ['author_id', 'coauthor', 'person_id'],
    ),
  ]);
  const facts = new Map(
    ids.map((id) => [
      id,
      {
        works: new Set<number>(),
        coauthors: [] as Array<{ id: number; person: number | null }>,
        affiliations: new Set<string>(),
      },
    ]),
  );
  await forEachSliced(
    works,
    (w) => {
      const f = facts.get(w.author_id)!;
      f.works.add(w.work_id);
      for (const raw of [w.institution, ...w.raw_affiliations]) {
        if (!raw) continue;
        const core = cachedAffiliationCore(raw);
        if (core) f.affiliations.add(core);
      }
    },
    slicer,
  );
  for (const c of coauthors) facts.get(c.author_id)!.coauthors.push({ id: c.coauthor, person: c.person_id });
  // The persons of the records compared, as decided so far: first as they are stored. Every other
  // record of the pass is alone, or keeps its person when outside the focus's reach.
  let current = new Map<number, number | null>(
    authors.filter((a) => facts.has(a.id)).map((a) => [a.id, a.person_id]),
  );
  // The rule joins records of one block only, so it decides each set of records that blocks
  // connect on its own, each in one piece between two turns of the event loop.
  const components = connectedSets(
    authors.flatMap((a, i) => (facts.has(a.id) ? [i] : [])),
    (i) => blocksOf[i]!,
  );
  // The first iteration decides every set; a later one only the sets with a record whose co-author's
  // person the one before changed: the others read the same co-authors and would decide the same.
  let toDecide = components;
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    // Every record compared is in one set (`components` holds them all), reset below when decided.
    const next = new Map(current);
    await forEachSliced(
      toDecide,
      (members) => {
        for (const i of members) next.set(authors[i]!.id, null);
        const records = members.map((i) => {
          const a = authors[i]!;
          const f = facts.get(a.id)!;
          // A co-author compared here counts as the person decided for it; another as it was read.
          const coauthorsNow = new Set(
            f.coauthors.map((c) => (current.has(c.id) ? current.get(c.id) : c.person) ?? c.id),
          );
          const record: AuthorRecord = {
            id: a.id,
            name: a.display_name,
            orcid: a.orcid,
            works: f.works,
            coauthors: coauthorsNow,
            affiliations: [...f.affiliations],
          };
          return parse(record, parsedNames[i]!, folded[i]!, blocksOf[i]!);
        });
        for (const group of groupParsed(records)) {
          // The canonical record: the one with most works (its name is the one most often written).
          const canonical = [...group].sort(
            (x, y) => facts.get(y)!.works.size - facts.get(x)!.works.size || x - y,
          )[0]!;
          for (const id of group) next.set(id, canonical);
        }
      },
      slicer,
    );
    const moved = new Set(ids.filter((id) => next.get(id) !== current.get(id)));
    current = next;
    // Decided again only where a record compared here has a co-author whose person just changed.
    toDecide = components.filter((members) =>
      members.some((i) => facts.get(authors[i]!.id)!.coauthors.some((c) => moved.has(c.id))),
    );
    if (toDecide.length === 0) break;
  }
  const decision = new Map(
    authors.map((a, i) => [
      a.id,
      current.has(a.id) ? current.get(a.id)! : decided && !decided.records.has(i) ? a.person_id : null,
    ]),
  );
  const changed = authors.filter((a) => decision.get(a.id) !== a.person_id);
  if (changed.length === 0) return { changed: [], compared: ids };
  await db.transaction(async (tx) => {
    await tx.query(SET_PERSONS, [changed.map((a) => a.id), changed.map((a) => decision.get(a.id) ?? null)]);
    // The metrics of every record of the old and the new persons change.
    const touched = new Set(changed.map((a) => a.id));
    const persons = new Set(
      changed.flatMap((a) => [a.person_id, decision.get(a.id) ?? null]).filter((p) => p !== null),
    );
    for (const a of authors) {
      const now = decision.get(a.id) ?? null;
      if ((a.person_id !== null && persons.has(a.person_id)) || (now !== null && persons.has(now)))
        touched.add(a.id);
    }
    await queueMetrics(tx, [...touched]);
  });
  return { changed: changed.map((a) => a.id), compared: ids };
}

async function queueMetrics(db: Queryable, ids: number[]): Promise<void> {
  if (ids.length) await db.query(QUEUE, [ids.sort((a, b) => a - b)]);
}
