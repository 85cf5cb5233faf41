// Which corpus authors are the manuscript's authors. A wrong match would flag conflicts that are not
// there (and hide a good referee); a missed one would hide real conflicts. So: an ORCID or an email
// the corpus knows settles it, and so does one the caller's own group records link to a corpus
// author (the corpus rarely holds emails); a compatible name alone never does, it needs a second
// piece of evidence: a co-authorship with another author of the manuscript, or a matching affiliation.
import type { Queryable } from '../infra/db/index.ts';
import { normalizeOrcid } from '../corpus/openalex/ids.ts';
import {
  familyCore,
  nameKey,
  nameReadingKeys,
  nameReadings,
  parsedNamesCompatible,
  parsePersonName,
  type PersonName,
} from '../corpus/authors/names.ts';
import { anyAffiliationMatches, cachedAffiliationOrganizations } from '../corpus/authors/affiliations.ts';
import type { ManuscriptAuthor } from './types.ts';
import { queryPacked } from '../infra/db/packed-rows.ts';
import { appendTo } from '../infra/collections.ts';
import { TimeSlicer } from '../infra/event-loop.ts';

export interface ResolvedAuthors {
  /** Per manuscript author (same order), the corpus authors who are that person. */
  perAuthor: number[][];
  all: Set<number>;
}

interface CorpusAuthorRow {
  id: number;
  display_name: string;
  name_variants: string[];
  orcid: string | null;
  emails: string[];
  recent_affiliation: string | null;
}

// Each lookup through its own index: written as one OR, the planner could use none (the emails index
// is partial: emails <> '{}') and read every author, 327 ms at 1.4M authors on server PostgreSQL.
// The records of the manuscript authors' family names come names only: a common one ("Liu") has
// ~22,000 of them at 1M works, and PGlite spent ~250 ms a PDF upload handing all their columns over;
// only the few whose names are compatible are read in full (DETAILS). And they come as one JSON
// document (queryPacked): the 18,504 records of "Lee", "Yu" and 20 other names at 1M works took
// PGlite 145-150 ms to hand over as rows, 36-50 ms as one document (the query itself: 25 ms).
const COLUMNS = 'id, display_name, name_variants, orcid, emails, recent_affiliation';
const FIND_BY_IDENTIFIERS = `SELECT ${COLUMNS} FROM authors WHERE orcid = ANY($1::text[])
UNION ALL SELECT ${COLUMNS} FROM authors WHERE emails <> '{}' AND emails && $2::text[]`;
const FIND_BY_NAME_KEY = `SELECT id, display_name, name_variants FROM authors WHERE name_key = ANY($1::text[])`;
const NAME_COLUMNS = ['id', 'display_name', 'name_variants'] as const;
const DETAILS = `SELECT ${COLUMNS} FROM authors WHERE id = ANY($1::int[])`;

type NameRow = Pick<CorpusAuthorRow, 'id' | 'display_name' | 'name_variants'>;

// The organization's own group records linked to a corpus author, by an email or an ORCID. Records
// keep them as the client wrote them: the comparison is on their normalized keys (lower-case email,
// the ORCID's 16 characters), which migration 0033 indexes.
export const GROUP_LINKS = `SELECT linked_author_id, emails, orcids FROM group_authors
  WHERE organization_id = $1 AND linked_author_id IS NOT NULL
    AND (group_email_keys(emails) && $2::text[] OR group_orcid_keys(orcids) && $3::text[])`;

const AFFILIATIONS = `SELECT s.author_id, array_agg(DISTINCT x.aff) AS affs
  FROM authorships s CROSS JOIN LATERAL (
    SELECT unnest(s.raw_affiliations) AS aff
    UNION SELECT i.name FROM institutions i WHERE i.id = ANY(s.institution_ids)
  ) x
  WHERE s.author_id = ANY($1::int[]) GROUP BY s.author_id`;

const COAUTHOR_PAIRS = `SELECT DISTINCT a.author_id AS a, b.author_id AS b
  FROM authorships a JOIN authorships b ON b.work_id = a.work_id AND b.author_id <> a.author_id
  WHERE a.author_id = ANY($1::int[]) AND b.author_id = ANY($1::int[])`;

/** `fn`, remembering every answer it gave during one call of its caller. */
function memoized<V>(fn: (value: string) => V): (value: string) => V {
  const seen = new Map<string, V>();
  return (value) => {
    let found = seen.get(value);
    if (found === undefined) seen.set(value, (found = fn(value)));
    return found;
  };
}

function lowerEmail(e: string | null): string | null {
  const v = e?.trim().toLowerCase();
  return v && v.includes('@') ? v : null;
}

/**
 * The corpus authors whose display name or a name variant is compatible with a reading of the
 * manuscript author's name (nameReadings). Only rows sharing a reading's key can be (the key is the
 * family name that `namesCompatible` compares first), and each name is parsed once: with 20
 * manuscript authors against the ~800 corpus authors of common family names ("Lee", "Yu"), parsing
 * both names on every comparison cost ~215 ms of CPU per upload.
 */
function compatibleRows<R extends NameRow>(rows: readonly R[]): (name: string) => R[] {
  // Keys come from nameKey's own cache; names are parsed only for the keys asked about.
  const byKey = new Map<string, Array<{ row: R; written: string }>>();
  for (const row of rows) {
    for (const written of new Set([row.display_name, ...row.name_variants])) {
      const key = nameKey(written);
      if (key !== null) appendTo(byKey, key, { row, written });
    }
  }
  const parsedNames = new Map<string, PersonName | null>();
  const parse = (written: string): PersonName | null => {
    if (!parsedNames.has(written)) parsedNames.set(written, parsePersonName(written));
    return parsedNames.get(written)!;
  };
  return (name) => {
    const found = new Set<R>();
    for (const reading of nameReadings(name)) {
      for (const { row, written } of byKey.get(familyCore(reading)) ?? []) {
        if (parsedNamesCompatible(reading, parse(written))) found.add(row);
      }
    }
    return [...found];
  };
}

/** "D. F. Wong", "Wong DF": a name whose given names are initials only (and "Wong" alone: none). */
function writtenByInitials(name: string): boolean {
  const given = nameReadings(name)[0]?.given ?? [];
  return given.every((g) => g.length === 1);
}

/**
 * `organizationId`: the caller's organization, whose own group records (linked to corpus authors)
 * also settle who an email or an ORCID is; no other organization's records are read.
 */
export async function resolveManuscriptAuthors(
  db: Queryable,
  authors: readonly ManuscriptAuthor[],
  organizationId?: number,
): Promise<ResolvedAuthors> {
  const perAuthor: number[][] = authors.map(() => []);
  if (!authors.length) return { perAuthor, all: new Set() };
  const orcids = authors.map((a) => normalizeOrcid(a.orcid)).filter((o): o is string => !!o);
  const emails = authors.map((a) => lowerEmail(a.email)).filter((e): e is string => !!e);
  // The loops over the authors give the event loop a turn every few milliseconds: at the form's cap
  // (1,000 authors, names of 1,000 characters) they are seconds of work between two queries.
  const slicer = new TimeSlicer();
  // Every reading's key: a compound family name is keyed one way or the other (nameReadings).
  const keySet = new Set<string>();
  for (const a of authors) {
    if (slicer.due) await slicer.pause();
    for (const key of nameReadingKeys(a.name)) keySet.add(key);
  }
  const keys = [...keySet];
  const bare = (orcid: string) => orcid.replaceAll('-', '');
  const [identified, named, groupLinks] = await Promise.all([
    db.query<CorpusAuthorRow>(FIND_BY_IDENTIFIERS, [orcids, emails]),
    queryPacked<NameRow>(db, FIND_BY_NAME_KEY, [keys], NAME_COLUMNS),
    organizationId !== undefined && (orcids.length || emails.length)
      ? db.query<{ linked_author_id: number; emails: string[] | null; orcids: string[] | null }>(
          GROUP_LINKS,
          [organizationId, emails, orcids.map(bare)],
        )
      : Promise.resolve({ rows: [] }),
  ]);
  // Name-compatible records per manuscript author, read in full beside those found by identifier (a
  // record found twice is kept once).
  const compatibleWith = compatibleRows(named);
  const compatibleIds: number[][] = [];
  for (const a of authors) {
    if (slicer.due) await slicer.pause();
    compatibleIds.push(compatibleWith(a.name).map((r) => r.id));
  }
  const byId = new Map(identified.rows.map((r) => [r.id, r]));
  const unread = [...new Set(compatibleIds.flat())].filter((id) => !byId.has(id));
  if (unread.length) {
    for (const r of (await db.query<CorpusAuthorRow>(DETAILS, [unread])).rows) byId.set(r.id, r);
  }
  const rows = [...byId.values()];
  // The records and the organization's linked records by ORCID and by email, each looked up once
  // an author (searched through for each of 1,000 authors, they were quadratic).
  const rowsByOrcid = new Map<string, CorpusAuthorRow[]>();
  const rowsByEmail = new Map<string, CorpusAuthorRow[]>();
  for (const r of rows) {
    if (r.orcid) appendTo(rowsByOrcid, r.orcid, r);
    for (const e of new Set(r.emails.map((x) => x.toLowerCase()))) appendTo(rowsByEmail, e, r);
  }
  const linkedByOrcid = new Map<string, Set<number>>();
  const linkedByEmail = new Map<string, Set<number>>();
  const link = (map: Map<string, Set<number>>, key: string | null, id: number) => {
    if (key === null) return;
    (map.get(key) ?? map.set(key, new Set()).get(key)!).add(id);
  };
  for (const r of groupLinks.rows) {
    for (const o of r.orcids ?? []) link(linkedByOrcid, normalizeOrcid(o), r.linked_author_id);
    for (const e of r.emails ?? []) link(linkedByEmail, lowerEmail(e), r.linked_author_id);
  }

  // Name-only candidates per manuscript author, settled below by a second piece of evidence.
  const pending: number[][] = authors.map(() => []);
  for (const [k, author] of authors.entries()) {
    if (slicer.due) await slicer.pause();
    const orcid = normalizeOrcid(author.orcid);
    const email = lowerEmail(author.email);
    const byOrcid = orcid ? (rowsByOrcid.get(orcid) ?? []) : [];
    if (byOrcid.length) {
      perAuthor[k] = byOrcid.map((r) => r.id);
      continue;
    }
    const byGroupOrcid = orcid ? [...(linkedByOrcid.get(orcid) ?? [])] : [];
    if (byGroupOrcid.length === 1) {
      perAuthor[k] = byGroupOrcid;
      continue;
    }
    const byEmail = email ? (rowsByEmail.get(email) ?? []) : [];
    if (byEmail.length === 1) {
      perAuthor[k] = [byEmail[0]!.id];
      continue;
    }
    const byGroupEmail = email ? [...(linkedByEmail.get(email) ?? [])] : [];
    if (byGroupEmail.length === 1) {
      perAuthor[k] = byGroupEmail;
      continue;
    }
    // A compatible name with an ORCID that differs from the one given is someone else.
    pending[k] = compatibleIds[k]!.flatMap((id) => {
      const r = byId.get(id);
      return r && !(orcid && r.orcid && r.orcid !== orcid) ? [r.id] : [];
    });
  }

  const namePending = [...new Set(pending.flat())];
  if (namePending.length) {
    const settledIds = new Set(perAuthor.flat());
    const ids = [...new Set([...namePending, ...settledIds])];
    const [affs, pairs] = await Promise.all([
      db.query<{ author_id: number; affs: string[] }>(AFFILIATIONS, [namePending]),
      db.query<{ a: number; b: number }>(COAUTHOR_PAIRS, [ids]),
    ]);
    const affsOf = new Map(affs.rows.map((r) => [r.author_id, r.affs.filter(Boolean)]));
    for (const r of rows) {
      if (r.recent_affiliation) appendTo(affsOf, r.id, r.recent_affiliation);
    }
    const coauthors = new Map<number, Set<number>>();
    for (const { a, b } of pairs.rows) {
      (coauthors.get(a) ?? coauthors.set(a, new Set()).get(a)!).add(b);
    }
    // Corpus authors who could be manuscript author j: settled ones, or name-compatible ones.
    const couldBe = authors.map((_, j) => new Set(perAuthor[j]!.length ? perAuthor[j] : pending[j]));
    // And the other way: which manuscript authors each corpus author could be. Asking every author's
    // set for each name-compatible record was quadratic in the authors (1,000 on the form's cap).
    const authorsOf = new Map<number, number[]>();
    couldBe.forEach((set, j) => {
      for (const id of set) appendTo(authorsOf, id, j);
    });
    // Each affiliation normalized once for this manuscript: a stated one may be longer than the
    // process's cache keeps, and is compared with every namesake's.
    const organizations = memoized(cachedAffiliationOrganizations);
    const settled = perAuthor.map((ids) => ids.length > 0);
    const initialsOnly = authors.map((a) => writtenByInitials(a.name));
    for (const [k, ids] of pending.entries()) {
      if (slicer.due) await slicer.pause();
      const author = authors[k]!;
      const confirmed = ids.filter((id) => {
        if (
          author.affiliation &&
          anyAffiliationMatches([author.affiliation], affsOf.get(id) ?? [], organizations)
        ) {
          return true;
        }
        const theirs = coauthors.get(id);
        if (!theirs) return false;
        // Initials against initials are weak: "Y. Chen" and "X. Li" are each hundreds of records,
        // and some two of them wrote together. A co-author who could be another manuscript author
        // written by a given name in full (or settled by an identifier) confirms; co-authors who
        // could be authors written by initials too confirm only as a group of three: two of them,
        // for two other authors, who also wrote with each other.
        // Each such co-author with the authors by initials it could be, so that the group of three is
        // looked for through the co-authors' own co-authors: every pair of (co-author, author) entries
        // compared was quadratic in them, and a form of common initials makes thousands.
        const byInitials = new Map<number, number[]>();
        for (const other of theirs) {
          if (other === id) continue;
          for (const j of authorsOf.get(other) ?? []) {
            if (j === k) continue;
            if (!initialsOnly[k] || !initialsOnly[j] || settled[j]) return true;
            appendTo(byInitials, other, j);
          }
        }
        for (const [x, xs] of byInitials) {
          for (const y of coauthors.get(x) ?? []) {
            const ys = byInitials.get(y);
            if (ys?.some((jy) => xs.some((jx) => jx !== jy))) return true;
          }
        }
        return false;
      });
      if (confirmed.length) perAuthor[k] = confirmed;
    }
  }
  return { perAuthor, all: new Set(perAuthor.flat()) };
}
