// Layout rules read from small public manuscripts of the development set (bench/parsing-devset,
// sources and licences in its LICENSES.md): each test fails if its rule breaks.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { UNMAPPED, repairLigatures, vocabulary } from '../../src/parsing/pdf/ligatures.ts';
import { endsInsideDoi } from '../../src/parsing/pdf/read-pdf.ts';
import { CONTENTS_LINE } from '../../src/parsing/sections.ts';
import { findEmails } from '../../src/parsing/text-utils.ts';
import { testConfig } from '../helpers/app.ts';

const limits = testConfig().parsing;
const DEVSET = path.resolve(import.meta.dirname, '../../bench/parsing-devset');
const parse = (file: string) =>
  parseManuscript(new Uint8Array(readFileSync(path.join(DEVSET, file))), file, limits);
const byName = (authors: { name: string; emails: string[] }[]) =>
  Object.fromEntries(authors.map((a) => [a.name, a.emails]));

describe('author blocks set side by side on a title page', () => {
  it('reads each block (name, affiliation, email) apart: arXiv preprint style, two blocks', async () => {
    const r = await parse('arxiv-style.pdf');
    expect(byName(r.authors)).toEqual({
      'David S. Hippocampus': ['hippo@cs.cranberry-lemon.edu'],
      'Elias D. Striatum': ['stariate@ee.mount-sheikh.edu'],
    });
  });

  it('reads a grid of eight blocks in rows of three (ACM sigconf) with every name and email', async () => {
    const r = await parse('acmart-sigconf.pdf');
    expect(r.authors.map((a) => a.name).sort()).toEqual(
      [
        'Ben Trovato',
        'G.K.M. Tobin',
        'Lars Thørväld',
        'Lawrence P. Leipuner',
        'Sean Fogarty',
        'Charles Palmer',
        'John Smith',
        'Julius P. Kumquat',
      ].sort(),
    );
    expect(r.authors.flatMap((a) => a.emails)).toHaveLength(8);
    expect(byName(r.authors)['Ben Trovato']).toEqual(['trovato@corporation.com']);
  });

  it('takes no affiliation line of a block for a name (JSS)', async () => {
    const r = await parse('quarto-jss.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(['Achim Zeileis', 'Second Author']);
  });
});

describe('stacked author paragraphs (Manubot Word file)', () => {
  it('finds all 17 authors with their ORCIDs, also those whose marks (✉, †) stand on a line of their own', async () => {
    const r = await parse('manubot-sortee.docx');
    expect(r.authors).toHaveLength(17);
    expect(r.authors.every((a) => a.orcid)).toBe(true);
    expect(r.authors[0]).toMatchObject({
      name: 'Pedro Henrique Pereira Braga',
      orcid: '0000-0002-1308-1562',
      // The correspondence note under the list names him; the handle @pedrobraga@ecoevo.social
      // in his own paragraph is not an address.
      emails: ['ph.pereirabraga@gmail.com'],
    });
    expect(r.authors[16]!.emails).toEqual([]);
  });

  it('does not read a fediverse handle as an email', () => {
    expect(findEmails('@jane@ecoevo.social · jane.roe@example.org')).toEqual(['jane.roe@example.org']);
  });

  it(
    'reads a long run of address characters once (read again from each character, 100,000 took seconds)',
    () => {
      const run = 'a'.repeat(100_000);
      expect(findEmails(`${run}@ ${run}@${run}`)).toEqual([]);
      expect(findEmails(`${run}@ x@${run} jane.roe@example.org`)).toEqual(['jane.roe@example.org']);
    },
    // Milliseconds read once; the old reading took 17-22 s here, so 5 s fails only it.
    5_000,
  );

  it(
    "reads a contents line's leaders once: a paragraph of dots is no entry unless a page number ends it",
    () => {
      expect(CONTENTS_LINE.test('Abstract ........ 6')).toBe(true);
      expect(CONTENTS_LINE.test('1.2 Methods. . . . . 12')).toBe(true);
      expect(CONTENTS_LINE.test('Preface……xii')).toBe(true);
      expect(CONTENTS_LINE.test('Results... and more.')).toBe(false);
      for (const leader of ['.', '. ', '…']) {
        const run = leader.repeat(160_000 / leader.length);
        expect(CONTENTS_LINE.test(`${run}a`)).toBe(false);
        expect(CONTENTS_LINE.test(`${run} 17`)).toBe(true);
      }
    },
    // Milliseconds read once; the old reading took over 30 s for each run, so 5 s fails only it.
    5_000,
  );

  it(
    'reads a piece for a DOI cut by a glyph once: its last run, however many prefixes it holds',
    () => {
      expect(endsInsideDoi('see https://doi.org/10.18653/v1/P19-1')).toBe(true);
      expect(endsInsideDoi('doi:10.1145/3292500.3330')).toBe(true);
      expect(endsInsideDoi('10.18653/v1/P19-1 and')).toBe(false);
      expect(endsInsideDoi('10.18653/v1/')).toBe(false);
      expect(endsInsideDoi('"10.18653/v1"x')).toBe(false);
      expect(endsInsideDoi('<10.18653/v1')).toBe(true);
      expect(endsInsideDoi('x10.1234/ab')).toBe(false);
      expect(endsInsideDoi('10.123/ab')).toBe(false);
      const prefixes = '10.1234/'.repeat(40_000);
      expect(endsInsideDoi(`${prefixes}x`)).toBe(true);
      expect(endsInsideDoi(`${prefixes}-`)).toBe(false);
      expect(endsInsideDoi(`${prefixes} -`)).toBe(false);
    },
    // Milliseconds read once; the old pattern took 1.1 s at 80,000 characters and grew with their
    // square (320,000 here: over 15 s for each run), so 5 s fails only it.
    5_000,
  );
});

describe('ligatures the font maps to no Unicode', () => {
  it('recovers "fi" in a name from the same word spelled out in a link (Manubot PDF, WeasyPrint font)', async () => {
    const r = await parse('manubot-sortee.pdf');
    expect(r.authors.map((a) => a.name)).toContain('Saeed Shafiei Sabet');
    expect(r.authors).toHaveLength(17);
  });

  it('takes the ligature the document spells elsewhere, else "ff" at a word end and "fi" inside', () => {
    const words = vocabulary(['Moffitt Cancer Center', 'https://github.com/shafieisabets']);
    expect(repairLigatures(`Mo${UNMAPPED}tt`, words)).toBe('Moffitt');
    expect(repairLigatures(`Sha${UNMAPPED}ei`, words)).toBe('Shafiei');
    expect(repairLigatures(`classi${UNMAPPED}cation of sta${UNMAPPED}`, words)).toBe(
      'classification of staff',
    );
    expect(repairLigatures('no glyph missing', words)).toBe('no glyph missing');
  });
});

describe('double-spaced title pages (one block per line)', () => {
  it('reads the address on its own line with the correspondence sentence above it (apaquarto)', async () => {
    const r = await parse('apaquarto-manuscript.pdf');
    expect(byName(r.authors)['Ana Fulano']).toEqual(['sm@example.org']);
  });
});

describe('ORCIDs tied to their names', () => {
  it('gives an ORCID icon linked beside a name to that name (JOSS draft)', async () => {
    const r = await parse('joss-multivae.pdf');
    expect(r.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Agathe Senellart', '0009-0000-3176-6461'],
      ['Clément Chadebec', null],
      ['Stéphanie Allassonnière', null],
    ]);
  });

  it('pairs "ORCID (V. Surname)" in a footnote that also names other authors (CEUR-WS)', async () => {
    const r = await parse('ceurart-bsdd.pdf');
    expect(r.authors.map((a) => [a.name, a.orcid])).toEqual([
      ['Vladimir Alexiev', '0000-0001-7508-7428'],
      ['Mihail Radkov', null],
      ['Nataliya Keberle', '0000-0001-7398-3464'],
    ]);
  });
});

describe('margin line numbers unevenly spaced by paragraph gaps', () => {
  it('drops the small numbers beside a JOSS draft reference list and reads its 25 hanging-indent entries with their 11 DOIs', async () => {
    const r = await parse('joss-multivae.pdf');
    expect(r.references).toHaveLength(25);
    expect(r.references.filter((x) => x.doi)).toHaveLength(11);
    expect(r.references.every((x) => !/^\d{2,3}\s/.test(x.raw))).toBe(true);
    expect(r.references.map((x) => x.doi)).toContain('10.61603/ceas.v2i1.33');
  });
});

describe('bylines that carry their affiliations (ACM journals)', () => {
  // acmart's sample article, set in two of its formats.
  const ACM_SAMPLE_AUTHORS = [
    'Gang Zhou',
    'Yafeng Wu',
    'Ting Yan',
    'Tian He',
    'Chengdu Huang',
    'John A. Stankovic',
    'Tarek F. Abdelzaher',
  ];

  it('reads the names set in capitals before each affiliation, one group per line, and title-cases them', async () => {
    const r = await parse('acmart-acmsmall.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(ACM_SAMPLE_AUTHORS);
  });

  it('steps over an affiliation line set smaller than the names that ends the group with "and" (ACM TOG)', async () => {
    const r = await parse('acmart-acmtog.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(ACM_SAMPLE_AUTHORS);
  });

  it('does not take a name-like affiliation for an author (Quarto ACM)', async () => {
    const r = await parse('quarto-acm.pdf');
    expect(r.authors).toHaveLength(9);
    expect(r.authors.map((a) => a.name)).not.toContain('The Thørväld Group');
  });
});

describe('reference lists set in two columns', () => {
  it('reads a numbered list that opens the right column under its heading, beside a column of formulas (elsarticle 5p)', async () => {
    const r = await parse('elsarticle-elstest-5p.pdf');
    expect(r.references).toHaveLength(17);
    expect(r.references[0]!.raw).toBe('G. Kavoulakis and G. Baym, Phys. Rev. B 53, 7227 (1996).');
    // The list ends at the numbered heading of the appendix, which the left column goes on with.
    expect(r.references[16]!.raw).toBe('A. J. Leggett, Rev. Mod. Phys. 73, 307 (2001).');
  });

  it('reads an author-year list with hanging indents to its last page, whose right column holds one entry (ACM TOG)', async () => {
    const r = await parse('acmart-acmtog.pdf');
    expect(r.references.length).toBeGreaterThanOrEqual(38);
    const dois = r.references.map((x) => x.doi);
    expect(dois).toContain('10.1137/080734467');
    expect(dois).toContain('10.1145/1057270.1057278');
    expect(r.references.map((x) => x.raw)).toContain(
      'G. Zhou, J. Lu, C.-Y. Wan, M. D. Yarvis, and J. A. Stankovic. 2008. Body Sensor Networks. MIT Press, Cambridge, MA.',
    );
    expect(r.references.some((x) => x.raw.includes('Publication date'))).toBe(false);
  });
});

describe('bylines and titles of the ACS template (achemso)', () => {
  it('keeps the raised "A" of the LaTeX logo in the title', async () => {
    const r = await parse('quarto-acs.pdf');
    expect(r.title).toBe('A demonstration of the achemso LATEX class');
  });

  it('joins a name wrapped from one byline line to the next ("Susanne" / "K. Laborator")', async () => {
    const r = await parse('quarto-acs.pdf');
    expect(r.authors.map((a) => a.name)).toEqual([
      'Andrew N. Other',
      'Fred T. Secondauthor',
      'I. Ken Groupleader',
      'Susanne K. Laborator',
      'Kay T. Finally',
    ]);
    expect(r.authors[3]!.emails).toEqual(['s.k.laborator@bigpharma.co']);
  });
});

describe('addresses printed after the article', () => {
  it('gives an author the email under their name in the closing address block (JSS)', async () => {
    const r = await parse('jss-article.pdf');
    expect(byName(r.authors)).toEqual({
      'Achim Zeileis': ['Achim.Zeileis@R-project.org'],
      'Second Author': [],
    });
  });
});

describe('what stands between the title and the byline, and between names', () => {
  it('takes a subtitle set larger than the byline under it for no name (Quarto Elsevier)', async () => {
    const r = await parse('quarto-elsevier.pdf');
    expect(r.authors.map((a) => a.name)).toEqual([
      'Alice Anonymous',
      'Bob Security',
      'Cat Memes',
      'Derek Zoolander',
    ]);
  });

  it('keeps a single author with marks above a smaller affiliation line (ReScience)', async () => {
    const r = await parse('rescience-broman.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(['Karl W. Broman']);
  });

  it('steps over the affiliation set smaller under each name to the next name (elsarticle, separate affiliations)', async () => {
    const r = await parse('elsarticle-1pseperateaug.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(['J.K. Krishnan', 'Han Thane', 'T. Rafeeq']);
  });
});

describe('single-column author-year lists on facing pages', () => {
  it('reads the hanging indent of each page against that page’s margin, and drops a foot set high (acmart manuscript)', async () => {
    const r = await parse('acmart-manuscript.pdf');
    expect(r.references.length).toBeGreaterThanOrEqual(38);
    expect(r.references.length).toBeLessThanOrEqual(39);
    expect(r.references.some((x) => /Manuscript submi/.test(x.raw))).toBe(false);
    expect(r.references.map((x) => x.doi)).toContain('10.1145/90417.90738');
  });
});

describe('template bylines read by their place (issue 16)', () => {
  it('reads every entry of a byline with superscript marks, digits and all, and gives the starred one the email (PLOS)', async () => {
    const r = await parse('plos-latex-template.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(Array.from({ length: 7 }, (_, i) => `Name${i + 1} Surname`));
    expect(r.authors[6]!.emails).toEqual(['correspondingauthor@institute.edu']);
    expect(r.authors.every((a) => a.affiliations.length > 0)).toBe(true);
  });

  it('reads author groups joined by "and" under a one-word title (Quarto JASA)', async () => {
    const r = await parse('quarto-jasa.pdf');
    expect(r.title).toBe('Title');
    expect(r.authors.map((a) => a.name)).toEqual(['Author 1', 'Author 2']);
  });

  it('reads the second of two author blocks set side by side, and no journal line for a name (Quarto aft)', async () => {
    const r = await parse('quarto-aft.pdf');
    expect(r.authors.map((a) => a.name)).toEqual(['John Doe', 'his friend']);
  });

  it('takes the document kind under the title for no name in an anonymous copy (acmart sigplan)', async () => {
    const r = await parse('acmart-sigplan.pdf');
    expect(r.authors).toEqual([]);
  });
});
