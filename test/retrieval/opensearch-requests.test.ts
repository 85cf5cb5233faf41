// What the OpenSearch WorkIndex sends and how it reads the answers, checked without a cluster (none
// can run on these machines; the contract suite runs against one when OPENSEARCH_URL is set). The
// queries are prepared by the in-process index over real records, so the bodies are built from
// real prepared queries.
import { describe, expect, it } from 'vitest';
import { analyze } from '../../src/retrieval/analyzer.ts';
import { DEFAULT_INDEX_OPTIONS, bm25Idf } from '../../src/retrieval/bm25-index.ts';
import { LocalWorkIndex } from '../../src/retrieval/local-work-index.ts';
import {
  ANALYSIS_VERSION,
  STATISTICS_TERMS_PER_REQUEST,
  analysisVersionOf,
  bulkBody,
  decodeTerm,
  encodeTerm,
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
  workDocument,
} from '../../src/retrieval/opensearch-requests.ts';
import { prepareQuery } from '../../src/retrieval/search.ts';
import { fixtureWorksWithAbstracts } from './fixture-works.ts';

const records = fixtureWorksWithAbstracts().slice(0, 30);

const works = records.map((r, i) => ({
  workId: i + 1,
  title: r.title!,
  abstract: r.abstract,
  year: r.publication_year,
  changeSeq: 100 + i,
}));

async function localIndex(): Promise<LocalWorkIndex> {
  const index = new LocalWorkIndex({ workerMinWorks: Infinity });
  for (const w of works) index.upsert(w);
  await index.refresh();
  return index;
}

const bm25 = { k1: DEFAULT_INDEX_OPTIONS.k1, b: DEFAULT_INDEX_OPTIONS.b };

describe('the index definition', () => {
  const definition = indexDefinition(bm25, { shards: 6, replicas: 1 });

  it('scores the terms field with our BM25 parameters', () => {
    expect(definition.settings.index.similarity).toEqual({
      refmatch_bm25: { type: 'BM25', k1: 1.2, b: 0.75 },
    });
    expect(definition.mappings.properties.terms).toEqual({
      type: 'text',
      analyzer: 'refmatch_terms',
      similarity: 'refmatch_bm25',
      index_options: 'freqs',
    });
    expect(indexDefinition({ k1: 0.9, b: 0.4 }).settings.index.similarity.refmatch_bm25).toMatchObject({
      k1: 0.9,
      b: 0.4,
    });
  });

  it('only splits the already analysed text on whitespace, changing no term', () => {
    expect(definition.settings.analysis.analyzer.refmatch_terms).toEqual({
      type: 'custom',
      tokenizer: 'whitespace',
      filter: [],
    });
  });

  it('holds the works’ length, year and change number, refuses other fields, and says its analysis version', () => {
    expect(definition.mappings.dynamic).toBe('strict');
    expect(Object.keys(definition.mappings.properties).sort()).toEqual([
      'change_seq',
      'length',
      'terms',
      'year',
    ]);
    expect(analysisVersionOf(definition.mappings)).toBe(ANALYSIS_VERSION);
    expect(analysisVersionOf({ properties: {} })).toBeNull();
  });

  it('lays the index out on the shards and replicas asked for (one and none by default)', () => {
    expect(definition.settings.index).toMatchObject({ number_of_shards: 6, number_of_replicas: 1 });
    expect(indexDefinition().settings.index).toMatchObject({ number_of_shards: 1, number_of_replicas: 0 });
  });
});

describe('a work as indexed', () => {
  it('is our analyzer’s terms, bigrams joined by "_", with its length in content words', () => {
    const doc = workDocument({
      workId: 7,
      title: 'Neural networks',
      abstract: 'Pre-trained neural networks, revisited.',
      year: 2021,
      changeSeq: 42,
    });
    expect(doc).toEqual({
      // The title's and the abstract's terms apart: no bigram "network pre".
      terms:
        'neural network neural_network pre train pre_train pretrain neural train_neural network neural_network revisit',
      length: 2 + 5,
      year: 2021,
      change_seq: 42,
    });
    expect(
      workDocument({ workId: 8, title: 'Title only', abstract: null, year: null, changeSeq: 1 }),
    ).toMatchObject({
      year: 0,
    });
  });

  it('holds exactly the terms the in-process index holds for it, with the same length', async () => {
    const index = await localIndex();
    for (const work of works.slice(0, 5)) {
      const stored = readStoredWork(work.workId, workDocument(work));
      const expected = new Map<string, number>();
      for (const text of [work.title, work.abstract!])
        for (const term of analyze(text).terms) expected.set(term, (expected.get(term) ?? 0) + 1);
      expect(stored.tfs).toEqual(expected);
      const stats = await index.termStatistics([...stored.tfs.keys()]);
      expect(stats.terms.every((t) => t.df > 0)).toBe(true);
      expect(stored.length).toBeGreaterThan(0);
    }
  });

  it('round-trips every term through the "_" joiner', () => {
    for (const term of ['biodivers', 'biodivers conserv', 'ecosystem servic'])
      expect(decodeTerm(encodeTerm(term))).toBe(term);
    expect(encodeTerm('biodivers conserv')).toBe('biodivers_conserv');
  });

  it('is written with its change number as external version, deletions first', () => {
    expect(bulkBody(works.slice(0, 1), [9, 10])).toEqual([
      { delete: { _id: '9' } },
      { delete: { _id: '10' } },
      { index: { _id: '1', version: 100, version_type: 'external' } },
      workDocument(works[0]!),
    ]);
  });

  it('counts a bulk answer: a version already held is no failure, a missing deletion none either', () => {
    expect(
      readBulkResult([
        { index: { status: 201, result: 'created' } },
        { index: { status: 200, result: 'updated' } },
        { index: { status: 409, error: { type: 'version_conflict_engine_exception' } } },
        { delete: { status: 200, result: 'deleted' } },
        { delete: { status: 404, result: 'not_found' } },
      ]),
    ).toEqual({ upserted: 2, removed: 1 });
    expect(() =>
      readBulkResult([{ index: { status: 400, error: { type: 'strict_dynamic_mapping_exception' } } }]),
    ).toThrow(/status 400.*strict_dynamic_mapping_exception/);
  });
});

describe('the search bodies built from a prepared query', () => {
  it('boost by k1 + 1 on OpenSearch 3 (Lucene’s BM25), by 1 before it (LegacyBM25 multiplies by k1 + 1 itself)', () => {
    expect(termBoostFactor('3.1.0', 1.2)).toBeCloseTo(2.2, 12);
    expect(termBoostFactor('4.0.0-SNAPSHOT', 0.9)).toBeCloseTo(1.9, 12);
    expect(termBoostFactor('2.19.1', 1.2)).toBe(1);
    expect(termBoostFactor('1.3.20', 1.2)).toBe(1);
    expect(() => termBoostFactor('unknown', 1.2)).toThrow(/unreadable OpenSearch version/);
  });

  it('send each query term as a term clause boosted to queryWeight x the factor, so the cluster’s BM25 is ours', async () => {
    const index = await localIndex();
    const query = await index.prepare([
      { text: records[4]!.title!, weight: 1 },
      { text: records[4]!.abstract!, weight: 1 },
    ]);
    const body = searchBody(query, 25, termBoostFactor('3.0.0', bm25.k1));
    expect(body).toMatchObject({
      size: 25,
      _source: false,
      docvalue_fields: ['year'],
      track_total_hits: false,
    });
    expect(body.sort).toEqual([{ _score: { order: 'desc' } }, { change_seq: { order: 'asc' } }]);
    expect(body.query.bool.should).toHaveLength(query.terms.length);
    query.terms.forEach((t, i) => {
      const clause = body.query.bool.should[i]!.term.terms;
      expect(clause.value).toBe(encodeTerm(t.term));
      expect(clause.boost).toBeCloseTo(t.queryWeight * 2.2, 12);
      // Lucene: boost x idf x tf / (tf + norm); ours: weight x tf / (tf + norm).
      expect(clause.boost * t.idf).toBeCloseTo(t.weight, 9);
    });
    const legacy = searchBody(query, 25, termBoostFactor('2.19.0', bm25.k1));
    // LegacyBM25: (k1 + 1) x boost x idf x tf / (tf + norm).
    legacy.query.bool.should.forEach((c, i) =>
      expect(2.2 * c.term.terms.boost * query.terms[i]!.idf).toBeCloseTo(query.terms[i]!.weight, 9),
    );
    expect(body.query.bool.should.some((c) => c.term.terms.value.includes('_'))).toBe(true);
  });

  it('restrict scoring to the given ids, returning each of them', async () => {
    const index = await localIndex();
    const query = await index.prepare([{ text: 'biodiversity offsets', weight: 1 }]);
    const body = scoreWorksBody(query, [3, 1, 999], 2.2);
    expect(body.size).toBe(3);
    expect(body.query.bool.filter).toEqual([{ ids: { values: ['3', '1', '999'] } }]);
    expect(body.query.bool.should.map((c) => c.term.terms.value)).toEqual(
      query.terms.map((t) => encodeTerm(t.term)),
    );
    expect(body.query.bool).not.toHaveProperty('minimum_should_match');
  });

  it('read hits as work ids with scores divided by the self-score and the year', () => {
    expect(
      readHits(
        [
          { _id: '12', _score: 3, fields: { year: [2019] } },
          { _id: '5', _score: 1.5 },
        ],
        6,
      ),
    ).toEqual([
      { workId: 12, score: 0.5, year: 2019 },
      { workId: 5, score: 0.25, year: 0 },
    ]);
  });
});

describe('statistics fetched for a query', () => {
  it('ask for N, the summed length and one df bucket per term', () => {
    expect(statisticsBody(['biodivers', 'biodivers conserv'])).toEqual({
      size: 0,
      track_total_hits: true,
      aggs: {
        length: { sum: { field: 'length' } },
        df: {
          filters: {
            filters: { '0': { term: { terms: 'biodivers' } }, '1': { term: { terms: 'biodivers_conserv' } } },
          },
        },
      },
    });
    expect(statisticsBody([]).aggs).not.toHaveProperty('df');
  });

  it('are sent in chunks, at least one', () => {
    const terms = Array.from({ length: STATISTICS_TERMS_PER_REQUEST + 3 }, (_, i) => `t${i}`);
    expect(statisticsChunks(terms).map((c) => c.length)).toEqual([STATISTICS_TERMS_PER_REQUEST, 3]);
    expect(statisticsChunks([])).toEqual([[]]);
  });

  it('prepare the same query as the in-process index when the counts are the same', async () => {
    const index = await localIndex();
    const fields = [
      { text: records[9]!.title!, weight: 1 },
      { text: records[9]!.abstract!, weight: 1 },
      { text: 'biodiversity finance xylophonist', weight: 0.4 },
    ];
    const local = await index.prepare(fields);
    // The answers a cluster holding the same works would give, counted from the local index.
    const terms = [...new Set(fields.flatMap((f) => analyze(f.text).terms))];
    const termStats = await index.termStatistics(terms);
    const lengthSum = termStats.avgDocLength * termStats.docCount;
    const dfBuckets = (chunk: string[], offset: number) =>
      Object.fromEntries(chunk.map((_, i) => [String(i), { doc_count: termStats.terms[offset + i]!.df }]));
    const responses = statisticsChunks(terms).map((chunk, c) => ({
      hits: { total: { value: termStats.docCount } },
      aggregations: {
        length: { value: lengthSum },
        df: { buckets: dfBuckets(chunk, c * STATISTICS_TERMS_PER_REQUEST) },
      },
    }));
    const fetched = readStatistics(bm25, terms, responses);
    expect(fetched.docCount).toBe(works.length);
    expect(fetched.termId('xylophonist')).toBe(-1);
    const biodivers = fetched.termId('biodivers');
    expect(fetched.idf(biodivers)).toBeCloseTo(bm25Idf(works.length, fetched.docFreq(biodivers)), 12);
    const remote = prepareQuery(fetched, fields);
    expect(remote.terms.map((t) => [t.term, t.df, t.surface])).toEqual(
      local.terms.map((t) => [t.term, t.df, t.surface]),
    );
    remote.terms.forEach((t, i) => expect(t.weight).toBeCloseTo(local.terms[i]!.weight, 9));
    expect(remote.selfScore).toBeCloseTo(local.selfScore, 9);
    expect(remote.unknownTerms).toBe(local.unknownTerms);
  });

  it('read a total given as a plain number, and a term without a bucket as unknown', () => {
    const stats = readStatistics(
      bm25,
      ['a', 'b'],
      [
        {
          hits: { total: 10 },
          aggregations: { length: { value: 400 }, df: { buckets: { '0': { doc_count: 3 } } } },
        },
      ],
    );
    expect(stats.docCount).toBe(10);
    expect(stats.avgDocLength).toBe(40);
    expect(stats.docFreq(stats.termId('a'))).toBe(3);
    expect(stats.termId('b')).toBe(-1);
    expect(stats.norm(40)).toBeCloseTo(1.2, 12);
    expect(stats.norm(80)).toBeCloseTo(1.2 * (0.25 + 0.75 * 2), 12);
  });
});

describe('a stored work read back', () => {
  it('gives its term frequencies as the in-process index holds them (capped at 63.75)', () => {
    const many = Array.from({ length: 70 }, () => 'carbon').join(' ');
    const stored = readStoredWork(4, { terms: `${many} carbon_tax tax`, length: 72, year: 2018 });
    expect(stored).toEqual({
      workId: 4,
      length: 72,
      year: 2018,
      tfs: new Map([
        ['carbon', 63.75],
        ['carbon tax', 1],
        ['tax', 1],
      ]),
    });
  });
});
