// Layouts met in the fifth held-out set's measure half, fixed in the sixth round: ORCIDs printed in
// brackets after each name with minus signs for hyphens and institutes numbered by the authors'
// marks, each with its emails, one a grouped "{a,b}@host" (Springer LNCS); a "Graphical Abstract"
// and a "Highlights" page before the title page (elsarticle's preprint); an "Email addresses:"
// footnote that names each address's owner in brackets (elsarticle). Names and text are made up;
// only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findOrcids } from '../../src/parsing/text-utils.ts';
import { testConfig } from '../helpers/app.ts';
import { assemblePdf, bodyProse, makeTextPdf, textWidth, textLine } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

/** A name followed by its marks, raised and smaller, as LaTeX sets `\inst{2,3}`. */
function markedName(
  name: string,
  mark: string,
  x: number,
  y: number,
  after = '',
): { lines: Line[]; end: number } {
  const lines: Line[] = [{ text: name, size: 10, x, y }];
  let end = x + textWidth(name, 10);
  lines.push({ text: mark, size: 7, x: end, y: y + 4 });
  end += textWidth(mark, 7);
  if (after) {
    lines.push({ text: after, size: 10, x: end, y });
    end += textWidth(after, 10);
  }
  return { lines, end: end + 3 };
}

/** One byline of marked names, left to right. */
function byline(entries: [string, string, string][], y: number): Line[] {
  let x = 72;
  return entries.flatMap(([name, mark, after]) => {
    const { lines, end } = markedName(name, mark, x, y, after);
    x = end;
    return lines;
  });
}

describe('ORCIDs in brackets after each name, with minus signs (LNCS)', () => {
  it('reads an identifier whose hyphens are minus signs or dashes', () => {
    expect(
      findOrcids(
        'Ann Carter1[0000\u22120002\u22121825\u22120097], Bob Dunn2[0000\u20130001\u20135109\u20133700]',
      ),
    ).toEqual(['0000-0002-1825-0097', '0000-0001-5109-3700']);
  });

  it('still takes no number of another shape for one', () => {
    expect(findOrcids('Tel. 0000\u22120002\u22121825, room 0097')).toEqual([]);
  });

  // Helvetica with byte 0x80 drawn as the glyph "minus" (U+2212), as math fonts print it.
  const minusPdf = (lines: Line[]): Uint8Array => {
    const content = lines
      .map(
        (l) =>
          `BT /F1 ${l.size} Tf ${l.x} ${l.y} Td (${l.text.replace(/[\\()]/g, (c) => `\\${c}`).replaceAll('\u2212', '\x80')}) Tj ET`,
      )
      .join('\n');
    return assemblePdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [128 /minus] >> >>',
    ]);
  };

  // `\inst{1}\orcidID{...}`: the mark and the bracketed identifier are raised together.
  it('gives each author the identifier printed after the name', async () => {
    const lines: Line[] = [
      { text: 'Sorting Things Out of Order', size: 17, x: 72, y: 760 },
      ...byline(
        [
          ['Ann Carter', '1[0000\u22120002\u22121825\u22120097]', ', and'],
          ['Bob Dunn', '2[0000\u22120001\u22125109\u22123700]', ''],
        ],
        730,
      ),
      { text: '1 University of Somewhere, Country', size: 9, x: 72, y: 710 },
      { text: '2 Another University, Country', size: 9, x: 72, y: 698 },
      { text: 'Abstract. We sort things out of order and count the steps it takes.', size: 9, x: 72, y: 670 },
      ...bodyProse(640, 20),
    ];
    const result = await parseManuscript(minusPdf(lines), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Ann Carter', '0000-0002-1825-0097'],
      ['Bob Dunn', '0000-0001-5109-3700'],
    ]);
  });
});

describe('institutes numbered by the authors’ marks, each with its emails (LNCS)', () => {
  const page = () =>
    makeTextPdf([
      [
        { text: 'A Fair Way to Share the Load', size: 17, x: 72, y: 760 },
        ...byline(
          [
            ['Ann Carter', '1', ','],
            ['Bob Dunn', '2,3', ', and'],
            ['Cy Diaz', '3', ''],
          ],
          730,
        ),
        { text: '1 University of Somewhere, Country', size: 9, x: 72, y: 710 },
        { text: '2 Press House, Main Street 17, 69121 Town, Country', size: 9, x: 72, y: 698 },
        { text: 'office@press.example', size: 9, x: 72, y: 686 },
        { text: '3 Institute of Things, Town, Country', size: 9, x: 72, y: 674 },
        { text: '{desk,lab}@things.example', size: 9, x: 72, y: 662 },
        textLine('Abstract. We share a load fairly among workers and count the steps.', 636, 9),
        ...bodyProse(610, 20),
      ],
    ]);

  it('gives each address to the authors who carry its institute’s mark, a grouped one in order', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, [...a.emails].sort()])).toEqual([
      ['Ann Carter', []],
      ['Bob Dunn', ['desk@things.example', 'office@press.example']],
      ['Cy Diaz', ['lab@things.example']],
    ]);
  });
});

describe('a graphical abstract and highlights before the title page (elsarticle preprint)', () => {
  const title = 'Counting Birds by Their Songs at Dawn';
  const names = 'Ann Carter, Bob Dunn';
  const page = () =>
    makeTextPdf([
      [
        { text: 'Graphical Abstract', size: 14, x: 72, y: 770, bold: true },
        { text: title, size: 12, x: 72, y: 740 },
        { text: names, size: 10, x: 72, y: 722 },
      ],
      [
        { text: 'Highlights', size: 14, x: 72, y: 770, bold: true },
        { text: title, size: 12, x: 72, y: 740 },
        { text: names, size: 10, x: 72, y: 722 },
        { text: '• Research highlight 1', size: 10, x: 72, y: 700 },
      ],
      [
        { text: title, size: 17, x: 72, y: 760 },
        { text: names, size: 10, x: 72, y: 730 },
        { text: 'Abstract', size: 10, x: 72, y: 700, bold: true },
        ...bodyProse(684, 20),
      ],
    ]);

  it('reads the title, not the label over the insert page', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.title).toBe(title);
  });
});

describe('an "Email addresses:" footnote naming each owner in brackets (elsarticle)', () => {
  const page = () =>
    makeTextPdf([
      [
        { text: 'Mapping Streets Where Cyclists Fall', size: 17, x: 72, y: 760 },
        ...byline(
          [
            ['Ann Carter', 'a', ','],
            ['Bob Dunn', 'b,*', ','],
            ['Cy Diaz', '1', ''],
          ],
          730,
        ),
        { text: 'aUniversity of Somewhere, Country', size: 9, x: 72, y: 710 },
        { text: 'bAnother University, Country', size: 9, x: 72, y: 698 },
        { text: 'Abstract', size: 10, x: 72, y: 670, bold: true },
        ...bodyProse(654, 20),
        textLine('*Corresponding author. Email addresses: hello@inst.example (Ann Carter),', 100, 8),
        { text: 'zz@uni.example (Cy Diaz), q7@mail.example (Bob Dunn)', size: 8, x: 72, y: 78 },
      ],
    ]);

  // The note opens with the corresponding author's star, but its first line's one address is
  // another's; its lines stand apart (read one by one).
  it('gives each address to the author named after it, whatever the order or the marks', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['hello@inst.example']],
      ['Bob Dunn', ['q7@mail.example']],
      ['Cy Diaz', ['zz@uni.example']],
    ]);
  });
});
