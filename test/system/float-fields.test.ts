// The rewrite that keeps the spec's float fields floats in JSON (src/http/float-fields.ts): it
// touches whole numbers under those keys and nothing else, text that looks like them included.
import { describe, expect, it } from 'vitest';
import { writeFloatsWithFraction } from '../../src/http/float-fields.ts';

describe('score and boost_multiplier are written as floats (2.3, 2.4, 2.6)', () => {
  it('adds a fraction to a whole value, negative ones too, and leaves others as they are', () => {
    const json = JSON.stringify({
      a: { score: 1, id: 2 },
      b: [{ score: -3 }, { score: 0.25 }, { score: 1e21 }],
      boost_multiplier: 2,
      scores: 4,
      year: 2020,
    });
    expect(writeFloatsWithFraction(json)).toBe(
      '{"a":{"score":1.0,"id":2},"b":[{"score":-3.0},{"score":0.25},{"score":1e+21}],' +
        '"boost_multiplier":2.0,"scores":4,"year":2020}',
    );
  });

  it('leaves text that looks like such a field alone', () => {
    const json = JSON.stringify({ title: '"score":1, and "boost_multiplier":2}', score: 0.5 });
    expect(writeFloatsWithFraction(json)).toBe(json);
  });
});
