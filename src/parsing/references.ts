// The reference list: split into entries, then each entry into DOI, authors, title, year and
// container. Splitting reads numbering, hanging indents and spacing; field parsing reads the
// punctuation conventions of the common citation styles (numbered Vancouver, IEEE, author-year).
import type { Block, BlockLine, ParsedReference } from './types.ts';
import { RAISED_LABEL, joinLines, median, meetInCjk } from './text-utils.ts';

/**
 * A surname's particle in lower case opening an entry ("19 van Runnard Heimel PJ", "7 de Souza
 * A"): after a bare number it opens an entry as a capital does.
 */
const PARTICLE_OPENING = String.raw`(?:van|von|de|da|di|del|della|der|den|du|dos|das|le|la|ten|ter|zu)\s+(?:(?:de|der|den|la)\s+)?\p{Lu}`;

const MARKERS: { re: RegExp; name: string }[] = [
  { name: 'bracket', re: /^\[(\d{1,4})\]\s*/ },
  // "1.Wallberg, A.": the space after the number may be lost where the label is set in a box of
  // its own (XeLaTeX's lists read back from the PDF); a capital right after the dot still opens.
  // A number alone on its line opens too: a Word entry whose text is all a hyperlink ("11. " then
  // "https://..."), which the reader sets on a line of its own. So does a link typed right after
  // the dot ("3.https://..."), an entry that is a link alone in a list of them.
  { name: 'dot', re: /^(\d{1,4})\.(?:\s+|(?=\p{Lu}|https?:\/\/|www\.)|$)/u },
  { name: 'paren', re: /^\((\d{1,4})\)\s*/ },
  { name: 'bare', re: new RegExp(String.raw`^(\d{1,4})\s+(?=\p{Lu}|${PARTICLE_OPENING})`, 'u') },
  // The number alone on its line over its entry: a Word list whose numbers are paragraphs of their
  // own (a heading style given to each), read back from the file or from its PDF.
  { name: 'alone', re: /^(\d{1,4})\s*$/ },
];

function splitNumbered(lines: BlockLine[]): BlockLine[][] | null {
  let best: BlockLine[][] | null = null;
  let bestName = '';
  for (const { re, name } of MARKERS) {
    const refs: BlockLine[][] = [];
    let expected: number | null = null;
    for (const line of lines) {
      const m = re.exec(line.text);
      const n = m ? Number(m[1]) : NaN;
      const starts = m && (expected === null ? n <= 2 : n >= expected && n <= expected + 2);
      if (starts) {
        refs.push([line]);
        expected = n + 1;
      } else if (refs.length) refs[refs.length - 1]!.push(line);
    }
    if (refs.length >= 2 && (!best || refs.length > best.length)) {
      best = refs;
      bestName = name;
    }
    // A list of one entry ("[1] A. Author, ...", a short letter) is numbered when its first line
    // carries the bracketed "[1]", which no author-year entry opens with.
    if (refs.length === 1 && !best && re === MARKERS[0]!.re && refs[0]![0] === lines[0]) best = refs;
  }
  // A list parted under headings of its own, numbered through all its parts in another order than
  // it prints them (biblatex's sub-bibliographies by type: "[8]", "[22]" under one, "[16]", "[17]"
  // under the next, "[1]", "[2]" under the third): the bracketed labels opening lines, each given
  // once, are together every number from 1 to the last; each opens an entry.
  const permuted = bracketPermutation(lines);
  if (permuted && (!best || permuted.length > best.length)) {
    best = permuted;
    bestName = 'bracket';
  }
  // Numbering must cover most of the list, or it is page numbers or years inside entries.
  if (!best) return null;
  const covered = best.reduce((n, r) => n + r.length, 0);
  if (covered < 0.8 * lines.length) return null;
  if (bestName === 'bracket') best = splitAtShorthands(best);
  // A number alone on its line is the entry's label, not its text (what follows it may open with
  // a quotation mark, which the field parser would not know a number before).
  return bestName === 'alone' ? best.map((r) => (r.length > 1 ? r.slice(1) : r)) : best;
}

/**
 * A work's shorthand in brackets opening an entry ("[KpV] Immanuel Kant. ...", "[KU] ..."): a
 * thesis that cites classic works by their abbreviations prints them among the numbers of its
 * list (biblatex's shorthands). Two capitals at least, so a note in brackets ("[Online]") is none.
 */
const SHORTHAND_LABEL = /^\[(?=\p{Lu}\p{L}*\p{Lu})\p{L}{2,6}\]\s+\p{Lu}/u;

/**
 * A numbered list's entries split at the lines that open on a shorthand where the numbers open
 * theirs: at the numbered lines' indent or left of it (labels set flush right in their box, a wider
 * one opening further left), in a list whose entries run on at a hanging indent well in from it
 * (else a line opening on a bracket could be any entry's next line).
 */
function splitAtShorthands(refs: BlockLine[][]): BlockLine[][] {
  const openers = refs.map((r) => r[0]!.indent);
  const runOn = refs.flatMap((r) => r.slice(1).map((l) => l.indent));
  const highest = Math.max(...openers);
  if (runOn.length === 0 || median(runOn) < highest + 0.6) return refs;
  const opensLikeNumber = (l: BlockLine) => SHORTHAND_LABEL.test(l.text) && l.indent <= highest + 0.3;
  return refs.flatMap((r) => {
    const out: BlockLine[][] = [[r[0]!]];
    for (const l of r.slice(1)) {
      if (opensLikeNumber(l)) out.push([l]);
      else out[out.length - 1]!.push(l);
    }
    return out;
  });
}

/** Entries opened by bracketed numbers out of order, each number given once, 1 to the last (three at least). */
function bracketPermutation(lines: BlockLine[]): BlockLine[][] | null {
  const seen = new Set<number>();
  const refs: BlockLine[][] = [];
  for (const line of lines) {
    const m = /^\[(\d{1,4})\]\s/.exec(line.text);
    if (m) {
      const n = Number(m[1]);
      if (seen.has(n)) return null;
      seen.add(n);
      refs.push([line]);
    } else if (refs.length) refs[refs.length - 1]!.push(line);
    else return null;
  }
  if (refs.length < 3 || Math.max(...seen) !== seen.size || !seen.has(1)) return null;
  return refs;
}

/** "Surname, I." opening a line: an author-year entry's first author. */
const SURNAME_INITIAL = /^\p{Lu}[\p{L}'’-]+,\s\p{Lu}\./u;
/** An entry's opening on a surname and a given name written out: "Spagat, Michael", "Cunen, Céline". */
const SURNAME_GIVEN = /^\p{Lu}[\p{L}'’-]+,\s\p{Lu}\p{Ll}[\p{L}'’-]*[,.\s]/u;

/** An entry's first author opening a line: "A. D. Light," or "Schaffner, D. A.,". */
const NAME_OPENING = /^(?:(?:\p{Lu}\.\s?){1,3}\s*\p{Lu}[\p{L}'’-]+,|\p{Lu}[\p{L}'’-]+,\s\p{Lu}\.)/u;

/** A space above a line, in line heights, that sets a paragraph apart (a tenth of a line or more). */
const PARAGRAPH_SKIP = 0.1;

function splitByLayout(lines: BlockLine[]): BlockLine[][] {
  const indents = lines.map((l) => l.indent);
  const minIndent = Math.min(...indents);
  // Hanging indents run from three quarters of the body's size (OUP's bioinfo class) to a few.
  const hanging = lines.filter((l) => l.indent > minIndent + 0.6).length;
  const flush = lines.length - hanging;
  // A list of short entries, most on one line, hangs only its few long ones (Cambridge's jpp.bst):
  // its set-in lines are then too few for the share above, but each flush line opens on a name
  // ("A. D. Light, et al. 2013", "Schaffner, D. A., ...") and no set-in line does.
  const opensOnName = (l: BlockLine) => NAME_OPENING.test(l.text.trim());
  const shortHanging =
    hanging >= 2 &&
    flush >= 3 &&
    lines.filter((l) => l.indent <= minIndent + 0.6 && opensOnName(l)).length >= 0.8 * flush &&
    !lines.some((l) => l.indent > minIndent + 0.6 && opensOnName(l));
  const useIndent = (hanging >= 0.2 * lines.length && flush >= 2) || shortHanging;
  // Entries set as paragraphs indent their first line instead of hanging the others (pandoc's
  // svjour3 output). Then the lines set in are the ones that follow a line ending an entry (a
  // full stop) and have the space between entries above them; in a hanging list the flush ones
  // do. The first entry after a heading is not set in at all (TeX's first paragraph).
  const setIn = (l: BlockLine) => l.indent > minIndent + 0.6;
  // An entry of an author-year list may close on a link with no stop ("Retrieved from https://..."):
  // a line that opens with a surname and initials opens one as well.
  const opensEntry = (k: number) =>
    /[.]$/.test(lines[k - 1]!.text.trim()) ||
    lines[k]!.gapAbove > PARAGRAPH_SKIP ||
    (/^(?:https?:\/\/|doi:|10\.\d{4,9}\/)\S+$/i.test(lastWord(lines[k - 1]!.text.trim())) &&
      SURNAME_INITIAL.test(lines[k]!.text));
  const share = (wanted: boolean) => {
    const ks = lines.flatMap((l, k) => (k > 0 && setIn(l) === wanted ? [k] : []));
    return ks.length ? ks.filter(opensEntry).length / ks.length : 0;
  };
  const setInOpens = useIndent ? share(true) : 0;
  const firstLineIndent = setInOpens >= 0.6 && share(false) <= setInOpens / 2;
  // Entries set apart by space. A list set at wider spacing (a thesis at one and a half lines)
  // stands every line apart: the space between entries is then the smallest line's plus as much.
  const lineGaps = lines.slice(1).flatMap((l) => (l.pageTop ? [] : [l.gapAbove]));
  const smallestGap = lineGaps.length ? Math.min(...lineGaps) : 0;
  const entryGap = smallestGap > 0.2 ? smallestGap + 0.2 : 0.2;
  const useGap = !useIndent && lines.filter((l) => l.gapAbove > entryGap).length >= 2;
  // A list whose entries, where the space shows them, mostly open on a surname and a given name
  // written out ("Spagat, Michael, ...", Chicago author-date): at a page's top, where no space
  // shows, a line of that shape after one that closed a sentence opens an entry too.
  const spacedOpenings = lines.filter((l, k) => k > 0 && !l.pageTop && l.gapAbove > entryGap);
  const givenNamesOpen =
    spacedOpenings.length >= 3 &&
    spacedOpenings.filter((l) => SURNAME_GIVEN.test(l.text)).length >= 0.6 * spacedOpenings.length;
  // A hanging list that draws a repeated author list as a rule (natbib and harvard styles'
  // \BySame, AER's \bysame): the rule is no text, and under a line that closed the entry before,
  // the entry's first line starts with what followed the names: its year, set in past the other
  // entries' hanging lines ("(2020): ..."), or the rest of the list or the title at the hanging
  // indent (", “The condition of ...", "and Simon Gächter, ...").
  const hangingIndent = median(
    lines.filter(setIn).map((l) => l.indent),
    1,
  );
  const afterDrawnRule = (line: BlockLine, prev: BlockLine | undefined) =>
    prev !== undefined &&
    /[.]$/.test(prev.text.trim()) &&
    ((line.indent > hangingIndent + 1.5 && /^\(?(?:1[6-9]|20)\d\d[a-z]?\)?[):.,]/.test(line.text.trim())) ||
      // No line of an entry opens on a comma: TeX breaks after one, never before.
      /^,\s/.test(line.text.trim()) ||
      // "and" opens a line of a list of names too; at a page's top, where no space shows, only
      // the names and a quoted title after them tell.
      (/^and\s\p{Lu}/u.test(line.text.trim()) &&
        ((!line.pageTop && line.gapAbove > entryGap) ||
          /^and\s\p{Lu}[\p{L}.'’ -]{0,60},\s[“"‘]/u.test(line.text.trim()))));
  const refs: BlockLine[][] = [];
  // Author-year lists without layout cues: a line that begins "Surname, I." or "Surname I" after
  // a line that ended a sentence. A body as author ("NASA. 2015.", AAAI's style) has no initials:
  // its name and a period come straight before the year.
  const opensAfterSentence = (line: BlockLine, prev: BlockLine | undefined) =>
    prev !== undefined &&
    /[.]$/.test(prev.text) &&
    (/^\p{Lu}[\p{L}'’-]+,?\s+(?:\p{Lu}\.|\p{Lu}{1,3}\b)/u.test(line.text) ||
      /^\p{Lu}[\p{L}'’&-]*(?: [\p{L}'’&-]+){0,5}\.\s+\(?(?:1[6-9]|20)\d\d[a-z]?\)?[.,]/u.test(line.text));
  lines.forEach((line, i) => {
    const prev = lines[i - 1];
    let starts = i === 0;
    if (firstLineIndent) starts ||= setIn(line);
    else if (useIndent) starts ||= line.indent <= minIndent + 0.4 || afterDrawnRule(line, prev);
    // Entries set apart by space: at a page's top no space shows, and the entry's opening tells.
    else if (useGap)
      starts ||=
        // The space over a page's top line is the page's (or a running head's left above it).
        (line.pageTop !== true && line.gapAbove > entryGap) ||
        (line.pageTop === true &&
          (opensAfterSentence(line, prev) ||
            endsWithLink(refs[refs.length - 1]!) ||
            (givenNamesOpen && /[.]$/.test(prev?.text ?? '') && SURNAME_GIVEN.test(line.text))));
    else starts ||= opensAfterSentence(line, prev);
    if (starts) refs.push([line]);
    else refs[refs.length - 1]!.push(line);
  });
  return refs;
}

/**
 * An entry whose text so far closes with a link and a full stop ("... https://doi.org/10.1/x."):
 * author-date styles print the URL or DOI last, so the entry is whole, and a line at the next
 * page's top opens another one, however its names are written ("Campbell, Finlay, ...").
 */
function endsWithLink(entryLines: BlockLine[]): boolean {
  const tail = joinLines(joinDoiBreaks(entryLines.slice(-2).map((l) => l.text)));
  return /^(?:https?:\/\/|doi:|10\.\d{4,9}\/)\S+\.$/i.test(lastWord(tail.trim()));
}

interface Entry {
  text: string;
  links: string[];
}

function entry(lines: BlockLine[]): Entry {
  return {
    text: joinLines(joinDoiBreaks(lines.map((l) => l.text))),
    links: lines.flatMap((l) => l.links ?? []),
  };
}

/** The text after the last white space (all of it when it has none), found without a regex. */
function lastWord(s: string): string {
  let i = s.length;
  while (i > 0 && !/\s/.test(s[i - 1]!)) i--;
  return s.slice(i);
}

/**
 * A DOI cut inside its prefix, before the slash: "https://doi.org/10.100" then "2/978...". Only
 * after "doi.org/" or "doi:": a bare "10.5" at a line end is as likely a number.
 */
const CUT_PREFIX = /^(?:(?:https?:\/\/)?(?:dx\.)?doi\.org\/|doi:)10\.\d{0,8}$/i;
/**
 * The same cut where a label and a space stand before the prefix: "doi: 10." then "18653/v1/...",
 * or "doi : 10." with the space French typography sets before a colon (biblatex in French).
 * Read on the last few characters of the line, so the test stays short on a long line.
 */
const CUT_AFTER_LABEL = /(?:^|\s)doi\s?:?\s10\.\d{0,8}$/i;
/** A DOI whole enough to be cut in its suffix: "10.1111/2041-2" then "10X.12541". */
const DOI_AT_END = /(?:^|[/:])10\.\d{4,9}\/\S/;
/** Longer words are no DOI piece; the limit keeps the two word tests short on hostile input. */
const MAX_DOI_WORD = 300;
/**
 * The first word of a line that goes on with a DOI's suffix: DOI characters only, with a digit
 * and a ".", "/" or "-" between two of them ("10X.12541.", "6/science.ns-15.366.92"), or opening
 * with the "-" or "." the break fell before ("-2656.2006.01141.x"). A title word, a year ("2014.")
 * or an entry's number ("12.") has neither shape.
 */
const SUFFIX_GOES_ON = /^(?:[-.][\w.()/;:-]*\w|(?=[\w.()/;:-]*\d)[\w()]+[./-][\w.()/;:-]*\w)[.,;]?$/;

/**
 * Lines of one entry, with a DOI broken at a line end put back together. Typesetters break a long
 * URL anywhere, without a hyphen: the text joiner then sets a space inside the DOI, which cuts it.
 * Each test reads one word at each side of the break, so the work stays linear.
 */
export function joinDoiBreaks(lines: string[]): string[] {
  const out: string[] = [];
  for (const [k, raw] of lines.entries()) {
    const line = raw.trim();
    const prev = out[out.length - 1];
    if (prev !== undefined && line) {
      const end = lastWord(prev);
      const space = line.search(/\s/);
      const first = space < 0 ? line : line.slice(0, space);
      // The entry's last line holding nothing but a few characters and the closing stop ("3."):
      // the end of a DOI the line break cut ("10.1038/nature0415" over "3."), no word of its own.
      // A book's DOI that ends in a whole ISBN is whole: the number after it is its chapter's,
      // printed after an underscore the text lost ("...-8456-1" over "48"), which findDoi reads.
      const lastPiece =
        k === lines.length - 1 &&
        /^[\dA-Za-z]{1,6}\.?$/.test(line) &&
        !/^(?:1[6-9]|20)\d\d\.?$/.test(line) &&
        !ISBN_DOI.test(end);
      const joins =
        end.length <= MAX_DOI_WORD &&
        first.length <= MAX_DOI_WORD &&
        (((CUT_PREFIX.test(end) || CUT_AFTER_LABEL.test(prev.slice(-20))) && /^\d*\/\S/.test(first)) ||
          (DOI_AT_END.test(end) && !/[-/._=?&#]$/.test(end) && (SUFFIX_GOES_ON.test(first) || lastPiece)));
      if (joins) {
        out[out.length - 1] = prev + line;
        continue;
      }
    }
    out.push(line);
  }
  return out;
}

/**
 * A paragraph that holds a link and nothing else but the date it was read ("Accessed: May 4, 2018"),
 * the link bare, after a "URL:" label, or in angle brackets ("<https://...>").
 */
const LINK_PARAGRAPH =
  /^(?:url\s*:?\s*)?(?:<(?:https?:\/\/|www\.)[^\s<>]+>|(?:https?:\/\/|www\.)\S+)(?:\s+\(?(?:accessed|retrieved|last accessed|viewed)\b[^()]{0,60}\)?\.?)?$/iu;

export function splitReferences(
  lines: BlockLine[],
  paragraphs: string[] | null,
  paragraphLinks: string[][] = [],
): Entry[] {
  const nonEmpty = lines.filter((l) => l.text.trim());
  if (nonEmpty.length === 0) return [];
  const numbered = splitNumbered(nonEmpty);
  if (numbered) return numbered.map(entry);
  // Word documents: one paragraph per entry, with the targets of its hyperlinks (a DOI may be only
  // the target of a linked title, as R Markdown's author-year styles print a software's DOI).
  if (paragraphs && paragraphs.length >= 2) {
    const out: Entry[] = [];
    paragraphs.forEach((text, k) => {
      const links = paragraphLinks[k] ?? [];
      const prev = out[out.length - 1];
      // An entry's address typed in a paragraph of its own under it ("Valley Agency (2017) Title." then
      // "https://www.agency.example/... Accessed: May 4, 2018"): a paragraph that is a link and an access
      // date at most goes on with the entry above, when that entry has no link of its own.
      // An entry broken into two paragraphs by hand (a list pasted from a PDF, its lines kept): the
      // first ends on a word no entry ends on ("... International Journal of"), or the second is
      // the volume, issue and pages alone ("2(6): 1-26.") under an entry that has none.
      const brokenEntry =
        prev &&
        (DANGLING_END.test(prev.text.trim()) ||
          (VOLUME_PARAGRAPH.test(text.trim()) && !VOLUME_PAGES.test(prev.text)));
      if (
        prev &&
        (brokenEntry ||
          (LINK_PARAGRAPH.test(text.trim()) && !/https?:\/\/|www\.|doi:|\b10\.\d{4,9}\//i.test(prev.text)))
      ) {
        // A break between two Chinese or Japanese characters is no space.
        const head = prev.text.trimEnd();
        prev.text = `${head}${meetInCjk(head, text.trim()) ? '' : ' '}${text.trim()}`;
        prev.links.push(...links);
      } else out.push({ text, links: [...links] });
    });
    return out;
  }
  return splitByLayout(nonEmpty).map(entry);
}

/** A word no entry ends on: a preposition, an article or a conjunction left open. */
const DANGLING_END = /\s(?:of|and|the|in|for|on|to|&)$/i;
/**
 * A paragraph of a volume, its issue and pages alone: "2(6): 1-26.", "14, 120–131", an issue
 * numbered with a letter ("2023(Z1): 25–32"), after the end of the journal's name that the break
 * cut off ("学, 2023(Z1): 25–32.", a Chinese list whose journal name ran over the line).
 */
const VOLUME_PARAGRAPH =
  /^(?:[^\s\d,，]{1,12}[,，]\s?)?\d{1,4}(?:\s?\([\p{L}\d]{1,4}\))?\s?[:,]\s?\d{1,6}(?:\s?[-–]\s?\d{1,6})?\.?$/u;
/** A volume with its issue and pages inside an entry: "3(12): 22", "2(8), 1". */
const VOLUME_PAGES = /\d\s?\(\d{1,4}\)\s?[:,]\s?\d/;

/** A line that closes with a link, as author-date styles close an entry: its URL or DOI last. */
const CLOSES_WITH_LINK = /(?:^|\s)(?:https?:\/\/|doi:\s?|10\.\d{4,9}\/)\S+$/i;
/** A line that opens an author-date entry: "Surname, I." with a year soon after. */
const OPENS_AUTHOR_DATE = /^\p{Lu}[\p{L}'’-]+,\s+\p{Lu}\.(?=.{0,200}\b(?:1[6-9]|20)\d\d[a-z]?\b)/su;

/**
 * The entries of a Word reference list, one a paragraph, with each paragraph's link targets.
 * Two entries typed in one paragraph with a line break between them (a reference manager's list
 * pasted by hand, one entry's link closing a line and the next entry opening the line after it)
 * are two: the paragraph is split at that line, and each link goes with the entry that prints it.
 */
export function wordEntries(blocks: readonly Block[]): { texts: string[]; links: string[][] } {
  const texts: string[] = [];
  const links: string[][] = [];
  for (const b of blocks) {
    const parts: string[][] = [[]];
    b.lines.forEach((line, k) => {
      const prev = b.lines[k - 1];
      if (prev && CLOSES_WITH_LINK.test(prev.text.trim()) && OPENS_AUTHOR_DATE.test(line.text.trim()))
        parts.push([]);
      parts[parts.length - 1]!.push(line.text);
    });
    if (parts.length === 1) {
      texts.push(b.text);
      links.push(b.links);
      continue;
    }
    const partTexts = parts.map((p) => p.join(' ').replace(/\s+/g, ' ').trim());
    partTexts.forEach((text, k) => {
      texts.push(text);
      // A link whose target the text prints goes with that entry; one printed nowhere stays
      // with the first, as it did with the whole paragraph.
      const printedIn = (l: string) => partTexts.findIndex((t) => t.includes(l.replace(/^https?:\/\//i, '')));
      links.push(b.links.filter((l) => (printedIn(l) < 0 ? k === 0 : printedIn(l) === k)));
    });
  }
  return { texts, links };
}

/**
 * The reference list's entries, parsed. A DOI printed only as a link ("[link]", "Crossref", a
 * linked title) is read from the entry's link annotations when its text shows none.
 */
export function parseReferenceList(
  lines: BlockLine[],
  paragraphs: string[] | null,
  paragraphLinks: string[][] = [],
): ParsedReference[] {
  return splitReferences(lines, paragraphs, paragraphLinks)
    .filter((e) => e.text.length >= 10)
    .map((e) => {
      const parsed = parseReference(e.text);
      // A DOI holds no space: one encoded in the link ("10.22331/%20q-2017", the source's line
      // break inside \href) is a typing slip, and the DOI goes on after it.
      const linked = e.links.map((l) => findDoi(safeDecode(l).replace(/\s+/g, ''))).find((d) => d !== null);
      // A hyphen the typesetter set at a line break inside the DOI ("arch-" + "inte") cannot be
      // told from one of the DOI's own in the text; the link over it, when there is one, says which.
      // So does a text DOI cut short where a glyph reads as a space (Typst's hyphen in a link:
      // "10.1038/s41598 025 17943 w"), when the link's DOI goes on from it.
      if (linked && (!parsed.doi || sameButHyphens(parsed.doi, linked) || goesOnFrom(linked, parsed.doi)))
        parsed.doi = linked;
      return parsed;
    });
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * Two DOIs that differ only by hyphens, case aside: the text has one the link lacks (a break's
 * hyphen), or lacks one the link has (a hyphen read as a space at a line's end, joined away).
 */
function sameButHyphens(text: string, link: string): boolean {
  return (
    text.length !== link.length &&
    text.replace(/-/g, '').toLowerCase() === link.replace(/-/g, '').toLowerCase()
  );
}

/** `longer` is `shorter` gone on past a separator ("10.1002/joc" → "10.1002/joc.1688"), case aside. */
function goesOnFrom(longer: string, shorter: string): boolean {
  return (
    longer.length > shorter.length &&
    longer.toLowerCase().startsWith(shorter.toLowerCase()) &&
    /[./_-]/.test(longer[shorter.length]!)
  );
}

const DOI_RE = /\b(10\.\d{4,9}\/[^\s"<>]+)/i;
/**
 * An en dash between two letters or digits. A typographic hyphen (U+2010) is left as printed, as
 * the AnyStyle gold set keeps it.
 */
const TYPESET_HYPHEN = /(?<=[\p{L}\d])\u2013(?=[\p{L}\d])/gu;
/** After a DOI's closing hyphen: one space, then a word of DOI characters that holds a digit. */
const HYPHEN_GOES_ON = /^ ((?=[\w.()/;:-]*\d)[\w()][^\s"<>]*)/;
/**
 * A DOI printed after its label with the stretch of a justified line read as spaces around its
 * separators ("doi: 10 . 1080 / 01431161 . 2018 . 1445880", biblatex's breakable URLs): the prefix
 * "10 . NNNN /" and the suffix's pieces that open with a digit after a spaced separator.
 */
const SPACED_DOI = /(\bdoi:?\s?)10 \. (\d{4,9}) \/ ?([\w()-]+(?: [./-] \d[\w()-]*){0,20})/gi;

function unspaceLabelledDoi(text: string): string {
  if (!text.includes(' . ')) return text;
  return text.replace(
    SPACED_DOI,
    (_, label: string, registrant: string, suffix: string) =>
      `${label}10.${registrant}/${suffix.replace(/ ([./-]) /g, '$1')}`,
  );
}
/**
 * Old Wiley DOIs follow the SICI standard and hold "<" and ">":
 * "10.1002/(SICI)1097-0258(19980530)17:10<1103::AID-SIM793>3.0.CO;2-9". Where a DOI with "(SICI)"
 * stops at "<", the bracketed part and what follows are read on.
 */
const SICI_TAIL = /^<[^\s"<>]{1,200}>[^\s"<>]*/;
/**
 * Other publishers' SICI DOIs carry no "(SICI)" (GSA, AMS journals:
 * "10.1130/0091-7613(1995)023<1044:ECCALT>2.3.CO;2"): the part after ">" tells them, a version, a
 * code-structure and a derivative part ("2.3.CO", "3.0.CO") and a check character after ";".
 */
const SICI_CODE_TAIL = /^<[^\s"<>]{1,200}>\d\.\d\.[A-Z]{2};[0-9A-Z#]/i;
/** Typographic quotes come from the running text, never from a DOI. */
const TEXT_QUOTE = /[‘’“”]/;
/**
 * An arXiv identifier glued to a DOI ("10.1103/PhysRevD.1.2arXiv:1905.01234"), where a line
 * break between them was lost. A DOI names arXiv with a dot ("10.48550/arXiv.1905.01234"), never
 * with a colon.
 */
const GLUED_ARXIV = /.arxiv:/i;
/**
 * A book DOI whose suffix is an ISBN-13 ("10.1007/978-3-642-40084-1"): publishers number its
 * chapters after an underscore ("..._6", "..._23-1"). LaTeX's OT1 fonts draw "\_" as a rule, not a
 * glyph, so the PDF's text shows a space there: "978-3-642-40084-1 6".
 */
const ISBN_DOI = /\/97[89](?:-?\d){10}$/;
const CHAPTER_AFTER_SPACE = /^ (\d{1,4}(?:-\d{1,3})?)(?=[.,;]?(?:\s|$))/;
/**
 * What a URL adds after a DOI in its path: a file extension ("/content/pdf/10.1007/x.pdf") or a
 * view word ("/10.3389/fpsyg.2020.01234/full"). Registered DOIs do not end so; a DOI read inside
 * a URL path (a "/" before its "10.") that does has it from the URL.
 */
const URL_PATH_TAIL = /(?:\.(?:pdf|html?|xml|epub)|\/(?:full|abstract|pdf|epdf|html))$/i;

/**
 * The next field's label glued to a DOI's closing stop where a line break between them was lost
 * (biblatex: "DOI: 10.1145/3243734.3243746." then "URL: https://..." on the next line), a
 * PubMed label with its number too ("10.1016/j.cell.2020.01.001.PMID:32000000").
 */
const GLUED_LABEL =
  /\.(?:(?:URL|ISBN|ISSN|PMID|PMCID|EPRINT)[:.]?|(?:PMID:?\d{1,8}|PMCID:?PMC\d{1,8})[.,;]?)$/;

/**
 * A raised sign glued after a DOI's closing stop: the next line's superscript ("b⁺ trees") read
 * onto the DOI's line, which it stands above ("doi:10.1145/356770.356776.+"). No DOI ends so.
 */
const GLUED_RAISED_SIGN = /\.[+*−±]+$/u;

/** A year glued to a DOI's end by a comma: ",2010", ",2013a." (a DOI suffix ends otherwise). */
const GLUED_YEAR = /,(?:1[89]|20)\d\d[a-z]?[.,;:]?$/;

/** A DOI labelled as one: after "doi:" or a resolver's address. */
const LABELLED_DOI = /(?:\bdoi:\s?|doi\.org\/)(?=10\.\d)/i;

/** The "10." at `at` is in the path of a web address whose host is no DOI resolver. */
function inOtherAddress(source: string, at: number): boolean {
  if (source[at - 1] !== '/') return false;
  const word =
    source
      .slice(Math.max(0, at - MAX_DOI_WORD), at)
      .split(/\s/)
      .pop() ?? '';
  return /^(?:https?:\/\/|www\.)/i.test(word) && !/doi\.org\/$/i.test(word);
}

export function findDoi(text: string, readOn = true): string | null {
  // "10.1007/978-3-662-43948-7\_24": an underscore a bibliography style escaped for TeX and the
  // escape printed with it. No DOI has a backslash before an underscore otherwise; where the
  // underscore is drawn as a rule, the text layer has a space after the backslash ("7\ 1").
  // Angle brackets set in a math face ("〈1032:SASVOA〉", a SICI DOI in a URL) are "<" and ">".
  const source = unspaceLabelledDoi(
    text
      .replace(/doi\.org\/\s+/gi, 'doi.org/')
      .replace(/\\(?:_| (?=\d))/g, '_')
      .replace(/[〈⟨〈]/g, '<')
      .replace(/[〉⟩〉]/g, '>'),
  );
  const m = DOI_RE.exec(source);
  if (!m) return null;
  let doi = m[1]!;
  // A hyphen the typesetter broke a URL after, with the stretch of a justified line read as a
  // space inside the line ("10.1007/s12237- 011-9423-5"): a registered DOI does not end in a
  // hyphen, and the word after it, of DOI characters with a digit, is the rest of it.
  let end = m.index + doi.length;
  for (let k = 0; k < 10 && doi.endsWith('-'); k++) {
    const rest = HYPHEN_GOES_ON.exec(source.slice(end, end + MAX_DOI_WORD));
    if (!rest) break;
    doi += rest[1]!;
    end += rest[0].length;
  }
  const after = source.slice(end, end + 400);
  if (/\(sici\)/i.test(doi) || SICI_CODE_TAIL.test(after)) {
    const tail = SICI_TAIL.exec(after);
    if (tail) {
      doi += tail[0];
      end += tail[0].length;
    }
  }
  if (ISBN_DOI.test(doi)) {
    const chapter = CHAPTER_AFTER_SPACE.exec(source.slice(end, end + 12));
    if (chapter) doi += '_' + chapter[1];
  }
  const quote = TEXT_QUOTE.exec(doi);
  if (quote) doi = doi.slice(0, quote.index);
  const arxiv = GLUED_ARXIV.exec(doi);
  if (arxiv) doi = doi.slice(0, arxiv.index + 1);
  // The entry's year after the DOI with the space after its comma lost in the text layer
  // ("doi:10.2151/sola.2010-019,2010a.", Copernicus): the year, with the letter that tells one
  // author's papers of a year apart, is the entry's, not the DOI's.
  doi = doi.replace(GLUED_YEAR, '').replace(GLUED_LABEL, '').replace(GLUED_RAISED_SIGN, '');
  // Trailing punctuation belongs to the sentence, unless it closes a bracket opened in the DOI.
  for (;;) {
    const last = doi[doi.length - 1];
    if (last && '.,;:'.includes(last)) doi = doi.slice(0, -1);
    else if (last === ')' && (doi.match(/\(/g)?.length ?? 0) < (doi.match(/\)/g)?.length ?? 0))
      doi = doi.slice(0, -1);
    else if (last === ']' && !doi.includes('[')) doi = doi.slice(0, -1);
    else break;
  }
  if (source[m.index - 1] === '/') doi = doi.replace(URL_PATH_TAIL, '');
  // "10.26434/chemrxiv–2023–8c1mt": a bibliography's DOI field typed with LaTeX's "--" prints an
  // en dash between two of its letters or digits, where the registered DOI has a hyphen.
  doi = doi.replace(TYPESET_HYPHEN, '-');
  // A DOI field cut short in the bibliography ("doi:10.1002/joc") before the URL that holds it
  // whole (".../doi/10.1002/joc.1688/full"): the one that goes on from it, in the next words.
  if (readOn) {
    const later = findDoi(source.slice(end, end + MAX_DOI_WORD), false);
    if (later && goesOnFrom(later, doi)) doi = later;
    // A "10." read in the path of another site's address (a digital library's handle,
    // "https://library.example.org/handle/10.2312/4711") before the entry's own labelled DOI
    // ("doi:10.1111/..."): the labelled one is the DOI.
    if (inOtherAddress(source, m.index)) {
      const rest = source.slice(end, end + 2 * MAX_DOI_WORD);
      const label = LABELLED_DOI.exec(rest);
      const labelled = label ? findDoi(rest.slice(label.index), false) : null;
      if (labelled) doi = labelled;
    }
  }
  // A suffix of one letter is a DOI cut short where the typesetter spaced it after a stop ("10.1016/j.
  // ajhg. 2020.08.017", a DOI printed in an erratum's title): no DOI is read from it.
  if (/\/\p{L}$/u.test(doi)) return null;
  return doi;
}

// ---- field parsing ----

const PARTICLE = String.raw`(?:[vV]an|[vV]on|der|den|[dD]e|del|della|[dD]i|[dD]a|dos|du|[lL]e|[lL]a|el|[aA]l|bin|ten|ter|zu|St\.)`;
const SURNAME_WORD = String.raw`(?:\p{Lu}['’])?\p{Lu}[\p{L}'’]*(?:-\s?\p{L}[\p{L}'’]*)*`;
const SURNAME = String.raw`(?:${PARTICLE}\s)*${SURNAME_WORD}`;
/** Initials with periods: "J.", "J. A.", "J.-P.", "Ch." */
const INIT_DOT = String.raw`\p{Lu}\p{Ll}?\.(?:\s?-?\p{Lu}\p{Ll}?\.)*`;
/** Initials without periods, Vancouver style: "BD", "Y-H". */
const INIT_BARE = String.raw`\p{Lu}{1,3}(?:-\p{Lu}{1,2})?(?![\p{L}'’])\.?`;
/** Initials mixing both: "R. O", "J.P". */
const INITS = String.raw`(?:\p{Lu}\p{Ll}?\.|\p{Lu}(?![\p{L}'’]))(?:\s?-?(?:\p{Lu}\p{Ll}?\.|\p{Lu}(?![\p{L}'’])))*`;
const GIVEN = String.raw`\p{Lu}\p{Ll}+(?:-\p{Lu}?\p{Ll}+)?`;
/**
 * One middle part of a full name, between spaces: a given name ("Paul"), dotted initials written
 * together ("A.", "Ch.", "P.S.", "J.-P.", "AB.") or bare ones ("MB"). Each text matches one way only:
 * with INIT_DOT and INIT_BARE in a repetition, "A. A. A." could be cut in exponentially many ways
 * (INIT_DOT takes one or several, INIT_BARE also reads "A."), and an entry of twenty initials held a
 * parser worker past its time limit.
 */
const MIDDLE = String.raw`(?:${GIVEN}|(?:\p{Lu}\p{Ll}?|\p{Lu}{2,3})\.(?:-?\p{Lu}\p{Ll}?\.)*|\p{Lu}{1,3}(?:-\p{Lu}{1,2})?(?![\p{L}'’.]))`;
const SUFFIX = String.raw`(?:,?\s(?:Jr|Sr|II|III|IV)\.?)?`;

type Form = 'inverted' | 'vancouver' | 'initialsFirst' | 'invertedFull' | 'natural' | 'group';
interface UnitForm {
  form: Form;
  /** Sticky, to match at a position. */
  at: RegExp;
  /** Anchored both ends, to test a shorter cut of a greedy match. */
  whole: RegExp;
}
const unit = (form: Form, source: string): UnitForm => ({
  form,
  at: new RegExp(source, 'uy'),
  whole: new RegExp(`^(?:${source})$`, 'u'),
});
const UNIT_FORMS: UnitForm[] = [
  // Lee, B. D. / Pate, C. Marvin / El Gorsey, A. / Lamaire, R. O / ALLEN (J.P.)
  unit(
    'inverted',
    String.raw`${SURNAME}(?:\s${SURNAME_WORD})?${SUFFIX},\s?(?:${INITS}|${INIT_BARE})(?:\s${GIVEN})?${SUFFIX}`,
  ),
  unit(
    'inverted',
    String.raw`${SURNAME}(?:\s${SURNAME_WORD})?${SUFFIX},\s?(?:${INITS}|${INIT_BARE})${SUFFIX}`,
  ),
  unit('inverted', String.raw`${SURNAME}\s\(${INITS}\)`),
  // Lee BD / ROSANVALLON P. / Harrison R.M.
  unit('vancouver', String.raw`${SURNAME}(?:\s${SURNAME_WORD})?\s(?:${INITS}|${INIT_BARE})${SUFFIX}`),
  // B. D. Lee / J.W. Lichtman / AM Trinkoff / R. Platt Jr
  unit('initialsFirst', String.raw`(?:${INIT_DOT}\s?|\p{Lu}{1,3}\s)(?:${GIVEN}\s)?${SURNAME}${SUFFIX}`),
  // Nichols, Bill / Cohen, William A. / BIASI, Pierre-Marc de / Tootell, Geoffrey MB
  unit('invertedFull', String.raw`${SURNAME}${SUFFIX},\s${GIVEN}(?:\s${MIDDLE})*(?:\s\p{Ll}{2,3})?`),
  unit('invertedFull', String.raw`${SURNAME}${SUFFIX},\s${GIVEN}`),
  // Joseph A. Schumpeter / Jaswinder Pal Singh / Barouh Emmy / KAHAN Marcel
  unit('natural', String.raw`${GIVEN}(?:\s${MIDDLE})*\s${SURNAME}${SUFFIX}`),
  unit('natural', String.raw`${GIVEN}\s${SURNAME}${SUFFIX}`),
  unit('natural', String.raw`\p{Lu}{2,}(?:[-\s]\p{Lu}{2,})*\s${GIVEN}`),
  // An organisation as author, recognised only when the year follows at once: "UNHCR, 2015."
  unit(
    'group',
    String.raw`\p{Lu}[\p{L}&-]*(?:\s(?:of|for|and|the|\p{Lu}[\p{L}&-]*)){0,6}(?=,?\s\(?(?:1[5-9]|20)\d\d\b)`,
  ),
];

/** Which forms may follow the first author's: "Derrick, D., I. Stavness and B. Gick". */
const FOLLOWS: Record<Form, Form[]> = {
  inverted: ['inverted', 'initialsFirst', 'vancouver'],
  vancouver: ['vancouver'],
  initialsFirst: ['initialsFirst'],
  invertedFull: ['invertedFull', 'natural', 'initialsFirst'],
  natural: ['natural', 'initialsFirst'],
  group: [],
};

const SEPARATOR = new RegExp(
  String.raw`(?:,,?\s?(?:and\s|&\s|et\s|und\s|y\s|e\s)?|;\s(?:and\s|&\s)?|\s(?:[aA]nd|&|et|und)\s|,?\s&\s|,?\s(?:\.\.\.|…)\s|\s(?=\p{Lu}[\p{L}'’-]+,\s\p{Lu}\.))`,
  'uy',
);
const LIST_TAIL = /(?:,?\s(?:et\s?al\.?|and others|\.\.\.|…))?/y;
/** A list ends at punctuation, a parenthesis (year, "(Eds.)") or a year. */
const LIST_END = /(?:[.:,;](?:\s|$)|\s?(?=\()|\s(?=(?:1[5-9]|20)\d\d\b)|$)/y;

function at(re: RegExp, text: string, pos: number): number {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m ? pos + m[0].length : -1;
}

interface AuthorSpan {
  authors: string[];
  end: number;
}

/**
 * Authors read of one entry, at most: the list is read one recursion an author, and a collaboration
 * of 3,000 ("Smith, J., " 3,000 times) overflowed the stack and failed the whole parse. The list of a
 * longer one ends here, as if with "et al.".
 */
const MAX_LIST_AUTHORS = 500;

/** The author list at the start of an entry: name units of one consistent form, then an end. */
function scanAuthors(text: string): AuthorSpan | null {
  // Memoised on (position, forms allowed): backtracking over separators stays linear.
  const memo = new Map<string, AuthorSpan | null>();
  const attempt = (pos: number, allowed: Form[] | null, depth: number): AuthorSpan | null => {
    if (depth >= MAX_LIST_AUTHORS) return null;
    const key = `${pos}:${allowed?.join() ?? ''}`;
    if (memo.has(key)) return memo.get(key)!;
    memo.set(key, null);
    let found: AuthorSpan | null = null;
    const candidates: { end: number; form: Form }[] = [];
    for (const { form, at: re, whole } of UNIT_FORMS) {
      if (allowed && !allowed.includes(form)) continue;
      const end = at(re, text, pos);
      if (end <= pos) continue;
      // A greedy match may have swallowed the title's first words ("Moore, Basil J. An"): its
      // shorter cuts at spaces are candidates too.
      for (let k = end; k > pos; k = text.lastIndexOf(' ', k - 1)) {
        if ((k === end || whole.test(text.slice(pos, k))) && !candidates.some((c) => c.end === k))
          candidates.push({ end: k, form });
      }
    }
    candidates.sort((a, b) => b.end - a.end);
    for (const c of candidates) {
      const name = text.slice(pos, c.end);
      const sep = at(SEPARATOR, text, c.end);
      const more = sep > 0 ? attempt(sep, allowed ?? FOLLOWS[c.form], depth + 1) : null;
      if (more) {
        found = { authors: [name, ...more.authors], end: more.end };
        break;
      }
      const tail = at(LIST_TAIL, text, c.end);
      const closedByPeriod = text[tail - 1] === '.' && /\s/.test(text[tail] ?? '');
      if (closedByPeriod || at(LIST_END, text, tail) >= 0) {
        found = { authors: [name], end: tail };
        break;
      }
    }
    memo.set(key, found);
    return found;
  };
  return attempt(0, null, 0);
}

const ABBREVIATIONS = new Set([
  'vs',
  'e.g',
  'i.e',
  'etc',
  'Dr',
  'St',
  'Mr',
  'Mrs',
  'Ms',
  'no',
  'No',
  'vol',
  'Vol',
  'al',
  'cf',
  'ca',
  'Jr',
  'Sr',
  'pp',
  'ed',
  'eds',
  'Ed',
  'Eds',
]);
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'and',
  'for',
  'in',
  'on',
  'to',
  'at',
  'by',
  'with',
  'from',
  'de',
  'des',
  'la',
  'le',
  'et',
  'du',
  'der',
  'und',
  'di',
  'e',
  'y',
]);
const DATE_LEAD =
  /^(?:\([^()]{0,24}\b(?:1[5-9]\d\d|20\d\d)[a-z]?\b[^()]{0,24}\)|\((?:n\.\s?d\.|in press|forthcoming)\)|(?:1[5-9]\d\d|20\d\d)[a-z]?(?=[.,:;]|\s\p{Lu}))[.,:;]?\s*/iu;
const EDITOR_LEAD = /^(?:\((?:eds?|hrsg|coord|dir|ed\.\s?by)\.?\)|eds?\.|editors?\b)[.,:]?\s*/i;
const QUOTES: [string, string][] = [
  ['``', "''"],
  ['“', '”'],
  ['"', '"'],
  ['‘', '’'],
  ["'", "'"],
  ['«', '»'],
  ['„', '“'],
  ['”', '”'],
];

/** Longer than any abbreviation (and than the six letters of "Int. J." style words) by far. */
const WORD_WINDOW = 64;

/** A sentence end closes no initial ("J."), known abbreviation, or run of journal abbreviations. */
function closesSentence(text: string, i: number): boolean {
  // The word before the period, looked for in the few characters before it, not in all the text
  // before it: a word longer than that window is no initial or abbreviation either way.
  const word = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, i - WORD_WINDOW), i))?.[1] ?? '';
  if (/^\p{Lu}$/u.test(word) || ABBREVIATIONS.has(word)) return false;
  // "Int. J. Wildland Fire": a short capitalised word before another abbreviation.
  if (/^\p{Lu}\p{Ll}{0,5}$/u.test(word) && /^\s\p{Lu}\p{Ll}{0,4}\.[\s,]/u.test(text.slice(i + 1)))
    return false;
  return true;
}

/** After "?" a title goes on when a sentence-case subtitle follows: "How many deer? A field guide". */
function subtitleFollows(text: string): boolean {
  const next = text.slice(0, sentenceEnd(text, false)).trim();
  const words = next.split(/\s+/).slice(1);
  return words.length >= 2 && words.some((w) => /^\p{Ll}{3,}/u.test(w) && !FUNCTION_WORDS.has(w));
}

/** Where the sentence starting the text ends; for a title, also before "In: ..." or "(Publisher: ...)". */
function sentenceEnd(text: string, title: boolean): number {
  for (let i = 1; i < text.length; i++) {
    const ch = text[i]!;
    const after = text[i + 1];
    const atBreak = after === undefined || /\s/.test(after);
    if ((ch === '?' || ch === '!') && atBreak) {
      if (title && subtitleFollows(text.slice(i + 1))) continue;
      return i + 1;
    }
    if (ch === '.' && atBreak && closesSentence(text, i)) return i;
    if (!title) continue;
    if (ch === ' ' && /^[,.]\s[Ii]n:?\s\p{Lu}/u.test(text.slice(i - 1, i + 6))) return i - 1;
    if (ch === '(' && text[i - 1] === ' ') {
      const inner = /^\(([^()]*)\)/.exec(text.slice(i))?.[1] ?? '';
      if (/:|\b(?:1[5-9]\d\d|20\d\d)\b|\beds?\./.test(inner)) return i - 1;
    }
  }
  return text.length;
}

/**
 * In comma-delimited styles ("Author, Title, Journal, 12, 34-56") the title ends before the
 * segment that precedes the first one carrying a number (the container), or before that
 * numbered segment when it comes second ("Title, Series 2, Place, 1984").
 */
function commaTitleEnd(text: string, end: number): number {
  const parts = text.slice(0, end).split(/,\s/);
  if (parts.length < 2) return end;
  const numbered = parts.findIndex((p, n) => n > 0 && /\d/.test(p));
  const publisher = /\b(?:Press|University|Verlag|Publishers?)\b/.test(parts.at(-1)!) ? parts.length - 1 : -1;
  const stop = numbered > 0 ? numbered : publisher;
  if (stop < 1) return end;
  return parts.slice(0, Math.max(1, stop - 1)).join(', ').length;
}

function quotedTitle(text: string): { title: string; end: number } | null {
  const pair = QUOTES.find(([open]) => text.startsWith(open));
  if (!pair) return null;
  const [open, close] = pair;
  for (let i = open.length; i < text.length; i++) {
    if (!text.startsWith(close, i)) continue;
    // An apostrophe inside a word ("Slavery’s") closes nothing.
    if (/\p{L}/u.test(text[i + close.length] ?? '') && /\p{L}/u.test(text[i - 1] ?? '')) continue;
    return { title: text.slice(open.length, i).replace(/[\s,.;:]+$/, ''), end: i + close.length };
  }
  return null;
}

function findYear(text: string): number | null {
  const clean = text.replace(/\b10\.\d{4,9}\/\S+/g, ' ').replace(/https?:\/\/\S+/g, ' ');
  const paren = /\((?:[^()]{0,20}\s)?(1[5-9]\d\d|20\d\d)[a-z]?\)/.exec(clean);
  const any = paren ?? /\b(1[5-9]\d\d|20\d\d)[a-z]?\b/.exec(clean);
  return any ? Number(any[1]) : null;
}

// A year in parentheses before a colon or stop is no label: an entry whose repeated authors are
// drawn as a rule opens on its year ("(2020): “Micro Jumps, ..."). A raised number read glued to
// the entry's first word ("1W. Chen", AIP's REVTeX) is a label.
const NUMBER_MARKER = new RegExp(
  String.raw`^(?:\[\d{1,4}\]|\d{1,4}\.(?!\d)|\((?!(?:1[6-9]|20)\d\d[a-z]?\)[:.,])\d{1,4}\)|\d{1,4}(?=\s+(?:\p{Lu}|${PARTICLE_OPENING}))|${RAISED_LABEL})\s*`,
  'u',
);

export function parseReference(rawWithMarker: string): ParsedReference {
  const raw = rawWithMarker.normalize('NFC').replace(NUMBER_MARKER, '').trim();
  const doi = findDoi(raw);
  const year = findYear(raw);
  const listed = scanAuthors(raw);
  // "Silva JR." keeps no period: in Vancouver it closes the list, not an initial.
  const authors = listed?.authors.map((a) => a.trim().replace(/(\s\p{Lu}{2,3})\.$/u, '$1')) ?? [];
  // "———." stands for the previous entry's authors.
  const repeated = listed ? null : /^(?:[-—–_]{2,}|—)\s?[.,]?\s/.exec(raw);
  let rest = raw.slice(listed?.end ?? repeated?.[0].length ?? 0);
  // "Author, Title, Journal" or "Author: Title, Journal": commas, not periods, close the title.
  let commaStyle = /^\s*[,:]/.test(rest);
  rest = rest.replace(/^[\s.,:;]+/, '').replace(EDITOR_LEAD, '');
  const dated = DATE_LEAD.exec(rest);
  if (dated) {
    commaStyle = /,\s*$/.test(dated[0]);
    rest = rest.slice(dated[0].length);
  }
  rest = rest.replace(/^[\s.,:;]+/, '');
  let title: string;
  let after: string;
  const quoted = quotedTitle(rest);
  if (quoted) {
    title = quoted.title;
    after = rest.slice(quoted.end);
  } else {
    let end = sentenceEnd(rest, true);
    if (commaStyle) end = commaTitleEnd(rest, end);
    title = rest.slice(0, end).trim();
    after = rest.slice(end);
  }
  after = after.replace(/^[\s.,:;”’"']+/, '').replace(/^[Ii]n:?\s/, '');
  let container: string | null =
    after
      .slice(0, sentenceEnd(after, false))
      .replace(/[\s,;]*(?:\d{4}.*|\d+\s*[:(].*)$/, '')
      .trim() || null;
  if (container && /^(?:doi|https?:|available)/i.test(container)) container = null;
  return { raw, doi, title: title || null, authors, year, container };
}
