// A manuscript's query is analysed in pieces, the event loop given a turn between them (a 100,000-
// character abstract held it 25-60 ms in one run, docs/benchmarks/hostile-uploads.md): the pieces
// make the same terms as one run, and the pauses come at a bounded amount of text each.
import { describe, expect, it } from 'vitest';
import {
  forEachPhrase,
  forEachPhraseInPieces,
  forEachTerm,
  forEachTermInPieces,
} from '../../src/retrieval/analyzer.ts';
import { Bm25Index } from '../../src/retrieval/bm25-index.ts';
import { prepareQuery, prepareQuerySliced, type QueryField } from '../../src/retrieval/search.ts';
import { TimeSlicer, runToEnd } from '../../src/infra/event-loop.ts';
import { fixtureWorksWithAbstracts } from './fixture-works.ts';

const works = fixtureWorksWithAbstracts();

function terms(text: string, pieceChars?: number): { terms: string[]; length: number } {
  const out: string[] = [];
  const emit = (term: string, surface: string) => out.push(`${term}|${surface}`);
  if (pieceChars === undefined) return { terms: out, length: forEachTerm(text, emit, true) };
  const steps = forEachTermInPieces(text, emit, true, pieceChars);
  for (;;) {
    const step = steps.next();
    if (step.done) return { terms: out, length: step.value };
  }
}

/** A slicer always due (no clock in the test), counting its pauses. */
class CountingSlicer extends TimeSlicer {
  pauses = 0;
  constructor() {
    super(0);
  }
  override async pause(): Promise<void> {
    this.pauses++;
    await super.pause();
  }
}

describe('a text analysed in pieces', () => {
  const text =
    "Ünïcode ﬁle-systems aren't neural networks: the Transformer's attention (over 2,048 tokens) " +
    'generalizes; Łódź, straße and Œuvre in self-supervised pre-training of large language models. ' +
    works
      .slice(0, 5)
      .map((w) => w.abstract)
      .join(' ');

  it.each([1, 2, 3, 7, 64, 4_096])('makes the same terms in pieces of %i characters', (piece) => {
    expect(terms(text, piece)).toEqual(terms(text));
  });

  it.each([1, 3, 64, 4_096])('finds the same phrases in pieces of %i characters', (piece) => {
    const isPart = (bigram: string) => !bigram.startsWith('the ');
    const whole: string[] = [];
    forEachPhrase(text, isPart, (run, surface) => whole.push(`${run.join('+')}|${surface}`));
    const pieces: string[] = [];
    runToEnd(
      forEachPhraseInPieces(
        text,
        isPart,
        (run, surface) => pieces.push(`${run.join('+')}|${surface}`),
        piece,
      ),
    );
    expect(whole.length).toBeGreaterThan(20);
    expect(pieces).toEqual(whole);
  });
});

describe('a manuscript query of 100,000 characters', () => {
  const index = new Bm25Index();
  works.forEach((w, i) =>
    index.upsert({ workId: i + 1, title: w.title!, abstract: w.abstract, year: 2020, changeSeq: 1 }),
  );
  index.flush();
  const abstract = works
    .map((w) => w.abstract)
    .join(' ')
    .repeat(10)
    .slice(0, 100_000);
  const fields: QueryField[] = [
    { text: works[0]!.title!, weight: 1 },
    { text: abstract, weight: 1 },
    { text: abstract.slice(0, 60_000), weight: 0.4, maxTerms: 80 },
  ];

  it('is the query one run makes, with a pause at most every few thousand characters', async () => {
    const slicer = new CountingSlicer();
    const sliced = await prepareQuerySliced(index, fields, {}, slicer);
    expect(sliced).toEqual(prepareQuery(index, fields));
    expect(sliced.terms.length).toBeGreaterThan(100);
    // 160,000 characters analysed: a pause offered after each piece of 4,096 at most.
    expect(slicer.pauses).toBeGreaterThanOrEqual(Math.floor(160_000 / 4_096));
  });
});
