// The reference list: split into entries, then each entry into DOI, authors, title, year and
// container. Splitting reads numbering, hanging indents and spacing; field parsing reads the
// punctuation conventions of the common citation styles (numbered Vancouver, IEEE, author-year).
import type { BlockLine, ParsedReference } from './types.ts';
import { joinLines } from './text-utils.ts';

const MARKERS: { re: RegExp; name: string }[] = [
  { name: 'bracket', re: /^\[(\d{1,4})\]\s*/ },
  { name: 'dot', re: /^(\d{1,4})\.\s+/ },
  { name: 'paren', re: /^\((\d{1,4})\)\s*/ },
  { name: 'bare', re: /^(\d{1,4})\s+(?=\p{Lu})/u },
];

function splitNumbered(lines: BlockLine[]): string[][] | null {
  let best: string[][] | null = null;
  for (const { re } of MARKERS) {
    const refs: string[][] = [];
    let expected: number | null = null;
    for (const line of lines) {
      const m = re.exec(line.text);
      const n = m ? Number(m[1]) : NaN;
      const starts = m && (expected === null ? n <= 2 : n >= expected && n <= expected + 2);
      if (starts) {
        refs.push([line.text]);
        expected = n + 1;
      } else if (refs.length) refs[refs.length - 1]!.push(line.text);
    }
    if (refs.length >= 2 && (!best || refs.length > best.length)) best = refs;
  }
  // Numbering must cover most of the list, or it is page numbers or years inside entries.
  if (!best) return null;
  const covered = best.reduce((n, r) => n + r.length, 0);
  return covered >= 0.8 * lines.length ? best : null;
}

function splitByLayout(lines: BlockLine[]): string[][] {
  const indents = lines.map((l) => l.indent);
  const minIndent = Math.min(...indents);
  const hanging = lines.filter((l) => l.indent > minIndent + 0.8).length;
  const flush = lines.length - hanging;
  const useIndent = hanging >= 0.2 * lines.length && flush >= 2;
  const useGap = !useIndent && lines.filter((l) => l.gapAbove > 0.2).length >= 2;
  const refs: string[][] = [];
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    let starts = i === 0;
    if (useIndent) starts ||= line.indent <= minIndent + 0.4;
    else if (useGap) starts ||= line.gapAbove > 0.2;
    else {
      // Author-year lists without layout cues: a line that begins "Surname, I." or "Surname I"
      // after a line that ended a sentence.
      starts ||=
        prev !== undefined &&
        /[.]$/.test(prev.text) &&
        /^\p{Lu}[\p{L}'’-]+,?\s+(?:\p{Lu}\.|\p{Lu}{1,3}\b)/u.test(line.text);
    }
    if (starts) refs.push([line.text]);
    else refs[refs.length - 1]!.push(line.text);
  });
  return refs;
}

export function splitReferences(lines: BlockLine[], paragraphs: string[] | null): string[] {
  const nonEmpty = lines.filter((l) => l.text.trim());
  if (nonEmpty.length === 0) return [];
  const numbered = splitNumbered(nonEmpty);
  if (numbered) return numbered.map((r) => joinLines(r));
  // Word documents: one paragraph per entry.
  if (paragraphs && paragraphs.length >= 2) return paragraphs;
  return splitByLayout(nonEmpty).map((r) => joinLines(r));
}

const DOI_RE = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;

export function findDoi(text: string): string | null {
  const m = DOI_RE.exec(text.replace(/doi\.org\/\s+/gi, 'doi.org/'));
  if (!m) return null;
  let doi = m[1]!;
  // Trailing punctuation belongs to the sentence, unless it closes a bracket opened in the DOI.
  for (;;) {
    const last = doi[doi.length - 1];
    if (last && '.,;:'.includes(last)) doi = doi.slice(0, -1);
    else if (last === ')' && (doi.match(/\(/g)?.length ?? 0) < (doi.match(/\)/g)?.length ?? 0))
      doi = doi.slice(0, -1);
    else if (last === ']' && !doi.includes('[')) doi = doi.slice(0, -1);
    else break;
  }
  return doi;
}

// Vancouver: Lee BD, de Souza MS, Chen Y-H
const NAME_V = String.raw`(?:\p{Ll}{1,3}\s)?\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)*\s\p{Lu}{1,3}(?:-\p{Lu}{1,2})?`;
// Humanities: Nichols, Bill. / ROUSSILLON, René.
const NAME_H = String.raw`\p{Lu}[\p{L}'’-]+,\s\p{Lu}\p{Ll}+(?:[\s-]\p{Lu}\p{Ll}+)*`;
// Initials first, without periods: AM Trinkoff, JA Lipscomb
const NAME_IN = String.raw`\p{Lu}{1,3}\s\p{Lu}[\p{L}'’-]+`;
// Full names: Alexander Ratner, Christopher De Sa
const NAME_F = String.raw`\p{Lu}\p{Ll}+(?:\s\p{Lu}\.?)*(?:\s(?:\p{Ll}{1,3}\s)?\p{Lu}[\p{Ll}'’-]+)+`;
const NAME_I = String.raw`(?:\p{Lu}\.(?:\s?-?\p{Lu}\.)*\s?)+(?:\p{Ll}{1,3}\s)?\p{Lu}[\p{L}'’-]+`; // IEEE: B. D. Lee
const NAME_A = String.raw`\p{Lu}[\p{L}'’-]+(?:\s\p{Lu}[\p{L}'’-]+)?,\s(?:\p{Lu}\.\s?-?)+`; // APA: Lee, B. D.

// Built once: assembling and compiling these on every reference cost ~20 ms per 127-reference
// PDF. None is global or sticky, so exec keeps no state between calls.
const AUTHOR_LIST_PATTERNS = [
  new RegExp(String.raw`^((?:${NAME_V})(?:,\s(?:${NAME_V}))*)(?:,?\s(?:et al\.?|and others))?[.:,]?\s`, 'u'),
  new RegExp(String.raw`^((?:${NAME_I})(?:,?\s(?:and\s)?(?:${NAME_I}))*)(?:,?\s(?:et al\.?))?[,.:]\s`, 'u'),
  new RegExp(String.raw`^((?:${NAME_A})(?:,?\s(?:&\s|and\s)?(?:${NAME_A}))*)(?:,?\s(?:et al\.?))?\s?`, 'u'),
  new RegExp(String.raw`^((?:${NAME_F})(?:,\s(?:and\s)?(?:${NAME_F}))+)(?:,?\s(?:et al\.?))?\.\s`, 'u'),
  new RegExp(String.raw`^((?:${NAME_H})(?:[,;.]?\s(?:and\s|&\s)?(?:${NAME_H}))*)[.,]\s`, 'u'),
  new RegExp(
    String.raw`^((?:${NAME_IN})(?:,?\s(?:and\s|&\s)?(?:${NAME_IN}))+)(?:,?\s(?:et al\.?))?[.:,]\s`,
    'u',
  ),
];

function authorList(text: string): { authors: string[]; rest: string } | null {
  for (const re of AUTHOR_LIST_PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const listed = m[1]!;
    const authors = listed
      .split(/,\s(?:and\s|&\s)?|\s(?:and|&)\s/)
      .map((a) => a.trim())
      .filter(Boolean);
    // APA lists split on every comma: put "Surname" and "I." back together.
    const merged: string[] = [];
    for (const a of authors) {
      if (/^(?:\p{Lu}\.\s?-?)+$/u.test(a) && merged.length && !/\./.test(merged[merged.length - 1]!)) {
        merged[merged.length - 1] += `, ${a}`;
      } else merged.push(a);
    }
    return { authors: merged, rest: text.slice(m[0].length).trim() };
  }
  return null;
}

/** The next sentence: up to a period (or ? !) followed by a space, not one closing an initial. */
function sentence(text: string): { head: string; rest: string } {
  const m = /^(.+?[^\s.]{2}[.?!])\s+(.*)$/su.exec(text);
  if (!m) return { head: text.trim(), rest: '' };
  return { head: m[1]!.replace(/\.$/, '').trim(), rest: m[2]!.trim() };
}

function findYear(text: string): number | null {
  const clean = text.replace(/\b10\.\d{4,9}\/\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
  const paren = /\((1[89]\d\d|20\d\d)[a-z]?\)/.exec(clean);
  const any = paren ?? /\b(1[89]\d\d|20\d\d)[a-z]?\b/.exec(clean);
  return any ? Number(any[1]) : null;
}

export function parseReference(rawWithMarker: string): ParsedReference {
  const raw = rawWithMarker
    .replace(/^(?:\[\d{1,4}\]|\d{1,4}\.|\(\d{1,4}\)|\d{1,4}(?=\s+\p{Lu}))\s*/u, '')
    .trim();
  const doi = findDoi(raw);
  const year = findYear(raw);
  let authors: string[] = [];
  let title: string | null = null;
  let container: string | null = null;
  const quoted = /[“"]([^”"]{5,})[”"]/.exec(raw);
  const listed = authorList(raw);
  if (quoted) {
    title = quoted[1]!.replace(/[,.]$/, '').trim();
    authors = listed?.authors ?? [];
    const after = raw.slice((quoted.index ?? 0) + quoted[0].length).replace(/^[\s,.]+/, '');
    container = after.split(/,\s*(?:vol\.|no\.|pp\.|p\.|\d)|\.\s/)[0]?.trim() || null;
  } else if (listed) {
    authors = listed.authors;
    let rest = listed.rest.replace(/^\((?:1[89]\d\d|20\d\d)[a-z]?\)\.?\s*/, '');
    const t = sentence(rest);
    title = t.head || null;
    rest = t.rest;
    const c = sentence(rest);
    container = c.head.replace(/[\s,;]*(?:\d{4}.*|\d+\s*[:(].*)$/, '').trim() || null;
  } else {
    const t = sentence(raw);
    const c = sentence(t.rest);
    title = c.head || null;
    container = sentence(c.rest).head || null;
  }
  if (container && /^(?:doi|https?:|available)/i.test(container)) container = null;
  return { raw, doi, title, authors, year, container };
}
