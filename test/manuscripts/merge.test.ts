// Merging supplied and parsed metadata field by field (the HTTP tests with real files are in
// upload-parsed.test.ts); these pin the per-field rules, including author completion.
import { describe, expect, it } from 'vitest';
import { mergeMetadata, type ParsedMetadata } from '../../src/manuscripts/merge.ts';

const supplied = {
  title: 'Supplied title',
  abstract: '',
  authors: [
    { name: 'Ada Lovelace', email: 'ada@example.org', orcid: null, affiliation: null },
    { name: 'Charles Babbage', email: null, orcid: null, affiliation: 'Cambridge' },
  ],
};
const parsed: ParsedMetadata = {
  title: 'Parsed title',
  abstract: 'Parsed abstract',
  keywords: ['engines'],
  authors: [
    { name: 'A. Lovelace', emails: [], orcid: '0000-0002-1825-0097', affiliations: ['London'] },
    { name: 'Charles Babbage', emails: ['cb@example.org'], orcid: null, affiliations: [] },
  ],
};

describe('mergeMetadata', () => {
  it('prefers the supplied side, taking what it lacks from the parsed side', () => {
    const merged = mergeMetadata(supplied, parsed, 'supplied');
    expect(merged.title).toBe('Supplied title');
    expect(merged.abstract).toBe('Parsed abstract');
    expect(merged.keywords).toEqual(['engines']);
    expect(merged.authors).toEqual([
      { name: 'Ada Lovelace', email: 'ada@example.org', orcid: '0000-0002-1825-0097', affiliation: 'London' },
      { name: 'Charles Babbage', email: 'cb@example.org', orcid: null, affiliation: 'Cambridge' },
    ]);
  });

  it('prefers the parsed side, taking what it lacks from the supplied side', () => {
    const merged = mergeMetadata(supplied, parsed, 'parsed');
    expect(merged.title).toBe('Parsed title');
    expect(merged.authors[0]).toEqual({
      name: 'A. Lovelace',
      email: 'ada@example.org',
      orcid: '0000-0002-1825-0097',
      affiliation: 'London',
    });
  });

  it('keeps a supplied author the parsed side lacks when it is preferred, and not the other way round', () => {
    const withGrace = {
      ...supplied,
      authors: [
        ...supplied.authors,
        { name: 'Grace Hopper', email: null, orcid: '0000-0001-0000-0017', affiliation: null },
      ],
    };
    expect(mergeMetadata(withGrace, parsed, 'parsed').authors.map((a) => a.name)).toEqual([
      'A. Lovelace',
      'Charles Babbage',
      'Grace Hopper',
    ]);
    const withParsedExtra: ParsedMetadata = {
      ...parsed,
      authors: [
        ...parsed.authors,
        { name: 'Department Of Engines', emails: [], orcid: null, affiliations: [] },
      ],
    };
    expect(mergeMetadata(supplied, withParsedExtra, 'supplied').authors.map((a) => a.name)).toEqual([
      'Ada Lovelace',
      'Charles Babbage',
    ]);
  });

  it("counts the file's authors the form does not name for conflicts only, and only those that read as a person's name", () => {
    const withExtras: ParsedMetadata = {
      ...parsed,
      authors: [
        ...parsed.authors,
        { name: 'Grace Hopper', emails: [], orcid: '0000-0001-0000-0017', affiliations: ['Yale'] },
        // Lines a byline rule may misread as authors: an institution, a template's sample name.
        { name: 'Department Of Engines', emails: [], orcid: null, affiliations: [] },
        { name: 'Author 1', emails: [], orcid: null, affiliations: [] },
      ],
    };
    const merged = mergeMetadata(supplied, withExtras, 'supplied');
    expect(merged.authors.map((a) => a.name)).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(merged.fileOnlyAuthors).toEqual([
      { name: 'Grace Hopper', email: null, orcid: '0000-0001-0000-0017', affiliation: 'Yale' },
    ]);
    // Preferred, the file's authors are the list itself; with no authors supplied, too.
    expect(mergeMetadata(supplied, withExtras, 'parsed').fileOnlyAuthors).toEqual([]);
    expect(mergeMetadata({ ...supplied, authors: [] }, withExtras, 'supplied').fileOnlyAuthors).toEqual([]);
  });

  it('falls back to the other side when the preferred one has nothing', () => {
    const noParsedAuthors = { ...parsed, title: null, authors: [] };
    const merged = mergeMetadata(supplied, noParsedAuthors, 'parsed');
    expect(merged.title).toBe('Supplied title');
    expect(merged.authors.map((a) => a.name)).toEqual(['Ada Lovelace', 'Charles Babbage']);
    expect(mergeMetadata(supplied, null, 'parsed').abstract).toBe('');
  });
});
