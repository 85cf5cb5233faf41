// Layouts met in the fiftieth held-out set (Word files from other producers, revised with tracked
// changes, reference lists held in Zotero and EndNote fields), fixed in the fifty-third round.
// Names, titles and entries are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  docxParagraph,
  docxRun,
  docxSizedParagraph,
  makeDocx,
  paragraph,
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A revision's attributes: its id, its author and its date. */
let revision = 0;
const rev = () => `w:id="${++revision}" w:author="Reviewer" w:date="2026-01-01T00:00:00Z"`;

/** Runs moved away by a revision (Word writes their text as w:t) and where they went. */
const movedFrom = (runs: string) =>
  `<w:moveFromRangeStart ${rev()} w:name="m1"/><w:moveFrom ${rev()}>${runs}</w:moveFrom><w:moveFromRangeEnd w:id="${revision - 1}"/>`;
const movedTo = (runs: string) =>
  `<w:moveToRangeStart ${rev()} w:name="m1"/><w:moveTo ${rev()}>${runs}</w:moveTo><w:moveToRangeEnd w:id="${revision - 1}"/>`;
/** Deleted runs: their text as w:delText, as Word writes it. */
const deleted = (text: string) =>
  `<w:del ${rev()}><w:r><w:delText xml:space="preserve">${text}</w:delText></w:r></w:del>`;
const inserted = (text: string) => `<w:ins ${rev()}>${docxRun(text)}</w:ins>`;
/** A paragraph whose mark is a revision of `kind` (deleted, moved away, moved there). */
const markedParagraph = (kind: 'del' | 'moveFrom' | 'moveTo', runs: string) =>
  `<w:p><w:pPr><w:rPr><w:${kind} ${rev()}/></w:rPr></w:pPr>${runs}</w:p>`;

const ENTRIES = [
  'Abbot, J., 2015. Lanterns of the northern shore. Journal of Lantern Studies, 3(2), pp.10-19.',
  'Baker, M. and Cole, R., 2017. Reading light in the dark. Lantern Review, 8, pp.101-117.',
  'Dunn, P., 2019. A survey of keepers. Northvale University Press.',
  'Evans, T.R., 2020. The keeper’s ledger. Journal of Lantern Studies, 9(1), pp.1-12.',
  'Fox, L. and Gray, H., 2021. Wicks and oils. Lantern Review, 14, pp.33-41.',
];

describe('a submission’s front page that heads each of its fields with a heading', () => {
  // Title, Authors, Affiliations, Corresponding Author: each a Heading 1 with no colon over its value.
  const file = () =>
    makeDocx([
      paragraph('Title', 'Heading1'),
      paragraph('Lantern light: reading keepers’ ledgers without a reference'),
      paragraph('Authors', 'Heading1'),
      docxParagraph(
        docxRun('Jane Roe') +
          docxRun('1', true) +
          docxRun(', Amos Poe') +
          docxRun('2', true) +
          docxRun(', and Lena Fox') +
          docxRun('1*', true),
      ),
      paragraph('Affiliations', 'Heading1'),
      paragraph('1) Department of Lanterns, University of Northvale, Northvale, UK'),
      paragraph('2) Institute of Wicks, Southvale, UK'),
      paragraph('Corresponding Author', 'Heading1'),
      paragraph('* email: lena.fox@northvale.example.org, phone: 0044 1234 567890'),
      paragraph('Abstract', 'Heading1'),
      paragraph(
        'Lanterns are read by their keepers in two phases. We show how to read them without a reference.',
      ),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('takes the title under its label, and the names under theirs', async () => {
    const result = await parseManuscript(file(), 'labelled-fields.docx', limits);
    expect(result.title).toBe('Lantern light: reading keepers’ ledgers without a reference');
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Amos Poe', 'Lena Fox']);
    expect(result.authors.find((a) => a.name === 'Lena Fox')?.emails).toEqual([
      'lena.fox@northvale.example.org',
    ]);
  });
});

describe('a revised Word file whose revision moved an author and an entry (w:moveFrom, w:moveTo)', () => {
  const file = () =>
    makeDocx([
      paragraph('Lantern light in the keepers’ ledgers', 'Title'),
      docxParagraph(
        docxRun('Jane Roe, ') +
          movedFrom(docxRun('Amos Poe, ')) +
          docxRun('Lena Fox, ') +
          movedTo(docxRun('Amos Poe, ')) +
          docxRun('and Ida Kerr'),
      ),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
      paragraph('References', 'Heading1'),
      // The last entry moved to the list's end from its top: the paragraph and its mark.
      markedParagraph(
        'moveFrom',
        movedFrom(docxRun('Young, A., 2022. Keepers at sea. Lantern Review, 15, pp.1-9.')),
      ),
      ...ENTRIES.map((e) => paragraph(e)),
      markedParagraph(
        'moveTo',
        movedTo(docxRun('Young, A., 2022. Keepers at sea. Lantern Review, 15, pp.1-9.')),
      ),
    ]);

  it('reads the moved name and the moved entry once, where the revision put them', async () => {
    const result = await parseManuscript(file(), 'moved.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Jane Roe', 'Lena Fox', 'Amos Poe', 'Ida Kerr']);
    expect(result.references).toHaveLength(6);
    expect(result.references[0]!.raw).toMatch(/^Abbot/);
  });
});

describe('a revised Word file that joins an entry typed over two paragraphs by deleting the mark between', () => {
  const file = () =>
    makeDocx([
      docxParagraph(deleted('Lantern light') + inserted('Lantern Light in the Keepers’ Ledgers'), 'Title'),
      paragraph('Jane Roe and Amos Poe'),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
      paragraph('References', 'Heading1'),
      ...ENTRIES.slice(0, 3).map((e) => paragraph(e)),
      markedParagraph('del', docxRun('Gale, S. and Hunt, W., 2018. An overview of open lanterns. ')),
      paragraph('LANTERN ARCHIVES, 22(2).'),
      ...ENTRIES.slice(3).map((e) => paragraph(e)),
      // An entry deleted, its mark too: nothing of it is left.
      markedParagraph('del', deleted('Zorn, Q., 2010. Withdrawn lanterns. Lantern Review, 1, pp.1-2.')),
    ]);

  it('reads the joined paragraphs as one entry, and no deleted title or entry', async () => {
    const result = await parseManuscript(file(), 'joined.docx', limits);
    expect(result.title).toBe('Lantern Light in the Keepers’ Ledgers');
    expect(result.references).toHaveLength(6);
    expect(result.references.map((r) => r.raw)).toContain(
      'Gale, S. and Hunt, W., 2018. An overview of open lanterns. LANTERN ARCHIVES, 22(2).',
    );
  });
});

describe('a revised Word file whose revision took the Title style from a running head', () => {
  // The running head had been set in the Title style; the revision gave it the body's style, and
  // w:pPrChange keeps the Title style it had. The title is typed large by hand under it.
  const file = () =>
    makeDocx([
      `<w:p><w:pPr><w:pStyle w:val="Normal"/><w:pPrChange ${rev()}><w:pPr><w:pStyle w:val="Title"/></w:pPr></w:pPrChange></w:pPr>${docxRun('Running head: LANTERNS')}</w:p>`,
      docxSizedParagraph('Lantern Light in the Keepers’ Ledgers', 18, { bold: true }),
      paragraph('Jane Roe and Amos Poe'),
      paragraph('Introduction', 'Heading1'),
      ...wordBodyParagraphs(12),
    ]);

  it('reads the style the paragraph has now, not the one the revision took away', async () => {
    const result = await parseManuscript(file(), 'restyled.docx', limits);
    expect(result.title).toBe('Lantern Light in the Keepers’ Ledgers');
  });
});
