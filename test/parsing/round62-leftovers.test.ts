// Leftovers of the fifty-first to fifty-fifth held-out sets that would recur on unseen files, fixed
// in the sixty-second round. The blocks are written as the PDF reader gives them; titles, names and
// text are made up, only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseReferenceList } from '../../src/parsing/references.ts';

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
