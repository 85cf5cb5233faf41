import { describe, expect, it } from 'vitest';
import { analyze, forEachPhrase } from '../../src/retrieval/analyzer.ts';
import { Bm25Index } from '../../src/retrieval/bm25-index.ts';
import { Scorer, prepareQuery } from '../../src/retrieval/search.ts';

const terms = (text: string) => analyze(text).terms;

describe('analyzer', () => {
  it('folds case, accents and compatibility forms', () => {
    expect(terms('Ünïcode ﬁle Ærø Straße')).toEqual(terms('unicode file aero strasse'));
    expect(terms('Résumé')).toEqual(terms('resume'));
  });

  it('stems the same way whatever the inflection', () => {
    expect(terms('networks')).toEqual(terms('network'));
    expect(terms('translating')).toEqual(terms('translation'));
  });

  it('drops stop words, one-letter tokens and does not bridge them with bigrams', () => {
    const t = terms('the use of a neural network');
    expect(t).toEqual(['us', 'neural', 'network', 'neural network']);
    expect(t).not.toContain('use neural');
  });

  it('makes bigrams of adjacent content words, not across punctuation', () => {
    expect(terms('machine translation')).toEqual(['machin', 'translat', 'machin translat']);
    expect(terms('machine. Translation')).toEqual(['machin', 'translat']);
  });

  it('lets hyphenated, spaced and joined compounds meet', () => {
    const hyphen = terms('pre-trained');
    expect(hyphen).toEqual(expect.arrayContaining(['pre', 'train', 'pre train', 'pretrain']));
    expect(hyphen).toEqual(expect.arrayContaining(terms('pretrained')));
    expect(hyphen).toEqual(expect.arrayContaining(terms('pre trained')));
  });

  it('keeps a readable surface form per term', () => {
    const { surfaces } = analyze('Neural Networks for parsing', true);
    expect(surfaces.get('neural network')).toBe('neural networks');
  });

  it('indexes and queries with the same stemming: an inflected query finds the work', () => {
    const index = new Bm25Index();
    index.upsert({ workId: 1, title: 'Translating documents', abstract: null, year: 2020, changeSeq: 1 });
    index.upsert({ workId: 2, title: 'Parsing sentences', abstract: null, year: 2020, changeSeq: 2 });
    index.flush();
    expect(index.termId('translat')).toBeGreaterThanOrEqual(0);
    expect(index.termId('translating')).toBe(-1);
    const hits = new Scorer(index).search(prepareQuery(index, [{ text: 'translation', weight: 1 }]), 5);
    expect(hits.map((h) => h.workId)).toEqual([1]);
  });
});

describe('phrases of adjacent bigrams', () => {
  const phrases = (text: string, parts: string[]) => {
    const kept = new Set(parts.map((p) => analyze(p).terms.find((t) => t.includes(' '))!));
    const out: string[] = [];
    forEachPhrase(
      text,
      (b) => kept.has(b),
      (_, surface) => out.push(surface),
    );
    return out;
  };

  it('joins bigrams written one after the other, and only those the caller keeps', () => {
    const parts = ['neural machine', 'machine translation', 'low resource', 'resource languages'];
    expect(phrases('Neural machine translation for low-resource languages.', parts)).toEqual([
      'neural machine translation',
      'low resource languages',
    ]);
    // "machine translation" alone is one bigram: no phrase; a bigram not kept breaks the run.
    expect(phrases('Statistical machine translation.', parts)).toEqual([]);
    expect(phrases('Neural machine translation', ['neural machine'])).toEqual([]);
  });

  it('breaks at a stop word or a sentence end, and gives a long run whole (the caller trims and bounds it)', () => {
    const parts = ['graph neural', 'neural networks', 'networks learn', 'learn molecular'];
    expect(phrases('graph neural. networks learn', parts)).toEqual([]);
    expect(phrases('graph neural networks and networks learn molecular', parts)).toEqual([
      'graph neural networks',
      'networks learn molecular',
    ]);
    expect(phrases('graph neural networks learn molecular', parts)).toEqual([
      'graph neural networks learn molecular',
    ]);
  });
});
