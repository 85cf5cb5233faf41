// Layouts met in the fifty-seventh held-out set (publishers' journal templates not yet seen: World
// Scientific's ws-procs11x85 and ws-m3as, Cambridge's jpp.cls), fixed in the sixty-first round.
// Names, titles, addresses and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine, type PdfTextLine } from './make-files.ts';

const limits = testConfig().parsing;

const TITLE = 'Wave growth in a magnetised column of argon';

async function parsed(lines: PdfTextLine[]) {
  return parseManuscript(makeTextPdf([lines]), 'paper.pdf', limits);
}

describe('a byline set letter-spaced (Cambridge jpp.cls)', () => {
  // The class puts a kern between a surname's letters and a wider one between words; pdf.js gives
  // a space at each, so "K. L. M o r r i s" read as initials and no name was found.
  it('reads each spaced surname as one word', async () => {
    const result = await parsed([
      textLine(TITLE, 760, 17, { bold: true }),
      textLine('K. L. M o r r i s, P. T. V a n c e, R. S a l t', 732, 11),
      textLine('Department of Physics, Northvale University, Northvale, NV 10001, USA', 716, 9),
      textLine('1. Introduction', 690, 11, { bold: true }),
      ...bodyProse(670, 30),
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['K. L. Morris', 'P. T. Vance', 'R. Salt']);
  });
});

describe('an address whose underscore is a drawn rule (LaTeX old encoding)', () => {
  // "\_" in OT1 is a rule, no glyph: the text layer shows a gap where it stands.
  const page = (addressLine: string) => [
    textLine(TITLE, 760, 14, { bold: true }),
    textLine('Dora Finch and Eli Gray', 736, 10),
    textLine('Department of Chemistry, Northvale University,', 716, 9),
    textLine('Northvale, NV 10001, USA', 705, 9),
    textLine(addressLine, 694, 9),
    textLine('1. Introduction', 670, 11, { bold: true }),
    ...bodyProse(650, 30),
  ];

  it('joins the word after an address label to the address', async () => {
    const result = await parsed(page('E-mail: Dora Finch@northvale.edu'));
    expect(result.authors.flatMap((a) => a.emails)).toEqual(['Dora_Finch@northvale.edu']);
  });

  it('joins a lower-case word before an address alone on its line', async () => {
    const result = await parsed(page('dora finch@northvale.edu'));
    expect(result.authors.flatMap((a) => a.emails)).toEqual(['dora_finch@northvale.edu']);
  });

  it('leaves a label or a joining word before an address apart from it', async () => {
    for (const [line, email] of [
      ['e-mail dora@northvale.edu', 'dora@northvale.edu'],
      ['email dora@northvale.edu', 'dora@northvale.edu'],
      ['and eli.gray@northvale.edu', 'eli.gray@northvale.edu'],
    ]) {
      const result = await parsed(page(line!));
      expect(result.authors.flatMap((a) => a.emails)).toEqual([email]);
    }
  });
});

describe('author groups each over their own address (World Scientific ws-procs)', () => {
  // Names, their address with an email, then another name and its address: the byline stopped at
  // the first address and gave the second group's email to the first author.
  it('reads the names under the first address as authors too', async () => {
    const result = await parsed([
      textLine(TITLE, 760, 12, { bold: true }),
      textLine('Ann Lee, Ben Ode', 736, 10),
      textLine('Department of Physics, Northvale University,', 716, 9),
      textLine('Northvale, NV 10001, USA', 705, 9),
      textLine('E-mail: ann.lee@northvale.edu', 694, 9),
      textLine('Carl Moss', 672, 10),
      textLine('Southport Institute of Technology,', 652, 9),
      textLine('Southport, SP 20002, USA', 641, 9),
      textLine('E-mail: moss@southport.edu', 630, 9),
      textLine('1. Introduction', 610, 11, { bold: true }),
      ...bodyProse(590, 30),
    ]);
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Lee', 'Ben Ode', 'Carl Moss']);
    expect(result.authors.find((a) => a.name === 'Carl Moss')?.emails).toEqual(['moss@southport.edu']);
  });
});

describe('a reference list of short entries that hangs only its few long ones (jpp.bst)', () => {
  // Most entries fit on one line: the two set-in lines were too few for the hanging indent to be
  // read (a fifth of the lines), and the list's entries ran together.
  it('opens an entry at each flush line', async () => {
    const entries: [string, string?][] = [
      ['A. B. Light, et al. 2013 Phys. Fluids 20.'],
      ['C. Dunn, et al. 2012 Phys. Fluids 19.'],
      ['E. F. Gray, et al. 2010 Geophys. Lett. 37.'],
      ['G. Hart, I. Ivy & Jones, K. 2007 Rev. Sci.', 'Instrum. 14.'],
      ['L. M. Kent, N. Lowe 1982 J. Appl. Phys. 53.'],
      [
        'Moore, O. P., et al. 2012 Shear flow in a long column of magnetised plasma and its',
        'effect on transport. Phys. Rev. Lett. 108.',
      ],
      ['Q. Nash, R. Ortiz 2009 Phys. Fluids 16.'],
      ['S. T. Park, et al. 2011 Phys. Fluids 18.'],
      ['U. Quinn, et al. 2008 Nucl. Fusion 48.'],
      ['V. W. Reed, X. Shaw 2006 J. Appl. Phys. 99.'],
      ['Y. Todd, et al. 2005 Phys. Fluids 12.'],
      ['Z. A. Upton, et al. 2004 Phys. Fluids 11.'],
    ];
    const lines: PdfTextLine[] = [
      textLine(TITLE, 780, 17, { bold: true }),
      textLine('1. Introduction', 750, 11, { bold: true }),
      ...bodyProse(730, 20),
      textLine('REFERENCES', 460, 9),
    ];
    let y = 445;
    for (const [first, second] of entries) {
      lines.push(textLine(first, y, 9));
      y -= 11;
      if (second) {
        lines.push(textLine(second, y, 9, { x: 90 }));
        y -= 11;
      }
    }
    const result = await parsed(lines);
    expect(result.references.length).toBe(entries.length);
  });
});

describe('a short abstract in small type over its keywords line (World Scientific ws-m3as)', () => {
  // No label, in 8 pt under the received lines; too short for prose alone, it was skipped.
  it('is read as the abstract', async () => {
    const abstract =
      'We study how waves grow in a column of argon. The growth rate follows the density gradient. It is measured with probes.';
    const result = await parsed([
      textLine(TITLE, 760, 10, { bold: true }),
      textLine('Dora Finch', 736, 8),
      textLine('Department of Chemistry, Northvale University, Northvale, NV 10001, USA', 724, 8),
      textLine('Received (Day Month Year)', 700, 8),
      textLine('Revised (Day Month Year)', 690, 8),
      textLine('We study how waves grow in a column of argon. The growth rate follows the', 666, 8),
      textLine('density gradient. It is measured with probes.', 656, 8),
      textLine('Keywords: waves; argon; probes.', 640, 8),
      textLine('1. Introduction', 616, 10, { bold: true }),
      ...bodyProse(596, 30),
    ]);
    expect(result.abstract).toBe(abstract);
  });
});
