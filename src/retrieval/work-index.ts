// What the service asks of a full-text index over the corpus's works. The in-process BM25 index
// (db-work-index.ts) implements it, and OpenSearch (opensearch-work-index.ts) takes its place when
// the corpus outgrows one machine's memory (docs/scale.md); create-work-index.ts picks one. Every
// call is async for that reason, though the in-process one answers synchronously underneath.
import type { MatchedTerm, PreparedQuery, QueryField, QueryOptions, QueryTerm, SearchHit } from './search.ts';
import type { FeedbackOptions } from './feedback.ts';
import type { ProfileOptions, ProfileScores } from './work-scoring.ts';

export type {
  FeedbackOptions,
  MatchedTerm,
  PreparedQuery,
  ProfileOptions,
  ProfileScores,
  QueryField,
  QueryOptions,
  QueryTerm,
  SearchHit,
};

/**
 * A query: prepared once by `WorkIndex.prepare` and passed to every call about one manuscript, or
 * given as fields (title, abstract, keywords, full text...: each analysed like the index, each with
 * its weight) and prepared by the call itself.
 */
export type QuerySpec = { query: PreparedQuery } | ({ fields: readonly QueryField[] } & QueryOptions);

export type SearchRequest = QuerySpec & {
  /** How many works to return (default 100). */
  k?: number;
  /** Only works passing this test are returned (e.g. not by the manuscript's own authors). */
  filter?: (workId: number) => boolean;
};

export type ScoreRequest = QuerySpec & { workIds: readonly number[] };

export type ProfileRequest = QuerySpec &
  ProfileOptions & {
    /** Each profile: the works of one candidate (an author, a venue), scored as one document. */
    profiles: ReadonlyArray<readonly number[]>;
  };

export interface TermStatistics {
  /** Works whose postings are held (BM25's N). */
  docCount: number;
  avgDocLength: number;
  /** `titleDf`: works whose title holds the term, when the engine counts them (the in-process one). */
  terms: Array<{ term: string; df: number; idf: number; titleDf?: number }>;
}

export interface IndexStats {
  /** Works that can be returned. */
  works: number;
  /** Highest `works.change_seq` applied. */
  changeSeq: number;
  terms: number;
  postings: number;
  segments: number;
  /** Bytes in typed arrays (the term dictionary's strings come on top; see docs/retrieval.md). */
  arrayBytes: number;
  lastRefreshAt: string | null;
  lastRefreshMs: number | null;
  /** Whether searches run in the search worker thread (large corpora). */
  searchInWorker: boolean;
}

export interface RefreshResult {
  /** Works added or replaced. */
  upserted: number;
  removed: number;
  ms: number;
}

/**
 * The one interface both recommenders (referees, journals) reach the corpus's text through; an
 * implementation owns its analysis and its scoring function (BM25 here), so another engine can
 * take its place without a caller knowing.
 */
export interface WorkIndex {
  /** Analyses a query once (terms, weights, the self-score that normalises every score). */
  prepare(fields: readonly QueryField[], options?: QueryOptions): Promise<PreparedQuery>;
  /**
   * The query with pseudo-relevance feedback: the terms that weigh most in the given works (its
   * best hits) added at a fraction of a query term's weight.
   */
  expand(query: PreparedQuery, works: readonly SearchHit[], options: FeedbackOptions): Promise<PreparedQuery>;
  /** The k works most relevant to the query, best first; scores are normalised by the query. */
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Scores the given works against the query (e.g. one author's works); unknown ids are left out. */
  scoreWorks(request: ScoreRequest): Promise<SearchHit[]>;
  /** Scores each profile as one document, and its matching works on the way (candidate model). */
  scoreProfiles(request: ProfileRequest): Promise<ProfileScores>;
  /** Per work, the query terms it matches with their share of its score, most first. */
  matchedTerms(request: ScoreRequest): Promise<Map<number, MatchedTerm[]>>;
  /** Document frequency and IDF of analysed terms (as `analyze` spells them). */
  termStatistics(terms: readonly string[]): Promise<TermStatistics>;
  /** Applies works changed since the last refresh (also by other processes); serialised. */
  refresh(): Promise<RefreshResult>;
  stats(): IndexStats;
  close(): Promise<void>;
}
