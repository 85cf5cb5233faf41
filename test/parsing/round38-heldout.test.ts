// Layouts met in the thirty-sixth held-out set (files as journals receive them at submission: a
// cover letter before the manuscript, blinded and anonymized copies, Word drafts with tracked
// changes and comments, line-numbered review copies), fixed in the thirty-eighth round. Names,
// titles and identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  makeDocx,
  makeTextPdf,
  paragraph,
  spacedTwoLineEntries,
  wordBodyParagraphs,
  textLine,
} from './make-files.ts';

const limits = testConfig().parsing;

describe('an anonymized Word manuscript that opens on its introduction: no title printed', () => {
  const file = () =>
    makeDocx([
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(6),
      paragraph('Estimating the Model and Its Many Parts', 'Heading1'),
      ...wordBodyParagraphs(6),
      paragraph('References', 'Heading1'),
      paragraph('Moreau, Ada. 2011. Tides of the Northern Lakes. Lakeside Press.'),
    ]);

  it('takes no heading of its body for the title', async () => {
    const result = await parseManuscript(file(), 'anonymized.docx', limits);
    expect(result.title).toBeNull();
    expect(result.authors).toEqual([]);
  });
});

describe('a cover sheet before the manuscript, whose title page prints the title again', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Manuscript Title: Seasonal Feeding Among Harbor Seal', size: 17, x: 72, y: 740, bold: true },
        { text: 'Colonies of the Northern Coast', size: 17, x: 72, y: 718, bold: true },
        { text: 'Jane Rowan', size: 12, x: 72, y: 680, bold: true },
        { text: '12 Elm Street, 27701, Springfield, Ohio', size: 12, x: 72, y: 664, bold: true },
        { text: 'jrowan@springfield.edu', size: 12, x: 72, y: 648, bold: true },
      ],
      [
        { text: 'Seasonal Feeding Among Harbor Seal', size: 17, x: 120, y: 740, bold: true },
        { text: 'Colonies of the Northern Coast', size: 17, x: 150, y: 718, bold: true },
        { text: 'Jane Rowan', size: 12, x: 250, y: 680 },
        { text: 'Springfield University', size: 12, x: 230, y: 664 },
        { text: 'Abstract', size: 10, x: 270, y: 620, bold: true },
        ...bodyProse(600, 8),
      ],
      [{ text: 'Introduction', size: 14, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
    ]);

  it('reads the byline under the title printed again, and the title again as no name', async () => {
    const result = await parseManuscript(file(), 'cover-then-manuscript.pdf', limits);
    expect(result.title).toBe('Seasonal Feeding Among Harbor Seal Colonies of the Northern Coast');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Rowan']);
    expect(result.authors[0]!.emails).toEqual(['jrowan@springfield.edu']);
  });
});

describe('an author-date list set apart by space, whose entries open on given names written out', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Tides in Small Harbors', size: 17, x: 72, y: 760, bold: true },
        { text: 'Introduction', size: 12, x: 72, y: 720, bold: true },
        ...bodyProse(700, 30),
        { text: 'References', size: 12, x: 72, y: 290, bold: true },
        ...spacedTwoLineEntries(
          [
            [
              'Abbott, Helen, and Mark Brandt. 2011. “Tides and the Moon in Small Harbors.” Journal of',
              'Coastal Studies 12 (3): 45–67.',
            ],
            [
              'Carver, Louise. 2004. Harbors of the North Sea: A History. Second edition. London: Lakeside',
              'Press.',
            ],
            [
              'Dalton, Ruth, and Omar Fenwick. 2016. “Measuring Tides with Cheap Gauges.” Ocean',
              'Engineering 9 (1): 1–19.',
            ],
          ],
          260,
        ),
        textLine('Edgar, Simon. 2009. The Long Coast: Essays on Harbors. Bristol: Westbury Books.', 170),
      ],
      spacedTwoLineEntries(
        [
          [
            'Fairley, Peter, Jo Grant, and Nils Hale. 2018. “Surges in Enclosed Harbors.” Marine',
            'Science 4: 1–9.',
          ],
          ['Grant, Jo. 2020. “Harbor Walls and Their Waves.” Coastal Engineering Letters 2 (2):', '33–41.'],
          ['Hale, Nils. 2013. Small Harbors, Large Tides. Oslo: Fjord Press and the Harbor', 'Society.'],
        ],
        780,
      ),
    ]);

  it('opens an entry on the next page at its first line', async () => {
    const result = await parseManuscript(file(), 'author-date.pdf', limits);
    expect(result.references.map((r) => r.raw.slice(0, 12))).toEqual([
      'Abbott, Hele',
      'Carver, Loui',
      'Dalton, Ruth',
      'Edgar, Simon',
      'Fairley, Pet',
      'Grant, Jo. 2',
      'Hale, Nils. ',
    ]);
  });
});

describe('a Word draft in one style: its title, an unlabelled abstract and a keywords line of bars', () => {
  const abstract =
    'Harbor seals feed on the fish of the coast in every season of the year. We followed forty ' +
    'seals from three colonies over four winters and recorded what they ate and where they dived. ' +
    'The seals of the northern colonies dived deeper and ate more of the larger fish in the cold ' +
    'months, while those of the southern colonies kept to the shallow bays. These results show ' +
    'that the feeding of a colony follows the water it lives in more than the season of the year.';
  const file = () =>
    makeDocx([
      paragraph('Seasonal feeding among harbor seal colonies of the northern coast'),
      paragraph(abstract),
      paragraph('harbor seals | feeding | diving behavior | northern coast'),
      paragraph('The authors thank the harbor masters of the coast for their help in the field work.'),
      ...wordBodyParagraphs(8),
    ]);

  it('takes the first paragraph as the title and the prose over the keywords as the abstract', async () => {
    const result = await parseManuscript(file(), 'draft.docx', limits);
    expect(result.title).toBe('Seasonal feeding among harbor seal colonies of the northern coast');
    expect(result.abstract).toBe(abstract);
    expect(result.keywords).toEqual(['harbor seals', 'feeding', 'diving behavior', 'northern coast']);
    expect(result.authors).toEqual([]);
  });
});
