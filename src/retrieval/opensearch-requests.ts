// The documents and request bodies the OpenSearch WorkIndex sends, and the readings of what comes
// back: pure functions, so that what reaches the cluster is tested without one (no OpenSearch can
// run on the machines this was built on; docs/scale.md).
//
// Analysis stays ours. A work is indexed as the terms our analyzer gives (analyzer.ts: stems and
// bigrams), joined by spaces, in a field whose analyzer only splits on whitespace; a bigram's two
// stems are joined by '_' (no term holds one: terms are letters and digits). Both engines thus
// score the same terms, and a query is sent as the terms it was prepared into, each a `term`
// query boosted so that Lucene's BM25 equals ours term by term (see `termClause`).
import { BIGRAM_SEPARATOR, forEachTerm } from './analyzer.ts';
import { DEFAULT_INDEX_OPTIONS, bm25Idf, type WorkText } from './bm25-index.ts';
import type { PreparedQuery, QueryStatistics, SearchHit } from './search.ts';
import type { FeedbackStatistics } from './feedback.ts';
import { TF_MAX, TF_SCALE } from './segment.ts';

/**
 * Bumped whenever the analyzer or the document's shape changes: an index built by another
 * version is refused at start (its terms would not meet the queries' terms), never served.
 */
export const ANALYSIS_VERSION = 1;
export const TERMS_FIELD = 'terms';
const OPENSEARCH_BIGRAM_JOINER = '_';
const SIMILARITY = 'refmatch_bm25';
const ANALYZER = 'refmatch_terms';
/** OpenSearch's default `index.max_result_window`: the most hits one search may return. */
export const MAX_RESULT_WINDOW = 10_000;
/** Terms whose document frequencies one statistics request counts (one `filters` bucket each). */
export const STATISTICS_TERMS_PER_REQUEST = 1000;

export interface Bm25Parameters {
  k1: number;
  b: number;
}

export interface IndexLayout {
  shards: number;
  replicas: number;
}

/** The index's settings and mapping: our BM25 parameters, a whitespace analyzer, strict fields. */
export function indexDefinition(
  bm25: Bm25Parameters = DEFAULT_INDEX_OPTIONS,
  layout: IndexLayout = { shards: 1, replicas: 0 },
) {
  return {
    settings: {
      index: {
        number_of_shards: layout.shards,
        number_of_replicas: layout.replicas,
        similarity: { [SIMILARITY]: { type: 'BM25', k1: bm25.k1, b: bm25.b } },
      },
      analysis: {
        // The text is already our analyzer's output: split it, change nothing.
        analyzer: { [ANALYZER]: { type: 'custom', tokenizer: 'whitespace', filter: [] as string[] } },
      },
    },
    mappings: {
      dynamic: 'strict',
      _meta: { analysis_version: ANALYSIS_VERSION },
      properties: {
        // Frequencies without positions: BM25 needs no more, and no phrase query is ever sent.
        [TERMS_FIELD]: { type: 'text', analyzer: ANALYZER, similarity: SIMILARITY, index_options: 'freqs' },
        /** Our document length (content words), for the norms we compute ourselves. */
        length: { type: 'float' },
        year: { type: 'short' },
        change_seq: { type: 'long' },
      },
    },
  };
}

/** The analysis version an existing index's mapping declares (null when it declares none). */
export function analysisVersionOf(mapping: unknown): number | null {
  const meta = (mapping as { _meta?: { analysis_version?: unknown } } | undefined)?._meta;
  return typeof meta?.analysis_version === 'number' ? meta.analysis_version : null;
}

export function encodeTerm(term: string): string {
  return term.replace(BIGRAM_SEPARATOR, OPENSEARCH_BIGRAM_JOINER);
}

export function decodeTerm(token: string): string {
  return token.replace(OPENSEARCH_BIGRAM_JOINER, BIGRAM_SEPARATOR);
}

export interface WorkDocument {
  terms: string;
  length: number;
  year: number;
  change_seq: number;
}

/**
 * A work as indexed: its title's and abstract's terms (each field analysed apart, as the
 * in-process index does, so no bigram spans the two) and its length in content words.
 */
export function workDocument(work: WorkText): WorkDocument {
  const terms: string[] = [];
  const add = (term: string) => terms.push(encodeTerm(term));
  let length = forEachTerm(work.title, add);
  if (work.abstract) length += forEachTerm(work.abstract, add);
  return { terms: terms.join(' '), length, year: work.year ?? 0, change_seq: work.changeSeq };
}

/**
 * The bulk body that indexes and deletes works. A work's `change_seq` is its external version, so
 * a version already indexed (by this process or another API instance) or an older one is refused
 * by the cluster rather than written twice or over a newer one.
 */
export function bulkBody(upserts: readonly WorkText[], deletions: readonly number[]): object[] {
  const body: object[] = [];
  for (const id of deletions) body.push({ delete: { _id: String(id) } });
  for (const work of upserts) {
    body.push({ index: { _id: String(work.workId), version: work.changeSeq, version_type: 'external' } });
    body.push(workDocument(work));
  }
  return body;
}

export interface BulkItem {
  index?: { status: number; result?: string; error?: unknown };
  delete?: { status: number; result?: string; error?: unknown };
}

/** Works written and removed by a bulk request; throws on an item that failed for another reason. */
export function readBulkResult(items: readonly BulkItem[]): { upserted: number; removed: number } {
  let upserted = 0;
  let removed = 0;
  for (const item of items) {
    if (item.index) {
      // 409: that version (or a newer one) is indexed already.
      if (item.index.status === 409) continue;
      if (item.index.status >= 300)
        throw new OpenSearchItemError('index', item.index.status, item.index.error);
      upserted++;
    } else if (item.delete) {
      if (item.delete.status === 404) continue;
      if (item.delete.status >= 300)
        throw new OpenSearchItemError('delete', item.delete.status, item.delete.error);
      removed++;
    }
  }
  return { upserted, removed };
}

export class OpenSearchItemError extends Error {
  override name = 'OpenSearchItemError';
  constructor(action: string, status: number, cause: unknown) {
    super(`OpenSearch refused a bulk ${action} (status ${status}): ${JSON.stringify(cause)}`);
  }
}

/**
 * What each query term's queryWeight is multiplied by to make its boost. Lucene's BM25 scores a
 * term `boost * idf * tf / (tf + norm)` with our IDF (bm25Idf) and our norm's form; our term's
 * weight is queryWeight * idf * (k1 + 1). OpenSearch's "BM25" similarity is Lucene's own from 3.0
 * on, so the boost carries the k1 + 1; before 3.0 it is LegacyBM25Similarity, which multiplies
 * every score by k1 + 1 itself, so the boost is queryWeight alone. `version` is the cluster's
 * `version.number` (GET /).
 */
export function termBoostFactor(version: string, k1: number): number {
  const major = Number.parseInt(version, 10);
  if (!Number.isFinite(major)) throw new Error(`unreadable OpenSearch version "${version}"`);
  return major >= 3 ? k1 + 1 : 1;
}

/** One query term as a clause, boosted so that the cluster's BM25 for it equals ours. */
export function termClause(term: PreparedQuery['terms'][number], boostFactor: number) {
  return { term: { [TERMS_FIELD]: { value: encodeTerm(term.term), boost: term.queryWeight * boostFactor } } };
}

/**
 * Top `size` works by BM25 over the query's terms, best first; ties go to the work indexed
 * earlier (the in-process index's order). Sent with `search_type: dfs_query_then_fetch`, so that
 * every shard scores with the whole index's document frequencies.
 */
export function searchBody(query: PreparedQuery, size: number, boostFactor: number) {
  return {
    size,
    track_total_hits: false,
    _source: false,
    docvalue_fields: ['year'],
    sort: [{ _score: { order: 'desc' } }, { change_seq: { order: 'asc' } }],
    track_scores: true,
    query: { bool: { should: query.terms.map((t) => termClause(t, boostFactor)) } },
  };
}

/**
 * The given works scored against the query: the same clauses, restricted to their ids. A work
 * that matches no term scores 0 and is still returned (as the in-process index returns it).
 */
export function scoreWorksBody(query: PreparedQuery, workIds: readonly number[], boostFactor: number) {
  return {
    size: workIds.length,
    track_total_hits: false,
    _source: false,
    docvalue_fields: ['year'],
    query: {
      bool: {
        should: query.terms.map((t) => termClause(t, boostFactor)),
        filter: [{ ids: { values: workIds.map(String) } }],
      },
    },
  };
}

export interface SearchResponseHit {
  _id: string;
  _score?: number | null;
  fields?: { year?: unknown[] };
}

/** Hits with their scores divided by the query's self-score (as the in-process index gives them). */
export function readHits(hits: readonly SearchResponseHit[], selfScore: number): SearchHit[] {
  return hits.map((h) => ({
    workId: Number(h._id),
    score: (h._score ?? 0) / selfScore,
    year: Number(h.fields?.year?.[0] ?? 0),
  }));
}

/**
 * N, the summed length and, per term, its document frequency: a search that returns no hits, with
 * one `filters` bucket per term (counted over every shard, live works only).
 */
export function statisticsBody(terms: readonly string[]) {
  const filters: Record<string, object> = {};
  terms.forEach((term, i) => (filters[String(i)] = { term: { [TERMS_FIELD]: encodeTerm(term) } }));
  return {
    size: 0,
    track_total_hits: true,
    aggs: {
      length: { sum: { field: 'length' } },
      ...(terms.length > 0 ? { df: { filters: { filters } } } : {}),
    },
  };
}

export interface StatisticsResponse {
  hits: { total?: { value: number } | number };
  aggregations?: {
    length?: { value: number | null };
    df?: { buckets: Record<string, { doc_count: number }> };
  };
}

/** The statistics a query is prepared against, and feedback terms chosen with. */
export class FetchedStatistics implements QueryStatistics, FeedbackStatistics {
  readonly options: Bm25Parameters;
  private readonly ids = new Map<string, number>();
  private readonly texts: string[] = [];
  private readonly dfs: number[] = [];

  constructor(
    bm25: Bm25Parameters,
    readonly docCount: number,
    private readonly lengthSum: number,
    terms: readonly string[],
    dfs: readonly number[],
  ) {
    this.options = { k1: bm25.k1, b: bm25.b };
    terms.forEach((term, i) => {
      const df = dfs[i] ?? 0;
      if (df <= 0 || this.ids.has(term)) return;
      this.ids.set(term, this.texts.length);
      this.texts.push(term);
      this.dfs.push(df);
    });
  }

  get avgDocLength(): number {
    return this.docCount === 0 ? 0 : this.lengthSum / this.docCount;
  }

  termId(term: string): number {
    return this.ids.get(term) ?? -1;
  }

  docFreq(termId: number): number {
    return this.dfs[termId] ?? 0;
  }

  idf(termId: number): number {
    return bm25Idf(this.docCount, this.docFreq(termId));
  }

  termText(termId: number): string {
    return this.texts[termId] ?? '';
  }

  /** BM25's k1 * (1 - b + b * length / avgLength) of a work of this length. */
  norm(length: number): number {
    const { k1, b } = this.options;
    return k1 * (1 - b + (b * length) / Math.max(1, this.avgDocLength));
  }
}

/**
 * Reads the answers to the statistics requests for `terms`, sent in chunks of
 * STATISTICS_TERMS_PER_REQUEST in order (the first chunk also carries N and the length sum).
 */
export function readStatistics(
  bm25: Bm25Parameters,
  terms: readonly string[],
  responses: readonly StatisticsResponse[],
): FetchedStatistics {
  const first = responses[0];
  const total = first?.hits.total;
  const docCount = typeof total === 'number' ? total : (total?.value ?? 0);
  const lengthSum = first?.aggregations?.length?.value ?? 0;
  const dfs = terms.map((_, i) => {
    const chunk = responses[Math.floor(i / STATISTICS_TERMS_PER_REQUEST)];
    return chunk?.aggregations?.df?.buckets[String(i % STATISTICS_TERMS_PER_REQUEST)]?.doc_count ?? 0;
  });
  return new FetchedStatistics(bm25, docCount, lengthSum, terms, dfs);
}

/** Term chunks for the statistics requests (always at least one, for N and the length sum). */
export function statisticsChunks(terms: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let i = 0; i < terms.length; i += STATISTICS_TERMS_PER_REQUEST)
    chunks.push(terms.slice(i, i + STATISTICS_TERMS_PER_REQUEST));
  return chunks.length > 0 ? chunks : [[]];
}

/** A stored work as the client-side scoring reads it: its length, year and term frequencies. */
export interface StoredWork {
  workId: number;
  length: number;
  year: number;
  tfs: Map<string, number>;
}

/**
 * Reads a work's `_source` (the stored terms string) into its term frequencies, held as the
 * in-process index holds them (in quarters, at most TF_MAX of them: segment.ts).
 */
export function readStoredWork(workId: number, source: Partial<WorkDocument>): StoredWork {
  const tfs = new Map<string, number>();
  for (const token of (source.terms ?? '').split(' ')) {
    if (!token) continue;
    const term = decodeTerm(token);
    tfs.set(term, (tfs.get(term) ?? 0) + 1);
  }
  for (const [term, tf] of tfs) tfs.set(term, Math.min(TF_MAX, Math.round(tf * TF_SCALE)) / TF_SCALE);
  return { workId, length: source.length ?? 0, year: source.year ?? 0, tfs };
}
