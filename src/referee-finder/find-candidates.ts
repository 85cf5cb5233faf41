// The referee finder: ranks the corpus's researchers for a manuscript (rank-authors.ts), then keeps
// the ones the upload's filters and the organization's settings allow, flags conflicts of interest,
// and explains each candidate by shared concepts and matching works.
import type { AppContext } from '../app-context.ts';
import { affiliationCore, affiliationCoresMatch } from '../corpus/affiliations.ts';
import { authorUrl, workUrl } from '../corpus/author-summary.ts';
import { academicAge } from '../corpus/metrics.ts';
import { nameParts } from '../corpus/names.ts';
import { errors } from '../infra/errors.ts';
import type { Queryable } from '../infra/db/index.ts';
import {
  candidateRows,
  coauthorsOf,
  groupMembers,
  groupRecordIds,
  personsOf,
  recordEmails,
  referencedAuthors,
  withRetractions,
  workSummaries,
  type CandidateRow,
  type GroupMembership,
} from './candidate-data.ts';
import { manuscriptConcepts, sharedConcepts } from './concepts.ts';
import { contactEmail, learnManuscriptEmails, learntEmails } from './contacts.ts';
import { dbAuthorships } from './db-authorships.ts';
import { flaggedAuthors } from './external-coi.ts';
import { buildQuery } from './query.ts';
import { rankAuthors, type RankedAuthor, type RankingParams } from './rank-authors.ts';
import type { RankingIndex } from './ranking-index.ts';
import { resolveManuscriptAuthors } from './resolve-authors.ts';
import type {
  CandidateFilters,
  FindCandidatesOptions,
  FindCandidatesResult,
  ManuscriptForRanking,
  RankedCandidate,
} from './types.ts';

const RELEVANT_ARTICLES = 5;
// Works per candidate whose wording counts for their shared concepts.
const CONCEPT_WORKS = 10;

/** The postings-level index behind the service's work index (`Bm25Index`, as `DbWorkIndex.core`). */
export function rankingIndexOf(ctx: Pick<AppContext, 'index'>): RankingIndex {
  const core = (ctx.index as unknown as { core?: RankingIndex }).core;
  if (!core) throw errors.unavailable('The corpus index does not expose postings for ranking');
  return core;
}

export interface FinderDeps {
  db: Queryable;
  index: RankingIndex;
  publicBaseUrl: string;
  now?: Date;
  params?: Partial<RankingParams>;
}

export function findCandidates(
  ctx: AppContext,
  manuscript: ManuscriptForRanking,
  options: FindCandidatesOptions,
): Promise<FindCandidatesResult> {
  return findCandidatesWith(
    { db: ctx.db, index: rankingIndexOf(ctx), publicBaseUrl: ctx.config.publicBaseUrl },
    manuscript,
    options,
  );
}

function passesFilters(row: CandidateRow, f: CandidateFilters, now: Date): boolean {
  const within = (v: number | null, min?: number, max?: number) =>
    (min === undefined || (v !== null && v >= min)) && (max === undefined || (v !== null && v <= max));
  // An unknown academic age passes no bound on it.
  const age = academicAge(row.first_publication_year, now);
  return (
    within(row.h_index, f.minHIndex, f.maxHIndex) &&
    within(age, f.minAcademicAge, f.maxAcademicAge) &&
    within(row.articles_count, f.minArticlesCount, f.maxArticlesCount)
  );
}

export async function findCandidatesWith(
  deps: FinderDeps,
  manuscript: ManuscriptForRanking,
  options: FindCandidatesOptions,
): Promise<FindCandidatesResult> {
  const { db, index } = deps;
  const now = deps.now ?? new Date();
  const year = now.getUTCFullYear();
  const orgId = manuscript.organizationId;
  const q = buildQuery(index, manuscript);
  const concepts = manuscriptConcepts(index, q);
  const groupIds = options.groups?.groups.map((g) => g.id) ?? [];
  const [resolved, members] = await Promise.all([
    resolveManuscriptAuthors(db, manuscript.authors, orgId),
    groupMembers(db, orgId, groupIds),
  ]);
  // A manuscript author's other records (one person, or the same ORCID) are that author too: never
  // candidates, and their co-authors are co-authors. The ranking goes by person (db-authorships.ts).
  const manuscriptPeople = await personsOf(db, [...resolved.all]);
  const manuscriptIds = [...new Set([...manuscriptPeople.values()].flatMap((p) => p.records))];
  await learnManuscriptEmails(
    db,
    orgId,
    manuscript.authors,
    resolved.perAuthor.map((ids) => ids.map((id) => manuscriptPeople.get(id)!.person)),
  );
  const effect = options.groups?.effect ?? null;
  const outcome = await rankAuthors(index, dbAuthorships(db), q, {
    restrictTo: effect === 'limit_to' ? new Set(members.keys()) : null,
    exclude: new Set([...manuscriptIds, ...[...manuscriptPeople.values()].map((p) => p.person)]),
    currentYear: year,
    minPool: options.maxCandidates * 2,
    params: deps.params,
  });
  let ranked: RankedAuthor[] = outcome.authors;
  if (effect === 'boost' && options.groups?.boostMultiplier) {
    const m = options.groups.boostMultiplier;
    ranked = ranked
      .map((a) => (members.has(a.authorId) ? { ...a, score: a.score * m } : a))
      .sort((a, b) => b.score - a.score || a.authorId - b.authorId);
  }

  const rows = await candidateRows(
    db,
    ranked.map((a) => a.authorId),
  );
  const pool = ranked.filter((a) => {
    const row = rows.get(a.authorId);
    return row !== undefined && passesFilters(row, options.filters, now);
  });
  const ids = pool.map((a) => a.authorId);
  // Conflicts and emails are the person's: found through any of the person's records (or ORCID).
  const people = await personsOf(db, ids);
  const sameAs = new Map(ids.map((id) => [id, people.get(id)!.records]));
  const personIds = [...new Set([...sameAs.values()].flat())];
  const [fromGroups, coauthIds, retractedIds, referencedIds, learnt] = await Promise.all([
    groupRecordIds(db, orgId, personIds),
    coauthorsOf(db, manuscriptIds, personIds),
    withRetractions(db, personIds),
    referencedAuthors(db, manuscript.references, personIds),
    learntEmails(db, orgId, [...new Set([...ids, ...personIds])]),
  ]);
  const corpusEmails = await recordEmails(db, personIds);
  const ofPerson = (found: Set<number>) =>
    new Set(ids.filter((id) => sameAs.get(id)!.some((x) => found.has(x))));
  const coauth = ofPerson(coauthIds);
  const retracted = ofPerson(retractedIds);
  const referenced = ofPerson(referencedIds);
  const emailsOf = (id: number) =>
    contactEmail(sameAs.get(id) ?? [id], [
      (x) => fromGroups.get(x)?.emails,
      (x) => learnt.get(x),
      (x) => corpusEmails.get(x),
    ]);
  const flagged = await flaggedAuthors(
    db,
    orgId,
    manuscript.originId,
    pool.map((a) => ({
      authorId: a.authorId,
      sameAs: sameAs.get(a.authorId)!,
      // The organization's records are linked to one id of a person; they speak for all of them.
      orcids: [
        rows.get(a.authorId)!.orcid ?? [],
        ...sameAs.get(a.authorId)!.map((x) => fromGroups.get(x)?.orcids ?? []),
      ].flat(),
      emails: [
        ...sameAs.get(a.authorId)!.map((x) => corpusEmails.get(x) ?? []),
        ...sameAs.get(a.authorId)!.map((x) => fromGroups.get(x)?.emails ?? []),
      ].flat(),
    })),
  );
  const manuscriptRows = await candidateRows(db, manuscriptIds);
  const affConflict = affiliationConflicts(manuscript, [...manuscriptRows.values()]);

  const kept: Array<{ author: RankedAuthor; row: CandidateRow; conflicts: Conflicts; email: string | null }> =
    [];
  for (const author of pool) {
    if (kept.length >= options.maxCandidates) break;
    const row = rows.get(author.authorId)!;
    const email = emailsOf(author.authorId);
    const conflicts: Conflicts = {
      coauth_conflicts: { exists: coauth.has(author.authorId) },
      aff_conflicts: { exists: affConflict(row) },
      retracted_articles: { exists: retracted.has(author.authorId) },
      referenced_articles: { exists: referenced.has(author.authorId) },
      external_coi: { exists: flagged.has(author.authorId) },
    };
    if (!options.includeConflicts && Object.values(conflicts).some((c) => c.exists)) continue;
    if (!options.includeWithoutEmail && !email) continue;
    kept.push({ author, row, conflicts, email });
  }

  const shared = sharedConcepts(
    index,
    concepts,
    new Map(
      kept.map(({ author }) => [author.authorId, author.works.slice(0, CONCEPT_WORKS).map((w) => w.workId)]),
    ),
  );
  const articles = await workSummaries(
    db,
    kept.flatMap(({ author }) => author.works.slice(0, RELEVANT_ARTICLES).map((w) => w.workId)),
  );
  const candidates = kept.map(({ author, row, conflicts, email }) =>
    toCandidate(
      deps.publicBaseUrl,
      author,
      row,
      email,
      conflicts,
      shared,
      articles,
      members,
      groupIds.length > 0,
    ),
  );
  return { candidates, concepts: concepts.map((c) => c.label) };
}

type Conflicts = Pick<
  RankedCandidate,
  'coauth_conflicts' | 'aff_conflicts' | 'retracted_articles' | 'referenced_articles' | 'external_coi'
>;

/**
 * Same institution as any manuscript author: by institution id where both sides know one, else by
 * affiliation names (departments and campuses of one university agree, corpus/affiliations.ts).
 */
function affiliationConflicts(
  manuscript: ManuscriptForRanking,
  manuscriptAuthors: CandidateRow[],
): (row: CandidateRow) => boolean {
  const institutionIds = new Set(
    manuscriptAuthors.map((r) => r.recent_institution_id).filter((id): id is number => id !== null),
  );
  // Normalized once: normalizing both names on each comparison (20 authors of a parsed PDF against
  // every candidate in the pool) cost ~28 ms of CPU per upload.
  const cores = [
    ...new Set(
      [
        ...manuscript.authors.map((a) => a.affiliation),
        ...manuscriptAuthors.flatMap((r) => [r.recent_affiliation, r.institution_name]),
      ]
        .filter((n): n is string => !!n && n.trim() !== '')
        .map(affiliationCore),
    ),
  ].filter(Boolean);
  return (row) => {
    if (row.recent_institution_id !== null && institutionIds.has(row.recent_institution_id)) return true;
    if (cores.length === 0) return false;
    const own = [row.recent_affiliation, row.institution_name].filter((n): n is string => !!n);
    return own.some((a) => {
      const core = affiliationCore(a);
      return cores.some((b) => affiliationCoresMatch(core, b));
    });
  };
}

function toCandidate(
  baseUrl: string,
  author: RankedAuthor,
  row: CandidateRow,
  email: string | null,
  conflicts: Conflicts,
  shared: Map<number, string[]>,
  articles: Map<number, { title: string; year: number | null }>,
  members: Map<number, GroupMembership[]>,
  groupsNamed: boolean,
): RankedCandidate {
  const parts = nameParts(row.display_name);
  return {
    name: row.display_name,
    first_name: parts.first,
    last_name: parts.last,
    middle_name: parts.middle,
    suffix: parts.suffix,
    author_id: row.id,
    email,
    orcid: row.orcid,
    affiliation: row.recent_affiliation ?? row.institution_name,
    articlesCount: row.articles_count,
    citationsCount: row.citations_count,
    hIndex: row.h_index,
    score: Math.round(author.score * 1e6) / 1e6,
    url: authorUrl(baseUrl, row.id),
    relevant_concepts: shared.get(row.id) ?? [],
    relevant_articles: author.works.slice(0, RELEVANT_ARTICLES).flatMap((w) => {
      const work = articles.get(w.workId);
      return work
        ? [{ id: w.workId, title: work.title, year: work.year ?? 0, url: workUrl(baseUrl, w.workId) }]
        : [];
    }),
    authors_groups: groupsNamed ? (members.get(row.id) ?? []) : [],
    ...conflicts,
  };
}
