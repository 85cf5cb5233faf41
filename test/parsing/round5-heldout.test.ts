// Layouts met in the fifth held-out set's dev half: icons linked after each name (an envelope, a
// house, the ORCID logo) that an icon font maps to stray letters and signs (LIPIcs), a running head
// that names the reference list and so recurs on its pages only (LIPIcs: "REFERENCES 8:11"), a
// DOI that ends with a full stop before a line "URL https://..." (plainurl), a DOI printed with the
// TeX escape of its underscore, DOIs given only as links in a list with no heading (REVTeX), and a
// title with raised characters inside it (REVTeX: a ratio of form factors in its math; LIPIcs:
// "NC¹", whose raised digit, the first line of its page, had been dropped as a page number).
// Names and text are made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { findDoi, parseReferenceList } from '../../src/parsing/references.ts';
import { dropRunningHeads, type Item } from '../../src/parsing/pdf/geometry.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textWidth, type PdfLink } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];
type Rect = [number, number, number, number];

describe('icons linked after each name (LIPIcs)', () => {
  // Each author's line: the name in bold, then one glyph per icon, each under its own link.
  const author = (name: string, mark: string, icons: string[], y: number) => {
    const lines: Line[] = [{ text: name, size: 12, x: 72, y, bold: true }];
    let x = 72 + textWidth(name, 12);
    if (mark) {
      lines.push({ text: mark, size: 8, x, y: y + 4, bold: true });
      x += textWidth(mark, 8);
    }
    const rects: Rect[] = [];
    for (const icon of icons) {
      x += 3;
      lines.push({ text: icon, size: 12, x, y, bold: true });
      rects.push([x - 1, y - 2, x + 9, y + 10]);
      x += 8;
    }
    return { lines, rects };
  };
  const page = (typedMark = '') => {
    const ann = author(`Ann Carter${typedMark ? ` ${typedMark}` : ''}`, '', ['Z', 'k', 'Q'], 730);
    const bob = author('Bob Dunn', '1', ['Z'], 690);
    const lines: Line[] = [
      { text: 'Interactive Checks of Things Drawn at Random', size: 17, x: 72, y: 770, bold: true },
      ...ann.lines,
      { text: 'University of Somewhere, Country', size: 9, x: 72, y: 714 },
      ...bob.lines,
      { text: 'Another University, Country', size: 9, x: 72, y: 674 },
      { text: 'Abstract', size: 10.5, x: 72, y: 640, bold: true },
      ...bodyProse(624, 20),
    ];
    const urls = [
      'mailto:ann.carter@example.edu',
      'https://example.edu/~ann',
      'https://orcid.org/0000-0002-1825-0097',
    ];
    const links: PdfLink[] = [
      ...ann.rects.map((rect, k) => ({ rect, url: urls[k]! })),
      { rect: bob.rects[0]!, url: 'mailto:bob.dunn@example.org' },
    ];
    return makeTextPdf([lines], '', [links]);
  };

  it('reads the names without the icons, and the email and ORCID each icon links to', async () => {
    const result = await parseManuscript(page(), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails, a.orcid])).toEqual([
      ['Ann Carter', ['ann.carter@example.edu'], '0000-0002-1825-0097'],
      ['Bob Dunn', ['bob.dunn@example.org'], null],
    ]);
  });

  it('keeps a note sign typed before the icons: it is the name’s mark', async () => {
    const result = await parseManuscript(page('*'), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.corresponding])).toEqual([
      ['Ann Carter', true],
      ['Bob Dunn', false],
    ]);
  });
});

describe('a running head that names the reference list (LIPIcs)', () => {
  const item = (str: string, x: number, y: number): Item => ({
    str,
    x,
    y,
    w: str.length * 5,
    size: 9,
    font: 'f',
  });
  const body = (page: number) =>
    Array.from({ length: 30 }, (_, i) =>
      item(`Line ${i + 1} of page ${page}, running text.`, 72, 700 - i * 14),
    );
  // Ten pages; the head "REFERENCES n:p" stands over the last four only, left and right by turns.
  const pages = () =>
    Array.from({ length: 10 }, (_, i) => {
      const items = body(i + 1);
      if (i >= 6)
        items.push(i % 2 ? item(`8:${i + 1} REFERENCES`, 40, 800) : item(`REFERENCES 8:${i + 1}`, 420, 800));
      return { items, height: 842 };
    });

  it('drops it: in the top band, on pages one or two apart, only its page number changing', () => {
    const ps = pages();
    dropRunningHeads(ps);
    expect(ps.flatMap((p) => p.items.map((it) => it.str)).filter((s) => s.includes('REFERENCES'))).toEqual(
      [],
    );
  });

  it('keeps a top line that repeats with the same number: no page number there', () => {
    const ps = pages();
    ps[3]!.items.push(item('Table 2 (continued)', 72, 800));
    ps[4]!.items.push(item('Table 2 (continued)', 72, 800));
    dropRunningHeads(ps);
    expect(
      ps.flatMap((p) => p.items.map((it) => it.str)).filter((s) => s.startsWith('Table 2')),
    ).toHaveLength(2);
  });
});

describe('DOIs in a plainurl reference list', () => {
  const line = (text: string) => ({ text, indent: 0, gapAbove: 0 });

  it('ends a DOI at its full stop when the next line opens "URL https://..."', () => {
    const refs = parseReferenceList(
      [
        line(
          '[1] A. Roe and B. Dunn. Testing things. ACM Trans. Tests, 10(4):16:1–16:20, 2018. doi: 10.1000/3241377.',
        ),
        line('URL https://doi.org/10.1000/3241377.'),
        line('[2] C. Evans. Proofs of things. In Proc. of Tests, 2018. doi: 10.4000/LIPICS.TESTS.2018.'),
        line('19. URL https://doi.org/10.4000/LIPIcs.TESTS.2018.19.'),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual(['10.1000/3241377', '10.4000/LIPICS.TESTS.2018.19']);
  });

  it('reads an underscore printed with its TeX escape as an underscore', () => {
    expect(findDoi('Springer, 2014. doi: 10.1007/978-3-662-00000-7\\_24. URL https://example.org')).toBe(
      '10.1007/978-3-662-00000-7_24',
    );
  });
});

describe('DOIs given only as links in a list with no heading (REVTeX)', () => {
  const prose = (page: number) =>
    Array.from({ length: 25 }, (_, i) => ({
      text: `Line ${i + 1} of page ${page} of the body text, long enough to read as running prose here.`,
      size: 10,
      x: 72,
      y: 740 - i * 13,
    }));
  const entries = [
    '[1] A. Roe and B. Dunn, Work from a warm bath, Phys. Rev. E 87, 042123 (2013).',
    '[2] C. Evans, Heat from a cold source, Rev. Mod. Phys. 96, 031001 (2024).',
    '[3] D. Fox, E. Gray, and F. Hill, Most work from few parts, Europhys. Lett. 67, 565 (2004).',
    '[4] G. Ives, Models of repeated collisions, Phys. Rep. 954, 1 (2022).',
  ];

  it('reads each entry’s DOI from the link over its journal reference', async () => {
    const last: Line[] = [
      ...prose(4).slice(0, 10),
      ...entries.map((text, k) => ({ text, size: 9, x: 72, y: 560 - k * 14 })),
    ];
    const links: PdfLink[] = entries.map((_, k) => ({
      rect: [300, 558 - k * 14, 420, 568 - k * 14] as Rect,
      url: `https://doi.org/10.1103/PhysRevE.${k + 1}.100`,
    }));
    const pdf = makeTextPdf(
      [
        [{ text: 'Work Drawn from Baths Kept Apart', size: 17, x: 72, y: 780 }, ...prose(1)],
        prose(2),
        prose(3),
        last,
      ],
      '',
      [[], [], [], links],
    );
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.references.map((r) => r.doi)).toEqual([1, 2, 3, 4].map((n) => `10.1103/PhysRevE.${n}.100`));
  });
});

describe('raised characters inside a title (REVTeX)', () => {
  const page = (pieces: { text: string; sup?: boolean }[]) => {
    const lines: Line[] = [];
    let x = 72;
    for (const p of pieces) {
      const size = p.sup ? 11 : 16;
      lines.push({ text: p.text, size, x, y: p.sup ? 706 : 700, bold: true });
      x += textWidth(p.text, size);
    }
    return makeTextPdf([
      [
        ...lines,
        { text: 'Ann Carter and Bob Dunn', size: 11, x: 72, y: 670 },
        { text: 'Abstract', size: 10.5, x: 72, y: 640, bold: true },
        ...bodyProse(624, 20),
      ],
    ]);
  };

  it('keeps a raised character set on a word with more of the title after it', async () => {
    const pdf = page([
      { text: 'Counting in NC' },
      { text: '1', sup: true },
      { text: ' with Small Circuits' },
    ]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.title).toBe('Counting in NC1 with Small Circuits');
  });

  it('drops one at the title’s end: a note mark', async () => {
    const pdf = page([{ text: 'Counting with Small Circuits' }, { text: '1', sup: true }]);
    const result = await parseManuscript(pdf, 'built.pdf', limits);
    expect(result.title).toBe('Counting with Small Circuits');
  });
});
