// The facts the conflict policy (conflict-policy.ts) decides on, read from the database: one query per
// kind of fact for all candidates at once, never one per candidate. No rule lives here.
import type { Queryable } from '../infra/db/index.ts';
import { matchableTitle, normalizeDoi } from '../corpus/openalex/ids.ts';
import {
  candidateRows,
  groupRecordIds,
  personsOf,
  recordFacts,
  type CandidateRow,
  type RecordFacts,
} from './candidate-data.ts';
import { contactEmail as firstEmail, learntEmails } from './contacts.ts';
import type { CandidateFacts, ManuscriptFacts, OrganizationFlag, WorkRef } from './conflict-policy.ts';
import type { ManuscriptForRanking, ManuscriptReference } from './types.ts';
import type { RecentAffiliation } from '../corpus/authors/metrics.ts';

// Evidence kept per candidate and kind: enough to show why, without carrying a prolific
// co-author's whole list.
const EVIDENCE_PER_KIND = 5;

interface WorkRow {
  author_id: number;
  id: number;
  title: string;
  publication_year: number | null;
}

const workOf = (r: WorkRow): WorkRef => ({ id: r.id, title: r.title, year: r.publication_year });

function groupByAuthor<T extends { author_id: number }, U>(
  rows: readonly T[],
  map: (r: T) => U,
): Map<number, U[]> {
  const out = new Map<number, U[]>();
  for (const r of rows) {
    const list = out.get(r.author_id) ?? [];
    if (list.length < EVIDENCE_PER_KIND) list.push(map(r));
    out.set(r.author_id, list);
  }
  return out;
}

/** Works each candidate id shares with any of the manuscript's authors' ids, newest first. */
export async function coauthoredWorks(
  db: Queryable,
  manuscriptAuthorIds: readonly number[],
  candidateIds: readonly number[],
): Promise<Map<number, Array<{ work: WorkRef; manuscriptAuthorId: number }>>> {
  if (!manuscriptAuthorIds.length || !candidateIds.length) return new Map();
  const { rows } = await db.query<WorkRow & { with_id: number }>(
    `SELECT b.author_id, min(a.author_id) AS with_id, w.id, w.title, w.publication_year
       FROM authorships a JOIN authorships b ON b.work_id = a.work_id JOIN works w ON w.id = a.work_id
      WHERE a.author_id = ANY($1::int[]) AND b.author_id = ANY($2::int[])
      GROUP BY b.author_id, w.id
      ORDER BY b.author_id, w.publication_year DESC NULLS LAST, w.id`,
    [manuscriptAuthorIds, candidateIds],
  );
  return groupByAuthor(rows, (r) => ({ work: workOf(r), manuscriptAuthorId: r.with_id }));
}

/** Retracted works of each candidate id. */
export async function retractedWorks(
  db: Queryable,
  candidateIds: readonly number[],
): Promise<Map<number, WorkRef[]>> {
  if (!candidateIds.length) return new Map();
  const { rows } = await db.query<WorkRow>(
    `SELECT s.author_id, w.id, w.title, w.publication_year FROM authorships s JOIN works w ON w.id = s.work_id
      WHERE s.author_id = ANY($1::int[]) AND w.is_retracted
      ORDER BY s.author_id, w.publication_year DESC NULLS LAST, w.id`,
    [candidateIds],
  );
  return groupByAuthor(rows, workOf);
}

/** The works of those DOIs ($1) or titles ($2, folded by title_key), with what they were matched on. */
export const CITED_WORK_IDS = `
  SELECT id, title, publication_year, doi, title_key(title) AS key FROM works
   WHERE doi = ANY($1::text[]) OR title_key(title) = ANY(ARRAY(SELECT title_key(t) FROM unnest($2::text[]) AS t))`;

/**
 * Works of each candidate id that the manuscript cites, with the citing reference: by DOI or by title.
 * A reference with a DOI is matched by its title too: the corpus often holds the work without a DOI,
 * or under another one (preprint and published version), and a missed citation is a missed conflict.
 * Titles compare by `title_key` (migration 0034: case, punctuation and spacing aside), folded in the
 * database.
 */
export async function citedWorks(
  db: Queryable,
  references: readonly ManuscriptReference[],
  candidateIds: readonly number[],
): Promise<Map<number, Array<{ work: WorkRef; reference: string }>>> {
  const refs = references.map((ref) => ({
    doi: normalizeDoi(ref.doi),
    title: matchableTitle(ref.title),
    text: (ref.raw || ref.title || ref.doi || '').trim(),
  }));
  const dois = refs.flatMap((r) => (r.doi ? [r.doi] : []));
  const titles = refs.map((r) => r.title ?? '');
  if ((!dois.length && !titles.some(Boolean)) || !candidateIds.length) return new Map();
  // Two steps: the planner cannot tell how many works a list of titles finds (a handful), so one
  // join read every authorship of the ~200 candidates (16k rows, ~8 ms at 42k works); with the
  // works' ids in hand it reads just their authorships.
  const [cited, keys] = await Promise.all([
    db.query<{
      id: number;
      title: string;
      publication_year: number | null;
      doi: string | null;
      key: string | null;
    }>(CITED_WORK_IDS, [dois, titles.filter(Boolean)]),
    db.query<{ keys: Array<string | null> }>(
      'SELECT array_agg(title_key(t) ORDER BY o) AS keys FROM unnest($1::text[]) WITH ORDINALITY AS x(t, o)',
      [titles],
    ),
  ]);
  if (!cited.rows.length) return new Map();
  const refKeys = keys.rows[0]?.keys ?? [];
  const citing = new Map<number, string>();
  for (const w of cited.rows) {
    const i = refs.findIndex(
      (r, k) => (r.doi !== null && r.doi === w.doi) || (w.key !== null && refKeys[k] === w.key),
    );
    citing.set(w.id, refs[i]?.text || w.title);
  }
  const { rows } = await db.query<WorkRow>(
    `SELECT s.author_id, w.id, w.title, w.publication_year FROM authorships s JOIN works w ON w.id = s.work_id
      WHERE s.work_id = ANY($1::int[]) AND s.author_id = ANY($2::int[])
      ORDER BY s.author_id, w.publication_year DESC NULLS LAST, w.id`,
    [cited.rows.map((r) => r.id), candidateIds],
  );
  return groupByAuthor(rows, (r) => ({ work: workOf(r), reference: citing.get(r.id) ?? r.title }));
}

/** The organization's flags for this manuscript (or for all) that could name one of these people. */
export async function organizationFlags(
  db: Queryable,
  organizationId: number,
  originId: string,
  people: { ids: readonly number[]; orcids: readonly string[]; emails: readonly string[] },
): Promise<OrganizationFlag[]> {
  if (!people.ids.length) return [];
  const { rows } = await db.query<{
    origin_id: string | null;
    author_id: number | null;
    orcid: string | null;
    email: string | null;
  }>(
    `SELECT origin_id, author_id, orcid, email FROM external_coi
     WHERE organization_id = $1 AND (origin_id IS NULL OR origin_id = $2)
       AND (author_id = ANY($3::int[]) OR orcid = ANY($4::text[]) OR email = ANY($5::text[]))
     ORDER BY origin_id NULLS LAST, author_id, orcid, email`,
    [organizationId, originId, people.ids, people.orcids, people.emails.map((e) => e.toLowerCase())],
  );
  return rows.map((r) => ({ originId: r.origin_id, authorId: r.author_id, orcid: r.orcid, email: r.email }));
}

// Parts of a stated affiliation looked up as an institution's other name, at most: an affiliation
// is a short line, and a hostile one must not make the look-up long.
const NAMED_PARTS_LIMIT = 200;

type StatedInstitution = NonNullable<ManuscriptFacts['statedInstitutions']>[number];

/**
 * The corpus institutions the stated affiliations name by one of their other names: the whole line or
 * one of its comma-separated parts is exactly an acronym or alternative name OpenAlex gives ("MIT,
 * Cambridge, MA" names the Massachusetts Institute of Technology). A name that several institutions
 * carry ("UM") names none of them.
 */
async function institutionsNamedBy(
  db: Queryable,
  authors: ReadonlyArray<{ name: string; affiliation: string | null }>,
): Promise<StatedInstitution[]> {
  const partsOf = new Map<string, Array<{ affiliation: string; author: string }>>();
  for (const { name, affiliation } of authors) {
    if (!affiliation) continue;
    for (const part of [affiliation, ...affiliation.split(/[,;()\n]/)].map((p) => p.trim())) {
      if (part.length < 2 || part.length > 200) continue;
      if (!partsOf.has(part) && partsOf.size >= NAMED_PARTS_LIMIT) continue;
      partsOf.set(part, [...(partsOf.get(part) ?? []), { affiliation, author: name }]);
    }
  }
  if (partsOf.size === 0) return [];
  const { rows } = await db.query<{ id: number; name: string; alternative_names: string[] }>(
    `SELECT id, name, alternative_names FROM institutions WHERE alternative_names && $1::text[]`,
    [[...partsOf.keys()]],
  );
  const out: StatedInstitution[] = [];
  for (const [part, stated] of partsOf) {
    const named = rows.filter((r) => r.alternative_names.includes(part));
    if (named.length !== 1) continue;
    for (const s of stated) {
      out.push({ institutionId: named[0]!.id, institutionName: named[0]!.name, ...s });
    }
  }
  return out;
}

/** Per candidate (by ranked id), the person's facts merged over all their ids (same ORCID). */
export function mergePersonFacts(
  sameAs: readonly number[],
  base: Pick<
    CandidateFacts,
    | 'institutionId'
    | 'institutionName'
    | 'recentAffiliation'
    | 'recentAffiliations'
    | 'groupAffiliations'
    | 'organizationEmails'
    | 'orcids'
    | 'emails'
  >,
  coauth: Map<number, Array<{ work: WorkRef; manuscriptAuthorId: number }>>,
  retracted: Map<number, WorkRef[]>,
  cited: Map<number, Array<{ work: WorkRef; reference: string }>>,
): CandidateFacts {
  const uniqueBy = <T>(list: T[], key: (x: T) => number) => {
    const seen = new Set<number>();
    return list.filter((x) => !seen.has(key(x)) && seen.add(key(x))).slice(0, EVIDENCE_PER_KIND);
  };
  return {
    ...base,
    ids: sameAs,
    coauthoredWorks: uniqueBy(
      sameAs.flatMap((id) => coauth.get(id) ?? []),
      (w) => w.work.id,
    ),
    retractedWorks: uniqueBy(
      sameAs.flatMap((id) => retracted.get(id) ?? []),
      (w) => w.id,
    ),
    citedWorks: uniqueBy(
      sameAs.flatMap((id) => cited.get(id) ?? []),
      (w) => w.work.id,
    ),
  };
}

/**
 * The recent affiliations of every record of a candidate's person (a record of the same person holds
 * the person's already, one of the same ORCID may hold others); null while the candidate's own row
 * has none computed and no other record adds any.
 */
function personAffiliations(
  row: CandidateRow,
  same: readonly number[],
  records: Map<number, RecordFacts>,
): RecentAffiliation[] | null {
  const lists = [
    row.recent_affiliations,
    ...same.filter((x) => x !== row.id).map((x) => records.get(x)?.recentAffiliations),
  ];
  if (lists.every((l) => l === null || l === undefined || l.length === 0)) return row.recent_affiliations;
  const seen = new Set<string>();
  const out: RecentAffiliation[] = [];
  for (const r of lists.flatMap((l) => l ?? [])) {
    const key = `${r.institution_id ?? ''}|${r.core}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(r);
  }
  return out;
}

/**
 * Everything the policy needs for one manuscript and its candidates (ranked ids, with their author
 * rows already read): the manuscript side, the organization's flags, and each candidate's facts.
 */
export async function gatherConflictFacts(
  db: Queryable,
  manuscript: Pick<ManuscriptForRanking, 'organizationId' | 'originId' | 'authors' | 'references'>,
  manuscriptIds: readonly number[],
  candidateIds: readonly number[],
  rows: Map<number, CandidateRow>,
): Promise<{
  manuscriptFacts: ManuscriptFacts;
  flags: OrganizationFlag[];
  facts: Map<number, CandidateFacts>;
  /** The email the response gives (referee-finder/contacts.ts: group records, learnt, corpus). */
  contactEmail: Map<number, string | null>;
}> {
  const orgId = manuscript.organizationId;
  // Conflicts and emails are the person's: found through any of the person's records (one person,
  // corpus/authors/people.ts, or the same ORCID).
  const people = await personsOf(db, candidateIds);
  const sameAs = new Map(candidateIds.map((id) => [id, people.get(id)!.records]));
  const personIds = [...new Set([...sameAs.values()].flat())];
  const [fromGroups, coauth, retracted, cited, manuscriptRows, learnt, records, statedInstitutions] =
    await Promise.all([
      // The manuscript's authors' too: the organization's records give their affiliations as well.
      groupRecordIds(db, orgId, [...new Set([...personIds, ...manuscriptIds])]),
      coauthoredWorks(db, manuscriptIds, personIds),
      retractedWorks(db, personIds),
      citedWorks(db, manuscript.references, personIds),
      candidateRows(db, manuscriptIds),
      learntEmails(db, orgId, [...new Set([...candidateIds, ...personIds])]),
      recordFacts(db, personIds),
      institutionsNamedBy(db, manuscript.authors),
    ]);
  const facts = new Map<number, CandidateFacts>();
  const contactEmail = new Map<number, string | null>();
  for (const id of candidateIds) {
    const row = rows.get(id);
    if (!row) continue;
    const same = sameAs.get(id)!;
    // The organization's own records first, then what its manuscripts told it, then the corpus.
    contactEmail.set(
      id,
      firstEmail(same, [
        (x) => fromGroups.get(x)?.emails,
        (x) => learnt.get(x),
        (x) => records.get(x)?.emails,
      ]),
    );
    // The organization's records are linked to one id of a person; they speak for all of them.
    facts.set(
      id,
      mergePersonFacts(
        same,
        {
          institutionId: row.recent_institution_id,
          institutionName: row.institution_name,
          recentAffiliation: row.recent_affiliation,
          recentAffiliations: personAffiliations(row, same, records),
          orcids: [row.orcid ?? [], ...same.map((x) => fromGroups.get(x)?.orcids ?? [])].flat(),
          groupAffiliations: same.flatMap((x) => fromGroups.get(x)?.affiliations ?? []),
          // What the organization knows the person by now: its records and its own uploads (the
          // corpus's addresses may be a decade old).
          organizationEmails: same.flatMap((x) => [
            ...(fromGroups.get(x)?.emails ?? []),
            ...(learnt.get(x) ?? []),
          ]),
          // Every address the organization could know the person by, the one the answer shows
          // among them: a flag by the email a candidate is shown with must match.
          emails: [
            ...same.map((x) => records.get(x)?.emails ?? []),
            ...same.map((x) => fromGroups.get(x)?.emails ?? []),
            ...same.map((x) => learnt.get(x) ?? []),
          ].flat(),
        },
        coauth,
        retracted,
        cited,
      ),
    );
  }
  const all = [...facts.values()];
  const flags = await organizationFlags(db, orgId, manuscript.originId, {
    ids: all.flatMap((f) => f.ids),
    orcids: all.flatMap((f) => f.orcids),
    emails: all.flatMap((f) => f.emails),
  });
  return {
    manuscriptFacts: {
      statedAffiliations: manuscript.authors.map((a) => a.affiliation),
      statedBy: manuscript.authors.map((a) => a.name),
      statedEmails: manuscript.authors.flatMap((a) => (a.email ? [{ email: a.email, author: a.name }] : [])),
      statedInstitutions,
      groupAffiliations: manuscriptIds.flatMap((id) => fromGroups.get(id)?.affiliations ?? []),
      corpusAuthors: [...manuscriptRows.values()].map((r) => ({
        institutionId: r.recent_institution_id,
        institutionName: r.institution_name,
        recentAffiliation: r.recent_affiliation,
        recentAffiliations: r.recent_affiliations,
      })),
    },
    flags,
    facts,
    contactEmail,
  };
}
