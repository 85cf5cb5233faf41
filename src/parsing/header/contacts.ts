// The authors' affiliations, emails and ORCIDs: from their own lines, the marked lines and notes of
// the front pages, and notes set later that name them.
import { findEmails, findOrcids, joinLines, mailtoAddresses, ORCID_RE, unique } from '../text-utils.ts';
import { INSTITUTION } from '../institutions.ts';
import type { Block, DocumentModel, ParsedAuthor } from '../types.ts';
import { emailMatchesName, isNameLike, normalizeStars, splitMarks, surnameOf } from '../names.ts';
import { foldWords } from '../../infra/text-fold.ts';
import { isHeading, KEYWORDS_LABEL } from '../sections.ts';
import { OTHER_LANGUAGE_LABEL } from '../abstract.ts';
import { validOrcid } from '../../corpus/openalex/ids.ts';
import { type AuthorEntries, bylineBlock } from './bylines.ts';
import { CORRESPONDENCE, type Entry, iconsCut } from './front-matter.ts';
import { opensAbstract, type TitleSpan } from './title.ts';
import { namesSupervisor } from './covers.ts';

const LABELLED =
  /^(?:funded by|funding|supported by|conflicts?|competing|present address|current address|equal contribution|these authors)/i;

/** An email's label and address closing an institution's line: ". Email address: jr@x.org". */
const TRAILING_CONTACT = /(?<=\p{L}[.,;]?)\s+e-?mail(?:\s+address(?:es)?)?\s*:\s*\S+@\S+\s*$/iu;

/** A line of handles (a GitHub or Twitter name beside an icon): a few bare tokens, no spaces inside. */
function isHandleLine(s: string): boolean {
  const tokens = s.split(/[\s·|,]+/).filter(Boolean);
  return tokens.length > 0 && tokens.length <= 3 && tokens.every((t) => /^@?[\w.-]+$/.test(t));
}

function affiliationsFromEntry(entry: Entry): string[] {
  const out: string[] = [];
  // Lines holding only identifiers (ORCID, handles) stand alone; the rest is one running text
  // whose separators (" · ", ";") delimit institutions.
  const text = joinLines(
    entry.lines.filter((l) => {
      // A line that holds an email and nothing else but its label is no part of the address:
      // read with it, it would make the whole address look like a contact line.
      const found = findEmails(l);
      const bare = found.reduce((t, e) => t.split(e).join(' '), l);
      if (found.length && /^[\s\p{P}]*(?:e-?mail[\s\p{P}]*)?$/iu.test(bare)) return false;
      const rest = l.replace(ORCID_RE, '').replace(/[·|•]/g, ' ').trim();
      return rest !== '' && !(isHandleLine(rest) && !INSTITUTION.test(rest));
    }),
  );
  {
    for (const segment of text.split(/\s+[·|•]\s+|\s+·|·\s+/)) {
      const s = segment.trim();
      if (!s || LABELLED.test(s) || findOrcids(s).length || findEmails(s).length) continue;
      if (isHandleLine(s) && !INSTITUTION.test(s)) continue;
      for (const part of s.split(/\s*;\s*/)) {
        const p = part.trim().replace(/[.,]$/, '');
        if (p.length >= 3 && !/^https?:/i.test(p)) out.push(p);
      }
    }
  }
  return unique(out);
}

interface MarkedAffiliation {
  mark: string | null;
  text: string;
}

/** Lines that start with a mark (a superscript or a leading label) and read like an institution. */
function markedAffiliations(blocks: Block[], indices: number[], marks: Set<string>): MarkedAffiliation[] {
  const out: MarkedAffiliation[] = [];
  for (const i of indices) {
    const b = blocks[i]!;
    let current: MarkedAffiliation | null = null;
    const flush = () => {
      // An institution's line that closes on its author's address ("..., Portugal. Email address:
      // jr@x.org", a Word title page's letter-marked lines) is the institution before the label.
      if (current) current.text = current.text.replace(TRAILING_CONTACT, '');
      if (
        current &&
        current.text.length >= 8 &&
        INSTITUTION.test(current.text) &&
        !CORRESPONDENCE.test(current.text)
      ) {
        out.push({ mark: current.mark, text: current.text.replace(/[.;,]\s*$/, '').trim() });
      }
      current = null;
    };
    const supMarked = b.runs.some((r) => r.sup && splitMarks(r.text).some((m) => marks.has(m)));
    if (supMarked) {
      // Superscript marks may sit anywhere, several institutions to a line.
      let lineStart = false;
      for (const run of b.runs) {
        const runMarks = run.sup ? splitMarks(run.text).filter((m) => marks.has(m)) : [];
        if (runMarks.length) {
          flush();
          current = { mark: runMarks[0]!, text: '' };
        } else if (current) {
          // A new line that is a correspondence or a labelled note ends the institution.
          run.text.split('\n').forEach((segment, k) => {
            if (!current) return;
            const newLine = k > 0 || lineStart;
            if (
              newLine &&
              (CORRESPONDENCE.test(segment) || LABELLED.test(segment.trim()) || segment.includes('@'))
            ) {
              flush();
              return;
            }
            current.text = `${current.text}${newLine ? ' ' : ''}${segment}`.replace(/\s+/g, ' ').trimStart();
          });
        }
        lineStart = run.text.endsWith('\n');
      }
      flush();
      continue;
    }
    const firstSup = b.runs[0]?.sup ? b.runs[0].text.trim() : null;
    b.lines.forEach((line, k) => {
      let text = line.text;
      let mark: string | null = null;
      const m =
        /^(\d{1,2}|[a-z]|[*†‡§¶#]+)\s*(?=[\p{Lu}\p{N}])/u.exec(text) ??
        /^(\d{1,2}|[a-z]|[*†‡§¶#]+)$/u.exec(text);
      if (k === 0 && firstSup && marks.has(splitMarks(firstSup)[0] ?? '')) {
        mark = splitMarks(firstSup)[0] ?? null;
        text = text.slice(firstSup.length).trim();
      } else if (m && marks.has(m[1]!)) {
        mark = m[1]!;
        text = text.slice(m[0].length).trim();
      }
      if (mark !== null) {
        flush();
        current = { mark, text };
      } else if (current) {
        current.text = current.text ? `${current.text} ${text}` : text;
      }
    });
    flush();
  }
  return out;
}

function mentionedAuthors(text: string, authors: ParsedAuthor[]): number[] {
  // Affiliation marks set as plain digits touch the name ("Upshall1,2,3"): part them first.
  const norm = ` ${foldWords(text.replace(/(\p{L})(\d)/gu, '$1 $2'))} `;
  const hits: { i: number; at: number }[] = [];
  authors.forEach((a, i) => {
    const surname = foldWords(surnameOf(a.name));
    if (surname.length < 2) return;
    const at = norm.indexOf(` ${surname} `);
    if (at >= 0) hits.push({ i, at });
  });
  return hits.sort((x, y) => x.at - y.at).map((h) => h.i);
}

/** Where "Correspondence", "Corresponding author", "E-mail" or ✉ labels a note. */
const CORRESPONDENCE_LABEL = /correspond|e-?mail|✉/giu;

/**
 * The author a correspondence note names for an email: between the nearest label before the
 * address (or the address before it, if nearer) and the address, exactly one author is named
 * ("Correspondence to: J. Roe (jr@x.org)", "Corresponding author: Jane Roe. E-mail: jr@x.org").
 */
function correspondenceOwner(text: string, email: string, authors: ParsedAuthor[]): number | null {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return null;
  const labels = [...text.slice(0, at).matchAll(CORRESPONDENCE_LABEL)].map((m) => m.index);
  // Nearest label first: "Corresponding author: Jane Roe. E-mail: jr@x.org" names no one
  // between "E-mail" and the address, Jane Roe between "Corresponding" and it.
  for (const from of labels.reverse()) {
    const segment = text.slice(from, at);
    if (segment.length > 160 || findEmails(segment).length) return null;
    const named = mentionedAuthors(segment, authors);
    if (named.length === 1) return named[0]!;
    if (named.length > 1) return null;
  }
  return null;
}

/**
 * An address a publisher's notice gives for its own business ("© The Author 2021. Published by ...
 * For permissions, please e-mail: journals.permissions@x.com"): the sentence that leads to it asks
 * for permissions and names no author. A request for reprints addressed to an author ("Reprint
 * requests to Dr Jane Roe, jr@x.org") is hers, and is kept.
 */
function publisherAddress(text: string, email: string, authors: ParsedAuthor[]): boolean {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return false;
  const before = text.slice(Math.max(0, at - 160), at);
  const sentence = before.slice(before.search(/[.!?]\s+(?=\p{Lu})[^.!?]*$/u) + 1);
  return /\bpermissions?\b/i.test(sentence) && mentionedAuthors(sentence, authors).length === 0;
}

/** The one author named in brackets right after `email` ("jr@x.org (Jane Roe)"), if any. */
function bracketedOwner(text: string, email: string, authors: ParsedAuthor[]): number | null {
  const at = text.toLowerCase().indexOf(email.toLowerCase());
  if (at < 0) return null;
  const m = /^\s*\(([^()@]{2,80})\)/u.exec(text.slice(at + email.length));
  if (!m) return null;
  const named = mentionedAuthors(m[1]!, authors);
  return named.length === 1 ? named[0]! : null;
}

/**
 * A note that opens with a mark symbol ("† jr@x.org") belongs to the one author whose mark it is.
 * Numbers are left out: a number opens affiliations and numbered lists as well.
 */
function markedOwner(text: string, marks: string[][]): number | null {
  const m = /^\s*([*†‡§¶#]+)/u.exec(normalizeStars(text));
  if (!m) return null;
  const symbols = [...m[1]!];
  const owners = marks
    .map((own, i) => (symbols.every((sym) => own.includes(sym)) ? i : -1))
    .filter((i) => i >= 0);
  return owners.length === 1 ? owners[0]! : null;
}

/** A mark symbol and a space opening a note ("† Also at ...", "∗ Correspondence to: ..."). */
const NOTE_MARK = /^\s*[*†‡§¶#]\s/u;

/** A text opened by a note's mark: a note of its own, keyed to the author who carries the mark. */
function opensWithNoteMark(text: string): boolean {
  return NOTE_MARK.test(normalizeStars(text));
}

/**
 * A short name ("F. Author", "J. R. Roe") is the full one ("First Author Jr.", "Jane Rita Roe")
 * when the surnames agree and each given name or initial of the short one opens the full one's
 * given name in the same place.
 */
function abbreviates(short: string, full: string): boolean {
  const surname = foldWords(surnameOf(short));
  if (surname.length < 2 || surname !== foldWords(surnameOf(full))) return false;
  const givenOf = (name: string) => {
    const words = foldWords(name.replace(/,?\s+(?:jr|sr|ii|iii|iv)\.?$/i, '')).split(' ');
    return words.slice(0, words.lastIndexOf(surname));
  };
  const given = givenOf(short);
  const fullGiven = givenOf(full);
  if (given.length === 0 || given.length > fullGiven.length) return false;
  return given.every((g, k) => (g.length === 1 ? fullGiven[k]!.startsWith(g) : fullGiven[k] === g));
}

/**
 * The one author a note's first line names, whole or by initials and surname: Springer's svjour3
 * sets an institute note per author at the foot of the title page ("F. Author", the address,
 * "E-mail: ..."), where both authors of a template may share the surname "Author".
 */
function namedByLine(line: string, authors: ParsedAuthor[]): number | null {
  const text = line.trim();
  if (text.length > 60 || !isNameLike(text)) return null;
  const owners = authors.flatMap((a, i) => (abbreviates(text, a.name) ? [i] : []));
  return owners.length === 1 ? owners[0]! : null;
}

/**
 * The author a labelled contact line belongs to when it is set in a paragraph of its own: the
 * labelled lines right before it ("Email: ...") lead back to a correspondence note that names one
 * author ("*Correspondence: Jane Roe, Department ..."). Null when the line is no labelled line, or
 * the run of them starts elsewhere.
 */
function contactNoteOwner(texts: { text: string }[], at: number, authors: ParsedAuthor[]): number | null {
  if (!CONTACT_LINE.test(texts[at]!.text) || mentionedAuthors(texts[at]!.text, authors).length) return null;
  for (let k = at - 1; k >= Math.max(0, at - 4); k--) {
    const text = texts[k]!.text;
    if (CONTACT_LINE.test(text)) continue;
    if (!/^\W*correspond/iu.test(text)) return null;
    const named = mentionedAuthors(text, authors);
    return named.length === 1 ? named[0]! : null;
  }
  return null;
}

/** A labelled line of a contact block: "Address: ...", "Email: ...", "ORCID: ...", "Tel.: ...". */
const CONTACT_LINE =
  /^\s*(?:(?:postal\s+|mailing\s+)?address|e-?mail|orcid(?:\s+id)?|phone|telephone|tel|fax|mobile)\s*[.:]/iu;

/**
 * Notes that open with a line naming one author, and the blocks that run on from each in the
 * same size on the same page (svjour3 sets a second block for a present address and its email):
 * each block's index with its author.
 */
function notesByAuthor(blocks: Block[], indices: number[], authors: ParsedAuthor[]): Map<number, number> {
  const owners = new Map<number, number>();
  let owner: number | null = null;
  // The opener was a name alone in its paragraph: only short lines (its address) run on from it.
  let labelledOnly = false;
  let previous = -1;
  for (const i of indices) {
    const b = blocks[i]!;
    let named = b.lines.length > 1 ? namedByLine(b.lines[0]!.text, authors) : null;
    // A contact block set one paragraph to a line (a Word title page): a paragraph holding one
    // author's name alone (after its mark), over short lines of address that reach a labelled
    // contact line ("Email: ...", "ORCID: ...", "Tel: ...") within a few paragraphs.
    const short = (k: number) =>
      indices.includes(k) &&
      blocks[k] !== undefined &&
      blocks[k]!.text.length <= 160 &&
      blocks[k]!.page === b.page;
    let reach = i + 1;
    while (reach < i + 6 && short(reach) && !CONTACT_LINE.test(blocks[reach]!.text)) reach++;
    const single =
      named === null && b.lines.length === 1 && short(reach) && CONTACT_LINE.test(blocks[reach]!.text)
        ? namedByLine(b.text.replace(/^[\s*†‡§¶#\d,]+/u, ''), authors)
        : null;
    if (single !== null) named = single;
    if (named !== null) {
      owner = named;
      labelledOnly = single !== null;
    } else if (owner !== null) {
      const opener = blocks[previous]!;
      const runsOn =
        i === previous + 1 &&
        b.page === opener.page &&
        Math.abs(b.relSize - opener.relSize) <= 0.05 * opener.relSize &&
        (!labelledOnly || b.text.length <= 160);
      if (!runsOn) owner = null;
    }
    if (owner !== null) owners.set(i, owner);
    previous = i;
  }
  return owners;
}

/**
 * Institutes numbered by the authors' marks and run together in one text ("1 Univ. A, City
 * 2 Univ. B, City ana@b.org 3 Inst. C, City {bo,cy}@c.edu", LNCS): each address belongs to the
 * authors who carry the mark of the institute it is printed under. One such author owns every
 * address there; as many authors as addresses take them in order. The marks must open their
 * institutes in the authors' order, each once, before a capital: a number inside an address
 * ("Str. 17, 69121 Heidelberg") is no mark.
 */
function ownersByInstituteMark(text: string, emails: string[], marks: string[][]): Map<string, number> {
  const owners = new Map<string, number>();
  const order = unique(marks.flat().filter((m) => /^\d{1,2}$/.test(m)));
  if (order.length < 2) return owners;
  const openers: { mark: string; at: number }[] = [];
  for (const m of text.matchAll(/(?<=^|\s)(\d{1,2})\s+(?=\p{Lu})/gu)) {
    if (order.includes(m[1]!)) openers.push({ mark: m[1]!, at: m.index });
  }
  const sequence = openers.map((o) => order.indexOf(o.mark));
  if (openers.length < 2 || sequence.some((k, i) => i > 0 && k <= sequence[i - 1]!)) return owners;
  // A grouped address ("{bo,cy}@c.edu") is found at its host.
  const at = (email: string) => {
    const whole = text.indexOf(email);
    return whole >= 0 ? whole : text.indexOf(email.slice(email.indexOf('@')));
  };
  const bySegment = new Map<string, string[]>();
  for (const email of emails) {
    const position = at(email);
    const opener = openers.filter((o) => o.at < position).pop();
    if (position < 0 || !opener) continue;
    bySegment.set(opener.mark, [...(bySegment.get(opener.mark) ?? []), email]);
  }
  for (const [mark, inSegment] of bySegment) {
    const carriers = marks.flatMap((own, i) => (own.includes(mark) ? [i] : []));
    if (carriers.length === 1) inSegment.forEach((e) => owners.set(e, carriers[0]!));
    else if (carriers.length === inSegment.length) inSegment.forEach((e, k) => owners.set(e, carriers[k]!));
  }
  return owners;
}

function assignEmails(
  authors: ParsedAuthor[],
  texts: { text: string; links: string[]; owner?: number }[],
  starred: number[],
  marks: string[][],
  romanized: (string | undefined)[] = [],
): string[] {
  const unassigned: string[] = [];
  const taken = new Set(authors.flatMap((a) => a.emails));
  // Notes keyed by marks read as one text ("∗ A note on the title † Also at ... ‡ jr@x.org", the
  // foot of REVTeX's title page): each mark's note is read alone, so that its mark says whose the
  // address in it is.
  const notes = texts.flatMap((t): typeof texts => {
    if (t.owner !== undefined || !opensWithNoteMark(t.text)) return [t];
    const parts = normalizeStars(t.text).split(/\s(?=[*†‡§¶#]\s)/u);
    if (parts.length < 2) return [t];
    return parts.map((part) => ({
      text: part,
      links: t.links.filter(
        (l) => !/^mailto:/i.test(l) || part.toLowerCase().includes(l.slice(7).toLowerCase()),
      ),
    }));
  });
  for (const { text, links, owner } of notes) {
    const found = unique([...findEmails(text), ...mailtoAddresses(links)]).filter(
      (e) => !taken.has(e) && !publisherAddress(text, e, authors),
    );
    found.forEach((e) => taken.add(e));
    // A note that opens with one author's name is hers, whatever names its address holds.
    if (owner !== undefined) {
      authors[owner]!.emails.push(...found);
      continue;
    }
    // "Email addresses: jr@x.org (Jane Roe), al@y.org (Al Poe)" (elsarticle): the name in
    // brackets right after an address is its owner's, whatever the marks or the order say.
    const named = found.filter((email) => {
      const owner = bracketedOwner(text, email, authors);
      if (owner === null) return true;
      authors[owner]!.emails.push(email);
      return false;
    });
    // "Correspondence to: J. Roe (jr@x.org)": the author named between the label and the address
    // owns it, whatever else the text mentions (a note read with the byline above it). The rest
    // are assigned as below.
    const emails = named.filter((email) => {
      const owner = correspondenceOwner(text, email, authors);
      if (owner === null) return true;
      authors[owner]!.emails.push(email);
      authors[owner]!.corresponding = true;
      return false;
    });
    if (emails.length === 0) continue;
    // Institutes numbered by the authors' marks say whose each address is, before any name does:
    // a name mentioned once in the byline above them is no owner of all of them.
    const byInstitute = ownersByInstituteMark(text, emails, marks);
    if (byInstitute.size === emails.length) {
      for (const [email, owner] of byInstitute) authors[owner]!.emails.push(email);
      continue;
    }
    // "† jr@x.org" (a footnote keyed by an author's mark): the one author with that mark owns it.
    // The mark says who corresponds; an address that spells another author's surname and no part
    // of the marked author's name is that other author's all the same (a draft that moved the
    // mark, or a corresponding author who gives a co-author's address).
    const byMark = markedOwner(text, marks);
    if (byMark !== null && emails.length === 1) {
      const email = emails[0]!;
      const spelt = authors.flatMap((a, i) =>
        i !== byMark && emailMatchesName(email, a.name) === 2 ? [i] : [],
      );
      const other =
        spelt.length === 1 && emailMatchesName(email, authors[byMark]!.name) === 0 ? spelt[0]! : null;
      authors[other ?? byMark]!.emails.push(email);
      continue;
    }
    const mentioned = mentionedAuthors(text, authors);
    if (mentioned.length === 1) {
      authors[mentioned[0]!]!.emails.push(...emails);
      // An address given under its label alone ("Email address: ana.lima@x.org", every author's
      // on a title page) says whose it is, not who corresponds.
      authors[mentioned[0]!]!.corresponding ||= /correspond|✉/i.test(text);
      continue;
    }
    if (mentioned.length > 1 && mentioned.length === emails.length) {
      mentioned.forEach((ai, k) => authors[ai]!.emails.push(emails[k]!));
      continue;
    }
    if (emails.length === authors.length && emails.length > 1) {
      authors.forEach((a, k) => a.emails.push(emails[k]!));
      continue;
    }
    for (const email of emails) {
      const scored = authors
        .map((a, i) => ({
          i,
          // A name printed in another script matches its address by its romanized form.
          s: Math.max(emailMatchesName(email, a.name), emailMatchesName(email, romanized[i] ?? '')),
        }))
        .sort((x, y) => y.s - x.s);
      const top = scored[0];
      if (top && top.s > 0 && (scored[1]?.s ?? 0) < top.s) {
        authors[top.i]!.emails.push(email);
      } else if (/^\s*[*✉]/u.test(normalizeStars(text)) && starred.length === 1) {
        authors[starred[0]!]!.emails.push(email);
      } else if (emails.length === 1 && starred.length === 1 && CORRESPONDENCE.test(text)) {
        authors[starred[0]!]!.emails.push(email);
      } else unassigned.push(email);
    }
  }
  for (const a of authors) a.emails = unique(a.emails);
  return unassigned;
}

/** A name run in before an address: up to 60 characters, then a full stop and a capital. */
const RUN_IN_NAME = /^(\P{Cc}{4,60}?)\.\s+\p{Lu}/u;

/**
 * Addresses printed after the article (JSS, The R Journal, many society journals): a line that is
 * an author's whole name, the address lines under it, then the email and the ORCID. Read for
 * authors the front matter gave no email or no ORCID, and only from short lines: a name in running
 * text is no address.
 */
function addressesAtTheEnd(blocks: Block[], frontEnd: number, authors: ParsedAuthor[]): void {
  const lines = blocks
    .slice(frontEnd)
    .flatMap((b) => b.lines.map((l) => ({ text: l.text, links: l.links ?? [] })));
  // Each name normalised once, not once for every line of the document.
  // The address may leave out a middle initial the byline prints ("Jane Roe" under "Jane Q. Roe"), or
  // print one it leaves out: each name is also known by its words of two letters or more.
  const byName = new Map<string, ParsedAuthor>();
  const byFullWords = new Map<string, ParsedAuthor | null>();
  const fullWords = (folded: string) =>
    folded
      .split(' ')
      .filter((w) => w.length > 1)
      .join(' ');
  for (const a of authors) {
    const key = foldWords(a.name);
    if (!byName.has(key)) byName.set(key, a);
    const short = fullWords(key);
    if (short.includes(' ')) byFullWords.set(short, byFullWords.has(short) ? null : a);
  }
  const owner = (text: string) => {
    if (text.length > 60) return undefined;
    const key = foldWords(text);
    return byName.get(key) ?? byFullWords.get(fullWords(key)) ?? undefined;
  };
  // "Firstname1 Surname1. Address of the First author, ...": a name run in before its address
  // (VTeX's NEJSDS). The email must follow within the address's next lines: a reference that
  // opens with an author's name ("Jane Roe. A Title.") has none there.
  const runInOwner = (text: string) => {
    const head = RUN_IN_NAME.exec(text);
    return head ? owner(head[1]!) : undefined;
  };
  const taken = new Set(authors.flatMap((a) => a.emails));
  const takenOrcids = new Set(authors.flatMap((a) => (a.orcid ? [a.orcid] : [])));
  lines.forEach((line, k) => {
    const whole = owner(line.text);
    const author = whole ?? runInOwner(line.text);
    if (!author || (author.emails.length && author.orcid)) return;
    let wantsEmail = author.emails.length === 0;
    for (const next of [line, ...lines.slice(k + 1, k + (whole ? 10 : 4))]) {
      if (next === line && whole) continue;
      if (next !== line && (next.text.length > 100 || owner(next.text) || runInOwner(next.text))) return;
      const email = [...findEmails(next.text), ...mailtoAddresses(next.links)].find((e) => !taken.has(e));
      if (email && wantsEmail) {
        author.emails.push(email);
        taken.add(email);
        wantsEmail = false;
      }
      // The ORCID printed in the address ("ORCID 0000-..."), under its email or over it.
      const orcid = [next.text, ...next.links].flatMap((t) => findOrcids(t)).find((o) => !takenOrcids.has(o));
      if (orcid && !author.orcid) {
        author.orcid = orcid;
        takenOrcids.add(orcid);
      }
      if (!wantsEmail && author.orcid) return;
    }
  });
}

/** amsart's label for an author's address at the end of the paper: "Email address:", "E-mail address:". */
const AMS_EMAIL_LABEL = /^e-?mail address(?:es)?\s*:/i;

/**
 * amsart and amsproc print each author's address at the end of the paper, in the order of the
 * authors, with the address itself in the author's words ("Department of Mathematics, ...", or
 * initials: "U.B., Technical University of Munich") and no name to tie it to: one "Email address:"
 * line for each author, and as many of them after the front matter as the byline has authors,
 * give each author, in turn, the first address on theirs.
 */
function amsAddressesInOrder(blocks: Block[], frontEnd: number, authors: ParsedAuthor[]): void {
  const labelled = blocks
    .slice(frontEnd)
    .flatMap((b) => b.lines.map((l) => ({ text: l.text.trim(), links: l.links ?? [] })))
    .filter((l) => AMS_EMAIL_LABEL.test(l.text))
    .map((l) => [...findEmails(l.text), ...mailtoAddresses(l.links)][0]);
  if (labelled.length !== authors.length || labelled.some((e) => e === undefined)) return;
  const taken = new Set(authors.flatMap((a) => a.emails));
  authors.forEach((a, k) => {
    const email = labelled[k]!;
    if (a.emails.length === 0 && !taken.has(email)) {
      a.emails.push(email);
      taken.add(email);
    }
  });
}

const AUTHOR_NOTE = /^authors?['’]?\s+notes?\b\s*[:.—–-]?\s*/i;

/**
 * The blocks of an author note after the front matter: a block that opens with the label and
 * holds the note run in, or the label alone and the paragraphs under it up to the next heading
 * (at most four).
 */
function authorNote(blocks: Block[], frontEnd: number): number[] {
  for (let i = frontEnd; i < blocks.length; i++) {
    const b = blocks[i]!;
    if (!AUTHOR_NOTE.test(b.text) || b.text.length > 1500) continue;
    if (b.text.replace(AUTHOR_NOTE, '').trim() !== '') return [i];
    const out: number[] = [];
    for (let j = i + 1; j < Math.min(blocks.length, i + 5) && !isHeading(blocks[j]!); j++) out.push(j);
    return out;
  }
  return [];
}

/**
 * The authors' affiliations, emails and ORCIDs, read from their own lines, the marked lines and notes
 * of the front pages, and the notes set later that name them; the emails no author could be given returned.
 */
export function readContacts(
  doc: DocumentModel,
  { titleIndex, titleEnd }: TitleSpan,
  chosen: AuthorEntries,
  authors: ParsedAuthor[],
  frontEnd: number,
): string[] {
  const { blocks } = doc;
  const titleBlocks = new Set(
    Array.from({ length: titleEnd - (titleIndex ?? 0) }, (_, k) => (titleIndex ?? 0) + k),
  );
  if (chosen.titleAgain !== null) titleBlocks.add(chosen.titleAgain);
  // Everything on the front pages may carry affiliations, correspondence and identifiers:
  // footnotes at the bottom of page one come after the first body paragraphs in reading order.
  const frontPages = new Set(blocks.slice(0, Math.max(frontEnd, 1)).map((b) => b.page));
  const headerBlocks = blocks
    .map((b, i) => i)
    .filter(
      (i) =>
        !titleBlocks.has(i) &&
        // A byline block whose affiliations are set under it in the same block holds them too.
        (!chosen.used.has(i) || bylineBlock(blocks[i]!) !== blocks[i]) &&
        (i < frontEnd || frontPages.has(blocks[i]!.page)),
    )
    .filter((i) => doc.format === 'pdf' || i < frontEnd + 5);

  // An author's name that is itself the link to the ORCID record (Quantum's \orcid: the name
  // links to orcid.org) names the identifier's owner outright: read before any rule that pairs
  // identifiers with names by their order. The text under the link is the name, with at most the
  // comma or the "and" that a text run holds before it; one name alone must be found there.
  for (const anchor of doc.orcidAnchors ?? []) {
    const under = ` ${foldWords(anchor.under.replace(/\d+/g, ' '))} `;
    const owner = authors.filter((a) => !a.orcid && under.includes(` ${foldWords(a.name)} `));
    if (validOrcid(anchor.orcid) && owner.length === 1 && !authors.some((a) => a.orcid === anchor.orcid))
      owner[0]!.orcid = anchor.orcid;
  }

  if (chosen.ownLines) {
    chosen.entries.forEach((e, k) => {
      const a = authors[k]!;
      const text = e.lines.join(' ');
      const orcids = [...findOrcids(text), ...e.links.flatMap((l) => findOrcids(l))];
      a.orcid = orcids[0] ?? null;
      // A line under the block that names another author ("✉ Correspondence: Jane Roe <...>",
      // set under the last block of a grid) gives its address to no one here. A line that names
      // this author too is theirs: two authors who share a surname ("sungjin.lee@..." under
      // Sungjin Lee, with Eunji Lee in the next block) both match it.
      const others = e.lines.filter((l) => {
        const named = mentionedAuthors(l, authors);
        return named.some((m) => m !== k) && !named.includes(k);
      });
      const theirs = new Set(others.flatMap((l) => findEmails(l)));
      a.emails = unique([...findEmails(text), ...mailtoAddresses(e.links)]).filter((m) => !theirs.has(m));
      a.affiliations = affiliationsFromEntry(e);
    });
    // Authors who share their lines and find one email each there: the emails go in the names' order.
    for (const group of new Set(chosen.entries.map((e) => e.lines))) {
      const members = chosen.entries.flatMap((e, k) => (e.lines === group ? [k] : []));
      const emails = unique(findEmails(group.join(' ')));
      if (members.length > 1 && emails.length === members.length)
        members.forEach((k, n) => (authors[k]!.emails = [emails[n]!]));
    }
  } else if (authors.length) {
    const allMarks = new Set(chosen.entries.flatMap((e) => e.marks));
    const numericMarks = new Set([...allMarks].filter((m) => !/^[*†‡§¶#✉]$/u.test(m)));
    // Affiliations keyed by mark: first on the front pages, then anywhere (some journals list
    // them at the end of the article).
    let marked = markedAffiliations(blocks, headerBlocks, numericMarks);
    const missing = [...numericMarks].filter((m) => !marked.some((a) => a.mark === m));
    if (missing.length) {
      const rest = blocks.map((_, i) => i).filter((i) => !headerBlocks.includes(i) && !chosen.used.has(i));
      const later = markedAffiliations(blocks, rest, new Set(missing));
      marked = [...marked, ...later.filter((a, k) => later.findIndex((b) => b.mark === a.mark) === k)];
    }
    if (numericMarks.size && marked.length) {
      for (const [k, e] of chosen.entries.entries()) {
        for (const m of e.marks) {
          const aff = marked.find((x) => x.mark === m);
          if (aff) authors[k]!.affiliations.push(aff.text);
        }
      }
    } else {
      // No marks: the institution lines right under the byline belong to every author. An abstract
      // run in after its label in any language ("摘要：" over a paper that names a university) or
      // the keywords are no institution line.
      const lastUsed = Math.max(...chosen.used);
      const shared: string[] = [];
      for (let i = lastUsed + 1; i < Math.min(frontEnd, lastUsed + 4); i++) {
        const b = blocks[i]!;
        if (
          CORRESPONDENCE.test(b.text) ||
          opensAbstract(b) ||
          OTHER_LANGUAGE_LABEL.test(b.text) ||
          KEYWORDS_LABEL.test(b.text) ||
          b.text.includes('@') ||
          !INSTITUTION.test(b.text) ||
          b.text.length > 400
        ) {
          break;
        }
        shared.push(b.text.replace(/[.;,]\s*$/, ''));
      }
      for (const a of authors) a.affiliations.push(...shared);
    }
    for (const a of authors) a.affiliations = unique(a.affiliations);
  }

  const starred = authors.map((a, i) => (a.corresponding ? i : -1)).filter((i) => i >= 0);
  // A paragraph broken into one block per line (double-spaced title pages) leaves an address on
  // a line of its own: read it with the unfinished line above it ("... addressed to Ana Fulano,
  // ..., Email:").
  const withRunIn = (i: number): string => {
    const b = blocks[i]!;
    // A note opened by its mark ("∗ Correspondence to: ...") is one of its own: nothing above runs in.
    if (b.text.length >= 80 || findEmails(b.text).length === 0 || opensWithNoteMark(b.text)) return b.text;
    let text = b.text;
    for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
      const above = blocks[j]!;
      if (above.page !== b.page || /[.!?]$/.test(above.text) || above.text.length > 300) break;
      text = `${above.text} ${text}`;
      if (/^\W*(?:correspond|e-?mail|✉)/iu.test(above.text)) break;
    }
    return text;
  };
  const noteOwners = notesByAuthor(blocks, headerBlocks, authors);
  // A cover's line naming a supervisor ("Co-promotor: S. Beekman (Synalco, sb@synalco.be)") gives
  // the supervisor's address, no author's: its line, and the links to the addresses on it, are left out.
  const withoutSupervisors = (i: number): { text: string; links: string[] } => {
    const b = blocks[i]!;
    const theirs = b.lines.filter((l) => namesSupervisor(l.text));
    if (!theirs.length) return { text: withRunIn(i), links: b.links };
    const dropped = new Set(theirs.flatMap((l) => findEmails(l.text).map((e) => e.toLowerCase())));
    return {
      text: b.lines
        .filter((l) => !theirs.includes(l))
        .map((l) => l.text)
        .join(' '),
      links: b.links.filter((l) => !/^mailto:/i.test(l) || !dropped.has(l.slice(7).toLowerCase())),
    };
  };
  const texts: { text: string; links: string[]; owner?: number }[] = [
    ...headerBlocks.map((i) => ({ ...withoutSupervisors(i), owner: noteOwners.get(i) })),
    ...[...chosen.used].map((i) => ({ text: blocks[i]!.text, links: blocks[i]!.links })),
    ...doc.notes.map((n) => ({ text: n, links: [] })),
  ];
  // Footnotes keyed by an author's symbol may be set at the end of the article (REVTeX): a short
  // note anywhere that opens with a symbol only one author carries and gives an email is read too.
  const symbolMarks = chosen.entries.map((e) =>
    e.marks.map((m) => normalizeStars(m)).filter((m) => /^[*†‡§¶#]$/u.test(m)),
  );
  if (symbolMarks.some((m) => m.length)) {
    blocks.forEach((b, i) => {
      if (i < frontEnd || !b.text.includes('@')) return;
      if (!frontPages.has(b.page) && b.text.length <= 200 && markedOwner(b.text, symbolMarks) !== null) {
        texts.push({ text: b.text, links: b.links });
        return;
      }
      // The foot of the title page's column under the text (REVTeX's two columns, or its preprint's
      // page under the abstract): notes a line each, every line opened by its mark ("∗ Correspondence
      // to: ...", "† Also at ...", "‡ jr@x.org"). Each line that gives an address is read as a
      // note of its own: the mark at its head says whose it is.
      if (b.lines.length > 1 && b.lines.every((l) => opensWithNoteMark(l.text)))
        for (const l of b.lines)
          if (l.text.length <= 200 && l.text.includes('@') && markedOwner(l.text, symbolMarks) !== null)
            texts.push({ text: l.text, links: l.links ?? [] });
    });
  }
  // A correspondence note set at the document's end, under the figures' captions (a Word
  // manuscript's "Corresponding author: Dr Jane Roe, ... Email: ..."): read when it names an author.
  blocks.forEach((b, i) => {
    if (i < frontEnd || headerBlocks.includes(i) || b.text.length > 300 || !b.text.includes('@')) return;
    if (/^\W*correspond/iu.test(b.text) && mentionedAuthors(b.text, authors).length === 1)
      texts.push({ text: b.text, links: b.links });
  });
  // An "Email addresses:" footnote (elsarticle: "jane@x.org (Jane Roe), ...") may run on to the
  // foot of the next page: a short block there whose addresses each name an author after them
  // in parentheses is read too.
  blocks.forEach((b, i) => {
    if (i < frontEnd || headerBlocks.includes(i) || b.text.length > 400 || !b.text.includes('@')) return;
    if (!frontPages.has(b.page) && !frontPages.has(b.page - 1)) return;
    const named = [...b.text.matchAll(/@[\w.-]+\.\p{L}{2,}\s*\(([^()@]{3,80})\)/gu)];
    if (named.length && named.every((m) => mentionedAuthors(m[1]!, authors).length === 1))
      texts.push({ text: b.text, links: b.links });
  });
  // The author note of an APA manuscript may close the text, after the discussion ("Author
  // note" as a heading, or run in before its first sentence): it holds the correspondence
  // address, and is read with the header.
  if (authors.some((a) => a.emails.length === 0)) {
    const seen = new Set(headerBlocks);
    for (const i of authorNote(blocks, frontEnd)) {
      if (!seen.has(i) && !chosen.used.has(i)) texts.push({ text: blocks[i]!.text, links: blocks[i]!.links });
    }
  }
  const marks = chosen.entries.map((e) => e.marks);
  const romanized = chosen.entries.map((e) => e.romanized);
  const unassignedEmails = authors.length ? assignEmails(authors, texts, starred, marks, romanized) : [];
  if (authors.some((a) => a.emails.length === 0 || !a.orcid)) addressesAtTheEnd(blocks, frontEnd, authors);
  if (authors.some((a) => a.emails.length === 0)) amsAddressesInOrder(blocks, frontEnd, authors);

  // ORCIDs written or linked next to a name elsewhere in the header ("Jane Roe https://orcid.org/...").
  if (authors.some((a) => !a.orcid)) {
    texts.forEach(({ text, links, owner }, k) => {
      const ids = unique([...findOrcids(text), ...links.flatMap((l) => findOrcids(l))]).filter(
        (id) => validOrcid(id) && !authors.some((a) => a.orcid === id),
      );
      if (!ids.length) return;
      // One identifier in a note that belongs to one author (the author's contact block) is theirs.
      if (owner !== undefined && ids.length === 1 && !authors[owner]!.orcid) {
        authors[owner]!.orcid = ids[0]!;
        return;
      }
      // "*Correspondence: Jane Roe, Department ..." / "Email: ..." / "ORCID: ...": a Word
      // manuscript's contact note set one labelled line a paragraph; the identifier on such a line
      // is the named author's.
      const noteOwner = contactNoteOwner(texts, k, authors);
      if (ids.length === 1 && noteOwner !== null && !authors[noteOwner]!.orcid) {
        authors[noteOwner]!.orcid = ids[0]!;
        return;
      }
      // "0000-0001-... (V. Alexiev); 0000-0002-... (N. Keberle)": an identifier with a name in
      // brackets after it, or one identifier and one name to a segment, pair up whatever else the
      // paragraph mentions.
      for (const m of text.matchAll(/(\d{4}-\d{4}-\d{4}-\d{3}[\dX])\s*\(([^()]{2,60})\)/g)) {
        const named = mentionedAuthors(m[2]!, authors).filter((i) => !authors[i]!.orcid);
        const id = m[1]!;
        if (named.length === 1 && ids.includes(id) && !authors.some((a) => a.orcid === id))
          authors[named[0]!]!.orcid = id;
      }
      for (const segment of text.split(/[;\n]/)) {
        const own = findOrcids(segment).filter(
          (id) => ids.includes(id) && !authors.some((a) => a.orcid === id),
        );
        const named = mentionedAuthors(segment, authors).filter((i) => !authors[i]!.orcid);
        if (own.length === 1 && named.length === 1) authors[named[0]!]!.orcid = own[0]!;
      }
      const left = ids.filter((id) => !authors.some((a) => a.orcid === id));
      const mentioned = mentionedAuthors(text, authors).filter((i) => !authors[i]!.orcid);
      if (left.length && mentioned.length === left.length)
        mentioned.forEach((ai, n) => (authors[ai]!.orcid = left[n]!));
    });
  }

  // An identifier on a line of its own, labelled or not ("ORCID : 0000-..."), right under the line
  // the byline was read from that names one author (a thesis's title page: the student's name,
  // then the student's ORCID; the supervisor's further down, after the supervisor's label).
  if (authors.some((a) => !a.orcid)) {
    blocks.forEach((b, i) => {
      if (i === 0 || !chosen.used.has(i - 1) || !frontPages.has(b.page) || b.lines.length !== 1) return;
      const ids = findOrcids(b.text);
      const rest = b.text
        .replace(/\S*\d{4}-\d{4}-\d{4}-\d{3}[\dX]\S*/g, '')
        .replace(/^\s*orcid(?:\s+id)?\s*[.:]?/i, '');
      if (ids.length !== 1 || rest.trim() || !validOrcid(ids[0]!) || authors.some((a) => a.orcid === ids[0]))
        return;
      const named = mentionedAuthors(blocks[i - 1]!.text, authors);
      if (named.length === 1 && !authors[named[0]!]!.orcid) authors[named[0]!]!.orcid = ids[0]!;
    });
  }

  // A table of the authors and their identifiers set in columns ("Author | ORCID | Email", a Word
  // manuscript printed to PDF): a block of ORCIDs alone, one a line, pairs row by row with the
  // nearest block before it whose lines each name a different author.
  if (authors.some((a) => !a.orcid)) {
    blocks.forEach((b, i) => {
      if (!frontPages.has(b.page) || b.lines.length < 2) return;
      const ids = b.lines.map((l) => findOrcids(l.text));
      const alone = (t: string) => !t.replace(/\S*\d{4}-\d{4}-\d{4}-\d{3}[\dX]\S*/g, '').trim();
      if (!b.lines.every((l, k) => ids[k]!.length === 1 && alone(l.text))) return;
      for (let j = i - 1; j >= Math.max(0, i - 3); j--) {
        const rows = blocks[j]!.lines.map((l) => mentionedAuthors(l.text, authors));
        if (rows.length !== ids.length || !rows.every((r) => r.length === 1)) continue;
        if (new Set(rows.map((r) => r[0])).size !== rows.length) continue;
        rows.forEach((r, k) => {
          const id = ids[k]![0]!;
          const owner = authors[r[0]!]!;
          if (!owner.orcid && validOrcid(id) && !authors.some((a) => a.orcid === id)) owner.orcid = id;
        });
        break;
      }
    });
  }

  orcidsBesideNames(doc, authors);
  return unassignedEmails;
}

/**
 * ORCID icons linked beside a name: the name right before the icon is the identifier's owner; a
 * name broken over two lines ("... Daniel W." / "Davies ¹ [icon], Ryan Nduma ¹ [icon]", a JOSS
 * draft's byline) leaves only its last word there, which names the owner when it ends exactly one
 * unidentified author's name; failing both, the name right after the icon. Each reading is tried
 * on every icon before the next: the name after a broken name's icon is the next author's, whose
 * own icon follows it.
 */
function orcidsBesideNames(doc: DocumentModel, authors: ParsedAuthor[]): void {
  const clean = (t: string) => ` ${foldWords(t.replace(/\d+/g, ' '))} `;
  const anchors = (doc.orcidAnchors ?? []).map((anchor) => ({
    orcid: anchor.orcid,
    before: clean(iconsCut(anchor.before, 3)),
    after: clean(anchor.after),
  }));
  const lastWord = (a: ParsedAuthor) => foldWords(a.name).split(' ').slice(1).pop();
  const readings: ((before: string, after: string) => ParsedAuthor | undefined)[] = [
    (before) => authors.find((a) => !a.orcid && before.endsWith(` ${foldWords(a.name)} `)),
    (before) => {
      const owners = authors.filter((a) => !a.orcid && lastWord(a) && before.endsWith(` ${lastWord(a)} `));
      return owners.length === 1 ? owners[0] : undefined;
    },
    (_, after) => authors.find((a) => !a.orcid && after.startsWith(` ${foldWords(a.name)} `)),
  ];
  for (const read of readings) {
    for (const { orcid, before, after } of anchors) {
      if (!validOrcid(orcid) || authors.some((a) => a.orcid === orcid)) continue;
      const owner = read(before, after);
      if (owner) owner.orcid = orcid;
    }
  }
}
