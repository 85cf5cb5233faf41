// Layouts met in the fifty-sixth held-out set (grant proposals and funding applications: ERC and
// MSCA Part B forms, DFG project descriptions, an NSF project description, an NIH biographical
// sketch), fixed in the sixtieth round. Names, titles and texts are made up; only the shapes
// follow the files.
import { describe, expect, it } from 'vitest';
import { extractHeader } from '../../src/parsing/header.ts';
import { REFERENCES_HEADING } from '../../src/parsing/sections.ts';
import { block, pdf } from './blocks.ts';

const PROSE =
  'The river carries its gravel down to the delta in the spring floods, and the bars it leaves are ' +
  'sorted by the falling water into beds of sand and beds of pebbles. We measure the beds each year.';

describe("a form's part label over a proposal with no title page", () => {
  // An ERC Part B2 and an MSCA Part B-1 open on the form's label, in the largest type on the page;
  // the proposal's title is in another part of the form.
  it('reads no title and no byline under the scheme and the part label', () => {
    const header = extractHeader(
      pdf([
        block('Jane Roe Part B2 [Draft of May 4, 2026] ACRONYM', { bold: true }),
        // The label's footnote mark, raised, is glued to it in the block's text.
        block('ERC Starting Grant 2027 Part B21', {
          size: 1.44,
          lines: ['ERC Starting Grant 2027', 'Part B21'],
          runs: [
            { text: 'ERC Starting Grant 2027\nPart B2', sup: false },
            { text: '1', sup: true },
          ],
        }),
        block('(not evaluated in Step 1)', { size: 1.44, bold: true }),
        block('Part II of the Scientific Proposal (max. 7 pages)'),
        block(PROSE, { lines: [PROSE.slice(0, 90), PROSE.slice(90)] }),
      ]),
    );
    expect(header.title).toBeNull();
    expect(header.authors).toEqual([]);
  });

  it('reads no title when the label alone opens the page', () => {
    const header = extractHeader(
      pdf([
        block('Part B-1', { size: 2.07, bold: true }),
        block('Delete this guidance text from the final application.', { bold: true }),
        block('1 Excellence', { size: 1.2, bold: true }),
        block('1.1 Quality and pertinence of the objectives', { bold: true }),
        block(PROSE),
      ]),
    );
    expect(header.title).toBeNull();
  });

  it('keeps the title set larger under the label (a Part B1 cover page)', () => {
    const header = extractHeader(
      pdf([
        block('ERC Starting Grant 2027', { size: 1.2, bold: true }),
        block('Part B1', { size: 1.44, bold: true }),
        block('Gravel Bars of Braided Rivers', { size: 2.07 }),
        block(PROSE),
      ]),
    );
    expect(header.title).toBe('Gravel Bars of Braided Rivers');
  });

  it('keeps a paper whose title ends on its part (no scheme named before it)', () => {
    const header = extractHeader(
      pdf([
        block('Ground Motion of Gravel Bars, Part II', { size: 1.6, bold: true }),
        block('Jane Roe and Tom Fox'),
        block(PROSE),
      ]),
    );
    expect(header.title).toBe('Ground Motion of Gravel Bars, Part II');
  });
});

describe("a proposal's part that opens on its first section", () => {
  // An NSF project description: "1 Introduction" in bold, larger than the body, over the text.
  it('reads no title from the heading', () => {
    const header = extractHeader(
      pdf([
        block('1 Introduction', { size: 1.3, bold: true }),
        block(PROSE, { lines: [PROSE.slice(0, 70), PROSE.slice(70, 140), PROSE.slice(140)] }),
        block('1.1 More detail', { size: 1.09, bold: true }),
        block(PROSE),
      ]),
    );
    expect(header.title).toBeNull();
  });
});

describe("a proposal's acronym under its title", () => {
  const cover = (lines: [string, string]) =>
    pdf([
      block('ERC Starting Grant 2027', { size: 1.2, bold: true }),
      block('Part B1', { size: 1.44, bold: true }),
      block(lines.join(' '), { size: 2.07, lines, runs: [{ text: lines.join('\n'), sup: false }] }),
      block('Cover Page:', { bold: true }),
      block(PROSE),
    ]);

  it('is no part of the title', () => {
    expect(extractHeader(cover(['Gravel Bars of Braided Rivers', 'GRAVELBAR'])).title).toBe(
      'Gravel Bars of Braided Rivers',
    );
  });

  it('leaves a line in capitals that the title runs on into', () => {
    expect(extractHeader(cover(['Gravel Bars of Braided Rivers during', 'FLOODS'])).title).toBe(
      'Gravel Bars of Braided Rivers during FLOODS',
    );
  });

  it('leaves a line in capitals after any preposition that leaves the title open', () => {
    expect(extractHeader(cover(['Gravel Bars of Braided Rivers across', 'EUROPE'])).title).toBe(
      'Gravel Bars of Braided Rivers across EUROPE',
    );
  });
});

describe("the applicants a form's fields name", () => {
  it("reads the principal investigator from the cover page's field", () => {
    const header = extractHeader(
      pdf([
        block('ERC Starting Grant 2027', { size: 1.2, bold: true }),
        block('Part B1', { size: 1.44, bold: true }),
        block('Gravel Bars of Braided Rivers', { size: 2.07 }),
        block('Cover Page:', { bold: true }),
        block('x', {
          lines: [
            '– Name of the Principal Investigator (PI): Jane Roe',
            "– Name of the PI's Host Institution for the project: University of Leeds",
            '– Proposal duration in months: 60 months',
          ],
        }),
        block(PROSE),
      ]),
    );
    expect(header.authors.map((a) => a.name)).toEqual(['Jane Roe']);
  });

  // NIH's biographical sketch: the form's heading, its instruction, then "NAME: Family, Given".
  it("reads a biographical sketch's person from its NAME field, family name first, and no title", () => {
    const header = extractHeader(
      pdf([
        block('BIOGRAPHICAL SKETCH', { bold: true }),
        block('Provide the following information for the Senior/key personnel.', { size: 0.82 }),
        block('NAME: Roe, Jane Ann'),
        block('eRA COMMONS USER NAME (credential, e.g., agency login): roeja'),
        block('POSITION TITLE: Professor of Geology'),
        block('EDUCATION/TRAINING (Begin with baccalaureate or other initial professional education.)', {
          bold: true,
        }),
        block('DEGREE'),
        block('FIELD OF STUDY'),
        block(PROSE),
      ]),
    );
    expect(header.title).toBeNull();
    expect(header.authors.map((a) => a.name)).toEqual(['Jane Ann Roe']);
  });
});

describe("the DFG's project description form", () => {
  const form = (heading: string, applicants: string[][], title: string, opening: string) =>
    pdf([
      block('DFG Form 53.01 – 03/25 Page 1 of max. 17'),
      block(heading, { bold: true }),
      ...applicants.map((lines) => block(lines.join(' '), { lines })),
      block(title, { bold: true }),
      block(opening, { bold: true }),
      block(PROSE),
    ]);

  it('reads the title over where the description opens, and the applicants between', () => {
    const header = extractHeader(
      form(
        'Project Description – Project Proposals',
        [
          ['Prof. Jane Roe', 'Institute of Geology, University of Leeds'],
          ['Tom Fox', 'Institute of Physics, University of York'],
        ],
        'Gravel Bars of Braided Rivers',
        'Project Description',
      ),
    );
    expect(header.title).toBe('Gravel Bars of Braided Rivers');
    expect(header.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Tom Fox']);
  });

  it('reads the German form the same way, its first section after the title', () => {
    const header = extractHeader(
      form(
        'Beschreibung des Vorhabens - Projektanträge',
        [['Anna Roth', 'Universität Leipzig']],
        'Kiesbänke verzweigter Flüsse',
        '1 Ausgangslage',
      ),
    );
    expect(header.title).toBe('Kiesbänke verzweigter Flüsse');
    expect(header.authors.map((a) => a.name)).toEqual(['Anna Roth']);
  });

  it("names its reference list in the form's words", () => {
    expect(REFERENCES_HEADING.test('3 Project- and subject-related list of publications')).toBe(true);
    expect(REFERENCES_HEADING.test('3 Projekt- und themenbezogenes Literaturverzeichnis')).toBe(true);
  });
});
