// Header metadata: title, authors (in order, with marks, emails, ORCIDs, affiliations), abstract,
// keywords. The rules read typography and position (the largest type on the first page, the lines
// under it, superscript marks, links, labelled lines), never strings of particular files.
// The readers themselves live in ./header/: front-matter, title, covers, bylines, contacts. A
// cover sheet set before the manuscript is passed over (covers.ts, coverSheetEnd).
import type { Block, DocumentModel, ParsedAuthor } from './types.ts';
import { isKeywordTermsLine, KEYWORDS_LABEL } from './sections.ts';
import { unique, withoutCjkLatinGaps } from './text-utils.ts';
import { hasTypedSuperscripts, typedSuperscripts } from './names.ts';
import { withoutHonorifics } from '../corpus/authors/name-titles.ts';
import { findAbstract, THESIS_LABEL_REACH } from './abstract.ts';
import { fromCapitals, readAuthorEntries } from './header/bylines.ts';
import { readContacts } from './header/contacts.ts';
import { coverSheetEnd, fromCoverSheet, presentedOnCover } from './header/covers.ts';
import { afterContents, findFrontEnd, kindOfWork, withoutLinkIcons } from './header/front-matter.ts';
import { readTitle } from './header/title.ts';

export interface Header {
  title: string | null;
  titleIndex: number | null;
  /** Index after the title's last block. */
  titleEnd: number;
  abstract: string | null;
  abstractBlocks: number[];
  keywords: string[];
  authors: ParsedAuthor[];
  /** Index of the first block after the front matter. */
  frontEnd: number;
  unassignedEmails: string[];
}

function findKeywords(blocks: Block[], frontEnd: number, declared: string[]): string[] {
  for (let i = 0; i < Math.min(blocks.length, frontEnd + 20); i++) {
    const b = blocks[i]!;
    if (!KEYWORDS_LABEL.test(b.text)) continue;
    let rest = b.text.replace(KEYWORDS_LABEL, '');
    if (!rest && blocks[i + 1]) rest = blocks[i + 1]!.text;
    const list = rest
      .split(/\s*[;,·•|]\s*/)
      .map((k) => k.replace(/\.$/, '').trim())
      .filter((k) => k.length > 1 && k.length < 80);
    if (list.length) return unique(list);
  }
  // No label: a line of terms set apart by bars under the abstract.
  const terms = blocks
    .slice(0, Math.min(blocks.length, frontEnd + 20))
    .find((b) => isKeywordTermsLine(b.text));
  if (terms) return unique(terms.text.trim().split(/\s+\|\s+/));
  return declared;
}

/**
 * How far a thesis's abstract label is looked for: its cover's pages, a preface, a signed
 * statement and a table of contents set in columns (a block for each column's run of numbers and
 * of titles, none of them a contents line) may come first, so the reach runs over the next ten
 * pages, and never less than THESIS_LABEL_REACH blocks.
 */
function thesisReach(blocks: Block[], from: number): number {
  const page = blocks[from]?.page ?? 1;
  const past = blocks.findIndex((b, i) => i >= from && b.page > page + 10);
  return Math.max(THESIS_LABEL_REACH, (past < 0 ? blocks.length : past) - from);
}

/**
 * The header of a manuscript set after a cover sheet (coverSheetEnd) is read from its own first
 * page on, as though the file opened there; the indices it gives are the whole file's. What the
 * cover says of the authors (an email, an ORCID by a name) is added where the manuscript gives none.
 */
export function extractHeader(source: DocumentModel): Header {
  const skip = coverSheetEnd(source);
  if (skip === 0) return readHeader(source);
  const firstPage = source.blocks[skip]!.page;
  const header = readHeader({
    ...source,
    blocks: source.blocks.slice(skip).map((b) => ({ ...b, page: b.page - firstPage + 1 })),
  });
  fromCoverSheet(source.blocks.slice(0, skip), header.authors);
  return {
    ...header,
    titleIndex: header.titleIndex === null ? null : header.titleIndex + skip,
    titleEnd: header.titleEnd + skip,
    frontEnd: header.frontEnd + skip,
    abstractBlocks: header.abstractBlocks.map((i) => i + skip),
  };
}

function readHeader(source: DocumentModel): Header {
  const doc = {
    ...source,
    blocks: source.blocks.map((raw) => {
      const b = source.format === 'pdf' ? withoutLinkIcons(raw) : raw;
      return hasTypedSuperscripts(b.text) ? { ...b, runs: typedSuperscripts(b.runs) } : b;
    }),
  };
  const { blocks } = doc;
  const span = readTitle(doc);
  const { title, titleIndex, titleEnd } = span;
  const start = titleIndex !== null ? titleEnd : 0;
  const frontEnd = Math.max(start, findFrontEnd(blocks, start));
  const chosen = readAuthorEntries(blocks, span, start, frontEnd);
  const authors: ParsedAuthor[] = chosen.entries.map((e) => ({
    // "Dr. Blaine Mooers", "Prof. Dr. ...": titles before the name are no part of it.
    name: withoutHonorifics(fromCapitals(e.name)),
    emails: [],
    orcid: null,
    affiliations: [],
    corresponding: e.marks.some((m) => m === '*' || m === '✉'),
  }));
  const unassignedEmails = readContacts(doc, span, chosen, authors, frontEnd);

  // A thesis sets its abstract after the contents that end its cover, or after the cover's pages
  // when its title stands under the kind of work, or over it (a Turkish cover: the title, then
  // "DOKTORA TEZİ", then the author).
  const kindUnder = blocks[titleEnd];
  // Or a cover whose line says who presents the thesis ("Thèse présentée par ...").
  const thesisCover =
    titleIndex !== null &&
    ((titleIndex > 0 && kindOfWork(blocks[titleIndex - 1]!)) ||
      (kindUnder !== undefined && kindUnder.page === blocks[titleIndex]!.page && kindOfWork(kindUnder)) ||
      presentedOnCover(blocks, titleIndex) !== null);
  const from = afterContents(blocks, frontEnd);
  const abstract = findAbstract(
    blocks,
    from,
    titleEnd,
    doc.format === 'pdf',
    thesisCover ? thesisReach(blocks, from) : undefined,
  );
  return {
    title,
    titleIndex,
    titleEnd,
    // The typeset gaps beside Latin letters in Chinese or Japanese text are no spaces of the text.
    abstract: abstract.text === null ? null : withoutCjkLatinGaps(abstract.text),
    abstractBlocks: abstract.used,
    keywords: findKeywords(blocks, frontEnd, doc.declared.keywords),
    authors,
    frontEnd,
    unassignedEmails,
  };
}
