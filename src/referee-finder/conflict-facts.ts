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
import { learntEmails, personEmail } from './contacts.ts';
import type {
  AuthorFacts,
  CandidateFacts,
  ManuscriptFacts,
  OrganizationFlag,
  WorkRef,
} from './conflict-policy.ts';
import type { ManuscriptAuthor, ManuscriptForRanking, ManuscriptReference } from './types.ts';
import type { RecentAffiliation } from '../corpus/authors/metrics.ts';
import { appendTo } from '../infra/collections.ts';
import { cachedAffiliationReading, campusesOf, type Campuses } from '../corpus/authors/affiliations.ts';

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

/**
 * Works each candidate id shares with any of the manuscript's authors' ids, newest first; each with
 * the manuscript author who wrote it, one the form names rather than one read from the file alone
 * (`fileOnlyIds`) where both did, and those works first: the evidence kept names the form's authors
 * wherever they give the conflict.
 */
export async function coauthoredWorks(
  db: Queryable,
  manuscriptAuthorIds: readonly number[],
  candidateIds: readonly number[],
  fileOnlyIds: readonly number[] = [],
): Promise<Map<number, Array<{ work: WorkRef; manuscriptAuthorId: number }>>> {
  if (!manuscriptAuthorIds.length || !candidateIds.length) return new Map();
  const { rows } = await db.query<WorkRow & { with_id: number }>(
    `SELECT b.author_id, coalesce(min(a.author_id) FILTER (WHERE a.author_id <> ALL($3::int[])),
                                  min(a.author_id)) AS with_id, w.id, w.title, w.publication_year
       FROM authorships a JOIN authorships b ON b.work_id = a.work_id JOIN works w ON w.id = a.work_id
      WHERE a.author_id = ANY($1::int[]) AND b.author_id = ANY($2::int[])
      GROUP BY b.author_id, w.id
      ORDER BY b.author_id, bool_and(a.author_id = ANY($3::int[])), w.publication_year DESC NULLS LAST, w.id`,
    [manuscriptAuthorIds, candidateIds, fileOnlyIds],
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
 * Works of each candidate id that the manuscript cites, with the citing reference: by DOI or by title,
 * and by a title written whole in the reference's text (`citedByTitleInText`: the reference parser cut
 * the title wrong).
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
  if (!refs.some((r) => r.text) || !candidateIds.length) return new Map();
  // Two steps: the planner cannot tell how many works a list of titles finds (a handful), so one
  // join read every authorship of the ~200 candidates (16k rows, ~8 ms at 42k works); with the
  // works' ids in hand it reads just their authorships.
  const [cited, keys, inText] = await Promise.all([
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
    citedByTitleInText(
      db,
      refs.map((r) => r.text),
      candidateIds,
    ),
  ]);
  const refKeys = keys.rows[0]?.keys ?? [];
  const citing = new Map<number, string>();
  for (const w of cited.rows) {
    const i = refs.findIndex(
      (r, k) => (r.doi !== null && r.doi === w.doi) || (w.key !== null && refKeys[k] === w.key),
    );
    citing.set(w.id, refs[i]?.text || w.title);
  }
  for (const { id, reference } of inText) if (!citing.has(id)) citing.set(id, reference);
  if (citing.size === 0) return new Map();
  const { rows } = await db.query<WorkRow>(
    `SELECT s.author_id, w.id, w.title, w.publication_year FROM authorships s JOIN works w ON w.id = s.work_id
      WHERE s.work_id = ANY($1::int[]) AND s.author_id = ANY($2::int[])
      ORDER BY s.author_id, w.publication_year DESC NULLS LAST, w.id`,
    [[...citing.keys()], candidateIds],
  );
  return groupByAuthor(rows, (r) => ({ work: workOf(r), reference: citing.get(r.id) ?? r.title }));
}

// A title found inside a reference's text must be long enough to name one work: "Deep learning" is in
// many references that cite other works.
const TITLE_IN_TEXT_MIN_WORDS = 5;
const TITLE_IN_TEXT_MIN_CHARS = 30;
// Places a title may begin at, looked up at most (a title-cased reference has one at every word; a
// reference list at its cap of 2,000 entries).
const TITLE_STARTS_PER_REFERENCE = 40;
const TITLE_STARTS_LIMIT = 20_000;

/**
 * The candidates' works whose whole title is written in a reference's text from after a punctuation
 * mark (or its start) to a field boundary (punctuation, a capital or a number, its end): "Runon J (2021) Graph
 * message passing over molecules In: Proceedings of ICML" cites "Graph Message Passing over
 * Molecules", which the reference's parsed title ran into its venue. The works are found by the first
 * three words after each boundary (`title_head`, migration 0108, on its index), among the candidates'
 * only, and each is kept when its whole title follows there and ends at a boundary: "Attention is all
 * you need" is not found in "...attention is all you need in speech separation", a longer title it
 * only begins.
 */
export const WORKS_BY_TITLE_HEADS = `
  SELECT w.id, title_key(w.title) AS key FROM works w
   WHERE title_head(w.title) = ANY(ARRAY(SELECT DISTINCT title_head(t) FROM unnest($1::text[]) AS t))
     AND EXISTS (SELECT 1 FROM authorships s WHERE s.work_id = w.id AND s.author_id = ANY($2::int[]))`;

async function citedByTitleInText(
  db: Queryable,
  texts: readonly string[],
  candidateIds: readonly number[],
): Promise<Array<{ id: number; reference: string }>> {
  const read = texts.map(referenceWords);
  const starts: string[] = [];
  for (const { raw, words } of read) {
    let perReference = 0;
    for (let i = 0; i + TITLE_IN_TEXT_MIN_WORDS <= words.length; i++) {
      if (!words[i]!.afterPunctuation || perReference >= TITLE_STARTS_PER_REFERENCE) continue;
      if (starts.length >= TITLE_STARTS_LIMIT) break;
      // The three words from the boundary on, as written: the database folds them as it folds titles.
      starts.push(raw.slice(words[i]!.start, words[i + 2]!.end));
      perReference++;
    }
  }
  if (starts.length === 0) return [];
  const { rows } = await db.query<{ id: number; key: string | null }>(WORKS_BY_TITLE_HEADS, [
    starts,
    candidateIds,
  ]);
  const out: Array<{ id: number; reference: string }> = [];
  for (const row of rows) {
    if (row.key === null || row.key.length < TITLE_IN_TEXT_MIN_CHARS) continue;
    const title = row.key.split(' ');
    if (title.length < TITLE_IN_TEXT_MIN_WORDS) continue;
    const at = read.findIndex(({ words }) => holdsTitle(words, title));
    if (at >= 0) out.push({ id: row.id, reference: texts[at]! });
  }
  return out;
}

interface ReferenceWord {
  /** Folded as title_key folds (lower case, letters and digits). */
  word: string;
  start: number;
  end: number;
  /** A field may begin here: after punctuation, at a capital or a number, or first. */
  fieldStart: boolean;
  /** After punctuation, or first: where a reference's title begins ("(2021) Title", ". Title"). */
  afterPunctuation: boolean;
}

function referenceWords(raw: string): { raw: string; words: ReferenceWord[] } {
  const words: ReferenceWord[] = [];
  const pattern = /[\p{L}\p{N}]+/gu;
  let previousEnd = 0;
  for (let m = pattern.exec(raw); m !== null; m = pattern.exec(raw)) {
    const between = raw.slice(previousEnd, m.index);
    const afterPunctuation = words.length === 0 || /\S/.test(between);
    words.push({
      word: m[0].toLowerCase(),
      start: m.index,
      end: m.index + m[0].length,
      fieldStart: afterPunctuation || /^[\p{Lu}\p{N}]/u.test(m[0]),
      afterPunctuation,
    });
    previousEnd = m.index + m[0].length;
  }
  return { raw, words };
}

/** Whether `title`'s words follow one another in `words` from after a punctuation mark to a field boundary. */
function holdsTitle(words: readonly ReferenceWord[], title: readonly string[]): boolean {
  for (let i = 0; i + title.length <= words.length; i++) {
    if (!words[i]!.afterPunctuation || words[i]!.word !== title[0]) continue;
    const end = i + title.length;
    if (end < words.length && !words[end]!.fieldStart) continue;
    if (title.every((w, k) => words[i + k]!.word === w)) return true;
  }
  return false;
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
export async function institutionsNamedBy(
  db: Queryable,
  authors: ReadonlyArray<{ name: string; affiliation: string | null }>,
): Promise<StatedInstitution[]> {
  // Each part once per affiliation and author: a part written 20 times in each of 1,000 authors'
  // affiliations was 20,000 entries, each copied into a new list (quadratic: 40 s of CPU an upload).
  const partsOf = new Map<string, Array<{ affiliation: string; author: string }>>();
  const stated = new Set<string>();
  for (const { name, affiliation } of authors) {
    if (!affiliation) continue;
    if (stated.has(`${name}\u0000${affiliation}`)) continue;
    stated.add(`${name}\u0000${affiliation}`);
    // The runs between separators: an affiliation of 2,000 separators split into 2,000 empty parts,
    // 2 M strings for a 1,000-author form (~75 ms in one run, most of it collecting them).
    const parts = new Set([affiliation, ...(affiliation.match(/[^,;()\n]+/g) ?? [])].map((p) => p.trim()));
    for (const part of parts) {
      if (part.length < 2 || part.length > 200) continue;
      if (!partsOf.has(part) && partsOf.size >= NAMED_PARTS_LIMIT) continue;
      appendTo(partsOf, part, { affiliation, author: name });
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

// The organizations looked up for their campuses, at most: an upload's affiliations name a few hundred.
const CAMPUS_LOOKUP_LIMIT = 2_000;

/**
 * The campuses the corpus's institutions name after a comma, of every organization the affiliations
 * name with a part after it ("University of California, Davis": `campusesOf`). One query for all
 * the upload's affiliation strings, the manuscript's and every candidate's, by the normalized names'
 * start (migration 0118); none where the corpus holds no institutions (the ACL corpus).
 */
export async function institutionCampuses(db: Queryable, names: Iterable<string | null>): Promise<Campuses> {
  const organizations = new Set<string>();
  for (const name of names) {
    if (!name || !name.includes(',')) continue;
    for (const { organization } of cachedAffiliationReading(name).followed) {
      if (organizations.size < CAMPUS_LOOKUP_LIMIT) organizations.add(organization);
    }
  }
  if (organizations.size === 0) return new Map();
  const { rows } = await db.query<{ name: string }>(
    `SELECT DISTINCT i.name FROM unnest($1::text[]) AS o(organization)
       JOIN institutions i
         ON i.normalized_name ~>=~ (o.organization || ' ') AND i.normalized_name ~<~ (o.organization || '!')
      WHERE strpos(i.name, ',') > 0`,
    [[...organizations]],
  );
  return campusesOf(rows.map((r) => r.name));
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
  manuscript: Pick<
    ManuscriptForRanking,
    'organizationId' | 'originId' | 'authors' | 'fileOnlyAuthors' | 'references'
  >,
  /**
   * The corpus records of the manuscript's authors (every record of each person): all of them, and
   * those only the authors read from the file alone were found as.
   */
  manuscriptRecords: { all: readonly number[]; fileOnly: readonly number[] },
  candidateIds: readonly number[],
  rows: Map<number, CandidateRow>,
): Promise<{
  manuscriptFacts: ManuscriptFacts;
  flags: OrganizationFlag[];
  /** The campuses the corpus names after a comma, of the organizations the affiliations name (`institutionCampuses`). */
  campuses: Campuses;
  facts: Map<number, CandidateFacts>;
  /** The email the response gives (referee-finder/contacts.ts: group records, learnt, corpus). */
  contactEmail: Map<number, string | null>;
}> {
  const orgId = manuscript.organizationId;
  const manuscriptIds = manuscriptRecords.all;
  const fileOnlyAuthors = manuscript.fileOnlyAuthors ?? [];
  // Conflicts and emails are the person's: found through any of the person's records (one person,
  // corpus/authors/people.ts, or the same ORCID).
  const people = await personsOf(db, candidateIds);
  const sameAs = new Map(candidateIds.map((id) => [id, people.get(id)!.records]));
  const personIds = [...new Set([...sameAs.values()].flat())];
  const [
    fromGroups,
    coauth,
    retracted,
    cited,
    manuscriptRows,
    learnt,
    records,
    statedInstitutions,
    fileOnlyInstitutions,
  ] = await Promise.all([
    // The manuscript's authors' too: the organization's records give their affiliations as well.
    groupRecordIds(db, orgId, [...new Set([...personIds, ...manuscriptIds])]),
    coauthoredWorks(db, manuscriptIds, personIds, manuscriptRecords.fileOnly),
    retractedWorks(db, personIds),
    citedWorks(db, manuscript.references, personIds),
    candidateRows(db, manuscriptIds),
    learntEmails(db, orgId, [...new Set([...candidateIds, ...personIds])]),
    recordFacts(db, personIds),
    institutionsNamedBy(db, manuscript.authors),
    institutionsNamedBy(db, fileOnlyAuthors),
  ]);
  const facts = new Map<number, CandidateFacts>();
  const contactEmail = new Map<number, string | null>();
  for (const id of candidateIds) {
    const row = rows.get(id);
    if (!row) continue;
    const same = sameAs.get(id)!;
    // The organization's own records first, then what its manuscripts told it, then the corpus.
    contactEmail.set(id, personEmail(same, { fromGroups, learnt, corpus: records }));
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
  const [flags, campuses] = await Promise.all([
    organizationFlags(db, orgId, manuscript.originId, {
      ids: all.flatMap((f) => f.ids),
      orcids: all.flatMap((f) => f.orcids),
      emails: all.flatMap((f) => f.emails),
    }),
    institutionCampuses(db, [
      ...[...manuscript.authors, ...fileOnlyAuthors].map((a) => a.affiliation),
      ...[...manuscriptRows.values()].flatMap((r) => [
        r.recent_affiliation,
        r.institution_name,
        ...(r.recent_affiliations ?? []).map((x) => x.name),
      ]),
      ...[...fromGroups.values()].flatMap((g) => g.affiliations),
      ...all.flatMap((f) => [
        f.recentAffiliation,
        f.institutionName,
        ...(f.recentAffiliations ?? []).map((x) => x.name),
      ]),
    ]),
  ]);
  // The manuscript's side, once for the authors it names and once for those read from the file alone.
  const fileOnly = new Set(manuscriptRecords.fileOnly);
  const side = (
    authors: readonly ManuscriptAuthor[],
    ids: ReadonlySet<number>,
    institutions: StatedInstitution[],
  ): AuthorFacts => ({
    statedAffiliations: authors.map((a) => a.affiliation),
    statedBy: authors.map((a) => a.name),
    statedEmails: authors.flatMap((a) => (a.email ? [{ email: a.email, author: a.name }] : [])),
    statedInstitutions: institutions,
    groupAffiliations: [...ids].flatMap((id) => fromGroups.get(id)?.affiliations ?? []),
    corpusAuthors: [...manuscriptRows.values()]
      .filter((r) => ids.has(r.id))
      .map((r) => ({
        institutionId: r.recent_institution_id,
        institutionName: r.institution_name,
        recentAffiliation: r.recent_affiliation,
        recentAffiliations: r.recent_affiliations,
      })),
  });
  const namedIds = new Set(manuscriptIds.filter((id) => !fileOnly.has(id)));
  return {
    manuscriptFacts: {
      ...side(manuscript.authors, namedIds, statedInstitutions),
      ...(fileOnlyAuthors.length || fileOnly.size
        ? {
            fileOnly: {
              ...side(fileOnlyAuthors, fileOnly, fileOnlyInstitutions),
              authorIds: manuscriptRecords.fileOnly,
            },
          }
        : {}),
    },
    flags,
    campuses,
    facts,
    contactEmail,
  };
}
