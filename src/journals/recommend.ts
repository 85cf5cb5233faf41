// Journal recommendation for a stored manuscript (spec 4.6): search the corpus with everything the
// upload kept, let similar and cited works vote for their venues, and describe the best venues.
import type { Database } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { manuscriptQuery } from '../retrieval/manuscript-query.ts';
import type { WorkIndex } from '../retrieval/work-index.ts';
import { resolveManuscriptAuthors } from '../referee-finder/resolve-authors.ts';
import { DEFAULT_RANKING, rankVenues, type RankedVenue } from './rank-journals.ts';
import {
  authorVenueCounts,
  citedWorks,
  findSources,
  findWorks,
  linkedJournals,
  workIdsOfSources,
} from './store.ts';
import type { JournalResultCache } from './result-cache.ts';
import { findManuscriptForRanking, manuscriptVersion } from '../manuscripts/manuscripts-store.ts';

export const JOURNALS_CORPORA = ['all_journals', 'org_journals'] as const;
export type JournalsCorpus = (typeof JOURNALS_CORPORA)[number];

export const DEFAULT_JOURNALS = 20;
export interface RecommendedJournal {
  id: number;
  title: string;
  score: number;
  publisher_name: string | null;
  folder_id: number | null;
  folder_name: string | null;
  relevant_articles: Array<{ id: number; title: string; year: number }>;
}

export interface RecommendDeps {
  db: Database;
  index: WorkIndex;
  /** Answers already computed, served again while nothing they depend on has changed. */
  journalResults?: JournalResultCache;
}

export async function recommendJournals(
  deps: RecommendDeps,
  organizationId: number,
  originId: string,
  corpus: JournalsCorpus,
  limit = DEFAULT_JOURNALS,
): Promise<RecommendedJournal[]> {
  const { db, index } = deps;
  const notFound = () => errors.notFound(`Manuscript with origin_id "${originId}"`);
  const [version, links] = await Promise.all([
    manuscriptVersion(db, organizationId, originId),
    linkedJournals(db, organizationId),
  ]);
  if (!version) throw notFound();
  const onlyLinked = corpus === 'org_journals';
  if (onlyLinked && links.size === 0) return [];
  const currentYear = new Date().getUTCFullYear();
  const key = [
    organizationId,
    version.id,
    version.updatedAt,
    corpus,
    limit,
    index.stats().changeSeq,
    currentYear,
    [...links.values()]
      .map((l) => `${l.sourceId}:${l.folderId}:${l.folderName}`)
      .sort()
      .join(','),
  ].join('\u0000');
  const cached = deps.journalResults?.get(key);
  if (cached) return cached;
  const manuscript = await findManuscriptForRanking(db, organizationId, originId);
  if (!manuscript) throw notFound();

  const allowed = onlyLinked ? new Set(links.keys()) : undefined;
  const allowedWorks = allowed ? await workIdsOfSources(db, [...allowed]) : null;
  const [hits, authorVenues] = await Promise.all([
    manuscriptQuery(index, manuscript).then((query) =>
      index.search({
        query,
        k: DEFAULT_RANKING.votingWorks,
        ...(allowedWorks ? { filter: (workId: number) => allowedWorks.has(workId) } : {}),
      }),
    ),
    // Who the authors are in the corpus: the referee finder's rule (an ORCID or email settles it, a
    // name needs a co-author or an affiliation besides), so a namesake's venues never count.
    resolveManuscriptAuthors(db, manuscript.authors, organizationId).then((r) =>
      authorVenueCounts(db, [...r.all]),
    ),
  ]);
  const cited = await citedWorks(db, manuscript.references);
  const works = await findWorks(db, [
    ...new Set([...hits.map((h) => h.workId), ...cited.map((c) => c.workId)]),
  ]);
  const venueIds = new Set<number>(allowed ?? []);
  for (const w of works.values()) if (w.sourceId !== null) venueIds.add(w.sourceId);
  const sources = await findSources(db, [...venueIds]);

  const ranked = rankVenues({
    hits,
    facts: works,
    venueSize: (id) => sources.get(id)?.worksCount ?? 0,
    citedWorks: cited,
    authorVenues,
    corpusWorks: index.stats().works,
    currentYear,
    ...(allowed ? { allowed } : {}),
  });
  if (allowed) {
    // Every linked journal is listed, those without evidence last with score 0.
    const seen = new Set(ranked.map((r) => r.sourceId));
    const rest: RankedVenue[] = [...allowed]
      .filter((id) => !seen.has(id))
      .sort((a, b) => a - b)
      .map((sourceId) => ({ sourceId, score: 0, articleIds: [] }));
    ranked.push(...rest);
  }

  const out: RecommendedJournal[] = [];
  for (const venue of ranked) {
    if (out.length >= limit) break;
    const source = sources.get(venue.sourceId);
    if (!source) continue;
    const link = links.get(venue.sourceId);
    out.push({
      id: source.id,
      title: source.title,
      score: Number(venue.score.toFixed(6)),
      publisher_name: source.publisher,
      folder_id: link?.folderId ?? null,
      folder_name: link?.folderName ?? null,
      relevant_articles: venue.articleIds.flatMap((id) => {
        const w = works.get(id);
        // The spec types `year` as an integer; a work without a known year reports 0.
        return w ? [{ id: w.id, title: w.title, year: w.year ?? 0 }] : [];
      }),
    });
  }
  deps.journalResults?.set(key, out);
  return out;
}
