// Bylines split into names: what a name looks like and where one ends.
import { describe, expect, it } from 'vitest';
import { splitByline, splitMarks } from '../../src/parsing/names.ts';

const line = (...texts: string[]) =>
  texts.flatMap((text, i) =>
    i === 0
      ? [{ text, sup: false }]
      : [
          { text: '\n', sup: false },
          { text, sup: false },
        ],
  );

describe('a name wrapped at the end of a byline line', () => {
  it('runs on into the next line when one word stands on either side of the break (JOSS)', () => {
    const names = splitByline(
      line('Kimberly R. Ward1, Lauren C Peres3, Brooke L', 'Fridley4, 5, Steven Eschrich6'),
    );
    // ("5", the second mark after a comma, is left for the byline reader to drop as no name.)
    expect(names.map((n) => n.name).filter((n) => /\p{L}/u.test(n))).toEqual([
      'Kimberly R. Ward',
      'Lauren C Peres',
      'Brooke L Fridley',
      'Steven Eschrich',
    ]);
    expect(names[2]!.marks).toEqual(['4']);
  });

  it('does not join an affiliation’s last word to the next line’s name (names in capitals)', () => {
    const names = splitByline(
      line('CHARLES PALMER, Palmer Research Laboratories, USA', 'JOHN SMITH, The Thørväld Group, Iceland'),
    );
    expect(names.map((n) => n.name)).toContain('JOHN SMITH');
    expect(names.map((n) => n.name)).not.toContain('USA JOHN SMITH');
  });

  it('does not join names set one to a line', () => {
    expect(splitByline(line('Jane Roe', 'John Q. Public')).map((n) => n.name)).toEqual([
      'Jane Roe',
      'John Q. Public',
    ]);
  });
});

describe('affiliation marks', () => {
  it('keeps the number of a mark followed by a note symbol the font maps to no known character', () => {
    expect(splitMarks('1,2Y')).toEqual(['1', '2']);
    expect(splitMarks('2,3¤a')).toEqual(['2', '3']);
    expect(splitMarks('1,2,3*')).toEqual(['1', '2', '3', '*']);
  });
});

describe('names set apart by their marks alone', () => {
  it('ends a name at its superscript marks when no comma follows', () => {
    const names = splitByline([
      { text: 'Tanya Strydom', sup: false },
      { text: '1,2', sup: true },
      { text: ' Giulio V. Dalla Riva', sup: false },
      { text: '3', sup: true },
      { text: ' Timothée Poisot', sup: false },
      { text: '1,2', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Tanya Strydom', ['1', '2']],
      ['Giulio V. Dalla Riva', ['3']],
      ['Timothée Poisot', ['1', '2']],
    ]);
  });
});
