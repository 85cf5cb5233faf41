// Ranks the corpus's sources (journals and proceedings) for a manuscript from three kinds of
// evidence: the works most similar to it (each votes for its venue), the works it cites (a venue the
// manuscript cites often is a likely home), and where its authors have published before (a venue
// they use more than the corpus at large does is likelier). Pure: the caller fetches hits and facts, so the bench
// and the HTTP route run the very same ranking. docs/journals.md explains the choices.
import type { SearchHit } from '../retrieval/work-index.ts';

export interface WorkFacts {
  sourceId: number | null;
  year: number | null;
}

export interface RankingParams {
  /** How many of the most similar works vote. */
  votingWorks: number;
  /** A vote weighs similarity^power: a few very close works beat many loosely related ones. */
  power: number;
  /**
   * Votes are divided by (venue size + sizePrior)^sizeExponent: a huge venue collects votes for
   * any topic, so its sum says less about fit; the prior keeps tiny venues from winning on one vote.
   */
  sizeExponent: number;
  sizePrior: number;
  /** A work's vote decays with age by this half-life, down to `recencyFloor` of its weight. */
  halfLifeYears: number;
  recencyFloor: number;
  /** Weight of the share of matched references in a venue, against content scores scaled to 0..1. */
  referenceWeight: number;
  /**
   * The authors' habits: a venue's score is multiplied by (how much more often the authors published
   * there than the corpus at large)^authorExponent, the authors' counts smoothed towards the corpus's
   * rates by `authorPrior` works, so a few works move a venue less than many.
   */
  authorPrior: number;
  authorExponent: number;
  /** Relevant articles kept per venue. */
  articlesPerVenue: number;
}

export const DEFAULT_RANKING: RankingParams = {
  votingWorks: 200,
  power: 2,
  sizeExponent: 0.2,
  sizePrior: 20,
  halfLifeYears: 8,
  recencyFloor: 0.7,
  referenceWeight: 0.5,
  authorPrior: 3,
  authorExponent: 0.35,
  articlesPerVenue: 10,
};

export interface RankingInput {
  /** The most similar works, best first (scores normalised by the query, about 0..1). */
  hits: readonly SearchHit[];
  facts: ReadonlyMap<number, WorkFacts>;
  /** Works in the corpus per source (sources.works_count). */
  venueSize(sourceId: number): number;
  /** Corpus works the manuscript cites, with their source. */
  citedWorks: ReadonlyArray<{ workId: number; sourceId: number }>;
  /**
   * The manuscript's authors' works in the corpus per source (a work by two of them counts twice);
   * empty when none of them is known.
   */
  authorVenues: ReadonlyMap<number, number>;
  /** Works in the corpus: a venue's base rate is its size over this. */
  corpusWorks: number;
  /** The year recency is measured from. */
  currentYear: number;
  /** When set, only these sources are ranked (the organization's own journals). */
  allowed?: ReadonlySet<number>;
}

export interface RankedVenue {
  sourceId: number;
  score: number;
  /** Most relevant first: similar works by similarity, then cited works. */
  articleIds: number[];
}

interface Tally {
  content: number;
  cites: number;
  articles: number[];
}

export function rankVenues(input: RankingInput, params: RankingParams = DEFAULT_RANKING): RankedVenue[] {
  const tallies = new Map<number, Tally>();
  const tally = (sourceId: number): Tally => {
    let t = tallies.get(sourceId);
    if (!t) {
      t = { content: 0, cites: 0, articles: [] };
      tallies.set(sourceId, t);
    }
    return t;
  };
  const admits = (sourceId: number | null): sourceId is number =>
    sourceId !== null && (!input.allowed || input.allowed.has(sourceId));

  let used = 0;
  for (const hit of input.hits) {
    if (used >= params.votingWorks) break;
    used++;
    const facts = input.facts.get(hit.workId);
    if (!facts || !admits(facts.sourceId)) continue;
    const t = tally(facts.sourceId);
    t.content += Math.pow(hit.score, params.power) * recency(facts.year, input.currentYear, params);
    if (t.articles.length < params.articlesPerVenue) t.articles.push(hit.workId);
  }

  let matchedCites = 0;
  for (const cited of input.citedWorks) {
    if (!admits(cited.sourceId)) continue;
    matchedCites++;
    const t = tally(cited.sourceId);
    t.cites++;
    if (t.articles.length < params.articlesPerVenue && !t.articles.includes(cited.workId)) {
      t.articles.push(cited.workId);
    }
  }

  let maxContent = 0;
  for (const [sourceId, t] of tallies) {
    t.content /= Math.pow(input.venueSize(sourceId) + params.sizePrior, params.sizeExponent);
    if (t.content > maxContent) maxContent = t.content;
  }
  const habit = authorHabit(input, params);
  const ranked: RankedVenue[] = [];
  for (const [sourceId, t] of tallies) {
    const content = maxContent > 0 ? t.content / maxContent : 0;
    const cites = matchedCites > 0 ? t.cites / matchedCites : 0;
    const score = (content + params.referenceWeight * cites) * habit(sourceId);
    ranked.push({ sourceId, score, articleIds: t.articles });
  }
  ranked.sort((a, b) => b.score - a.score || a.sourceId - b.sourceId);
  return ranked;
}

function recency(year: number | null, currentYear: number, params: RankingParams): number {
  if (year === null) return params.recencyFloor;
  const age = Math.max(0, currentYear - year);
  return params.recencyFloor + (1 - params.recencyFloor) * Math.pow(0.5, age / params.halfLifeYears);
}

/**
 * Per venue, the factor the authors' publishing habits apply: their smoothed rate of publishing
 * there over the corpus's rate, to the power `authorExponent`. 1 for every venue when the authors
 * have no works in the corpus; above 1 for venues they use more than the corpus does, below 1 for
 * the others. Measured on ACL (docs/benchmarks/journals.md): it favours the workshop a community
 * returns to over the big conferences that take every topic.
 */
function authorHabit(input: RankingInput, params: RankingParams): (sourceId: number) => number {
  let total = 0;
  for (const n of input.authorVenues.values()) total += n;
  if (total === 0 || input.corpusWorks <= 0) return () => 1;
  const prior = params.authorPrior;
  return (sourceId) => {
    const base = Math.max(1, input.venueSize(sourceId)) / input.corpusWorks;
    const rate = ((input.authorVenues.get(sourceId) ?? 0) + prior * base) / (total + prior);
    return Math.pow(rate / base, params.authorExponent);
  };
}
