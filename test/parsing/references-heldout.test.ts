// DOIs damaged at line breaks in reference lists of templates the parser had not seen (MDPI,
// Wiley): cut inside the suffix or the prefix, a hyphen set at the break, a SICI DOI with its angle
// brackets. Every entry here is made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { findDoi, joinDoiBreaks, parseReferenceList } from '../../src/parsing/references.ts';
import type { BlockLine } from '../../src/parsing/types.ts';

const line = (text: string, indent = 0, gapAbove = 0, links?: string[]): BlockLine => ({
  text,
  indent,
  gapAbove,
  ...(links ? { links } : {}),
});

describe('DOIs broken at a line end', () => {
  it('are joined when the break falls inside the suffix or the prefix', () => {
    expect(joinDoiBreaks(['Ecol. Evol. 7: 1–9. https://doi.org/10.5555/3011-2', '20Y.45678.'])).toEqual([
      'Ecol. Evol. 7: 1–9. https://doi.org/10.5555/3011-220Y.45678.',
    ]);
    expect(joinDoiBreaks(['Nature 12: 3–4. https://doi.org/10.555', '5/nature.xy-12.345.67.'])).toEqual([
      'Nature 12: 3–4. https://doi.org/10.5555/nature.xy-12.345.67.',
    ]);
    expect(joinDoiBreaks(['Journal 75: 1–9. https://doi.org/10.5555/j.1234', '-5678.2006.0001.x.'])).toEqual([
      'Journal 75: 1–9. https://doi.org/10.5555/j.1234-5678.2006.0001.x.',
    ]);
  });

  it('are left alone when the next line holds no DOI piece', () => {
    for (const next of [
      '2014.',
      'Smith, J. 2001. Another entry.',
      '12. Jones, K. 2003.',
      'In: Proceedings, 4–7.',
    ]) {
      expect(joinDoiBreaks(['A title. doi:10.5555/abc.123', next])).toHaveLength(2);
    }
    expect(joinDoiBreaks(['Page 10.5', '5/6 of the book.'])).toHaveLength(2);
  });

  it('read through a numbered list', () => {
    const refs = parseReferenceList(
      [
        line('1. Roe, Ann. 2016. “A Title.” Methods 7 (6): 679–92. https://doi.org/10.5555/2041-2', 1),
        line('10X.12541.', 3),
        line('2. Poe, Ben. 1890. “Another Title.” Science XV: 92–96. https://doi.org/10.555', 1),
        line('5/science.ns-15.366.92.', 3),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual(['10.5555/2041-210X.12541', '10.5555/science.ns-15.366.92']);
  });

  it('take the link’s DOI when the text has a hyphen the typesetter set at the break', () => {
    const link = 'http://dx.doi.org/10.5555/archabc.1923.0001';
    const refs = parseReferenceList(
      [
        line('24. Roe A. Water. Archives of Things 1923; 32(2): 157. doi: 10.5555/arch-', 0, 1, [link]),
        line('abc.1923.0001', 2, 0, [link]),
        line('25. Poe B. Fire. Things 2002; 16: 4–5. doi: 10.5555/ab-cd.2002.1', 0, 1, [
          'http://dx.doi.org/10.5555/ab-cd.2002.1',
        ]),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual(['10.5555/archabc.1923.0001', '10.5555/ab-cd.2002.1']);
  });
});

describe('findDoi', () => {
  it('reads a SICI DOI through its angle brackets', () => {
    const sici = '10.1002/(SICI)1097-0258(19980530)17:10<1103::AID-SIM793>3.0.CO;2-9';
    expect(findDoi(`Statistics in Medicine 1998; 17(10): 1103–1120. doi: ${sici}`)).toBe(sici);
    expect(findDoi(`doi: ${sici}.`)).toBe(sici);
    // Outside the SICI shape, "<" still ends a DOI.
    expect(findDoi('<a href="x">10.5555/abc<br>')).toBe('10.5555/abc');
  });

  it('stops at a typographic quote, which comes from the text after it', () => {
    expect(findDoi('https://doi.org/10.5555/ab.12.Note/Publisher’s Note')).toBe(
      '10.5555/ab.12.Note/Publisher',
    );
  });
});

describe('hostile input', () => {
  const quick = (f: () => unknown) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };

  it('keeps the new DOI rules linear', () => {
    const long = '1'.repeat(200_000);
    expect(quick(() => joinDoiBreaks([`10.5555/${long}`, `${long}.1`]))).toBeLessThan(500);
    expect(
      quick(() => joinDoiBreaks([`a ${'10.5555/a-'.repeat(20_000)}`, `-${'a.1'.repeat(50_000)}`])),
    ).toBeLessThan(500);
    expect(quick(() => findDoi(`10.5555/(SICI)x<${'<'.repeat(100_000)}`))).toBeLessThan(500);
    expect(quick(() => findDoi(`10.5555/(SICI)x${'<a'.repeat(100_000)}`))).toBeLessThan(500);
  });
});
