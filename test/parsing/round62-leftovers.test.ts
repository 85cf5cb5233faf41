// Leftovers of the fifty-first to fifty-fifth held-out sets that would recur on unseen files, fixed
// in the sixty-second round. The blocks are written as the PDF reader gives them; titles, names and
// text are made up, only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { parseReferenceList } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

describe('a numbered list with works cited by their shorthand among the numbers ("[KpV]", "[KU]")', () => {
  // Labels right-aligned in their box (the wider the label, the further left it opens), entries
  // running on at a hanging indent.
  const line = (text: string, indent: number) => ({ text, indent, gapAbove: 0.2 });
  const entry = (label: string, indent: number, first: string, rest: string) => [
    line(`${label} ${first}`, indent),
    line(rest, 2.7),
  ];
  const list = [
    ...entry('[1]', 0.6, 'Anna Keeper. Lighthouses of the North Sea.', 'Bergen : Coast Press, 1990.'),
    ...entry('[2]', 0.6, 'Bruno Warden. « Logs and tides ».', 'In : Marine Notes 4 (1988), p. 11-19.'),
    ...entry(
      '[KpL]',
      0,
      'Ida Lantern. « Kritik der Leuchtfeuer ».',
      'In : Werke. T. 5. Berlin : Haus, 1968.',
    ),
    ...entry('[3]', 0.6, 'Carl Signal. Beacons. Paris :', 'Éditions du Phare, 1975.'),
    ...entry('[LU]', 0.3, 'Ida Lantern. « Kritik der Urteile ».', 'In : Werke. T. 6. Berlin : Haus, 1968.'),
    ...entry('[4]', 0.6, 'Dora Buoy. Charts of the coast.', 'London : Sea House, 1999.'),
  ];

  it('opens an entry at each shorthand set where the numbers open theirs', () => {
    const refs = parseReferenceList(list, null);
    expect(refs).toHaveLength(6);
    expect(refs[2]!.raw).toMatch(/^\[KpL\] Ida Lantern/);
    expect(refs[1]!.raw).not.toContain('Lantern');
  });

  it('leaves a bracketed note running on at the hanging indent in its entry', () => {
    const note = [
      ...entry('[1]', 0.6, 'Anna Keeper. Lighthouses of the North Sea.', 'Bergen : Coast Press, 1990.'),
      line('[PDF] Available from the press.', 2.7),
      ...entry('[2]', 0.6, 'Bruno Warden. « Logs and tides ».', 'In : Marine Notes 4 (1988), p. 11-19.'),
    ];
    expect(parseReferenceList(note, null)).toHaveLength(2);
  });
});

describe("a single author's manuscript behind a submission system's cover sheet", () => {
  const TITLE = 'Tidal sorting of pebbles on a shingle spit';
  const manuscript = [
    textLine(TITLE, 760, 17, { bold: true }),
    ...piecesOnOneLine([{ text: 'Jane Roe' }, { text: '1', sup: true }], 732, 11),
    textLine('1 University of Northvale, Country', 716, 9),
    textLine('Abstract', 684, 14, { bold: true }),
    textLine('Pebbles on a spit are sorted by the tide into bands of one size, which we measure here.', 664),
    textLine('1 Introduction', 620, 14, { bold: true }),
    ...bodyProse(600, 30),
  ];
  // Editorial Manager's field table: the journal in a large type, the title in a field, the
  // people of the submission (the corresponding author is not the manuscript's only author).
  const cover = [
    textLine('Journal of Coasts', 790, 20, { bold: true }),
    textLine('Manuscript Draft', 760, 14, { bold: true }),
    textLine('Manuscript Number: JOC-D-21-00042', 720, 11),
    textLine(`Full Title: ${TITLE}`, 704, 11),
    textLine('Article Type: Research Paper', 688, 11),
    textLine('Corresponding Author: Tom Fox, Ph.D.', 672, 11),
    textLine("Corresponding Author's Institution: Southvale Institute", 656, 11),
    textLine('Powered by Editorial Manager and ProduXion Manager', 60, 8),
  ];

  it('reads the title and the one name from the manuscript, past the cover', async () => {
    const result = await parseManuscript(
      makeTextPdf([cover, manuscript, bodyProse(760, 50)]),
      'em-single.pdf',
      limits,
    );
    expect(result.title).toBe(TITLE);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe']);
  });
});
