// Segments are immutable: updates tombstone and append, and merging drops dead postings while
// keeping document frequencies exact.
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../src/retrieval/bm25-index.ts';
import { Scorer, prepareQuery } from '../../src/retrieval/search.ts';

const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'theta', 'kappa'];
const text = (i: number, v: number) => `${words[i % 8]} ${words[(i + v) % 8]} item${i} version${v}`;

describe('index segments', () => {
  it('keeps few segments and exact document frequencies through many small updates', () => {
    const index = new Bm25Index({ segmentWorks: 50 });
    for (let v = 0; v < 5; v++) {
      for (let i = 0; i < 200; i++) {
        index.upsert({
          workId: i + 1,
          title: text(i, v),
          abstract: null,
          year: 2020,
          changeSeq: v * 1000 + i,
        });
        if (i % 7 === 0) index.flush();
      }
      index.flush();
    }
    expect(index.liveWorks).toBe(200);
    expect(index.segments.length).toBeLessThanOrEqual(4 + 8);

    // A fresh index of the final versions, for comparison.
    const fresh = new Bm25Index({ segmentWorks: 50 });
    for (let i = 0; i < 200; i++)
      fresh.upsert({ workId: i + 1, title: text(i, 4), abstract: null, year: 2020, changeSeq: 1 });
    fresh.flush();
    for (const term of ['version4', 'version0', 'alpha', 'item7']) {
      const live = index.postings(index.termId(term)).docs.length;
      expect(live).toBe(fresh.postings(fresh.termId(term)).docs.length);
      // Stored postings may still hold tombstoned versions, never fewer than the live ones.
      expect(index.docFreq(index.termId(term))).toBeGreaterThanOrEqual(live);
    }
    expect(index.postings(index.termId('version0')).docs.length).toBe(0);
    const hits = new Scorer(index).search(prepareQuery(index, [{ text: 'item7 version4', weight: 1 }]), 3);
    expect(hits[0]!.workId).toBe(8);
  });

  it('rewrites a segment once most of it is dead, so its postings stop counting', () => {
    const index = new Bm25Index({ segmentWorks: 100 });
    for (let i = 0; i < 100; i++)
      index.upsert({ workId: i + 1, title: 'common rare' + i, abstract: null, year: null, changeSeq: i });
    index.flush();
    for (let i = 0; i < 60; i++) index.remove(i + 1);
    index.flush();
    expect(index.docFreq(index.termId('common'))).toBe(40);
    expect(index.docCount).toBe(40);
  });

  it('keeps title document frequencies exact through updates, removals and merges', () => {
    const index = new Bm25Index({ segmentWorks: 100 });
    for (let i = 0; i < 100; i++)
      index.upsert({
        workId: i + 1,
        title: `deep parsing item${i}`,
        abstract: 'deep parsing with shallow wording',
        year: null,
        changeSeq: i,
      });
    index.flush();
    const bigram = index.termId(index.analyze('deep parsing').terms.find((t) => t.includes(' '))!);
    expect(index.docFreq(bigram)).toBe(100);
    expect(index.titleDocFreq(bigram)).toBe(100);
    // 60 works change so the bigram leaves their title but stays in their abstract; 5 are removed.
    for (let i = 0; i < 60; i++)
      index.upsert({
        workId: i + 1,
        title: `plain item${i}`,
        abstract: 'deep parsing with shallow wording',
        year: null,
        changeSeq: 1000 + i,
      });
    for (let i = 95; i < 100; i++) index.remove(i + 1);
    // Pending versions count at once; tombstoned ones until their segment is merged away (flush).
    expect(index.titleDocFreq(bigram)).toBe(100);
    index.flush();

    const fresh = new Bm25Index({ segmentWorks: 100 });
    for (let i = 0; i < 95; i++)
      fresh.upsert({
        workId: i + 1,
        title: i < 60 ? `plain item${i}` : `deep parsing item${i}`,
        abstract: 'deep parsing with shallow wording',
        year: null,
        changeSeq: 1,
      });
    fresh.flush();
    expect(index.titleDocFreq(bigram)).toBe(35);
    expect(index.docFreq(bigram)).toBe(95);
    for (const text of ['deep parsing', 'shallow wording', 'plain', 'item7', 'item70', 'item97'])
      for (const term of index.analyze(text).terms)
        expect([term, index.titleDocFreq(index.termId(term))]).toEqual([
          term,
          fresh.titleDocFreq(fresh.termId(term)),
        ]);
    expect(index.titleShare()).toBeCloseTo(fresh.titleShare()!, 12);
    // The share the concepts are judged by: of the 95 x 3 (work, bigram) pairs, 35 x 2 title ones
    // ("deep parsing", "parsing itemN") and 60 ("plain itemN").
    expect(fresh.titleShare()).toBeCloseTo((35 * 2 + 60) / (95 * 3), 12);
  });

  it('skips a version it already holds', () => {
    const index = new Bm25Index();
    expect(index.upsert({ workId: 1, title: 'x ray', abstract: null, year: null, changeSeq: 5 })).toBe(true);
    expect(index.upsert({ workId: 1, title: 'x ray', abstract: null, year: null, changeSeq: 5 })).toBe(false);
  });

  it('pruned scoring (rare terms in full, common ones counted for few candidates) matches exhaustive scoring', () => {
    const index = new Bm25Index({ segmentWorks: 700 });
    // 5,000 works: "common" in all, "usual" in every other one, "topic<n>" in 1 of 50.
    for (let i = 0; i < 5000; i++) {
      const title = `common ${i % 2 === 0 ? 'usual usual' : ''} topic${i % 50} filler${i % 7}`;
      index.upsert({ workId: i + 1, title, abstract: null, year: null, changeSeq: i });
    }
    index.flush();
    expect(index.segments.length).toBeGreaterThan(1);
    const scorer = new Scorer(index, { candidates: 150 });
    const query = prepareQuery(index, [{ text: 'topic7 usual common filler3', weight: 1 }], {
      maxDfRatio: 1,
    });
    expect(query.terms.map((t) => t.term)).toContain('common');
    const fast = scorer.search(query, 20);
    const exact = scorer.search(query, 20, undefined, { exhaustive: true });
    // Same scores rank by rank (works with equal scores may differ at the cut).
    expect(fast).toHaveLength(20);
    for (let i = 0; i < fast.length; i++) expect(fast[i]!.score).toBeCloseTo(exact[i]!.score, 5);
    const exactScore = new Map(exact.map((h) => [h.workId, h.score]));
    for (const h of fast.slice(0, 5)) expect(exactScore.get(h.workId)).toBeCloseTo(h.score, 5);
    // The best works have every term: topic7, usual (even ids), filler3.
    expect(fast[0]!.score).toBeGreaterThan(fast[fast.length - 1]!.score);
  });

  it('gives works without terms empty forward rows, also at the edges of a segment', () => {
    const index = new Bm25Index({ segmentWorks: 10 });
    // Works 1-3 and 10 have no indexed term (empty, stop words only); segments cover slots 0-9, 10-19.
    for (let i = 1; i <= 20; i++) {
      const title = i <= 3 || i === 10 ? (i === 2 ? 'the of and' : '') : `graph w${i} w${i % 3}`;
      index.upsert({ workId: i, title, abstract: null, year: null, changeSeq: i });
    }
    index.flush();
    const [first] = index.segments;
    expect(first!.firstSlot).toBe(0);
    expect(first!.forwardOffsets.length).toBe(11);
    for (const slot of [0, 1, 2, 9])
      expect(first!.forwardOffsets[slot + 1]).toBe(first!.forwardOffsets[slot]);
    const scorer = new Scorer(index);
    const query = prepareQuery(index, [{ text: 'graph w4 w7 w2', weight: 1 }]);
    const exact = scorer.search(query, 5, undefined, { exhaustive: true });
    expect(exact.map((h) => h.workId)).toEqual([4, 7, 5, 8, 11]);
    // The rarest term alone in full (a posting budget of 1), the others from the forward rows.
    const pruned = scorer.search(query, 1, undefined, {
      thresholdBoost: 1,
      candidates: 1e9,
      postingBudget: 1,
    });
    expect(scorer.trace.essentialTerms).toBe(1);
    expect(pruned.map((h) => h.workId)).toEqual([4]);
    expect(pruned[0]!.score).toBeCloseTo(exact[0]!.score, 6);
  });
});
