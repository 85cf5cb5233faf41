// The optional third signal of the referee ranking: a work similarity from another model than the
// index's (corpus word vectors), fused by z-score at `vectorWeight`; off unless both are given.
import { describe, expect, it } from 'vitest';
import { LocalWorkIndex } from '../../src/retrieval/local-work-index.ts';
import { manuscriptQuery } from '../../src/retrieval/manuscript-query.ts';
import {
  rankAuthors,
  type Authorship,
  type AuthorshipSource,
} from '../../src/referee-finder/rank-authors.ts';

// Two authors whose works match the manuscript's words equally; a third with one weaker work.
const works = [
  {
    workId: 1,
    author: 1,
    title: 'Dependency parsing with graph neural networks',
    abstract: 'We parse sentences.',
  },
  { workId: 2, author: 1, title: 'Transition-based dependency parsing', abstract: 'A fast parser.' },
  {
    workId: 3,
    author: 2,
    title: 'Dependency parsing with graph neural networks',
    abstract: 'We parse sentences.',
  },
  { workId: 4, author: 2, title: 'Transition-based dependency parsing', abstract: 'A fast parser.' },
  { workId: 5, author: 3, title: 'Graph neural networks for molecules', abstract: 'Chemistry.' },
];

async function rank(
  params: { vectorWeight: number },
  workSimilarity?: (workId: number) => number | undefined,
) {
  const index = new LocalWorkIndex({ workerMinWorks: Infinity });
  for (const w of works)
    index.upsert({ workId: w.workId, title: w.title, abstract: w.abstract, year: 2024, changeSeq: 1 });
  index.flush();
  const authorships: Authorship[] = works.map((w) => ({
    workId: w.workId,
    authorId: w.author,
    position: 1,
    authorsCount: 1,
  }));
  const source: AuthorshipSource = {
    ofWorks: async (ids) => authorships.filter((a) => ids.includes(a.workId)),
    ofAuthors: async (ids) => authorships.filter((a) => ids.includes(a.authorId)),
  };
  const query = await manuscriptQuery(index, {
    title: 'Graph neural networks for dependency parsing',
    abstract: 'We parse sentences with a graph neural network.',
    keywords: [],
    fullText: null,
  });
  const outcome = await rankAuthors(index, source, query, {
    restrictTo: null,
    exclude: new Set(),
    currentYear: 2026,
    params,
    workSimilarity,
  });
  return outcome.authors;
}

describe('referee ranking: vector evidence', () => {
  // Author 2's works are the nearer ones by the other model.
  const similarity = (workId: number) => ({ 1: 0.2, 2: 0.1, 3: 0.9, 4: 0.8, 5: 0.3 })[workId];

  it('changes nothing at weight 0 or without a similarity', async () => {
    const plain = await rank({ vectorWeight: 0 });
    expect(await rank({ vectorWeight: 0 }, similarity)).toEqual(plain);
    expect(await rank({ vectorWeight: 1 })).toEqual(plain);
  });

  it('breaks a lexical tie toward the author whose works the other model finds nearer', async () => {
    const plain = await rank({ vectorWeight: 0 });
    expect(plain[0]!.score).toBeCloseTo(plain[1]!.score, 12);
    const fused = await rank({ vectorWeight: 0.5 }, similarity);
    expect(fused[0]!.authorId).toBe(2);
    expect(fused[0]!.score).toBeGreaterThan(fused[1]!.score);
    // It reorders candidates; it adds none.
    expect(fused.map((a) => a.authorId).sort()).toEqual(plain.map((a) => a.authorId).sort());
  });
});
