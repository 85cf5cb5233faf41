// Layouts met in the fifty-second held-out set (manuscripts as submission systems and repositories
// deliver them: an Editorial Manager review PDF, repository cover sheets of Pure, White Rose and
// eScholarship, a publisher's accepted-article first page, Research Square and Preprints.org
// covers, an arXiv side stamp), fixed in the fifty-fifth round. Names, titles and entries are made
// up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Tidal sorting of pebbles on a shingle spit';

/** The manuscript's own first page: its title in a large type over a byline with marks. */
function manuscriptPage(titleTop = 760): PdfTextLine[] {
  return [
    textLine(TITLE, titleTop, 17, { bold: true }),
    ...piecesOnOneLine(
      [{ text: 'Jane Roe' }, { text: '1', sup: true }, { text: ', Tom Fox' }, { text: '2', sup: true }],
      titleTop - 28,
      11,
    ),
    textLine('1 University of Northvale, Country; 2 Southvale Institute, Country', titleTop - 44, 9),
    textLine('Abstract', titleTop - 76, 14, { bold: true }),
    textLine(
      'Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.',
      titleTop - 96,
    ),
    textLine(
      'A simple model of the swash explains the bands and predicts where each size comes to rest.',
      titleTop - 109,
    ),
    textLine('1 Introduction', titleTop - 140, 14, { bold: true }),
    ...bodyProse(titleTop - 160, 30),
  ];
}

describe('a repository cover sheet before an accepted manuscript', () => {
  // Pure, White Rose and eScholarship set a page before the author's manuscript: the repository's
  // name in a large type, the title (alone, or inside a citation), the version, the rights. The
  // manuscript's own first page prints the title again over its byline.
  const cover = (titleInCitation: boolean) => [
    textLine('Northvale Research Portal', 780, 22, { bold: true }),
    ...(titleInCitation
      ? [textLine(`Roe, J. and Fox, T. (2021) ${TITLE}. Journal of Coasts, 12 (3). pp. 1-20.`, 700, 11)]
      : [textLine(TITLE, 720, 15, { bold: true }), textLine('Citation for published version:', 690, 11)]),
    textLine('Document Version: Peer reviewed version', 660, 11),
    textLine('General rights', 630, 11, { bold: true }),
    textLine(
      'Copyright for the publications made accessible via the portal is retained by the authors.',
      612,
      11,
    ),
    textLine('Take down policy: contact openaccess@northvale.example with the details.', 594, 11),
  ];

  it('reads the title and the byline from the manuscript, not the cover', async () => {
    for (const inCitation of [false, true]) {
      const result = await parseManuscript(
        makeTextPdf([cover(inCitation), manuscriptPage(), bodyProse(760, 50)]),
        'repository-cover.pdf',
        limits,
      );
      expect(result.title).toBe(TITLE);
      expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Tom Fox']);
      expect(result.abstract).toMatch(/^Pebbles on a spit are sorted/);
    }
  });

  it('keeps a first page that is the manuscript itself, its title printed again later', async () => {
    // A paper whose second page opens with its title as a running head in the body's type: no
    // cover; the first page's title and byline stand.
    const result = await parseManuscript(
      makeTextPdf([manuscriptPage(), [textLine(TITLE, 800, 9), ...bodyProse(760, 50)]]),
      'no-cover.pdf',
      limits,
    );
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Tom Fox']);
  });
});

describe("a cover sheet's emails and ORCIDs", () => {
  // An accepted-article page lists ORCIDs after surname-first names; Editorial Manager's field
  // table gives the corresponding author's email in a field of its own; a preprint server sets
  // each name over its institution and ORCID. The manuscript under them prints none of these.
  const cover = [
    textLine('Roe Jane (Orcid ID: 0000-0002-1825-0097) Fox Tom (Orcid ID: 0000-0001-5109-3700)', 780, 11),
    textLine(TITLE, 740, 11),
    textLine('Corresponding Author E-Mail: jane.roe@northvale.example', 700, 11),
    textLine('Take down policy: contact openaccess@northvale.example with the details.', 680, 11),
  ];

  it('gives them to the authors the cover names', async () => {
    const result = await parseManuscript(
      makeTextPdf([cover, manuscriptPage(), bodyProse(760, 50)]),
      'accepted-article.pdf',
      limits,
    );
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => [a.name, a.orcid, a.emails])).toEqual([
      ['Jane Roe', '0000-0002-1825-0097', ['jane.roe@northvale.example']],
      ['Tom Fox', '0000-0001-5109-3700', []],
    ]);
  });

  it('reads an ORCID under the line that names its author', async () => {
    const preprintCover = [
      textLine('Northvale Preprints', 790, 12),
      textLine(TITLE, 720, 20, { bold: true }),
      textLine('Jane Roe', 680, 11, { bold: true }),
      textLine('University of Northvale https://orcid.org/0000-0002-1825-0097', 666, 10),
      textLine('Tom Fox', 646, 11, { bold: true }),
      textLine('Southvale Institute https://orcid.org/0000-0001-5109-3700', 632, 10),
      textLine('Posted Date: June 5th, 2023', 600, 11),
    ];
    const result = await parseManuscript(
      makeTextPdf([preprintCover, manuscriptPage(), bodyProse(760, 50)]),
      'preprint-cover.pdf',
      limits,
    );
    expect(result.authors.map((a) => a.orcid)).toEqual(['0000-0002-1825-0097', '0000-0001-5109-3700']);
  });
});

describe("a preprint server's licence line at the foot of the manuscript's first page", () => {
  // Preprints.org stamps "© 2023 by the author(s). Distributed under ..." in a small type at the
  // foot of the first page; the abstract's last sentence breaks there and goes on, on the next
  // page, with a quantity ("... a separation of" / "5 µm. For ...").
  const file = () =>
    makeTextPdf([
      [
        textLine(TITLE, 760, 17, { bold: true }),
        ...piecesOnOneLine(
          [{ text: 'Jane Roe' }, { text: '1', sup: true }, { text: ', Tom Fox' }, { text: '2', sup: true }],
          732,
          11,
        ),
        textLine('1 University of Northvale, Country; 2 Southvale Institute, Country', 716, 9),
        textLine('Abstract', 300, 14, { bold: true }),
        textLine(
          'Pebbles on a spit are sorted by the tide into bands of one size, which we measure here',
          280,
        ),
        textLine(
          'with a camera on a mast. A simple model of the swash explains the bands, and it holds',
          267,
        ),
        textLine('for pebbles larger than the sand between them, down to a diameter of about', 254),
        textLine('© 2023 by the author(s). Distributed under a Creative Commons CC BY license.', 40, 7),
      ],
      [
        textLine(
          '5 mm. Smaller pebbles are carried off by the backwash and settle in the lee of the spit.',
          760,
        ),
        textLine('1 Introduction', 730, 14, { bold: true }),
        ...bodyProse(710, 40),
      ],
    ]);

  it('reads the abstract on over the licence line into the next page', async () => {
    const result = await parseManuscript(file(), 'preprint-licence.pdf', limits);
    expect(result.abstract).toMatch(
      /down to a diameter of about 5 mm\. Smaller pebbles .* lee of the spit\.$/,
    );
    expect(result.abstract).not.toContain('Creative Commons');
  });
});

describe('a DOI that LaTeX hyphenated at a line break inside a word', () => {
  // The doi package sets a DOI as a link whose text LaTeX may hyphenate like a word
  // ("10.5281/zen-" / "odo.13819579"); the text cannot tell that hyphen from one of the DOI's own.
  // A list that prints its DOIs in full is otherwise read without its links.
  const entries: [string, string][] = [
    [
      'Roe, J. (2019). Sorting of shingle by waves. Journal of Coasts, 3, 1-10.',
      'doi:10.1000/coasts.2019.001',
    ],
    ['Fox, T. (2020). Swash zones. Journal of Coasts, 4, 11-20.', 'doi:10.1000/coasts.2020.002'],
    ['Roe, J. and Fox, T. (2021). Pebble software, v1.0. Zenodo. doi:10.5281/zen-', 'odo.4417213'],
    ['Lee, A. (2018). Beaches and bars. Marine Letters, 9, 5-9.', 'doi:10.1000/marine.2018.003'],
    ['Kim, B. (2017). Tides on spits. Marine Letters, 8, 1-4.', 'doi:10.1000/marine.2017.004'],
  ];
  const file = () => {
    const lines: PdfTextLine[] = [textLine('References', 780, 14, { bold: true })];
    let y = 756;
    for (const [a, b] of entries) {
      lines.push(textLine(a, y), textLine(b, y - 12));
      y -= 30;
    }
    return makeTextPdf([manuscriptPage(), bodyProse(760, 50), lines], '', [
      [],
      [],
      [{ rect: [300, 690, 520, 712], url: 'https://doi.org/10.5281/zenodo.4417213' }],
    ]);
  };

  it('takes the DOI whole from its link', async () => {
    const result = await parseManuscript(file(), 'hyphenated-doi.pdf', limits);
    expect(result.references).toHaveLength(5);
    expect(result.references.map((r) => r.doi)).toContain('10.5281/zenodo.4417213');
    expect(result.references.map((r) => r.doi)).not.toContain('10.5281/zen-odo.4417213');
  });
});
