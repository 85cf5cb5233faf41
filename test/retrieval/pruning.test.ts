// The scorer skips work (MaxScore-style pruning from impacts, candidates scored from forward rows); with
// exact settings it must return what exhaustive scoring returns, and the bounds it prunes with
// must hold for every posting, also after updates, deletes, merges and norm changes.
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../src/retrieval/bm25-index.ts';
import { Scorer, prepareQuery, type SearchHit } from '../../src/retrieval/search.ts';
import { IMPACT_SCALE, TF_SCALE, findTerm } from '../../src/retrieval/segment.ts';

/** Deterministic PRNG (mulberry32), so the fixture corpus is the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Made-up words (no stop words, stems of their own), drawn with a Zipf-like skew so that some
// are in most works and most are rare, as in real abstracts.
const VOCABULARY = Array.from({ length: 600 }, (_, i) => `w${i.toString(36)}x`);
function zipfWord(rnd: () => number): string {
  return VOCABULARY[Math.floor(VOCABULARY.length * rnd() ** 2.5)]!;
}
function text(rnd: () => number, words: number): string {
  return Array.from({ length: words }, () => zipfWord(rnd)).join(' ');
}

function corpus(works: number, segmentWorks: number, seed = 7): Bm25Index {
  const rnd = random(seed);
  const index = new Bm25Index({ segmentWorks });
  for (let i = 1; i <= works; i++) {
    index.upsert({
      workId: i,
      title: text(rnd, 3 + Math.floor(rnd() * 8)),
      abstract: rnd() < 0.15 ? null : text(rnd, 20 + Math.floor(rnd() * 120)),
      year: 2000 + (i % 20),
      changeSeq: i,
    });
  }
  index.flush();
  return index;
}

const EXACT = {
  thresholdBoost: 1,
  candidates: Number.MAX_SAFE_INTEGER,
  candidateShare: 1,
  postingBudget: Number.MAX_SAFE_INTEGER,
};

/** Same works in the same order, scores equal up to float32 rounding. */
function expectSameRanking(pruned: SearchHit[], exhaustive: SearchHit[]): void {
  expect(pruned.map((h) => h.workId)).toEqual(exhaustive.map((h) => h.workId));
  for (let i = 0; i < pruned.length; i++) {
    expect(Math.abs(pruned[i]!.score - exhaustive[i]!.score)).toBeLessThan(1e-5 * exhaustive[i]!.score);
  }
}

function queries(count: number, seed = 99): Array<Array<{ text: string; weight: number }>> {
  const rnd = random(seed);
  return Array.from({ length: count }, () => [
    { text: text(rnd, 8), weight: 1 },
    { text: text(rnd, 60 + Math.floor(rnd() * 60)), weight: 1 },
  ]);
}

/**
 * What the scorer relies on, checked against the postings: bounds hold for every posting, impacts
 * are the exact tf / (tf + norm) rounded up to the next step, and forward rows are the postings
 * transposed (per slot, (k << 8) | tf by ascending k; empty for a slot without postings).
 */
function expectConsistent(index: Bm25Index): void {
  const { bounds, norms } = index.internals();
  let postings = 0;
  let aboveBound = 0;
  let wrongImpacts = 0;
  let forwardEntries = 0;
  let wrongForward = 0;
  for (const seg of index.segments) {
    const width = seg.lastSlot - seg.firstSlot + 1;
    // The postings as the forward rows should hold them: per slot, (k << 8) | tf by ascending k.
    const expected: number[][] = Array.from({ length: width }, () => []);
    for (let k = 0; k < seg.termIds.length; k++) {
      const t = seg.termIds[k]!;
      for (let p = seg.offsets[k]!; p < seg.offsets[k + 1]!; p++) {
        const tf = seg.tfs[p]! / TF_SCALE;
        const exact = tf / (tf + norms[seg.slots[p]!]!);
        if (exact > bounds[t]!) aboveBound++;
        // The impact is the exact ratio rounded up to the next 1/IMPACT_SCALE.
        const impact = seg.impacts[p]! / IMPACT_SCALE;
        if (impact < exact || impact - exact >= 1 / IMPACT_SCALE) wrongImpacts++;
        postings++;
        expected[seg.slots[p]! - seg.firstSlot]!.push((k << 8) | seg.tfs[p]!);
      }
    }
    expect(seg.forwardOffsets.length).toBe(width + 1);
    for (let row = 0; row < width; row++) {
      const got = Array.from(seg.forward.subarray(seg.forwardOffsets[row]!, seg.forwardOffsets[row + 1]!));
      forwardEntries += got.length;
      if (got.join() !== expected[row]!.join()) wrongForward++;
    }
  }
  expect(postings).toBeGreaterThan(50_000);
  expect(forwardEntries).toBe(postings);
  expect(wrongForward).toBe(0);
  expect(aboveBound).toBe(0);
  expect(wrongImpacts).toBe(0);
}

describe('pruned scoring', () => {
  it('returns the exhaustive top k when run exactly, over several segments', () => {
    const index = corpus(3000, 700);
    expect(index.segments.length).toBeGreaterThan(3);
    const scorer = new Scorer(index);
    for (const fields of queries(25)) {
      const query = prepareQuery(index, fields, { maxDfRatio: 1 });
      expect(query.terms.length).toBeGreaterThan(20);
      const exhaustive = scorer.search(query, 50, undefined, { exhaustive: true });
      expectSameRanking(scorer.search(query, 50, undefined, EXACT), exhaustive);
    }
  });

  it('keeps nearly all of the exhaustive top k with the default settings', () => {
    const index = corpus(3000, 700);
    const scorer = new Scorer(index);
    let shared = 0;
    let total = 0;
    for (const fields of queries(25)) {
      const query = prepareQuery(index, fields);
      const exact = scorer.search(query, 50, undefined, { exhaustive: true });
      const fast = new Set(scorer.search(query, 50).map((h) => h.workId));
      shared += exact.filter((h) => fast.has(h.workId)).length;
      total += exact.length;
    }
    expect(shared / total).toBeGreaterThanOrEqual(0.97);
  });

  it('breaks ties by document order, as exhaustive scoring does', () => {
    const index = new Bm25Index({ segmentWorks: 16 });
    for (let i = 1; i <= 60; i++)
      index.upsert({ workId: i, title: 'graph parsing', abstract: null, year: null, changeSeq: i });
    for (let i = 61; i <= 200; i++)
      index.upsert({ workId: i, title: `filler${i} text${i % 9}`, abstract: null, year: null, changeSeq: i });
    index.flush();
    const scorer = new Scorer(index);
    const query = prepareQuery(index, [{ text: 'graph parsing', weight: 1 }]);
    const pruned = scorer.search(query, 10, undefined, EXACT);
    expectSameRanking(pruned, scorer.search(query, 10, undefined, { exhaustive: true }));
    expect(pruned.map((h) => h.workId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expectSameRanking(scorer.search(query, 10), pruned);
  });

  it('returns every match when k is larger than the number of matches', () => {
    const index = corpus(500, 200);
    const scorer = new Scorer(index);
    const query = prepareQuery(index, [{ text: `${VOCABULARY[590]} ${VOCABULARY[595]}`, weight: 1 }]);
    const exhaustive = scorer.search(query, 10_000, undefined, { exhaustive: true });
    expect(exhaustive.length).toBeGreaterThan(0);
    expect(exhaustive.length).toBeLessThan(500);
    expectSameRanking(scorer.search(query, 10_000), exhaustive);
  });

  it('returns nothing for a query without indexed terms', () => {
    const index = corpus(300, 100);
    const scorer = new Scorer(index);
    for (const fields of [
      [{ text: 'the of and with', weight: 1 }],
      [{ text: 'zzqunknown', weight: 1 }],
      [],
    ]) {
      const query = prepareQuery(index, fields);
      expect(query.terms).toHaveLength(0);
      expect(scorer.search(query, 10)).toEqual([]);
    }
  });

  it('applies a filter before the cut, as exhaustive scoring does', () => {
    const index = corpus(2000, 500);
    const scorer = new Scorer(index);
    const odd = (workId: number) => workId % 2 === 1;
    for (const fields of queries(5, 3)) {
      const query = prepareQuery(index, fields);
      const pruned = scorer.search(query, 30, odd, EXACT);
      expect(pruned.every((h) => odd(h.workId))).toBe(true);
      expectSameRanking(pruned, scorer.search(query, 30, odd, { exhaustive: true }));
    }
  });

  it('stays exact and keeps its bounds after updates, deletes, merges and norm changes', () => {
    const index = corpus(1500, 300);
    const normBefore = index.docNorm(index.docOf(1));
    const rnd = random(11);
    // Rewrite a third of the works with longer texts (the average length, hence every norm,
    // moves), delete a tenth, add new ones; flush now and then so segments merge and rewrite.
    for (let i = 1; i <= 1500; i++) {
      if (i % 3 === 0)
        index.upsert({
          workId: i,
          title: text(rnd, 6),
          abstract: text(rnd, 200),
          year: null,
          changeSeq: 10_000 + i,
        });
      if (i % 10 === 0) index.remove(i);
      if (i % 250 === 0) {
        index.flush();
        expectConsistent(index);
        const scorer = new Scorer(index);
        for (const fields of queries(2, i)) {
          const query = prepareQuery(index, fields, { maxDfRatio: 1 });
          const exhaustive = scorer.search(query, 40, undefined, { exhaustive: true });
          expectSameRanking(scorer.search(query, 40, undefined, EXACT), exhaustive);
        }
      }
    }
    for (let i = 1501; i <= 1800; i++)
      index.upsert({
        workId: i,
        title: text(rnd, 5),
        abstract: text(rnd, 40),
        year: null,
        changeSeq: 20_000 + i,
      });
    index.flush();
    // Work 1 was never touched: its norm moved with the average length.
    expect(Math.abs(index.docNorm(index.docOf(1)) / normBefore - 1)).toBeGreaterThan(0.05);

    expectConsistent(index);

    const scorer = new Scorer(index);
    for (const fields of queries(10, 5)) {
      const query = prepareQuery(index, fields, { maxDfRatio: 1 });
      const pruned = scorer.search(query, 40, undefined, EXACT);
      for (const h of pruned) expect(h.workId % 10 === 0 && h.workId <= 1500).toBe(false);
      expectSameRanking(pruned, scorer.search(query, 40, undefined, { exhaustive: true }));
    }
  });

  it('adds up impacts to at least the exact score, and at most one quantisation step per term above', () => {
    const index = corpus(2000, 400);
    const scorer = new Scorer(index);
    const { states } = index.internals();
    for (const fields of queries(8, 21)) {
      const query = prepareQuery(index, fields, { maxDfRatio: 1 });
      const exact = new Map(
        scorer.search(query, 5000, undefined, { exhaustive: true }).map((h) => [h.workId, h.score]),
      );
      // Phase 1's partial scores when every term is read in full: weight x impact per posting.
      const fromImpacts = new Map<number, number>();
      const slack = new Map<number, number>();
      for (const t of query.terms) {
        for (const seg of index.segments) {
          const k = findTerm(seg, t.termId);
          if (k < 0) continue;
          for (let p = seg.offsets[k]!; p < seg.offsets[k + 1]!; p++) {
            const slot = seg.slots[p]!;
            if (states[slot] !== 1) continue;
            const workId = index.workIdOf(slot);
            fromImpacts.set(
              workId,
              (fromImpacts.get(workId) ?? 0) + (t.weight * seg.impacts[p]!) / IMPACT_SCALE,
            );
            slack.set(workId, (slack.get(workId) ?? 0) + t.weight / IMPACT_SCALE);
          }
        }
      }
      expect(fromImpacts.size).toBe(exact.size);
      for (const [workId, score] of exact) {
        const raw = score * query.selfScore;
        const quantised = fromImpacts.get(workId)!;
        expect(quantised).toBeGreaterThanOrEqual(raw * (1 - 1e-6));
        expect(quantised - raw).toBeLessThanOrEqual(slack.get(workId)! + 1e-9);
      }
      // The default settings rank by partial scores from impacts, but return exact scores.
      for (const h of scorer.search(query, 50))
        expect(Math.abs(h.score - exact.get(h.workId)!)).toBeLessThan(1e-6 * h.score);
    }
  });
});
