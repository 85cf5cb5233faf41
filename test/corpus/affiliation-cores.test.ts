// coresMatchingAny finds, through the cores' words, exactly the cores affiliationCoresMatch matches
// pair by pair (the linker's affiliation step at the caps, hostile round 10).
import { describe, expect, it } from 'vitest';
import {
  affiliationCoresMatch,
  affiliationOrganizations,
  anyAffiliationMatches,
  cachedAffiliationOrganizations,
  coresMatchingAny,
  normalizeAffiliation,
} from '../../src/corpus/authors/affiliations.ts';

/** A small generator of the same numbers at every run (a linear congruential one). */
function numbers(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % below;
  };
}

describe('coresMatchingAny', () => {
  it('agrees with affiliationCoresMatch on every pair of 20,000 random lists', () => {
    const next = numbers(10);
    const words = ['university', 'of', 'a', 'b', 'institute', 'c', 'microsoft', 'research', 'technical', 'x'];
    const core = () => Array.from({ length: 1 + next(8) }, () => words[next(4 + next(6))]).join(' ');
    let disagreements = 0;
    for (let round = 0; round < 20_000; round++) {
      const own = Array.from({ length: next(4) }, core);
      const theirs = Array.from({ length: 1 + next(5) }, core);
      const matched = coresMatchingAny(own, theirs);
      for (const y of theirs) {
        if (own.some((x) => affiliationCoresMatch(x, y)) !== matched.has(y)) disagreements++;
      }
    }
    expect(disagreements).toBe(0);
  });

  it('matches a core held in a row inside a long one, either way, and a leading single word', () => {
    const long = `${'x '.repeat(500)}university of vienna medical school`;
    expect(coresMatchingAny([long], ['university of vienna', 'university of graz'])).toEqual(
      new Set(['university of vienna']),
    );
    expect(coresMatchingAny(['university of vienna'], [long, 'graz university'])).toEqual(new Set([long]));
    // "Vienna University" in English word order; not the technical university of the place.
    expect(
      coresMatchingAny(['university of vienna'], ['vienna university', 'technical university of vienna']),
    ).toEqual(new Set(['vienna university']));
    expect(coresMatchingAny(['microsoft'], ['microsoft research asia', 'university'])).toEqual(
      new Set(['microsoft research asia']),
    );
    // A generic word alone matches nothing.
    expect(coresMatchingAny(['university'], ['university of vienna'])).toEqual(new Set());
    expect(coresMatchingAny([''], ['university of vienna'])).toEqual(new Set());
  });
});

describe('cachedAffiliationOrganizations', () => {
  // An upload's affiliations (up to 2,000 characters each) are normalised by the author resolution
  // and asked for again by the conflict policy: the second time is the first's answer.
  it('keeps an affiliation of the longest the form allows', () => {
    const stated = `Department of Physics, University of Springfield, ${'Building 7, '.repeat(180)}`.slice(
      0,
      2_000,
    );
    expect(stated.length).toBe(2_000);
    const first = cachedAffiliationOrganizations(stated);
    expect(first).toContain('university of springfield');
    expect(cachedAffiliationOrganizations(stated)).toBe(first);
  });
});

describe('anyAffiliationMatches', () => {
  // A manuscript author's affiliation (up to 2,000 characters) against a namesake's 25
  // affiliations: each string is normalized once a call, not once a pair.
  it('normalizes each string once, however many the other side holds', () => {
    const asked = new Map<string, number>();
    const counting = (value: string) => {
      asked.set(value, (asked.get(value) ?? 0) + 1);
      return affiliationOrganizations(value);
    };
    const stated = `Department of Physics, University of Springfield, ${'Building '.repeat(200)}`;
    const theirs = Array.from({ length: 25 }, (_, i) => `Institute ${i} of Corpus Studies, Corpus City`);
    expect(anyAffiliationMatches([stated], theirs, counting)).toBe(false);
    expect(asked.get(stated)).toBe(1);
    expect([...asked.values()].reduce((a, b) => a + b, 0)).toBe(26);
    expect(anyAffiliationMatches([stated], [...theirs, 'University of Springfield'], counting)).toBe(true);
  });
});

describe('affiliationOrganizations', () => {
  // The form allows 2,000 characters an affiliation: written as separators, or as one segment
  // repeated, it was 1,000-2,000 normalizations (~30 replacements each), 12-20 ms an affiliation.
  function counted(value: string): { organizations: string[]; normalized: number } {
    let normalized = 0;
    const organizations = affiliationOrganizations(value, (segment) => {
      normalized++;
      return normalizeAffiliation(segment);
    });
    return { organizations, normalized };
  }

  it('normalizes no segment of punctuation and spaces alone', () => {
    expect(counted(`Univ. of Springfield ${'('.repeat(1_975)}`)).toEqual({
      organizations: ['university of springfield'],
      normalized: 1,
    });
    expect(counted(', ; ( ) '.repeat(250)).normalized).toBe(0);
  });

  it('normalizes a segment written many times once, and names what it named before', () => {
    const value = 'Dept. of Physics, Univ. of Springfield, Institute of Springfield Studies, '.repeat(27);
    const { organizations, normalized } = counted(value);
    expect(normalized).toBe(3);
    expect(organizations).toEqual(['university of springfield', 'institute of springfield studies']);
    expect(
      affiliationOrganizations('Dept. of Physics, Univ. of Springfield, Institute of Springfield Studies'),
    ).toEqual(organizations);
  });
});
