// The referee finder: ranks the corpus's researchers for a manuscript (rank-authors.ts), then keeps
// the ones the upload's filters and the organization's settings allow, flags conflicts of interest,
// and explains each candidate by shared concepts and matching works.
import type { AppContext } from '../app-context.ts';
import { authorUrl, workUrl } from '../corpus/authors/author-summary.ts';
import { academicAge } from '../corpus/authors/metrics.ts';
import type { Queryable } from '../infra/db/index.ts';
import { TimeSlicer } from '../infra/event-loop.ts';
import {
  candidateRows,
  groupMembers,
  personsOf,
  workSummaries,
  type CandidateRow,
  type GroupMembership,
} from './candidate-data.ts';
import { manuscriptFields, manuscriptQuery } from '../retrieval/manuscript-query.ts';
import type { WorkIndex } from '../retrieval/work-index.ts';
import { explainRanking, type Explanation } from './concepts.ts';
import { contactOf, learnManuscriptEmails } from './contacts.ts';
import { dbAuthorships } from './db-authorships.ts';
import { gatherConflictFacts } from './conflict-facts.ts';
import { conflictFlags, conflictPolicy, type Conflict } from './conflict-policy.ts';
import { rankAuthors, type RankedAuthor, type RankingParams } from './rank-authors.ts';
import { resolveManuscriptAuthors } from './resolve-authors.ts';
import type {
  CandidateFilters,
  FindCandidatesOptions,
  FindCandidatesResult,
  ManuscriptForRanking,
  RankedCandidate,
} from './types.ts';

const RELEVANT_ARTICLES = 5;

export interface FinderDeps {
  db: Queryable;
  index: WorkIndex;
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
    { db: ctx.db, index: ctx.index, publicBaseUrl: ctx.config.publicBaseUrl },
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
  const q = await manuscriptQuery(index, manuscript);
  const groupIds = options.groups?.groups.map((g) => g.id) ?? [];
  // The file's authors the form does not name are found by the same rules, in one look-up with the
  // named ones (each may be the other's second piece of evidence, a co-authorship).
  const named = manuscript.authors.length;
  const [resolved, members] = await Promise.all([
    resolveManuscriptAuthors(db, [...manuscript.authors, ...(manuscript.fileOnlyAuthors ?? [])], orgId),
    groupMembers(db, orgId, groupIds),
  ]);
  // A manuscript author's other records (one person, or the same ORCID) are that author too: never
  // candidates, and their co-authors are co-authors. The ranking goes by person (db-authorships.ts).
  const manuscriptPeople = await personsOf(db, [...resolved.all]);
  const manuscriptIds = [...new Set([...manuscriptPeople.values()].flatMap((p) => p.records))];
  const namedRecords = new Set(
    resolved.perAuthor
      .slice(0, named)
      .flatMap((ids) => ids.flatMap((id) => manuscriptPeople.get(id)!.records)),
  );
  const fileOnlyIds = manuscriptIds.filter((id) => !namedRecords.has(id));
  // Only what the manuscript's own author list says is learnt (the organization's settings chose it).
  await learnManuscriptEmails(
    db,
    orgId,
    manuscript.authors,
    resolved.perAuthor.slice(0, named).map((ids) => ids.map((id) => manuscriptPeople.get(id)!.person)),
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
  const boosts = new Map<number, number>();
  if (effect === 'boost' && options.groups?.boostMultiplier) {
    const m = options.groups.boostMultiplier;
    ranked = ranked
      .map((a) => {
        if (!members.has(a.authorId)) return a;
        boosts.set(a.authorId, m);
        return { ...a, score: a.score * m };
      })
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
  const { facts, flags, campuses, manuscriptFacts, contactEmail } = await gatherConflictFacts(
    db,
    manuscript,
    { all: manuscriptIds, fileOnly: fileOnlyIds },
    ids,
    rows,
  );
  const policy = conflictPolicy(manuscriptFacts, flags, { currentYear: year, campuses });

  const evidence = new Map<number, Conflict[]>();
  const kept: Array<{ author: RankedAuthor; row: CandidateRow; conflicts: Conflicts; email: string | null }> =
    [];
  // A candidate's affiliations are compared with every one the manuscript's authors have: at the
  // form's caps (1,000 authors of 2,000-character affiliations) some 4 ms a candidate, 0.2 s for 50
  // in one run. The loop gives the event loop a turn between candidates once its slice is used up.
  const slicer = new TimeSlicer();
  for (const author of pool) {
    if (kept.length >= options.maxCandidates) break;
    if (slicer.due) await slicer.pause();
    const row = rows.get(author.authorId)!;
    const person = facts.get(author.authorId)!;
    const email = contactEmail.get(author.authorId) ?? null;
    const found = policy(person);
    const conflicts = conflictFlags(found);
    if (!options.includeConflicts && found.length > 0) continue;
    if (!options.includeWithoutEmail && !email) continue;
    evidence.set(author.authorId, found);
    kept.push({ author, row, conflicts, email });
  }

  const { concepts, explanations } = await explainRanking(
    index,
    outcome.query,
    kept.map((k) => k.author),
    manuscriptFields(manuscript).map((f) => f.text),
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
      explanations,
      articles,
      members,
      groupIds.length > 0,
    ),
  );
  return { candidates, concepts, explanations, conflicts: evidence, boosts };
}

type Conflicts = ReturnType<typeof conflictFlags>;

function toCandidate(
  baseUrl: string,
  author: RankedAuthor,
  row: CandidateRow,
  email: string | null,
  conflicts: Conflicts,
  explanations: Map<number, Explanation>,
  articles: Map<number, { title: string; year: number | null }>,
  members: Map<number, GroupMembership[]>,
  groupsNamed: boolean,
): RankedCandidate {
  return {
    ...contactOf(row, email),
    articlesCount: row.articles_count,
    citationsCount: row.citations_count,
    hIndex: row.h_index,
    score: Math.round(author.score * 1e6) / 1e6,
    url: authorUrl(baseUrl, row.id),
    relevant_concepts: explanations.get(row.id)?.concepts ?? [],
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
