// Reference-list layouts from templates the parser had not seen: a list with no heading, a heading
// sharing a block with an empty section's heading, an appendix after a natbib list, a table set
// between entries, a publisher's note after the list, and DOIs damaged at line breaks. Every entry
// here is made up; only the shapes follow the templates.
import { describe, expect, it } from 'vitest';
import { endsReferenceList, entryBlocks, findReferences } from '../../src/parsing/sections.ts';
import {
  findDoi,
  joinDoiBreaks,
  parseReference,
  parseReferenceList,
  splitReferences,
} from '../../src/parsing/references.ts';
import type { Block, BlockLine } from '../../src/parsing/types.ts';

const line = (text: string, indent = 0, gapAbove = 0, links?: string[]): BlockLine => ({
  text,
  indent,
  gapAbove,
  ...(links ? { links } : {}),
});

const block = (lines: string[] | BlockLine[], over: Partial<Block> = {}): Block => {
  const ls = lines.map((l) => (typeof l === 'string' ? line(l) : l));
  const text = ls.map((l) => l.text).join(' ');
  return {
    text,
    relSize: 1,
    emphasis: false,
    styleLevel: null,
    page: 1,
    runs: [{ text, sup: false }],
    links: [],
    lines: ls,
    ...over,
  };
};

const PROSE =
  'The model couples the two fields through a single parameter, and its solutions are stable for all values ' +
  'we tried. We compare them with the measurements in the next section, where the agreement is close over the ' +
  'whole range of temperatures and pressures that the apparatus reaches, and we discuss the remaining gaps.';

const body = (n: number): Block[] => Array.from({ length: n }, () => block([PROSE]));

const physicsEntry = (n: number) =>
  `[${n}] Q. R. Fenwick and T. Ollander, Slow relaxation in driven lattices, Phys. Rev. B ${40 + n}, ${100 + n} (19${70 + n}).`;

describe('a reference list with no heading (REVTeX)', () => {
  it('is the trailing run of entries numbered [1], [2], ... that read as references', () => {
    const refs = Array.from({ length: 6 }, (_, i) => block([physicsEntry(i + 1)]));
    const blocks = [...body(8), ...refs];
    expect(findReferences(blocks)).toMatchObject({ start: 8, end: 14, headingIndex: null });
  });

  it('keeps entries whose lines the reader set into blocks of their own', () => {
    const blocks = [
      ...body(8),
      block(['[1] A. B. Carver, Thermodynamics of small', 'systems, J. Stat. Phys. 12, 45 (1988).']),
      block(['[2] D. Ellery, Noise in networks, Nature 301, 22']),
      block(['(1999).', '[3] F. Gault and H. Imre, Lattice gases, Phys.']),
      block(['Lett. A 7, 9 (2001).']),
    ];
    expect(findReferences(blocks)).toMatchObject({ start: 8, end: 12 });
  });

  it('may be a single bracketed entry when it closes the document', () => {
    const blocks = [...body(8), block(['* Footnote to the title']), block([physicsEntry(1)])];
    expect(findReferences(blocks)).toMatchObject({ start: 9, end: 10 });
  });

  it('is not a numbered list in the body: no years and names, or too early, or too short', () => {
    const steps = ['[1] Mix the samples well.', '[2] Heat them to the boiling point.', '[3] Let them cool.'];
    expect(findReferences([...body(8), ...steps.map((s) => block([s]))])).toBeNull();
    const early = [...Array.from({ length: 4 }, (_, i) => block([physicsEntry(i + 1)])), ...body(10)];
    expect(findReferences(early)).toBeNull();
    const dotted = ['1. J. Roe, Tables, 1999.', '2. K. Poe, Chairs, 2001.'].map((s) => block([s]));
    expect(findReferences([...body(8), ...dotted])).toBeNull();
  });

  it('splits a single entry whose lines the reader spaced apart as one', () => {
    const lines = [
      line('[1] A. Zorn, Quanta and fields, Reviews of Old', 0, 0.7),
      line('Physics 71, 12 (1999).', 1.4, 0.7),
    ];
    expect(splitReferences(lines, null)).toHaveLength(1);
  });

  it('needs consecutive numbers from 1', () => {
    const refs = [3, 4, 5, 6].map((n) => block([physicsEntry(n)]));
    expect(findReferences([...body(8), ...refs])).toBeNull();
  });
});

describe('a heading that shares a block with the empty section before it (IEEE journal)', () => {
  it('is found inside the block when the first entry follows it', () => {
    const blocks = [
      ...body(5),
      block([
        'VII. OUTLOOK',
        'REFERENCES',
        '[1] K. Oban, Y. Pell, and R. Quist, Learning machines. Some Press, 2011.',
        '[2] L. Rand, “On deep nets,” Journal of Nets, vol. 3, no. 1, pp. 1–9, 1990.',
      ]),
      block(['[3] M. Soto, “Spikes,” arXiv preprint arXiv:1234.56789, 2016.']),
    ];
    expect(findReferences(blocks)).toMatchObject({ start: 5, end: 7, skipLines: 2, headingIndex: null });
  });

  it('is not a mention of references inside a paragraph', () => {
    const blocks = [...body(5), block(['The data are given', 'references', 'below in a table.'])];
    expect(findReferences(blocks)).toBeNull();
  });
});

describe('the end of an author-year list (natbib: ICLR, ICML, NeurIPS)', () => {
  const natbib = [
    block([line('Ada Lovell, Ben Marsh, and Cy Nolan. Graph filters that learn their own', 0, 1)]),
    block([line('spectra. In International Conference on Learning Representations, 2022.', 1)]),
    block([line('Dee Orr and Eve Price. Deep sets of sets. Advances in Learning, 3:', 0, 1)]),
    block([line('12–19, 2020.', 1)]),
  ];

  it('is an appendix heading set larger than the entries, digits or final period notwithstanding', () => {
    for (const heading of ['B PROOF OF THEOREM 2', 'A. An appendix can go here.']) {
      const blocks = [
        ...body(3),
        block(['References'], { relSize: 1.2 }),
        ...natbib,
        block([heading], { relSize: 1.2, emphasis: true }),
        ...body(4),
      ];
      expect(findReferences(blocks)).toMatchObject({ start: 4, end: 8 });
    }
    expect(endsReferenceList(block(['B PROOF OF THEOREM 2'], { relSize: 1.2 }), [], 1)).toBe(true);
    // Without the list's size, or when the entries are set as large, it is not told.
    expect(endsReferenceList(block(['B PROOF OF THEOREM 2'], { relSize: 1.2 }), [], 1.2)).toBe(false);
  });

  it('splits at the hanging indent, wrapped lines going with their entry', () => {
    const lines = natbib.flatMap((b) => b.lines);
    expect(splitReferences(lines, null).map((e) => e.text)).toEqual([
      'Ada Lovell, Ben Marsh, and Cy Nolan. Graph filters that learn their own spectra. In International Conference on Learning Representations, 2022.',
      'Dee Orr and Eve Price. Deep sets of sets. Advances in Learning, 3: 12–19, 2020.',
    ]);
  });
});

describe('a float set between entries (Copernicus discussion layout)', () => {
  const entry = (name: string) =>
    block([line(`${name}, A. B. and Vale, C.: A study of fields, Geophys. J., 12, 3–9, 1999.`)]);

  it('is skipped, and the list resumes with the entries after it', () => {
    const blocks = [
      ...body(3),
      block(['References'], { emphasis: true }),
      entry('Abel'),
      entry('Baird'),
      block(['Table 1. Estimates of the two angles for the synthetic data.'], { relSize: 0.9 }),
      block([line('Sphere Prism', 14)]),
      block([line('D −10.0 −40.0'), line('I −20.0 −30.0')]),
      entry('Cobb'),
      entry('Dorn'),
      block(['Figure 2. A sketch of the vector and its angles.']),
      block(['0 2 4 6']),
    ];
    const range = findReferences(blocks);
    expect(range).toMatchObject({ start: 4, end: 11, floats: [{ start: 6, end: 9 }] });
    // The float gives the entry splitter nothing; the document keeps its text.
    const entries = entryBlocks(blocks, range!);
    expect(entries).not.toContain(blocks[6]);
    expect(entries).not.toContain(blocks[8]);
    expect(blocks[8]!.text).toBe('D −10.0 −40.0 I −20.0 −30.0');
    const lines = entries.flatMap((b) => b.lines);
    expect(parseReferenceList(lines, null)).toHaveLength(4);
  });

  it('ends the list when no entry follows it before the next heading', () => {
    const blocks = [
      ...body(3),
      block(['References'], { emphasis: true }),
      entry('Abel'),
      entry('Baird'),
      block(['Table 1. Estimates of the two angles for the synthetic data.']),
      block(['D −10.0 −40.0']),
      block(['Appendix'], { relSize: 1.2, emphasis: true }),
      entry('Cobb'),
    ];
    expect(findReferences(blocks)).toMatchObject({ start: 4, end: 6, floats: [] });
    expect(blocks[7]!.lines).not.toEqual([]);
  });
});

describe('a publisher’s note after the list (MDPI)', () => {
  it('ends the list', () => {
    const note =
      'Disclaimer/Publisher’s Note: The statements and opinions in all publications are those of the authors.';
    expect(endsReferenceList(block([note]))).toBe(true);
    expect(endsReferenceList(block(['Funding: This work was supported by a grant.']))).toBe(true);
    expect(endsReferenceList(block(['Fundinger, A. B. 2001. A title. Journal 3: 1-9.']))).toBe(false);
  });
});

describe('DOIs broken at a line end', () => {
  it('are joined when the break falls inside the suffix or the prefix', () => {
    expect(joinDoiBreaks(['Ecol. Evol. 7: 1–9. https://doi.org/10.5555/3011-2', '20Y.45678.'])).toEqual([
      'Ecol. Evol. 7: 1–9. https://doi.org/10.5555/3011-220Y.45678.',
    ]);
    expect(joinDoiBreaks(['Nature 12: 3–4. https://doi.org/10.555', '5/nature.xy-12.345.67.'])).toEqual([
      'Nature 12: 3–4. https://doi.org/10.5555/nature.xy-12.345.67.',
    ]);
    expect(joinDoiBreaks(['Journal 75: 1–9. https://doi.org/10.5555/j.1234', '-5678.2006.0001.x.'])).toEqual([
      'Journal 75: 1–9. https://doi.org/10.5555/j.1234-5678.2006.0001.x.',
    ]);
  });

  it('are left alone when the next line holds no DOI piece', () => {
    for (const next of [
      '2014.',
      'Smith, J. 2001. Another entry.',
      '12. Jones, K. 2003.',
      'In: Proceedings, 4–7.',
    ]) {
      expect(joinDoiBreaks(['A title. doi:10.5555/abc.123', next])).toHaveLength(2);
    }
    expect(joinDoiBreaks(['Page 10.5', '5/6 of the book.'])).toHaveLength(2);
  });

  it('read through a numbered list', () => {
    const refs = parseReferenceList(
      [
        line('1. Roe, Ann. 2016. “A Title.” Methods 7 (6): 679–92. https://doi.org/10.5555/2041-2', 1),
        line('10X.12541.', 3),
        line('2. Poe, Ben. 1890. “Another Title.” Science XV: 92–96. https://doi.org/10.555', 1),
        line('5/science.ns-15.366.92.', 3),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual(['10.5555/2041-210X.12541', '10.5555/science.ns-15.366.92']);
  });

  it('take the link’s DOI when the text has a hyphen the typesetter set at the break', () => {
    const link = 'http://dx.doi.org/10.5555/archabc.1923.0001';
    const refs = parseReferenceList(
      [
        line('24. Roe A. Water. Archives of Things 1923; 32(2): 157. doi: 10.5555/arch-', 0, 1, [link]),
        line('abc.1923.0001', 2, 0, [link]),
        line('25. Poe B. Fire. Things 2002; 16: 4–5. doi: 10.5555/ab-cd.2002.1', 0, 1, [
          'http://dx.doi.org/10.5555/ab-cd.2002.1',
        ]),
      ],
      null,
    );
    expect(refs.map((r) => r.doi)).toEqual(['10.5555/archabc.1923.0001', '10.5555/ab-cd.2002.1']);
  });
});

describe('findDoi', () => {
  it('reads a SICI DOI through its angle brackets', () => {
    const sici = '10.1002/(SICI)1097-0258(19980530)17:10<1103::AID-SIM793>3.0.CO;2-9';
    expect(findDoi(`Statistics in Medicine 1998; 17(10): 1103–1120. doi: ${sici}`)).toBe(sici);
    expect(findDoi(`doi: ${sici}.`)).toBe(sici);
    // Outside the SICI shape, "<" still ends a DOI.
    expect(findDoi('<a href="x">10.5555/abc<br>')).toBe('10.5555/abc');
  });

  it('stops at a typographic quote, which comes from the text after it', () => {
    expect(findDoi('https://doi.org/10.5555/ab.12.Note/Publisher’s Note')).toBe(
      '10.5555/ab.12.Note/Publisher',
    );
  });
});

describe('hostile input', () => {
  // No wall-clock bound: each input is large enough that a rule quadratic in its length would run
  // for hours, far past the test's timeout, while a linear one takes milliseconds.
  it('keeps the new DOI rules linear', () => {
    const long = '1'.repeat(200_000);
    expect(joinDoiBreaks([`10.5555/${long}`, `${long}.1`]).length).toBeGreaterThan(0);
    expect(
      joinDoiBreaks([`a ${'10.5555/a-'.repeat(20_000)}`, `-${'a.1'.repeat(50_000)}`]).length,
    ).toBeGreaterThan(0);
    expect(findDoi(`10.5555/(SICI)x<${'<'.repeat(100_000)}`)?.length ?? 0).toBeLessThan(200_000);
    expect(findDoi(`10.5555/(SICI)x${'<a'.repeat(100_000)}`)?.length ?? 0).toBeLessThan(300_000);
  });

  it('keeps the headless list and the float look-ahead linear', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      block([`[${(i % 3) + 1}] A. B. Cole, Title, 1999.`]),
    );
    expect(findReferences(many)).toBeDefined();
    const floats = Array.from({ length: 20_000 }, (_, i) =>
      block([i % 2 ? 'Table 1. A caption.' : 'Cole, A. B.: Title, J., 1, 2, 1999.']),
    );
    const found = findReferences([block(['References']), ...floats]);
    // The captions between the entries are floats, not entries.
    expect(found?.floats.length ?? 0).toBeGreaterThan(0);
  });
});

describe('author lists that cost', () => {
  it('reads a name of twenty middle initials in time linear in its length (each initial read one way)', () => {
    // Before: "A." could be one of several dotted initials or a bare one, so 2^n ways to cut the
    // run were tried; 18 initials took 3 s, 22 over a minute. The test's timeout is the measure.
    const entry = parseReference(
      `[1] Jonas ${'Q. '.repeat(40)}Whitfield. On slow names. Journal of Tests, 2020.`,
    );
    expect(entry.year).toBe(2020);
    const inverted = parseReference(`[2] Whitfield, Jonas ${'Q. '.repeat(40)}2020. On slow names.`);
    expect(inverted.year).toBe(2020);
  });

  it('an entry of 3,000 authors is read without overflowing the stack, its list cut at 500', () => {
    const entry = parseReference(
      `[3] ${'Moreau, K., '.repeat(3000)}2021. A large collaboration. Physics Letters B.`,
    );
    expect(entry.year).toBe(2021);
    expect(entry.authors.length).toBeLessThanOrEqual(500);
  });
});
