// Title and byline conventions of common templates the parser had not met: names set apart by a
// rule ("|", Wiley), IEEE membership grades after names, two names in one column head, Word's
// "Author" paragraph style, a run-in abstract label (LNCS), a title in capitals broken by a
// hyphen, and emails tied by a correspondence note or a footnote mark. Names and text are made up;
// only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitByline } from '../../src/parsing/names.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, textWidth } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const prose = bodyProse;
const width = textWidth;

/** A byline of names, each followed by raised marks, joined by `between`, on one line. */
function markedByline(names: [string, string][], y: number, between: string, size = 11): Line[] {
  const out: Line[] = [];
  let x = 72;
  names.forEach(([name, marks], i) => {
    const text = i === 0 ? name : `${between}${name}`;
    out.push({ text, size, x, y });
    x += width(text, size);
    if (marks) {
      out.push({ text: marks, size: size * 0.7, x, y: y + size * 0.35 });
      x += width(marks, size * 0.7);
    }
  });
  return out;
}

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);
const plain = (text: string) => [{ text, sup: false }];

describe('names set apart by a rule or a dot', () => {
  it('splits on a vertical bar, with or without marks', () => {
    const names = splitByline([
      { text: 'Ann B. Carter*', sup: false },
      { text: '1', sup: true },
      { text: ' | Dmitri Evans', sup: false },
      { text: '2', sup: true },
      { text: ' | Flora Gunn', sup: false },
      { text: '2', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Ann B. Carter', ['1', '*']],
      ['Dmitri Evans', ['2']],
      ['Flora Gunn', ['2']],
    ]);
    expect(splitByline(plain('Ann Carter | Dmitri Evans|Flora Gunn')).map((n) => n.name)).toEqual([
      'Ann Carter',
      'Dmitri Evans',
      'Flora Gunn',
    ]);
  });

  it('splits on a spaced middle dot or bullet, not on the dot inside a Catalan name', () => {
    expect(splitByline(plain('Núria Pal·lès · Pau Ferrer • Joan Vidal')).map((n) => n.name)).toEqual([
      'Núria Pal·lès',
      'Pau Ferrer',
      'Joan Vidal',
    ]);
  });

  it('stays linear on a long hostile line of separators and spaces', () => {
    // No wall-clock bound: a split quadratic in this line's 230,000 characters would run far past
    // the test's timeout.
    const hostile = `${'Ab | · • '.repeat(20_000)}${' '.repeat(50_000)}x`;
    const names = splitByline(plain(hostile));
    expect(names.length).toBeGreaterThan(1000);
  });

  it('reads a Wiley-style byline under the title and ties the corresponding author’s email', async () => {
    const result = await parse([
      [
        { text: 'RESEARCH ARTICLE', size: 9, x: 72, y: 790, bold: true },
        { text: 'Estimating Things from Other Things in', size: 18, x: 72, y: 760, bold: true },
        { text: 'Several Small Experiments', size: 18, x: 72, y: 738, bold: true },
        ...markedByline(
          [
            ['Ann B. Carter', '*1'],
            ['Dmitri Evans', '2'],
            ['Flora Gunn', '2'],
            ['Hugo Ibsen', '1'],
          ],
          710,
          ' | ',
          12,
        ),
        { text: '1', size: 6, x: 72, y: 690 },
        { text: 'Department of Physics, University of Somewhere, Town, Country', size: 8, x: 76, y: 687 },
        { text: '2', size: 6, x: 72, y: 676 },
        { text: 'Department of Biology, University of Elsewhere, City, Country', size: 8, x: 76, y: 673 },
        { text: 'Correspondence', size: 8, x: 72, y: 650, bold: true },
        {
          text: '* Ann B. Carter, University of Somewhere. Email: acarter@example.org',
          size: 8,
          x: 72,
          y: 639,
        },
        { text: 'Summary', size: 10, x: 72, y: 610, bold: true },
        ...prose(595),
      ],
    ]);
    expect(result.title).toBe('Estimating Things from Other Things in Several Small Experiments');
    expect(result.authors.map((a) => a.name)).toEqual([
      'Ann B. Carter',
      'Dmitri Evans',
      'Flora Gunn',
      'Hugo Ibsen',
    ]);
    expect(result.authors[0]!.emails).toEqual(['acarter@example.org']);
    expect(result.authors[0]!.corresponding).toBe(true);
  });
});

describe('IEEE membership grades after names', () => {
  it('drops "Member, IEEE" and the like, whatever the grade or society', () => {
    const names = splitByline([
      { text: 'Jane Q. Roe', sup: false },
      { text: '†', sup: true },
      {
        text: ', Member, IEEE, John Doe, Senior Member, IEEE, Mary Major, Life Fellow, ACM, and Sam Minor',
        sup: false,
      },
      { text: '†', sup: true },
      { text: ', Student Member, IEEE', sup: false },
    ]);
    expect(names.map((n) => n.name)).toEqual(['Jane Q. Roe', 'John Doe', 'Mary Major', 'Sam Minor']);
    expect(names[3]!.marks).toEqual(['†']);
  });

  it('keeps a name that happens to follow a word like "Member" when no society follows', () => {
    expect(splitByline(plain('Member, Jane Roe')).map((n) => n.name)).toEqual(['Member', 'Jane Roe']);
  });

  it('reads an IEEE journal byline with memberships as its names', async () => {
    const result = await parse([
      [
        { text: 'Learning Things with Small Networks of Units', size: 22, x: 72, y: 760 },
        ...markedByline(
          [
            ['Jane Q. Roe', '†'],
            ['Member, IEEE, John Doe', '†'],
            ['Member, IEEE, Mary Major', '†'],
          ],
          725,
          ', ',
        ),
        { text: 'Abstract', size: 10, x: 72, y: 690, bold: true },
        ...prose(675),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Q. Roe', 'John Doe', 'Mary Major']);
  });
});

describe('two names in one column head (IEEEtran conference)', () => {
  const columns = (head: Line[]): Line[][] => [
    [
      { text: 'A Middleware for Many Kinds of Devices', size: 24, x: 110, y: 770 },
      ...head,
      { text: 'Somewhere University', size: 10, x: 100, y: 705 },
      { text: 'Town, Country', size: 10, x: 100, y: 693 },
      { text: 'Quinn Walsh', size: 11, x: 380, y: 730 },
      { text: 'Elsewhere Institute of Technology', size: 10, x: 360, y: 715 },
      { text: 'qwalsh@example.org', size: 10, x: 370, y: 703 },
      {
        text: 'Abstract—This paper reads bylines by their place on the page.',
        size: 9,
        x: 72,
        y: 650,
        bold: true,
      },
      ...prose(630),
    ],
  ];

  it('splits "X and Y" into two authors sharing the lines under them', async () => {
    const result = await parse(
      columns([
        { text: 'Ann Carter and Bob Dunn', size: 11, x: 100, y: 730 },
        { text: 'Somewhere Department', size: 10, x: 100, y: 717 },
      ]),
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Quinn Walsh']);
    expect(result.authors[2]!.emails).toEqual(['qwalsh@example.org']);
  });

  it('reads a head that goes on with "and Name" on the next line as two authors', async () => {
    const result = await parse(
      columns([
        { text: 'Ann Carter', size: 11, x: 100, y: 730 },
        { text: 'and Bob Dunn', size: 11, x: 100, y: 717 },
      ]),
    );
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Quinn Walsh']);
  });
});

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const styles = (names: Record<string, string>) => ({
  name: 'word/styles.xml',
  data: Buffer.from(
    `<?xml version="1.0"?><w:styles ${W}>${Object.entries(names)
      .map(
        ([id, name]) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`,
      )
      .join('')}</w:styles>`,
  ),
});
/** A paragraph in a style, its lines separated by line breaks. */
const para = (style: string, ...lines: string[]) =>
  `<w:p><w:pPr><w:pStyle w:val="${style}"/></w:pPr>${lines
    .map((l, i) => `${i ? '<w:r><w:br/></w:r>' : ''}<w:r><w:t xml:space="preserve">${l}</w:t></w:r>`)
    .join('')}</w:p>`;

describe('Word paragraphs in an "Author" style', () => {
  it('reads the IEEE Word template: a "paper title", then name, department and email in one paragraph', async () => {
    const docx = makeDocx(
      [
        para('papertitle', 'Crowds at Play: Comparing Two Games Played by Many'),
        para(
          'Author',
          'Ann Carter',
          'Department of Physics',
          'University of Somewhere',
          'Town, Country',
          'ann.carter@example.org',
        ),
        para(
          'Abstract',
          'Abstract— This paper compares two games that many players control at once through chat.',
        ),
        para('Heading1', 'Introduction'),
        para('BodyText', 'Players send commands through chat, and the game runs whatever most of them type.'),
      ],
      [
        styles({
          papertitle: 'paper title',
          Author: 'Author',
          Abstract: 'Abstract',
          Heading1: 'heading 1',
          BodyText: 'Body Text',
        }),
      ],
    );
    const result = await parseManuscript(docx, 'built.docx', limits);
    expect(result.title).toBe('Crowds at Play: Comparing Two Games Played by Many');
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.carter@example.org']],
    ]);
    expect(result.authors[0]!.affiliations.join(' ')).toContain('University of Somewhere');
  });

  it('reads a lone name in pandoc’s "Author" style, and a style named in another case', async () => {
    for (const name of ['Author', 'author', 'Author Name']) {
      const docx = makeDocx(
        [
          para('Title', 'Variation in Something Measured in Three Species'),
          para('A1', 'Ann Carter'),
          para('Heading1', 'Introduction'),
          para('Body', 'Animals of three species were measured, and the measures compared between them.'),
        ],
        [styles({ Title: 'Title', A1: name, Heading1: 'heading 1', Body: 'First Paragraph' })],
      );
      const result = await parseManuscript(docx, 'built.docx', limits);
      expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter']);
    }
  });
});

describe('the title over a run-in abstract label (LNCS)', () => {
  it('is the largest type before "Abstract. ...", not a larger-looking table row further down', async () => {
    const result = await parse([
      [
        { text: 'Short Contribution Title', size: 14, x: 200, y: 760, bold: true },
        ...markedByline(
          [
            ['Ann Carter', '1'],
            ['Bob Dunn', '2'],
          ],
          730,
          ', and ',
          10,
        ),
        { text: '1', size: 6, x: 160, y: 712 },
        { text: 'Somewhere University, Town, Country', size: 9, x: 165, y: 709 },
        { text: '2', size: 6, x: 160, y: 698 },
        { text: 'Elsewhere Institute, City, Country', size: 9, x: 165, y: 695 },
        {
          text: 'Abstract. The abstract says in a few words what the paper is about.',
          size: 9,
          x: 100,
          y: 660,
          bold: true,
        },
        { text: 'Keywords: First keyword · Second keyword.', size: 9, x: 100, y: 640, bold: true },
        { text: '1 First Section', size: 12, x: 72, y: 610, bold: true },
        ...prose(590, 6),
        { text: 'Table 1. Sizes of the headings.', size: 9, x: 72, y: 500, bold: true },
        { text: 'Title (centred) and other longer rows of the table', size: 14, x: 72, y: 480, bold: true },
        ...prose(460, 6),
      ],
    ]);
    expect(result.title).toBe('Short Contribution Title');
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn']);
  });
});

describe('a title in capitals broken by a hyphen at a line’s end', () => {
  it('joins the broken word, and leaves a one-letter compound alone', async () => {
    const result = await parse([
      [
        { text: 'A GENERAL VIEW OF GRAPH CONVOLU-', size: 17, x: 100, y: 760 },
        { text: 'TION THROUGH X-', size: 17, x: 100, y: 740 },
        { text: 'RAY EYES', size: 17, x: 100, y: 720 },
        { text: 'Anonymous authors', size: 10, x: 100, y: 695, bold: true },
        { text: 'ABSTRACT', size: 12, x: 250, y: 660 },
        ...prose(640),
      ],
    ]);
    expect(result.title).toBe('A GENERAL VIEW OF GRAPH CONVOLUTION THROUGH X- RAY EYES');
  });
});

describe('emails tied by a correspondence note or a footnote mark', () => {
  it('ties the email to the author the note names by initials and surname (Copernicus)', async () => {
    const result = await parse([
      [
        { text: 'Estimating the Direction of Small Round Things', size: 17, x: 72, y: 760, bold: true },
        ...markedByline(
          [
            ['A. B. Carter Jr.', '1'],
            ['C. D. Evans', '1'],
            ['and E. F. Gunn', '1, 2'],
          ],
          735,
          ', ',
          10,
        ),
        { text: '1', size: 6, x: 72, y: 718 },
        { text: 'Observatório Nacional, City, Country', size: 10, x: 76, y: 715 },
        { text: '2', size: 6, x: 72, y: 704 },
        { text: 'State University of Somewhere, City, Country', size: 10, x: 76, y: 701 },
        { text: 'Correspondence to: A. B. Carter Jr. (abcarter@example.org)', size: 10, x: 72, y: 685 },
        {
          text: 'Abstract. We have developed a fast way to estimate the direction of things.',
          size: 10,
          x: 72,
          y: 660,
        },
        ...prose(640),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['A. B. Carter Jr.', 'C. D. Evans', 'E. F. Gunn']);
    expect(result.authors[0]!.emails).toEqual(['abcarter@example.org']);
    expect(result.authors[0]!.corresponding).toBe(true);
  });

  it('ties a footnote set at the end of the article to the one author with its symbol (REVTeX)', async () => {
    const result = await parse([
      [
        { text: 'A Short Letter About Things', size: 14, x: 200, y: 760, bold: true },
        ...markedByline(
          [
            ['Ann Carter', '*'],
            ['Bob Dunn', '1'],
          ],
          735,
          ' and ',
          11,
        ),
        { text: 'Somewhere University, Town', size: 11, x: 200, y: 720, bold: true },
        { text: '(Dated: January 1, 2024)', size: 9, x: 220, y: 700 },
        { text: 'Abstract', size: 12, x: 280, y: 670, bold: true },
        ...prose(650),
      ],
      [...prose(760, 20)],
      [
        ...prose(760, 20),
        { text: '*', size: 6, x: 72, y: 90 },
        { text: 'ann.carter@example.org', size: 9, x: 77, y: 87 },
      ],
    ]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.carter@example.org']],
      ['Bob Dunn', []],
    ]);
  });
});
