// The one entry point: bytes in, a parse result out. It never throws for what a file contains: a
// corrupt, truncated, encrypted, empty or hostile file gives a result with an error and warnings,
// so the upload goes on from its supplied metadata.
import type { ParsingLimits } from '../infra/config.ts';
import { detectFormat } from './detect-format.ts';
import { readPdf, PdfReadError } from './pdf/read-pdf.ts';
import { readDocx, DocxReadError } from './docx/read-docx.ts';
import { ZipLimitError } from './docx/zip.ts';
import { PdfLimitError } from './pdf/pre-check.ts';
import { extractHeader } from './header.ts';
import { REFERENCES_HEADING, entryBlocks, findReferences, isHeading } from './sections.ts';
import { parseReferenceList, wordEntries } from './references.ts';
import {
  emptyCounts,
  type DocumentModel,
  type ParseErrorCode,
  type ParseResult,
  type ParsedSection,
} from './types.ts';

/** Largest file parseManuscript accepts; the upload refuses bigger ones first (413). */
export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

/**
 * References kept from one file. The longest real lists (review articles) run to a few hundred,
 * rarely past a thousand; within the text limit a file can list 20,000 short ones, which were all
 * stored (4.5 MB of JSON) and matched against the corpus by every ranking and journal
 * recommendation of the manuscript (a recommendation 3-4 times a normal one's CPU).
 */
export const MAX_REFERENCES = 2_000;

export interface ParseOptions {
  maxFileBytes?: number;
}

export function failedResult(
  code: ParseErrorCode,
  message: string,
  format: ParseResult['format'] = null,
  warnings: string[] = [],
): ParseResult {
  return {
    format,
    title: null,
    abstract: null,
    keywords: [],
    authors: [],
    references: [],
    text: '',
    sections: [],
    pages: null,
    counts: emptyCounts(),
    warnings: [...warnings, message],
    error: { code, message },
    elapsed_ms: 0,
  };
}

export async function parseManuscript(
  bytes: Uint8Array,
  fileName: string | null,
  limits: ParsingLimits,
  options: ParseOptions = {},
): Promise<ParseResult> {
  const started = performance.now();
  const result = await parseUnguarded(bytes, fileName, limits, options).catch((error: unknown) =>
    failedResult('parser_failed', `The parser failed: ${(error as Error)?.message ?? String(error)}`),
  );
  result.elapsed_ms = Math.round(performance.now() - started);
  return result;
}

async function parseUnguarded(
  bytes: Uint8Array,
  fileName: string | null,
  limits: ParsingLimits,
  options: ParseOptions,
): Promise<ParseResult> {
  const maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  if (bytes.byteLength === 0) return failedResult('empty_file', 'The file is empty');
  if (bytes.byteLength > maxFileBytes) {
    return failedResult(
      'file_too_large',
      `The file is ${bytes.byteLength} bytes, over the ${maxFileBytes} byte limit`,
    );
  }
  const detected = detectFormat(bytes);
  const named = fileName?.toLowerCase().match(/\.(pdf|docx|doc)$/)?.[1] ?? null;
  const nameWarnings =
    named && named !== detected && !(named === 'docx' && detected === 'zip')
      ? [`The file is named .${named} but its content is ${detected === 'zip' ? 'a zip archive' : detected}`]
      : [];
  let doc: DocumentModel;
  try {
    if (detected === 'pdf') doc = await readPdf(bytes, limits);
    else if (detected === 'zip') doc = await readDocx(bytes, limits);
    else {
      const what = detected === 'ole' ? 'a legacy Word (.doc) or other OLE file' : 'neither a PDF nor a DOCX';
      return failedResult(
        'unsupported_format',
        `The file is ${what}; send a PDF or a DOCX`,
        null,
        nameWarnings,
      );
    }
  } catch (error) {
    const format = detected === 'pdf' ? 'pdf' : 'docx';
    if (error instanceof PdfReadError || error instanceof DocxReadError) {
      return failedResult(error.code, error.message, format, nameWarnings);
    }
    if (error instanceof PdfLimitError)
      return failedResult(error.code, `Refused: ${error.message}`, format, nameWarnings);
    if (error instanceof ZipLimitError)
      return failedResult('zip_bomb', `Refused: ${error.message}`, format, nameWarnings);
    const message = (error as Error)?.message ?? String(error);
    return failedResult(
      'corrupt_file',
      `The ${format.toUpperCase()} cannot be read: ${message}`,
      format,
      nameWarnings,
    );
  }
  return buildResult(doc, limits, nameWarnings);
}

function buildResult(doc: DocumentModel, limits: ParsingLimits, warnings: string[]): ParseResult {
  const header = extractHeader(doc);
  const refRange = findReferences(doc.blocks);
  const sections = buildSections(
    doc,
    header.titleIndex,
    header.titleEnd,
    header.frontEnd,
    header.abstractBlocks,
    refRange,
  );
  let references: ParseResult['references'] = [];
  const allWarnings = [...warnings, ...doc.warnings];
  if (refRange) {
    // A heading inside the list (its second part's, "English References") is no entry.
    const refBlocks = doc.blocks
      .slice(refRange.start, refRange.end)
      .filter((b) => !(b.text.length < 60 && REFERENCES_HEADING.test(b.text.trim())));
    const lines = alignPages(entryBlocks(doc.blocks, refRange)).slice(refRange.skipLines);
    const word = doc.format === 'docx' ? wordEntries(refBlocks) : null;
    references = parseReferenceList(lines, word?.texts ?? null, word?.links ?? []);
    if (references.length > MAX_REFERENCES) {
      allWarnings.push(
        `The reference list has ${references.length} entries; the first ${MAX_REFERENCES} were kept`,
      );
      references = references.slice(0, MAX_REFERENCES);
    }
  }
  let text = sections
    .map((s) => (s.heading ? `${s.heading}\n\n${s.text}` : s.text))
    .filter(Boolean)
    .join('\n\n');
  if (text.length > limits.maxChars) {
    text = text.slice(0, limits.maxChars);
    allWarnings.push(`The text was cut at ${limits.maxChars} characters`);
  }
  const hasText = doc.blocks.some((b) => /\p{L}{2}/u.test(b.text));
  if (!hasText) {
    const r = {
      ...(doc.overBudgetPages
        ? failedResult(
            'too_complex',
            `Nothing could be read: the text it has lies on ${doc.overBudgetPages} page(s) whose content passed the reading budgets`,
            doc.format,
            allWarnings,
          )
        : failedResult(
            'no_text',
            'The file has no text layer (scanned images?); nothing could be read from it',
            doc.format,
            allWarnings,
          )),
      pages: doc.pages,
    };
    return r;
  }
  if (!header.title) allWarnings.push('No title was found');
  if (header.authors.length === 0) allWarnings.push('No authors were found');
  if (!refRange) allWarnings.push('No reference list was found');
  if (header.unassignedEmails.length) {
    allWarnings.push(`Emails not tied to an author: ${header.unassignedEmails.join(', ')}`);
  }
  const authors = header.authors;
  return {
    format: doc.format,
    title: header.title,
    abstract: header.abstract,
    keywords: header.keywords,
    authors,
    references,
    text,
    sections,
    pages: doc.pages,
    counts: {
      authors_count: authors.length,
      emails_count: authors.reduce((n, a) => n + a.emails.length, 0),
      orcids_count: authors.filter((a) => a.orcid).length,
      affiliations_count: new Set(authors.flatMap((a) => a.affiliations)).size,
      parsed_references: references.length,
      references_with_doi: references.filter((r) => r.doi).length,
    },
    warnings: allWarnings,
    error: null,
    elapsed_ms: 0,
  };
}

/**
 * The blocks' lines with each page's indents taken from that page's leftmost line: facing pages
 * have different margins, and a hanging indent is read against the list's own left edge. The
 * first line of each new page is marked.
 */
function alignPages(blocks: DocumentModel['blocks']): DocumentModel['blocks'][number]['lines'] {
  const left = new Map<number, number>();
  for (const b of blocks)
    for (const l of b.lines) left.set(b.page, Math.min(left.get(b.page) ?? Infinity, l.indent));
  // A page's first line after the list began is marked: the gap above it says nothing.
  return blocks.flatMap((b, k) =>
    b.lines.map((l, j) => ({
      ...l,
      indent: l.indent - (left.get(b.page) ?? 0),
      ...(j === 0 && k > 0 && blocks[k - 1]!.page !== b.page ? { pageTop: true } : {}),
    })),
  );
}

function buildSections(
  doc: DocumentModel,
  titleIndex: number | null,
  titleEnd: number,
  frontEnd: number,
  abstractBlocks: number[],
  refs: { start: number; end: number; headingIndex: number | null } | null,
): ParsedSection[] {
  const sections: ParsedSection[] = [];
  const abstractSet = new Set(abstractBlocks);
  let current: { heading: string | null; kind: ParsedSection['kind']; parts: string[] } | null = null;
  const flush = () => {
    if (current && (current.parts.length || current.heading)) {
      sections.push({ heading: current.heading, kind: current.kind, text: current.parts.join('\n\n') });
    }
    current = null;
  };
  doc.blocks.forEach((b, i) => {
    let kind: ParsedSection['kind'];
    if (titleIndex !== null && i >= titleIndex && i < titleEnd) {
      flush();
      sections.push({ heading: null, kind: 'front', text: b.text });
      return;
    }
    if (abstractSet.has(i)) kind = 'abstract';
    else if (refs && i >= refs.start && i < refs.end) kind = 'references';
    else if (refs && refs.headingIndex === i) kind = 'references';
    else if (i < frontEnd) kind = 'front';
    else kind = refs && i >= refs.end ? 'back' : 'body';
    const heading =
      kind !== 'references' || i === refs?.headingIndex ? isHeading(b) || i === refs?.headingIndex : false;
    if (!current || current.kind !== kind || (heading && kind !== 'front')) {
      flush();
      current = { heading: heading && kind !== 'front' ? b.text : null, kind, parts: [] };
      if (heading && kind !== 'front') return;
    }
    current.parts.push(b.text);
  });
  flush();
  return sections;
}
