// Layouts met in the eighteenth held-out set, fixed in the twentieth round: the heading of an empty
// section stacked over the reference list's heading, both bold, read as one block (a journal
// template's "Data availability" left empty over "References"), over an author-year list whose
// entries open with initials; a publisher's permissions address in the first page's copyright
// notice; a list whose figure, captioned under its body, stands at the top of the page the list goes
// on to, and after which the author's address (name, address, email, ORCID) is printed.
// Names, titles and DOIs are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine } from './make-files.ts';

const limits = testConfig().parsing;

const line = (text: string, x: number, y: number, size = 10, bold = false) => ({ text, size, x, y, bold });

/** Author-year entries with initials before the surname, each broken under a hanging indent. */
const ENTRIES: [string, string][] = [
  [
    'A. B. Quist and C. Tell. Frost dates in valley gardens. Journal of',
    'Cold Gardens, 12:1-10, 2004. doi: 10.9999/jcg.2004.001.',
  ],
  [
    'C. Moss, D. Lind, and E. Roe. Flowering under late frost in the',
    'northern valleys. Valley Botany, 4:22-31, 2016.',
  ],
  ['E. Roe. Notebooks of a valley archive. Archive Studies, 9:100-112,', '2017. doi: 10.9999/as.2017.100.'],
  [
    'B. Tell and A. Quist. Altitude and the first frost. Journal of Cold',
    'Gardens, 15:40-52, 2018. doi: 10.9999/jcg.2018.040.',
  ],
];
const joined = ENTRIES.map(([a, b]) => `${a} ${b}`);

function entryLines(entries: [string, string][], top: number): ReturnType<typeof line>[] {
  return entries.flatMap(([a, b], k) => [line(a, 72, top - k * 26), line(b, 84, top - k * 26 - 12)]);
}

describe('an empty section heading stacked over the list heading', () => {
  const titlePage = [
    line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
    ...piecesOnOneLine(
      [
        { text: 'Alma Quist' },
        { text: '1', sup: true },
        { text: ', Bruno Tell' },
        { text: '1,*', sup: true },
        { text: ' and Clara Moss' },
        { text: '1', sup: true },
      ],
      750,
      11,
    ),
    ...piecesOnOneLine(
      [
        { text: '1', sup: true },
        { text: 'Department of Botany, University of Northvale, Northvale, Norway' },
      ],
      730,
      9,
    ),
    line('*Corresponding author. bruno.tell@northvale.edu', 72, 718, 9),
    line('Abstract', 72, 690, 12, true),
    ...bodyProse(672, 8),
    line('Introduction', 72, 550, 12, true),
    ...bodyProse(532, 20),
    line(
      '© The Author 2024. Published by a University Press. All rights reserved. For permissions, please e-mail:',
      72,
      90,
      8,
    ),
    line('journals.permissions@press.example.com', 72, 80, 8),
  ];
  const lastPage = [
    ...bodyProse(780, 10),
    line('Data availability', 72, 630, 12, true),
    line('References', 72, 614, 12, true),
    ...entryLines(ENTRIES, 596),
  ];

  it('opens the list under the heading and reads each initials-first entry', async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, lastPage]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(joined);
  });

  it("gives no author the publisher's permissions address", async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, lastPage]), 'frost.pdf', limits);
    const emails = result.authors.flatMap((a) => a.emails);
    expect(emails).toContain('bruno.tell@northvale.edu');
    expect(emails).not.toContain('journals.permissions@press.example.com');
  });
});

describe('a figure captioned under its body among the entries, and the address after the list', () => {
  const titlePage = [
    line('Frost and the Flowering Dates of Valley Gardens', 72, 780, 16, true),
    line('Alma Quist', 72, 755),
    line('Department of Botany, University of Northvale', 72, 743, 10),
    line('Abstract', 72, 720, 12, true),
    ...bodyProse(712, 8),
    line('Introduction', 72, 600, 12, true),
    ...bodyProse(582, 30),
  ];
  const listPage = [
    ...bodyProse(780, 20),
    line('Bibliography', 72, 500, 12, true),
    ...entryLines(ENTRIES.slice(0, 2), 482),
  ];
  // A chart at the top of the next page: its title, axis labels and legend, set small, then its
  // caption under it, then the list goes on, then the author's address.
  const nextPage = [
    line('Frost dates by valley and altitude', 150, 790, 9),
    line('1e+02', 90, 760, 6),
    line('north valley', 300, 760, 6),
    line('1e+00', 90, 720, 6),
    line('south valley', 300, 720, 6),
    line('1e+02 1e+03 1e+04', 150, 690, 6),
    line('Altitude of the garden in metres', 160, 680, 7),
    line('Figure 2: First frost dates against the altitude of each garden, for the two valleys.', 72, 660),
    ...entryLines(ENTRIES.slice(2), 630),
    line('Alma Quist', 72, 560),
    line('Department of Botany', 72, 548),
    line('University of Northvale', 72, 536),
    line('alma.quist@northvale.edu', 72, 524),
    line('ORCID 0000-0002-1825-0097', 72, 512),
  ];

  it('leaves the figure out of the entries, goes on after its caption and ends at the address', async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, listPage, nextPage]), 'frost.pdf', limits);
    expect(result.references.map((r) => r.raw)).toEqual(joined);
  });

  it("reads the author's ORCID from the address after the list", async () => {
    const result = await parseManuscript(makeTextPdf([titlePage, listPage, nextPage]), 'frost.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.orcid])).toEqual([
      ['Alma Quist', ['alma.quist@northvale.edu'], '0000-0002-1825-0097'],
    ]);
  });
});
