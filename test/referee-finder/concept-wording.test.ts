// The termhood test of a concept bigram (concepts.ts, wordingOdds): a bigram titles hold far less
// often than the corpus's base rate predicts is an abstract's wording. Made-up counts, base rate 10%.
import { describe, expect, it } from 'vitest';
import { wordingOdds } from '../../src/referee-finder/concepts.ts';

const BASE = 0.1;

describe('a concept bigram judged by its title document frequency', () => {
  it('is wording when no or almost no title holds it, though its df says some should', () => {
    expect(wordingOdds(300, 0, BASE)).not.toBeNull();
    expect(wordingOdds(1000, 20, BASE)).not.toBeNull();
    // 0.9^60 is 0.2%: significant at 1%.
    expect(wordingOdds(60, 0, BASE)).toBeLessThan(0.01);
  });

  it('stays when its df is too small to tell (0.9^30 is 4%)', () => {
    expect(wordingOdds(30, 0, BASE)).toBeNull();
    expect(wordingOdds(2, 0, BASE)).toBeNull();
  });

  it('stays when titles hold it, if less often than the average bigram: under a quarter of the base rate is wording', () => {
    // 4% of 1,000 works: significantly below 10%, yet a general term of the field, not wording.
    expect(wordingOdds(1000, 40, BASE)).toBeNull();
    expect(wordingOdds(1000, 300, BASE)).toBeNull();
  });

  it('judges nothing in a corpus whose titles hold no bigram', () => {
    expect(wordingOdds(1000, 0, 0)).toBeNull();
  });
});
