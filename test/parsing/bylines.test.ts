// Bylines read by their place on built title pages: the line under the title, its superscript
// marks, author groups joined by "and", author blocks set side by side, and lines that name the
// document's kind rather than a person.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import {
  isDocumentWord,
  isMarkedNameLike,
  isNameLike,
  isNameSlot,
  typedSuperscripts,
} from '../../src/parsing/names.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeDocx, makeTextPdf, paragraph, textWidth } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const prose = bodyProse;
const width = textWidth;

/** A byline of names each followed by raised, smaller marks, on one line. */
function markedByline(names: [string, string][], y: number, size = 10): Line[] {
  const out: Line[] = [];
  let x = 72;
  names.forEach(([name, marks], i) => {
    const text = i === 0 ? name : `, ${name}`;
    out.push({ text, size, x, y });
    x += width(text, size);
    out.push({ text: marks, size: size * 0.7, x, y: y + size * 0.35 });
    x += width(marks, size * 0.7);
  });
  return out;
}

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);

describe('what a name looks like', () => {
  it('takes no line that names a document kind or a journal for a name', () => {
    for (const s of ['Extended Abstract', 'Research Article', 'Demo Journal', 'Original Paper'])
      expect(isNameLike(s)).toBe(false);
    expect(isNameLike('Jane Q. Roe')).toBe(true);
    expect(isNameLike('María de los Ángeles García')).toBe(true);
    expect(isNameLike('Why do Birds Sing')).toBe(false);
    expect(isDocumentWord('Preprint')).toBe(true);
    expect(isDocumentWord('Roe')).toBe(false);
  });

  it('keeps digits inside the words of a byline entry only when superscript marks follow it', () => {
    expect(isMarkedNameLike('Name1 Surname', true)).toBe(true);
    expect(isMarkedNameLike('Name1 Surname', false)).toBe(false);
    expect(isMarkedNameLike('Volume 12', true)).toBe(false);
    expect(isMarkedNameLike('with the Lorem Ipsum Consortium', true)).toBe(false);
  });

  it('reads a line as a name by its place only when it is short and has no sentence or address in it', () => {
    expect(isNameSlot('Author 1')).toBe(true);
    expect(isNameSlot('his friend')).toBe(false);
    expect(isNameSlot('his friend', true)).toBe(true);
    expect(isNameSlot('Department of Physics, Somewhere')).toBe(false);
    expect(isNameSlot('jane@example.org', true)).toBe(false);
    expect(isNameSlot('Supplementary Material')).toBe(false);
  });
});

describe('a byline with superscript affiliation marks under the title', () => {
  it('reads every marked entry as a name, also a template’s sample names with digits, and leaves out a group', async () => {
    const result = await parse([
      [
        { text: 'A Template Title Set in Large Type', size: 16, x: 72, y: 770, bold: true },
        ...markedByline(
          [
            ['Name1 Surname', '1,2'],
            ['Name2 Surname', '2'],
            ['Name3 Surname', '1,3*'],
            ['with the Example Consortium', '3'],
          ],
          740,
        ),
        { text: '1 Department of Physics, University of Somewhere, City, Country', size: 10, x: 72, y: 715 },
        { text: '2 Institute of Chemistry, Another University, City, Country', size: 10, x: 72, y: 702 },
        { text: '3 Research Center for Examples, City, Country', size: 10, x: 72, y: 689 },
        { text: '* corresponding@institute.edu', size: 10, x: 72, y: 670 },
        { text: 'Abstract', size: 14, x: 72, y: 640, bold: true },
        ...prose(620),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Name1 Surname', 'Name2 Surname', 'Name3 Surname']);
    expect(result.authors[2]!.emails).toEqual(['corresponding@institute.edu']);
    expect(result.authors[0]!.affiliations).toHaveLength(2);
  });
});

describe('a line naming the document’s kind between the title and the byline', () => {
  it('is neither a name nor the start of the byline, also when it carries a note mark', async () => {
    const result = await parse([
      [
        { text: 'A Study of Things That Parse Well', size: 18, x: 72, y: 770, bold: true },
        { text: 'Extended Abstract', size: 13, x: 200, y: 745, bold: true },
        { text: '*', size: 9, x: 200 + width('Extended Abstract', 13), y: 750 },
        { text: 'Jane Roe and John Q. Public', size: 11, x: 150, y: 720 },
        { text: 'Department of Physics, University of Somewhere', size: 10, x: 130, y: 705 },
        { text: 'Abstract', size: 12, x: 72, y: 670, bold: true },
        ...prose(650),
      ],
    ]);
    expect(result.title).toBe('A Study of Things That Parse Well');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
  });
});

describe('author groups joined by a line "and"', () => {
  const page = (first: string, second: string): Line[] => [
    { text: 'Title', size: 20, x: 280, y: 760, bold: true },
    { text: `${first}`, size: 12, x: 270, y: 725 },
    { text: 'Department of Statistics, University of Somewhere', size: 12, x: 170, y: 710 },
    { text: 'and', size: 12, x: 290, y: 695 },
    { text: second, size: 12, x: 270, y: 680 },
    { text: 'Department of Biology, University of Elsewhere', size: 12, x: 175, y: 665 },
    { text: 'July 25, 2022', size: 12, x: 260, y: 635 },
    { text: 'Abstract', size: 11, x: 280, y: 600, bold: true },
    ...prose(580),
  ];

  it('takes the first line of each group for a name, even a template’s “Author 1”', async () => {
    const result = await parse([page('Author 1', 'Author 2')]);
    expect(result.title).toBe('Title');
    expect(result.authors.map((a) => a.name)).toEqual(['Author 1', 'Author 2']);
    expect(result.authors[1]!.affiliations).toEqual(['Department of Biology, University of Elsewhere']);
  });

  it('reads real names the same way', async () => {
    const result = await parse([page('Jane Roe', 'John Q. Public')]);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
  });
});

describe('a one-word title', () => {
  it('is taken when it is set well above everything else before the abstract', async () => {
    const result = await parse([
      [
        { text: 'Parsewell', size: 22, x: 250, y: 770, bold: true },
        { text: 'Jane Roe and John Q. Public', size: 12, x: 200, y: 735 },
        { text: 'Department of Physics, University of Somewhere', size: 10, x: 170, y: 720 },
        { text: 'Abstract', size: 12, x: 72, y: 690, bold: true },
        ...prose(670),
      ],
    ]);
    expect(result.title).toBe('Parsewell');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
  });

  it('is not a banner naming the document kind', async () => {
    const result = await parse([
      [
        { text: 'Preprint', size: 24, x: 250, y: 790, bold: true },
        { text: 'A Study of Things That Parse Well', size: 14, x: 150, y: 760, bold: true },
        { text: 'Jane Roe and John Q. Public', size: 11, x: 200, y: 735 },
        { text: 'Abstract', size: 12, x: 72, y: 690, bold: true },
        ...prose(670),
      ],
    ]);
    expect(result.title).toBe('A Study of Things That Parse Well');
  });
});

describe('author blocks set side by side', () => {
  it('reads the top line of a block beside a named block in the same type as a name, and no journal line', async () => {
    const result = await parse([
      [
        { text: 'A Study of Things That Parse Well', size: 18, x: 110, y: 770, bold: true },
        { text: 'Jane Roe', size: 12, x: 120, y: 735, bold: true },
        { text: 'Somewhere University', size: 12, x: 110, y: 720, bold: true },
        { text: 'his friend', size: 12, x: 360, y: 735, bold: true },
        { text: 'Another Affiliation', size: 12, x: 350, y: 720, bold: true },
        { text: 'Demo Journal', size: 12, x: 110, y: 700, bold: true },
        { text: 'jroe@example.org', size: 12, x: 110, y: 685, bold: true },
        { text: 'Abstract', size: 11, x: 280, y: 650, bold: true },
        ...prose(630),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'his friend']);
  });
});

describe('marks typed as superscript characters (Typst, Word)', () => {
  it('reads "Student¹" as a name with mark 1, and keys the affiliation lines by their typed marks', async () => {
    const docx = makeDocx([
      paragraph('A Generic First Submission Journal Article', 'Title'),
      paragraph('Graduate Student¹, Senior Collaborator², and Senior author¹,²*'),
      paragraph('¹Department of Biochemistry, University of Somewhere, City, Country'),
      paragraph('²Cancer Center, University of Somewhere, City, Country'),
      paragraph('Abstract', 'Heading1'),
      paragraph('This study reads bylines by their place on the title page, not by their strings.'),
    ]);
    const result = await parseManuscript(docx, 'typed.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Graduate Student',
      'Senior Collaborator',
      'Senior author',
    ]);
    expect(result.authors[1]!.affiliations).toEqual([
      'Cancer Center, University of Somewhere, City, Country',
    ]);
    expect(result.authors[2]!.affiliations).toHaveLength(2);
    expect(result.authors[2]!.corresponding).toBe(true);
  });

  it('turns typed superscript digits into superscript runs of plain digits', () => {
    expect(typedSuperscripts([{ text: 'Ann Lee¹,², Bo Ma³', sup: false }])).toEqual([
      { text: 'Ann Lee', sup: false },
      { text: '1,2', sup: true },
      { text: ', Bo Ma', sup: false },
      { text: '3', sup: true },
    ]);
  });
});

describe('a title page set at body size in one face (APA, papaja)', () => {
  it('ends the title at the wide space above the byline, and reads no section label under it as a name', async () => {
    // As LaTeX writes it (hyperref), the file declares its title; the page sets it in the byline's type.
    const title = 'How to Read Title Pages: An Example Manuscript';
    const pdf = makeTextPdf(
      [
        [
          { text: 'Running head: SHORT TITLE', size: 12, x: 72, y: 770 },
          { text: 'How to Read Title Pages: An Example Manuscript', size: 12, x: 150, y: 600 },
          { text: 'Jane Roe', size: 12, x: 270, y: 560 },
          { text: '1', size: 8, x: 270 + width('Jane Roe', 12), y: 565 },
          { text: '1', size: 8, x: 220, y: 537 },
          { text: 'University of Somewhere', size: 12, x: 225, y: 532 },
          { text: 'Author Note', size: 12, x: 270, y: 380 },
          {
            text: 'Correspondence concerning this article should be addressed to Jane Roe,',
            size: 12,
            x: 100,
            y: 350,
          },
          { text: 'University of Somewhere. E-mail: jane.roe@example.edu', size: 12, x: 72, y: 326 },
        ],
        Array.from({ length: 25 }, (_, i) => ({
          text: `Line ${i + 1} of the body text, long enough to read as running prose here.`,
          size: 12,
          x: 72,
          y: 740 - i * 24,
        })),
      ],
      `/Info << /Title (${title}) >> `,
    );
    const result = await parseManuscript(pdf, 'apa.pdf', limits);
    expect(result.title).toBe(title);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe']);
    expect(result.authors[0]!.emails).toEqual(['jane.roe@example.edu']);
  });
});

describe('titles before a name', () => {
  it('drops "Prof. Dr." from the name of an author block', async () => {
    const result = await parse([
      [
        { text: 'A Study of Things That Parse Well', size: 18, x: 110, y: 770, bold: true },
        { text: 'Jane Roe', size: 12, x: 120, y: 735 },
        { text: 'Somewhere University', size: 12, x: 110, y: 720 },
        { text: 'jroe@example.org', size: 12, x: 110, y: 705 },
        { text: 'Prof. Dr. John Q. Public', size: 12, x: 345, y: 735 },
        { text: 'Elsewhere Institute', size: 12, x: 350, y: 720 },
        { text: 'jqp@example.org', size: 12, x: 350, y: 705 },
        { text: 'Abstract', size: 11, x: 280, y: 650, bold: true },
        ...prose(630),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
  });
});

describe('a byline without commas, over affiliations that open with their marks', () => {
  it('reads each marked name, takes no affiliation for a name, and joins a title word broken by a hyphen', async () => {
    const names: [string, string][] = [
      ['Jane Roe', '1,2'],
      ['John Q. Public', '3'],
    ];
    const byline: Line[] = [];
    let x = 72;
    for (const [name, marks] of names) {
      byline.push({ text: name, size: 10, x, y: 700 });
      x += width(name, 10);
      byline.push({ text: marks, size: 7, x, y: 703.5 });
      x += width(marks, 7) + 8;
    }
    const result = await parse([
      [
        { text: 'Entropy reveals the high complexity of eco-', size: 14, x: 72, y: 760, bold: true },
        { text: 'logical networks', size: 14, x: 72, y: 742, bold: true },
        ...byline,
        { text: '1', size: 7, x: 72, y: 683.5 },
        { text: 'Département de Sciences Biologiques, Université de Montréal', size: 10, x: 77, y: 680 },
        { text: '2', size: 7, x: 72, y: 669.5 },
        { text: 'Centre for Biodiversity Sciences', size: 10, x: 77, y: 666 },
        { text: '3', size: 7, x: 72, y: 655.5 },
        { text: 'School of Mathematics and Statistics, University of Canterbury', size: 10, x: 77, y: 652 },
        { text: 'Abstract', size: 12, x: 72, y: 620, bold: true },
        ...prose(600),
      ],
    ]);
    expect(result.title).toBe('Entropy reveals the high complexity of ecological networks');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public']);
    expect(result.authors[1]!.affiliations).toEqual([
      'School of Mathematics and Statistics, University of Canterbury',
    ]);
  });
});

describe('author paragraphs in a row (Manubot Word file)', () => {
  /** A name in bold, then its identifiers and affiliation in plain type, in one paragraph. */
  const author = (name: string, rest: string) =>
    `<w:p><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">${name}</w:t></w:r>` +
    `<w:r><w:t xml:space="preserve"> ${rest}</w:t></w:r></w:p>`;

  it('reads the authors without an ORCID between those with one', async () => {
    const docx = makeDocx([
      paragraph('Not Just for Programmers: Collaborative Research in Ecology', 'Title'),
      paragraph('Authors', 'Heading1'),
      author('Jane Roe', '0000-0002-1825-0097 · janeroe Department of Biology, Concordia University, Canada'),
      author('John Q. Public', '· jqpublic Département de biologie, Université de Sherbrooke, Canada'),
      author('Ann Lee', '· annlee Department of Biology, Carleton University, Canada'),
      author('Bo Ma', '0000-0001-5109-3700 · boma School of Biological Sciences, University of Somewhere'),
      paragraph('Abstract', 'Heading1'),
      paragraph('This study reads bylines by their place on the title page, not by their strings.'),
    ]);
    const result = await parseManuscript(docx, 'manubot.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'John Q. Public', 'Ann Lee', 'Bo Ma']);
    expect(result.authors.map((a) => a.orcid)).toEqual([
      '0000-0002-1825-0097',
      null,
      null,
      '0000-0001-5109-3700',
    ]);
  });
});

describe('an institution whose name ends in an accented letter ("Université", "Università", "Faculté")', () => {
  // `\b` sees no word's edge between an accented letter and a space: the word was not an
  // institution's, and a line of it alone under the byline was read as one more author.
  const docx = (affiliation: string) =>
    makeDocx([
      paragraph('Frost and the Flowering Dates of Valley Gardens', 'Title'),
      paragraph('Alma Quist, Claire Dubois'),
      paragraph(affiliation),
      paragraph('Abstract', 'Heading1'),
      paragraph(
        'We measured frost dates in valley gardens over ten winters and found that bloom follows the last frost by a fixed number of days.',
      ),
    ]);

  it.each(['Université Grenoble Alpes', 'Università Bocconi', 'Faculté des Sciences, Université Laval'])(
    'is no author: %s',
    async (affiliation) => {
      const parsed = await parseManuscript(docx(affiliation), 'built.docx', limits);
      expect(parsed.authors.map((a) => a.name)).toEqual(['Alma Quist', 'Claire Dubois']);
    },
  );
});
