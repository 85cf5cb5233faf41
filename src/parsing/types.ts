// The parse result: the shape the upload stores and `refmatch parse` prints. Null means "not found".

export type ManuscriptFormat = 'pdf' | 'docx';

export type ParseErrorCode =
  | 'unsupported_format'
  | 'empty_file'
  | 'file_too_large'
  | 'corrupt_file'
  | 'encrypted'
  | 'too_many_pages'
  /** A DOCX part or a PDF stream inflates (or declares it will) past a limit. */
  | 'zip_bomb'
  /** A PDF whose content would cost the reader far more than its size (graphics states nested deep). */
  | 'too_complex'
  | 'missing_part'
  | 'no_text'
  | 'timeout'
  | 'parser_failed';

export interface ParseError {
  code: ParseErrorCode;
  message: string;
}

export interface ParsedAuthor {
  name: string;
  emails: string[];
  orcid: string | null;
  affiliations: string[];
  corresponding: boolean;
}

export interface ParsedReference {
  raw: string;
  doi: string | null;
  title: string | null;
  authors: string[];
  year: number | null;
  container: string | null;
}

export interface ParsedSection {
  heading: string | null;
  kind: 'front' | 'abstract' | 'body' | 'references' | 'back';
  text: string;
}

export interface ParseCounts {
  authors_count: number;
  emails_count: number;
  orcids_count: number;
  affiliations_count: number;
  parsed_references: number;
  references_with_doi: number;
}

export interface ParseResult {
  format: ManuscriptFormat | null;
  title: string | null;
  abstract: string | null;
  keywords: string[];
  authors: ParsedAuthor[];
  references: ParsedReference[];
  text: string;
  sections: ParsedSection[];
  pages: number | null;
  counts: ParseCounts;
  warnings: string[];
  error: ParseError | null;
  elapsed_ms: number;
}

/**
 * What both format readers produce: the document as paragraphs in reading order, each with the
 * typography the header and section rules read. Format-specific facts (Word styles, PDF font sizes)
 * are reduced to these fields so that one set of rules serves both formats.
 */
export interface Block {
  text: string;
  /** Font size relative to the document's body text (1 = body). */
  relSize: number;
  /** Set in a font other than the body's (bold, a heading face), or a Word heading style. */
  emphasis: boolean;
  /** 0 = title style, 1..6 = heading levels, null = ordinary paragraph. */
  styleLevel: number | null;
  /** Word paragraph style name (DOCX only), e.g. "Abstract", "Bibliography". */
  styleName?: string | null;
  /** 1-based page; DOCX has no pages and says 1. */
  page: number;
  /** Superscript runs in order with the text that precedes them, for tying marks to names. */
  runs: Run[];
  /** Links (ORCID, mailto) that lie on this block. */
  links: string[];
  /** Line texts, kept for reference splitting where each line's start matters. */
  lines: BlockLine[];
}

export interface Run {
  text: string;
  sup: boolean;
}

export interface BlockLine {
  text: string;
  /** Left edge relative to the column's left edge, in body font sizes (PDF only; 0 in DOCX). */
  indent: number;
  /** Vertical gap above this line in body line heights (PDF only). */
  gapAbove: number;
  /** Link annotations over this line (PDF only, on the pages read for links). */
  links?: string[];
  /** In blocks set side by side on a title page (PDF only): true on a block's first line, false on its others. */
  cellTop?: boolean;
  /**
   * The first line of a page after the first in a run of lines read together (a reference list):
   * its gap above is not known, since the page's top stands over it. Set on a block's first line
   * where the block before it is on another page, and on a line inside a block that runs on from
   * one page to the next.
   */
  pageTop?: boolean;
}

export interface DocumentModel {
  format: ManuscriptFormat;
  blocks: Block[];
  pages: number | null;
  /** Metadata the file itself declares (PDF info, DOCX core properties). */
  declared: { title: string | null; keywords: string[]; authors: string[] };
  /** Footnotes (DOCX) that may carry correspondence lines. */
  notes: string[];
  /**
   * ORCID links set as an icon beside a name (PDF): the text just left and right of the link on
   * its line, to tie the identifier to the name it stands next to; and the text under the link,
   * where the name itself is the link.
   */
  orcidAnchors?: { orcid: string; before: string; after: string; under: string }[];
  /**
   * Pages (PDF) left unread because their content passed a reading budget: a document with no
   * text then is one too costly to read, not a scan.
   */
  overBudgetPages?: number;
  warnings: string[];
}

export function emptyCounts(): ParseCounts {
  return {
    authors_count: 0,
    emails_count: 0,
    orcids_count: 0,
    affiliations_count: 0,
    parsed_references: 0,
    references_with_doi: 0,
  };
}
