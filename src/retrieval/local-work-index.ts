// The in-process WorkIndex: the BM25 index over typed arrays (bm25-index.ts), its pruned top-k
// scorer (search.ts), per-work and profile scoring over forward rows (work-scoring.ts), and from a
// large corpus on a search worker thread. Filled by `upsert` + `flush`: by the database-backed
// index (db-work-index.ts) in the service, directly by the benches.
import { Bm25Index, type IndexOptions, type WorkText } from './bm25-index.ts';
import {
  Scorer,
  prepareQuery,
  prepareQuerySliced,
  type PreparedQuery,
  type QueryField,
  type QueryOptions,
} from './search.ts';
import { expandQuery, type FeedbackOptions } from './feedback.ts';
import { SearchThread } from './search-thread.ts';
import type {
  IndexStats,
  MatchedTerm,
  ProfileRequest,
  ProfileScores,
  QuerySpec,
  RefreshResult,
  ScoreRequest,
  SearchHit,
  SearchRequest,
  TermStatistics,
  WorkIndex,
} from './work-index.ts';
import { WorkScorer } from './work-scoring.ts';

export interface LocalWorkIndexOptions {
  index?: Partial<IndexOptions>;
  /**
   * From this many works on, searches run in a worker thread over the shared postings, so the
   * event loop stays free (docs/benchmarks/retrieval.md: a query at 1M works costs milliseconds of
   * CPU). Below it, the main thread answers directly. Default 100,000; Infinity turns it off.
   */
  workerMinWorks?: number;
}

export class LocalWorkIndex implements WorkIndex {
  protected readonly core: Bm25Index;
  private readonly scorer: Scorer;
  private readonly works: WorkScorer;
  private thread: SearchThread | null = null;
  protected closed = false;
  protected lastRefreshAt: Date | null = null;
  protected lastRefreshMs: number | null = null;

  constructor(private readonly localOptions: LocalWorkIndexOptions = {}) {
    this.core = new Bm25Index(localOptions.index);
    this.scorer = new Scorer(this.core);
    this.works = new WorkScorer(this.core);
  }

  /** Adds or replaces a work; searchable after `flush()`. False when that version is indexed. */
  upsert(work: WorkText): boolean {
    return this.core.upsert(work);
  }

  /** Makes pending changes searchable (and visible to the search worker). */
  flush(changed = true): void {
    if (changed) this.core.flush();
    this.publishToWorker(changed);
  }

  private publishToWorker(changed: boolean): void {
    if (this.closed) return;
    const min = this.localOptions.workerMinWorks ?? 100_000;
    if (!this.thread && this.core.liveWorks >= min && Number.isFinite(min)) {
      this.thread = new SearchThread();
      changed = true;
    }
    if (changed && this.thread?.usable) this.thread.publish(this.core);
  }

  async prepare(fields: readonly QueryField[], options?: QueryOptions): Promise<PreparedQuery> {
    // A manuscript's query (up to 100,000 characters of abstract): analysed in slices of the loop.
    return prepareQuerySliced(this.core, fields, options);
  }

  async expand(
    query: PreparedQuery,
    works: readonly SearchHit[],
    options: FeedbackOptions,
  ): Promise<PreparedQuery> {
    return expandQuery(this.core, query, works, options);
  }

  private prepared(spec: QuerySpec): PreparedQuery {
    return 'query' in spec ? spec.query : prepareQuery(this.core, spec.fields, spec);
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    const query = this.prepared(request);
    const k = request.k ?? 100;
    const tuning = this.scorer.exhaustiveIsCheaper(query, k) ? { exhaustive: true } : {};
    if (this.thread?.usable && query.terms.length > 0) {
      // A filter cannot cross threads: ask for more and filter here; if too many were filtered
      // out, the main thread answers exactly.
      const want = request.filter ? k * 2 + 50 : k;
      const hits = await this.thread.search(query, want, tuning).catch(() => null);
      if (hits && !request.filter) return hits;
      if (hits) {
        const kept = hits.filter((h) => request.filter!(h.workId));
        if (kept.length >= k || hits.length < want) return kept.slice(0, k);
      }
    }
    return this.scorer.search(query, k, request.filter, tuning);
  }

  async scoreWorks(request: ScoreRequest): Promise<SearchHit[]> {
    return this.works.scoreWorks(this.prepared(request), request.workIds);
  }

  async scoreProfiles(request: ProfileRequest): Promise<ProfileScores> {
    return this.works.scoreProfiles(this.prepared(request), request.profiles, request);
  }

  async matchedTerms(request: ScoreRequest): Promise<Map<number, MatchedTerm[]>> {
    return this.works.matchedTerms(this.prepared(request), request.workIds);
  }

  async termStatistics(terms: readonly string[]): Promise<TermStatistics> {
    return {
      docCount: this.core.docCount,
      avgDocLength: this.core.avgDocLength,
      terms: terms.map((term) => {
        const id = this.core.termId(term);
        return { term, df: this.core.docFreq(id), idf: id < 0 ? 0 : this.core.idf(id) };
      }),
    };
  }

  /** Nothing to read from elsewhere: makes what was upserted searchable. */
  async refresh(): Promise<RefreshResult> {
    const started = performance.now();
    this.flush();
    this.lastRefreshAt = new Date();
    this.lastRefreshMs = performance.now() - started;
    return { upserted: 0, removed: 0, ms: this.lastRefreshMs };
  }

  protected changeSeq(): number {
    return 0;
  }

  stats(): IndexStats {
    return {
      works: this.core.liveWorks,
      changeSeq: this.changeSeq(),
      terms: this.core.termCount,
      postings: this.core.postingCount(),
      segments: this.core.segments.length,
      arrayBytes: this.core.arrayBytes(),
      lastRefreshAt: this.lastRefreshAt?.toISOString() ?? null,
      lastRefreshMs: this.lastRefreshMs,
      searchInWorker: this.thread?.usable ?? false,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.thread?.close();
    this.thread = null;
  }
}
