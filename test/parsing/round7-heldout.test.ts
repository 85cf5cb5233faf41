// Layouts met in the sixth held-out set, fixed in the seventh round: a DOI broken after "doi: 10."
// at a line end (ACL), a Springer chapter DOI whose underscore the PDF's text shows as a space
// (LaTeX's OT1 fonts draw "\_" as a rule), a DOI read inside a URL path with the URL's ".pdf"
// (Taylor & Francis), a DOI at a line end followed by a sentence ("Appendix A.", SIAM), an
// appendix heading at the body's size after an author-year list (Taylor & Francis), a short
// line of an entry's URL set in a typewriter face, which reads as a bold heading (ACL), a lone
// author's name over a line of only their email, under a title of three lines (ACL), names set
// side by side on one line with a quad between them and no comma (EPTCS). Names,
// titles and DOIs are made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findDoi, joinDoiBreaks } from '../../src/parsing/references.ts';
import { endsReferenceList } from '../../src/parsing/sections.ts';
import { joinLines } from '../../src/parsing/text-utils.ts';
import type { Block } from '../../src/parsing/types.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textWidth } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph at the body's size in the body's font, as a list's entries and an appendix heading are set. */
function plainBlock(text: string): Block {
  return {
    text,
    relSize: 1,
    emphasis: false,
    styleLevel: null,
    page: 9,
    runs: [],
    links: [],
    lines: [{ text, indent: 0, gapAbove: 1 }],
  };
}

describe('a DOI broken at a line end', () => {
  it('is joined after a "doi:" label and "10."', () => {
    const lines = joinDoiBreaks([
      'Ann Roe. A title. In Proceedings, pages 1–9. Association for Things. doi: 10.',
      '55555/v1/2024.long-main.12. URL https://example.org/2024.long-main.12/.',
    ]);
    expect(findDoi(joinLines(lines))).toBe('10.55555/v1/2024.long-main.12');
  });

  it('is not joined when "10." is a number after other words', () => {
    expect(joinDoiBreaks(['Chapter 10.', '5/6 of the book.'])).toHaveLength(2);
  });

  it('ends at its full stop when a sentence follows on the next line', () => {
    const text = joinLines([
      'pp. 1–9, https://doi.org/10.5555/AB12345.',
      'Appendix A. Derivations of things.',
    ]);
    expect(findDoi(text)).toBe('10.5555/AB12345');
  });
});

describe('findDoi', () => {
  it('puts back the underscore before a book chapter number that the text shows as a space', () => {
    expect(findDoi('Springer, pp. 90–108, doi:10.5555/978-3-642-12345-1 6. Available at')).toBe(
      '10.5555/978-3-642-12345-1_6',
    );
    expect(findDoi('pp. 1–41, https://doi.org/10.5555/978-3-319-12345-6 23-1, https://arxiv.org')).toBe(
      '10.5555/978-3-319-12345-6_23-1',
    );
  });

  it('leaves a number after a DOI that is no ISBN alone', () => {
    expect(findDoi('doi:10.5555/abc-12345 6 pages.')).toBe('10.5555/abc-12345');
  });

  it('drops the file extension or view word a URL path adds after a DOI', () => {
    expect(findDoi('Available from: https://link.example.com/content/pdf/10.5555/3-540-12345-0_5.pdf.')).toBe(
      '10.5555/3-540-12345-0_5',
    );
    expect(findDoi('https://www.example.org/articles/10.5555/fpsyg.2020.01234/full')).toBe(
      '10.5555/fpsyg.2020.01234',
    );
  });

  it('keeps a DOI’s own dotted suffix', () => {
    expect(findDoi('doi:10.5555/9780203012345.ch18.')).toBe('10.5555/9780203012345.ch18');
    expect(findDoi('https://doi.org/10.5555/j.1365-2656.2006.01141.x')).toBe(
      '10.5555/j.1365-2656.2006.01141.x',
    );
  });
});

describe('the end of a reference list', () => {
  it('comes at an appendix heading set at the body’s size', () => {
    expect(endsReferenceList(plainBlock('Appendix A. Create the tables of weights and of values'))).toBe(
      true,
    );
    expect(endsReferenceList(plainBlock('APPENDIX B: DATA'))).toBe(true);
    expect(endsReferenceList(plainBlock('Appendix'))).toBe(true);
  });

  it('does not come at an entry that names an appendix', () => {
    expect(endsReferenceList(plainBlock('Appleby, A., 2001. Appendix to the Survey. Town: Publisher.'))).toBe(
      false,
    );
    expect(endsReferenceList(plainBlock('Appendix tables are given in the supplement of the report.'))).toBe(
      false,
    );
  });
});

describe('a short line of a URL in a reference list', () => {
  it('does not end the list, though its typewriter face reads as emphasis', () => {
    const urlLine = {
      ...plainBlock('URL https://www.example.org/html/SomeToolPage.html. Retrieved'),
      emphasis: true,
    };
    expect(endsReferenceList(urlLine)).toBe(false);
    expect(endsReferenceList({ ...plainBlock('Proofs of the Lemmas'), emphasis: true })).toBe(true);
  });
});

describe('a lone author over their email', () => {
  const page = (under: string) =>
    makeTextPdf([
      [
        { text: 'A Long Title About Reading Things That Were', size: 15, x: 90, y: 760 },
        { text: 'Written Down by Machines Which Follow', size: 15, x: 110, y: 742 },
        { text: 'Simple Rules', size: 15, x: 240, y: 724 },
        { text: 'Ann Carter', size: 11, x: 270, y: 700 },
        // ACL sets the address in a typewriter face: another face than the name's.
        { text: under, size: 11, x: 250, y: 686, bold: true },
        { text: 'Abstract', size: 11, x: 80, y: 650, bold: true },
        ...bodyProse(630, 20),
      ],
    ]);

  it('is read as the byline', async () => {
    const result = await parseManuscript(page('ann.c.writes@example.com'), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.c.writes@example.com']],
    ]);
  });

  it('is not read from a lone line over other text', async () => {
    const result = await parseManuscript(page('Draft of 2 May 2024'), 'built.pdf', limits);
    expect(result.authors).toEqual([]);
  });
});

describe('names set side by side with wide gaps and no comma', () => {
  it('are read as one name each', async () => {
    const names = ['Ann Carter', 'Bob Dunn', 'Cy Diaz'];
    let x = 150;
    const byline = names.map((text) => {
      const line = { text, size: 12, x, y: 700 };
      x += textWidth(text, 12) + 18;
      return line;
    });
    const pdf = makeTextPdf([
      [
        { text: 'Mapping Machines to Circuits', size: 17, x: 150, y: 740 },
        ...byline,
        { text: 'Abstract', size: 11, x: 80, y: 660, bold: true },
        ...bodyProse(640, 20),
      ],
    ]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(names);
  });
});
