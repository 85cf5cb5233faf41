// What the service asks of a full-text index over the corpus's works. The in-process BM25 index
// (db-work-index.ts) implements it; a distributed search engine can take its place when the corpus
// outgrows one machine's memory (docs/retrieval.md gives the limit). Every call is async for that
// reason, though the in-process one answers synchronously underneath.
import type { MatchedTerm, QueryField, QueryOptions, QueryTerm, SearchHit } from './search.ts';

export type { MatchedTerm, QueryField, QueryTerm, SearchHit };

export interface SearchRequest extends QueryOptions {
  /** Title, abstract, keywords, full text...: each analysed like the index, each with its weight. */
  fields: readonly QueryField[];
  /** How many works to return (default 100). */
  k?: number;
  /** Only works passing this test are returned (e.g. not by the manuscript's own authors). */
  filter?: (workId: number) => boolean;
}

export interface ScoreRequest extends QueryOptions {
  fields: readonly QueryField[];
  workIds: readonly number[];
}

export interface TermStatistics {
  /** Works whose postings are held (BM25's N). */
  docCount: number;
  avgDocLength: number;
  terms: Array<{ term: string; df: number; idf: number }>;
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

export interface WorkIndex {
  /** The k works most relevant to the query, best first; scores are normalised by the query. */
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Scores the given works against the query (e.g. one author's works); unknown ids are left out. */
  scoreWorks(request: ScoreRequest): Promise<SearchHit[]>;
  /** Per work, the query terms it matches with their share of its score, most first. */
  matchedTerms(request: ScoreRequest): Promise<Map<number, MatchedTerm[]>>;
  /** The query's terms after analysis, most informative first, with df and idf (key concepts). */
  queryTerms(fields: readonly QueryField[], options?: QueryOptions): Promise<QueryTerm[]>;
  /** Document frequency and IDF of analysed terms (as `analyze` spells them). */
  termStatistics(terms: readonly string[]): Promise<TermStatistics>;
  /** Applies works changed since the last refresh (also by other processes); serialised. */
  refresh(): Promise<RefreshResult>;
  stats(): IndexStats;
  close(): Promise<void>;
}
