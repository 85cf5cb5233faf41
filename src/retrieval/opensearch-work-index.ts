// The WorkIndex on an OpenSearch cluster, for a corpus beyond one machine's memory (docs/scale.md).
// It is kept current from the database exactly as the in-process index is (work-changes.ts: the
// change cursor, its look-back, the deletions log, a reconciliation on explicit refreshes), and
// indexes our analyzer's terms (opensearch-requests.ts), so both engines score the same terms.
//
// Where it is not exact:
// - search and scoreWorks are scored by the cluster's BM25 (Lucene's; LegacyBM25Similarity before
//   OpenSearch 3.0, told apart by the cluster's version: termBoostFactor): a work's length there counts every term
//   indexed (bigrams and joined compounds too, against an average counted the same way) and is
//   stored in one byte (exact to 24 terms, then within about 6%); tf is not capped at 63.75.
//   Scores are divided by the query's self-score computed with our lengths, so they are on the
//   same scale as the in-process index's, not equal to them.
// - N and document frequencies come from the cluster's live works; Lucene's own statistics still
//   count deleted works until their segment merges (as the in-process index's do).
// - scoreProfiles, matchedTerms and expand cannot run in the cluster (a profile is no document
//   there): they read the works' stored terms and compute our BM25 here (stored-work-scoring.ts),
//   exactly as the in-process index does, from the cluster's statistics.
// - stats() knows the works, the change cursor and the refresh times; terms, postings, segments
//   and bytes live in the cluster and are reported as 0.
import { Client } from '@opensearch-project/opensearch';
import type { Database } from '../infra/db/index.ts';
import { forEachTerm } from './analyzer.ts';
import { DEFAULT_INDEX_OPTIONS, type WorkText } from './bm25-index.ts';
import {
  ANALYSIS_VERSION,
  FetchedStatistics,
  MAX_RESULT_WINDOW,
  analysisVersionOf,
  bulkBody,
  indexDefinition,
  readBulkResult,
  readHits,
  readStatistics,
  readStoredWork,
  scoreWorksBody,
  searchBody,
  statisticsBody,
  statisticsChunks,
  termBoostFactor,
  type Bm25Parameters,
  type BulkItem,
  type SearchResponseHit,
  type StatisticsResponse,
  type StoredWork,
  type WorkDocument,
} from './opensearch-requests.ts';
import {
  prepareQuerySliced,
  type MatchedTerm,
  type PreparedQuery,
  type QueryField,
  type QueryOptions,
} from './search.ts';
import {
  CHANGES_LOOKBACK,
  CHANGES_PAGE,
  ChangeCursor,
  RefreshSchedule,
  catchUp,
  type ChangeTarget,
} from './work-changes.ts';
import type {
  FeedbackOptions,
  IndexStats,
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
import {
  expandFromStoredWorks,
  feedbackCandidates,
  matchedTermsOfStoredWorks,
  profileWorkIds,
  scoreStoredProfiles,
} from './stored-work-scoring.ts';

export interface OpenSearchWorkIndexOptions {
  /** The cluster, e.g. http://127.0.0.1:9200 (credentials in the URL's user-info part). */
  url: string;
  /** The index holding the works; created with its mapping when absent. */
  index: string;
  /** Poll interval in ms; 0 turns polling off (refresh() still works). Default 2000. */
  pollMs?: number;
  /** Told of a failed background refresh (the next poll retries). */
  onError?: (error: unknown) => void;
  /** Shards and replicas of an index this process creates (default 1 and 0). */
  shards?: number;
  replicas?: number;
}

/** Works read per `mget` when their stored terms are scored here. */
const MGET_CHUNK = 1000;
/** Ids read per scroll page when reconciling against the database. */
const SCROLL_PAGE = 10_000;

export class OpenSearchWorkIndex implements WorkIndex {
  private readonly client: Client;
  private readonly bm25: Bm25Parameters = { k1: DEFAULT_INDEX_OPTIONS.k1, b: DEFAULT_INDEX_OPTIONS.b };
  /** Set at start from the cluster's version (termBoostFactor). */
  private boostFactor = DEFAULT_INDEX_OPTIONS.k1 + 1;
  private readonly schedule = new RefreshSchedule((reconcile) => this.sync(reconcile));
  private readonly cursor = new ChangeCursor();
  /**
   * The versions applied within CHANGES_LOOKBACK of the cursor (work id -> change_seq): what the
   * look-back compares against without asking the cluster. Bounded by that window.
   */
  private readonly recent = new Map<number, number>();
  private works = 0;
  private closed = false;
  private lastRefreshAt: Date | null = null;
  private lastRefreshMs: number | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: OpenSearchWorkIndexOptions,
  ) {
    this.client = new Client({ node: options.url });
  }

  private get index(): string {
    return this.options.index;
  }

  /** Creates the index when absent (or refuses one built by another analysis), catches up, polls. */
  async start(): Promise<this> {
    await this.ensureIndex();
    await this.resumeCursor();
    await this.refresh();
    if (!this.closed) this.schedule.poll(this.options.pollMs ?? 2000, this.options.onError);
    return this;
  }

  private async ensureIndex(): Promise<void> {
    const info = await this.client.info();
    this.boostFactor = termBoostFactor(String(info.body.version.number), this.bm25.k1);
    const exists = await this.client.indices.exists({ index: this.index });
    if (!exists.body) {
      const definition = indexDefinition(this.bm25, {
        shards: this.options.shards ?? 1,
        replicas: this.options.replicas ?? 0,
      });
      try {
        await this.client.indices.create({ index: this.index, body: definition as never });
        return;
      } catch (error) {
        // Another API instance created it meanwhile: check its version like any existing index.
        if (!isAlreadyExists(error)) throw error;
      }
    }
    const mapping = await this.client.indices.getMapping({ index: this.index });
    const found = analysisVersionOf(Object.values(mapping.body)[0]?.mappings);
    if (found !== ANALYSIS_VERSION) {
      throw new Error(
        `OpenSearch index "${this.index}" was built with analysis version ${found ?? 'none'}, this build ` +
          `uses ${ANALYSIS_VERSION}: delete it (or set OPENSEARCH_INDEX to a new name) to rebuild it`,
      );
    }
  }

  /**
   * The cursor is the highest change_seq indexed (the index outlives the process), and the look-back
   * window's versions are read back from the cluster, so a restart re-sends nothing already there.
   */
  private async resumeCursor(): Promise<void> {
    const top = await this.client.search({
      index: this.index,
      body: { size: 0, aggs: { seq: { max: { field: 'change_seq' } } } } as never,
    });
    const aggs = top.body.aggregations as { seq?: { value: number | null } } | undefined;
    this.cursor.changeSeq = Number(aggs?.seq?.value ?? 0);
    if (this.cursor.changeSeq <= 0) return;
    const window = await this.client.search({
      index: this.index,
      body: {
        size: Math.min(CHANGES_LOOKBACK, MAX_RESULT_WINDOW),
        _source: false,
        docvalue_fields: ['change_seq'],
        query: { range: { change_seq: { gt: this.cursor.changeSeq - CHANGES_LOOKBACK } } },
      } as never,
    });
    for (const hit of window.body.hits.hits as SearchResponseHit[] as Array<
      SearchResponseHit & { fields?: { change_seq?: unknown[] } }
    >)
      this.recent.set(Number(hit._id), Number(hit.fields?.change_seq?.[0] ?? 0));
  }

  refresh(): Promise<RefreshResult> {
    return this.schedule.refresh(true);
  }

  private async sync(reconcile: boolean): Promise<RefreshResult> {
    const started = performance.now();
    if (this.closed) return { upserted: 0, removed: 0, ms: 0 };
    const { upserted, removed } = await catchUp(this.db, this.cursor, this.changeTarget, reconcile);
    if (upserted > 0 || removed > 0) await this.makeSearchable();
    if (upserted > 0 || removed > 0 || reconcile) this.works = await this.countWorks();
    this.lastRefreshAt = new Date();
    this.lastRefreshMs = performance.now() - started;
    return { upserted, removed, ms: this.lastRefreshMs };
  }

  /** The works read from the database are written to the cluster (searchable once the refresh is done). */
  private readonly changeTarget: ChangeTarget = {
    apply: async (works) => (await this.write(works, [])).upserted,
    remove: async (ids) => {
      const { removed } = await this.write([], ids);
      for (const id of ids) this.recent.delete(id);
      return removed;
    },
    versionOf: (id) => this.recent.get(id),
    // The versions the look-back compares against stay within its window.
    pagePassed: () => this.forgetBefore(this.cursor.changeSeq - CHANGES_LOOKBACK),
    count: async () => {
      await this.makeSearchable();
      return this.countWorks();
    },
    held: async () => {
      const ids = await this.indexedIds();
      return { ids, has: (id) => ids.has(id) };
    },
  };

  private forgetBefore(seq: number): void {
    for (const [id, version] of this.recent) if (version <= seq) this.recent.delete(id);
  }

  private async write(
    upserts: WorkText[],
    deletions: number[],
  ): Promise<{ upserted: number; removed: number }> {
    const result = { upserted: 0, removed: 0 };
    // One bulk request per page of works: a reconciliation can hand over a whole corpus's ids.
    for (let i = 0; i < Math.max(upserts.length, deletions.length); i += CHANGES_PAGE) {
      const body = bulkBody(upserts.slice(i, i + CHANGES_PAGE), deletions.slice(i, i + CHANGES_PAGE));
      const response = await this.client.bulk({ index: this.index, body });
      const written = readBulkResult(response.body.items as BulkItem[]);
      result.upserted += written.upserted;
      result.removed += written.removed;
    }
    // A version the cluster already held (another instance wrote it) counts as applied here too.
    for (const work of upserts)
      if (work.changeSeq > this.cursor.changeSeq - CHANGES_LOOKBACK)
        this.recent.set(work.workId, work.changeSeq);
    return result;
  }

  /** Makes what was written visible to searches now (rather than at the cluster's next refresh). */
  private async makeSearchable(): Promise<void> {
    await this.client.indices.refresh({ index: this.index });
  }

  private async countWorks(): Promise<number> {
    const response = await this.client.count({ index: this.index });
    return Number(response.body.count);
  }

  /** Every indexed work id, by scrolling the index (only when the counts disagree). */
  private async indexedIds(): Promise<Set<number>> {
    const ids = new Set<number>();
    let response = await this.client.search({
      index: this.index,
      scroll: '1m',
      body: { size: SCROLL_PAGE, _source: false, query: { match_all: {} } } as never,
    });
    try {
      for (;;) {
        const hits = response.body.hits.hits;
        for (const hit of hits) ids.add(Number(hit._id));
        if (hits.length < SCROLL_PAGE || !response.body._scroll_id) break;
        response = await this.client.scroll({ body: { scroll_id: response.body._scroll_id, scroll: '1m' } });
      }
    } finally {
      if (response.body._scroll_id)
        await this.client
          .clearScroll({ body: { scroll_id: response.body._scroll_id } })
          .catch(() => undefined);
    }
    return ids;
  }

  // ---- Statistics and queries ----

  /** N, the average length and the document frequencies of `terms`, in one round trip. */
  private async statistics(terms: readonly string[]): Promise<FetchedStatistics> {
    const chunks = statisticsChunks(terms);
    const body: object[] = [];
    for (const chunk of chunks) body.push({}, statisticsBody(chunk));
    const response = await this.client.msearch({ index: this.index, body: body as never });
    const answers = response.body.responses as unknown as Array<StatisticsResponse & { error?: unknown }>;
    const failed = answers.find((a) => a.error !== undefined);
    if (failed) throw new Error(`OpenSearch statistics request failed: ${JSON.stringify(failed.error)}`);
    return readStatistics(this.bm25, terms, answers);
  }

  async prepare(fields: readonly QueryField[], options?: QueryOptions): Promise<PreparedQuery> {
    // The query's terms are analysed once here to ask for their statistics, and again by
    // prepareQuery (the one definition of a prepared query), against those statistics.
    const terms = new Set<string>();
    for (const field of fields)
      if (field.text && field.weight > 0) forEachTerm(field.text, (t) => terms.add(t));
    return prepareQuerySliced(await this.statistics([...terms]), fields, options);
  }

  private prepared(spec: QuerySpec): Promise<PreparedQuery> {
    return 'query' in spec ? Promise.resolve(spec.query) : this.prepare(spec.fields, spec);
  }

  async expand(
    query: PreparedQuery,
    works: readonly SearchHit[],
    options: FeedbackOptions,
  ): Promise<PreparedQuery> {
    if (works.length === 0 || options.terms <= 0) return query;
    const stored = await this.storedWorks(works.map((w) => w.workId));
    const stats = await this.statistics(feedbackCandidates(query, stored));
    return expandFromStoredWorks(query, works, stored, stats, options);
  }

  async search(request: SearchRequest): Promise<SearchHit[]> {
    const query = await this.prepared(request);
    const k = request.k ?? 100;
    if (query.terms.length === 0 || query.selfScore <= 0 || k <= 0) return [];
    const filter = request.filter;
    // A filter is a function of this process: ask for more and filter here, asking again for
    // more while too many were filtered out and the cluster has more to give.
    let want = Math.min(filter ? k * 2 + 50 : k, MAX_RESULT_WINDOW);
    for (;;) {
      const response = await this.client.search({
        index: this.index,
        search_type: 'dfs_query_then_fetch',
        body: searchBody(query, want, this.boostFactor) as never,
      });
      const hits = readHits(response.body.hits.hits as SearchResponseHit[], query.selfScore).filter(
        (h) => h.score > 0,
      );
      if (!filter) return hits;
      const kept = hits.filter((h) => filter(h.workId));
      if (kept.length >= k || hits.length < want || want >= MAX_RESULT_WINDOW) return kept.slice(0, k);
      want = Math.min(want * 4, MAX_RESULT_WINDOW);
    }
  }

  async scoreWorks(request: ScoreRequest): Promise<SearchHit[]> {
    const query = await this.prepared(request);
    if (query.selfScore <= 0 || request.workIds.length === 0) return [];
    const hits: SearchHit[] = [];
    for (let i = 0; i < request.workIds.length; i += MAX_RESULT_WINDOW) {
      const response = await this.client.search({
        index: this.index,
        search_type: 'dfs_query_then_fetch',
        body: scoreWorksBody(
          query,
          request.workIds.slice(i, i + MAX_RESULT_WINDOW),
          this.boostFactor,
        ) as never,
      });
      hits.push(...readHits(response.body.hits.hits as SearchResponseHit[], query.selfScore));
    }
    return hits.sort((x, y) => y.score - x.score || x.workId - y.workId);
  }

  async matchedTerms(request: ScoreRequest): Promise<Map<number, MatchedTerm[]>> {
    const query = await this.prepared(request);
    if (query.selfScore <= 0 || request.workIds.length === 0) return new Map();
    const [stored, stats] = await Promise.all([this.storedWorks(request.workIds), this.statistics([])]);
    return matchedTermsOfStoredWorks(query, request.workIds, stored, stats);
  }

  async scoreProfiles(request: ProfileRequest): Promise<ProfileScores> {
    const query = await this.prepared(request);
    const { profiles } = request;
    if (query.selfScore <= 0 || profiles.length === 0)
      return { profiles: new Float64Array(profiles.length), works: new Map() };
    const [stored, stats] = await Promise.all([
      this.storedWorks(profileWorkIds(profiles)),
      this.statistics([]),
    ]);
    return scoreStoredProfiles(query, profiles, stored, stats, request);
  }

  async termStatistics(terms: readonly string[]): Promise<TermStatistics> {
    const stats = await this.statistics(terms);
    return {
      docCount: stats.docCount,
      avgDocLength: stats.avgDocLength,
      terms: terms.map((term) => {
        const id = stats.termId(term);
        return { term, df: stats.docFreq(id), idf: id < 0 ? 0 : stats.idf(id) };
      }),
    };
  }

  /** The given works' stored terms, lengths and years (works not indexed are absent). */
  private async storedWorks(workIds: readonly number[]): Promise<Map<number, StoredWork>> {
    const out = new Map<number, StoredWork>();
    const distinct = [...new Set(workIds)];
    for (let i = 0; i < distinct.length; i += MGET_CHUNK) {
      const response = await this.client.mget({
        index: this.index,
        _source_includes: ['terms', 'length', 'year'],
        body: { ids: distinct.slice(i, i + MGET_CHUNK).map(String) },
      });
      for (const doc of response.body.docs as Array<{
        _id: string;
        found?: boolean;
        _source?: Partial<WorkDocument>;
      }>) {
        if (doc.found && doc._source) out.set(Number(doc._id), readStoredWork(Number(doc._id), doc._source));
      }
    }
    return out;
  }

  stats(): IndexStats {
    return {
      works: this.works,
      changeSeq: this.cursor.changeSeq,
      terms: 0,
      postings: 0,
      segments: 0,
      arrayBytes: 0,
      lastRefreshAt: this.lastRefreshAt?.toISOString() ?? null,
      lastRefreshMs: this.lastRefreshMs,
      searchInWorker: false,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.schedule.stop();
    await this.client.close();
  }
}

function isAlreadyExists(error: unknown): boolean {
  const body = (error as { meta?: { body?: { error?: { type?: string } } } }).meta?.body;
  return body?.error?.type === 'resource_already_exists_exception';
}
