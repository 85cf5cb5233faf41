// Person names: folding, parsing into parts, and the compatibility test that linking (and the referee
// finder, for manuscript authors) relies on. "Compatible" means "could be written by the same person":
// same family name, and given names that agree where both are known (an initial agrees with any
// name it starts). It never says two names ARE one person; callers need other evidence for that.

import { foldWords } from '../../infra/text-fold.ts';
import { isHonorific, mayEndInDegree, withoutTitles } from './name-titles.ts';

const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'di',
  'da',
  'dos',
  'das',
  'du',
  'la',
  'le',
  'ter',
  'ten',
  'bin',
  'al',
  'el',
  'st',
]);
const SUFFIXES = new Set(['jr', 'sr', 'ii', 'iii', 'iv', 'v']);

export interface PersonName {
  /** Given names in order (first, then middles); a single letter stands for an initial. */
  given: string[];
  /** Family name tokens, particles included ("van", "der"). */
  family: string[];
  suffix: string | null;
  /**
   * Where a given name was written as one hyphenated name of full parts ("Wei-Qiang": given
   * wei, qiang; hyphenated [0]): each index i whose name continues in given[i + 1]. Absent when none.
   */
  hyphenated?: number[];
}

function splitGiven(token: string): string[] {
  // "J.M." / "JM" (PubMed style, given after the family name) are two initials.
  if (/^(\p{Lu}\.?){2,3}$/u.test(token)) return token.replace(/\./g, '').toLowerCase().split('');
  return foldWords(token).split(' ').filter(Boolean);
}

/** "Wei-Qiang", "Jean-Pierre": one given name of full parts joined by a hyphen ("J.-P." is initials). */
function isHyphenatedName(token: string, parts: readonly string[]): boolean {
  return parts.length > 1 && /\p{L}[-\u2010\u2011]\p{L}/u.test(token) && parts.every((p) => p.length > 1);
}

/**
 * A word of letters of a script other than Latin, with what follows it up to the next Latin letter
 * and the brackets around it: "(黄德)" in "Derek F. Wong (黄德)", "黄德 " in "黄德 Derek F. Wong".
 */
// A run of another script as words of their own, not letters inside a Latin word: "Grieβhaber" (a
// Greek β typed for ß) is one family name, not "Grie" and "haber".
const OTHER_SCRIPT =
  /[(\uff08]?(?<!\p{Script=Latin})[^\P{L}\p{Script=Latin}][^\p{Script=Latin}(),\uff08\uff09]*[)\uff09]?(?!\p{Script=Latin})/gu;

/**
 * A name written in Latin letters and in the author's own script beside them (forms ask for both:
 * "Derek F. Wong (黄德)", "黄德 Derek F. Wong"), read by its Latin letters, as the corpus and the
 * bylines write it. A name in one script only is kept whole ("王伟", "Wei Wang").
 */
export function inLatinLetters(raw: string): string {
  // Most names are plain ASCII: nothing to cut.
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(raw) || !/\p{Script=Latin}/u.test(raw)) return raw;
  const latin = raw.replace(OTHER_SCRIPT, ' ').replace(/\s+/g, ' ').trim();
  return latin && latin !== raw && /\p{L}/u.test(latin) ? latin : raw;
}

/** Parses "First Middle Last", "Last, First M." and "Last FM"; null when nothing name-like is left. */
export function parsePersonName(raw: string): PersonName | null {
  // Titles and degrees name no one: "Prof. Dr. Hans Meier" and "Jane Roe, PhD" are Hans Meier and
  // Jane Roe (read as "Family, Given", the degree was a given name; after it, "phd" a family name).
  const text = withoutTitles(inLatinLetters(raw).replace(/\s+/g, ' ').trim());
  if (!text) return null;
  let givenPart: string;
  let familyPart: string;
  let suffix: string | null = null;
  const comma = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // Commas and spaces only: nothing name-like (such a name reached the linker from 4.2 and threw).
  if (comma.length === 0) return null;
  if (comma.length >= 2 && !SUFFIXES.has(foldWords(comma[1]!))) {
    familyPart = comma[0]!;
    givenPart = comma[1]!;
    if (comma[2] && SUFFIXES.has(foldWords(comma[2]))) suffix = foldWords(comma[2]);
  } else {
    if (comma.length >= 2) suffix = foldWords(comma[1]!);
    const tokens = comma[0]!.split(' ');
    const last = tokens[tokens.length - 1]!;
    if (tokens.length > 1 && SUFFIXES.has(foldWords(last))) {
      suffix = foldWords(last);
      tokens.pop();
    }
    // "Smith JM": a trailing run of capitals is the initials of a name written family-first.
    const tail = tokens[tokens.length - 1]!;
    if (tokens.length === 2 && /^\p{Lu}{1,3}$/u.test(tail) && !/^\p{Lu}{1,3}$/u.test(tokens[0]!)) {
      familyPart = tokens[0]!;
      givenPart = tail;
    } else {
      let cut = tokens.length - 1;
      while (cut > 1 && PARTICLES.has(foldWords(tokens[cut - 1]!))) cut--;
      familyPart = tokens.slice(cut).join(' ');
      givenPart = tokens.slice(0, cut).join(' ');
    }
  }
  const family = foldWords(familyPart).split(' ').filter(Boolean);
  if (family.length === 0) return null;
  const given: string[] = [];
  let hyphenated: number[] | undefined;
  for (const token of givenPart.split(/[\s]+/)) {
    if (!token) continue;
    const parts = splitGiven(token);
    if (isHyphenatedName(token, parts)) {
      hyphenated ??= [];
      for (let i = 0; i < parts.length - 1; i++) hyphenated.push(given.length + i);
    }
    given.push(...parts);
  }
  return hyphenated ? { given, family, suffix, hyphenated } : { given, family, suffix };
}

/**
 * A name's readings: how it parses, then, where the family name may be compound, the other split
 * between given and family names. Spanish and Portuguese double family names are written with a
 * hyphen in one place and without in another ("María García-López", "María García López"), and the
 * two parse to different family names (keys "garcia lopez" and "lopez"). The corpus keys an author
 * by the first reading only; the referee finder looks a manuscript author up by every reading's key
 * and takes a corpus name compatible with any reading (it still needs a second piece of evidence).
 */
export function nameReadings(written: string): PersonName[] {
  const raw = inLatinLetters(written);
  const parsed = parsePersonName(raw);
  if (!parsed) return [];
  const readings = [parsed, ...transliteratedReadings(raw, parsed), ...compoundFamilyReadings(raw, parsed)];
  const writtenFamilyFirst = familyFirst(raw);
  if (writtenFamilyFirst && familyCore(writtenFamilyFirst) !== familyCore(parsed))
    readings.push(writtenFamilyFirst);
  const compoundFirst = compoundFamilyFirst(raw);
  // And its family name's last word alone, as the corpus keys "Gabriela Fuentes Rivera" (the raw
  // given as "," says the split is known: no other split of the given names).
  if (compoundFirst) readings.push(compoundFirst, ...compoundFamilyReadings(',', compoundFirst));
  return readings;
}

/** The other splits between given and family names of a name whose family name may be compound. */
function compoundFamilyReadings(raw: string, parsed: PersonName): PersonName[] {
  const readings: PersonName[] = [];
  const { given, family, suffix, hyphenated } = parsed;
  if (family.some((t) => PARTICLES.has(t))) return readings;
  // "García-López" (one written family name of two words): also "García" as a given name.
  if (family.length >= 2) {
    readings.push(
      withHyphenated(
        { given: [...given, ...family.slice(0, -1)], family: family.slice(-1), suffix },
        hyphenated,
      ),
    );
  }
  // "María García López", three written words or more in "given family" order: also "García López"
  // as the family name, unless "García" is an initial ("John A. Smith").
  const lastGiven = given[given.length - 1];
  const writtenWords = raw.trim().split(/\s+/).length;
  if (!raw.includes(',') && writtenWords >= 3 && given.length >= 2 && lastGiven && lastGiven.length > 1) {
    readings.push(
      withHyphenated({ given: given.slice(0, -1), family: [lastGiven, ...family], suffix }, hyphenated),
    );
    // "Inés Ruiz Moreno" is also "Inés Ruiz", "José María Álvarez-Buylla Roces" "José M.
    // Álvarez-Buylla": Spanish names are often written with the first family name alone.
    const first = hyphenated?.includes(given.length - 2) ? given.length - 2 : given.length - 1;
    if (first >= 1) {
      readings.push(
        withHyphenated({ given: given.slice(0, first), family: given.slice(first), suffix }, hyphenated),
      );
    }
  }
  return readings;
}

/** Letters written as two where they cannot be typed: "Müller" as "Mueller", "Sørensen" as "Soerensen". */
const TRANSLITERATED: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ø: 'oe',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  Ø: 'Oe',
};
const TRANSLITERABLE = /[äöüøÄÖÜØ]/;
const EVERY_TRANSLITERABLE = /[äöüøÄÖÜØ]/g;
/** "ae", "oe", "ue" in a folded name: what a transliterated ä, ö, ü or ø became. */
const DIGRAPH = /([aou])e/;
const EVERY_DIGRAPH = /([aou])e/g;

/**
 * The name as it reads where ä, ö, ü and ø are typed as ae, oe, ue and oe (German and Scandinavian
 * names): "Jürgen Müller" also as "Juergen Mueller"; and a name written so also as the letters it may
 * stand for, folded ("Mueller" as "Muller", the key of "Müller"), its family name alone or with its
 * given names ("Samuel Mueller": Samuel keeps its "ue").
 */
function transliteratedReadings(raw: string, parsed: PersonName): PersonName[] {
  const out: PersonName[] = [];
  if (TRANSLITERABLE.test(raw)) {
    const typed = parsePersonName(raw.replace(EVERY_TRANSLITERABLE, (c) => TRANSLITERATED[c] ?? c));
    if (typed) out.push(typed);
  }
  if (parsed.family.some((t) => DIGRAPH.test(t))) {
    const undo = (tokens: string[]) => tokens.map((t) => t.replace(EVERY_DIGRAPH, '$1'));
    const family = undo(parsed.family);
    out.push({ ...parsed, family });
    const given = undo(parsed.given);
    if (given.some((g, i) => g !== parsed.given[i])) out.push({ ...parsed, given, family });
  }
  return out;
}

/** Whether a name has a reading transliteratedReadings adds (nameReadingKeys' quick path has none). */
function mayBeTransliterated(raw: string, key: string): boolean {
  return TRANSLITERABLE.test(raw) || DIGRAPH.test(key);
}

/** A first written word in capitals, before words in mixed case: "WANG Wei", "KIM Min-Jun". */
const CAPITALS_FIRST = /^\p{Lu}{2,}\s+(?=\p{Lu}?\p{Ll})/u;
/** A first written word that is initials ("D.", "AJ", "J.-P."), not a family name. */
const INITIALS_FIRST = /^(?:\p{Lu}[.-]*){1,3}(?:\s|$)/u;
/** A written word that is one or two initials ("A.", "AJ", "J.-"). */
const INITIAL_WORD = /^(?:\p{Lu}[.-]*){1,2}$/u;

/**
 * "Wong Derek F.", "Zhang Wei-Nan", "WANG Wei", "Müller Jürgen": the family name written first
 * without a comma, as East Asian and Hungarian names are and as forms that ask for "family name,
 * given name" in two fields send them joined, read that way (the reading in written order takes the
 * last word for the family name). Null for a name with a comma (which says where the family name
 * ends), of one word, or whose first word is initials ("D. F. Wong", "AJ Smith"), unless that word is
 * a family name set in capitals before mixed-case given names ("KIM Min-Jun"). One more reading,
 * never the only one: the second piece of evidence decides.
 */
function familyFirst(raw: string): PersonName | null {
  const text = withoutTitles(raw.trim());
  if (text.includes(',')) return null;
  const words = text.split(/\s+/);
  if (!mayReadFamilyFirst(text, words)) return null;
  return parsePersonName(`${words[0]}, ${words.slice(1).join(' ')}`);
}

/**
 * familyFirst's test of a name without a comma or titles (`text`, split into its `words`): whether
 * its first word may be its family name. nameReadingKeys' quick path asks it too, so that the two
 * cannot drift apart.
 */
function mayReadFamilyFirst(text: string, words: readonly string[]): boolean {
  if (words.length < 2 || PARTICLES.has(foldWords(words[0]!))) return false;
  if (INITIALS_FIRST.test(text) && !CAPITALS_FIRST.test(text)) return false;
  // "John A. Smith": an initial inside, a full name last, is the given-first order.
  for (let i = 1; i < words.length - 1; i++)
    if (INITIAL_WORD.test(words[i]!)) return INITIAL_WORD.test(words[words.length - 1]!);
  return true;
}

/**
 * "van der Berg Anna", "GARCÍA MÁRQUEZ Gabriel": a family name of two words or more written first
 * without a comma, read that way, where the words say where it ends: particles lead it and one word
 * follows them, or two words in capitals come before mixed-case given names (Spanish and Portuguese
 * double family names as forms that ask for the family name in capitals send them). familyFirst
 * takes one word only, and none after a particle. Null otherwise: "García Márquez Gabriel" in mixed
 * case could as well be one family name and two given names, and its written order's readings stand.
 */
function compoundFamilyFirst(raw: string): PersonName | null {
  const text = withoutTitles(raw.trim());
  if (text.includes(',')) return null;
  const words = text.split(/\s+/);
  let end = 0;
  while (end < words.length && PARTICLES.has(foldWords(words[end]!))) end++;
  if (end > 0) end++;
  else if (words.length >= 3 && TWO_CAPITALS_FIRST.test(text)) end = 2;
  if (end < 2 || end >= words.length) return null;
  return parsePersonName(`${words.slice(0, end).join(' ')}, ${words.slice(end).join(' ')}`);
}
const TWO_CAPITALS_FIRST = /^\p{Lu}{2,}\s+\p{Lu}{2,}\s+(?=\p{Lu}?\p{Ll})/u;

/** A reading keeps the hyphenated given names it still holds whole. */
function withHyphenated(name: PersonName, hyphenated: readonly number[] | undefined): PersonName {
  const kept = hyphenated?.filter((i) => i + 1 < name.given.length);
  return kept && kept.length > 0 ? { ...name, hyphenated: kept } : name;
}

/**
 * The keys of every reading of a name (nameReadings), without parsing the names that have one
 * reading only (a one-word family name, fewer than three written words): relinking after an ingest
 * asks this for every author of every organization's groups.
 */
export function nameReadingKeys(written: string): string[] {
  const raw = inLatinLetters(written);
  const key = nameKey(raw);
  if (key === null) return [];
  const words = raw.trim().split(/\s+/);
  if (!key.includes(' ') && words.length < 3 && !mayBeTransliterated(raw, key)) {
    if (words.length < 2 || raw.includes(',')) return [key];
    // "Derek Wong": read in written order and, where familyFirst reads it, with the family name
    // first, each reading keyed by one of the two words. Two words of ASCII letters and no title
    // (withoutTitles leaves them as written) fold to themselves in lower case.
    const [first, second] = words as [string, string];
    const plainWord = /^[A-Za-z]+$/;
    if (plainWord.test(first) && plainWord.test(second) && !isHonorific(first) && !mayEndInDegree(raw))
      return mayReadFamilyFirst(raw.trim(), words) ? [...new Set([key, first.toLowerCase()])] : [key];
  }
  return [...new Set(nameReadings(raw).map(familyCore))];
}

const keyCache = new Map<string, string | null>();
/** Most names whose keys are remembered (nameKey); the cache is emptied when it is full. */
export const KEY_CACHE_LIMIT = 200_000;

/**
 * Longest name whose key is remembered. The limit above counts names, not characters: an upload's
 * thousand 15 KB author names kept 29 MB an upload until the process ran out of heap. Real names
 * are far shorter; longer ones are keyed each time.
 */
export const KEY_CACHE_MAX_NAME_CHARS = 200;

/** Names whose keys are remembered now (for tests: the cache never holds more than its limit). */
export function nameKeyCacheSize(): number {
  return keyCache.size;
}

/** The family name without particles, folded: what corpus authors are looked up by (`authors.name_key`). */
export function nameKey(raw: string): string | null {
  const cached = keyCache.get(raw);
  if (cached !== undefined) return cached;
  const key = computeNameKey(raw);
  // Bounded: ingestion sees millions of names; repeats are what the cache is for. An entry costs
  // about 125 bytes for a 20-character name, so the serving process holds at most ~24 MB here
  // (docs/benchmarks/fuzz-soak.md: the one structure its heap snapshots saw grow with traffic).
  if (raw.length > KEY_CACHE_MAX_NAME_CHARS) return key;
  if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.clear();
  keyCache.set(raw, key);
  return key;
}

function computeNameKey(raw: string): string | null {
  const simple = plainNameKey(raw);
  if (simple !== undefined) return simple;
  const parsed = parsePersonName(raw);
  return parsed ? familyCore(parsed) : null;
}

function isLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** 1 to 3 capitals: the initials of "Smith JM" (parsePersonName's /^\p{Lu}{1,3}$/ on ASCII). */
function isInitials(token: string): boolean {
  if (token.length > 3) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 0x41 || c > 0x5a) return false;
  }
  return true;
}

/**
 * computeNameKey of a name made of ASCII letters in words separated by single spaces (most names),
 * by parsePersonName's rules without its regular expressions and Unicode folding; undefined for
 * any other name. The names tests and the ACL authors check it against the general path.
 */
export function plainNameKey(raw: string): string | null | undefined {
  if (raw.length === 0) return undefined;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (isLetter(c)) continue;
    if (c !== 0x20 || i === 0 || i === raw.length - 1 || raw.charCodeAt(i - 1) === 0x20) return undefined;
  }
  const tokens = raw.split(' ');
  // A title before the name or a degree after it: the general path cuts them (withoutTitles).
  if (isHonorific(tokens[0]!) || mayEndInDegree(raw)) return undefined;
  if (tokens.length > 1 && SUFFIXES.has(tokens[tokens.length - 1]!.toLowerCase())) tokens.pop();
  let family: string[];
  if (tokens.length === 2 && isInitials(tokens[1]!) && !isInitials(tokens[0]!)) family = [tokens[0]!];
  else {
    let cut = tokens.length - 1;
    while (cut > 1 && PARTICLES.has(tokens[cut - 1]!.toLowerCase())) cut--;
    family = tokens.slice(cut);
  }
  const folded = family.map((t) => t.toLowerCase());
  const core = folded.filter((t) => !PARTICLES.has(t));
  return (core.length > 0 ? core : folded).join(' ');
}

function givenAgree(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length === 1) return b.startsWith(a);
  if (b.length === 1) return a.startsWith(b);
  return false;
}

/** The family name without particles (all of it when it is only particles): a name's key. */
export function familyCore(name: PersonName): string {
  const core = name.family.filter((t) => !PARTICLES.has(t));
  return (core.length > 0 ? core : name.family).join(' ');
}

/**
 * Whether two written names could belong to one person. Requires the same family name and a known,
 * agreeing first given name; middle names must agree where both give one. A name with no given
 * name at all is compatible with nothing: a bare family name is not evidence. A hyphenated given
 * name agrees with its parts written apart, together ("Weinan" for "Wei-Nan") or as initials, two
 * full given names written apart with them written together ("Wei Nan", "Weinan"), and,
 * as weaker evidence, with its first part alone (`givenNameShortened`).
 */
export function namesCompatible(a: string, b: string): boolean {
  return parsedNamesCompatible(parsePersonName(a), parsePersonName(b));
}

/** `namesCompatible` on names parsed once by the caller (comparing one name with many). */
export function parsedNamesCompatible(x: PersonName | null, y: PersonName | null): boolean {
  return givenAgreement(x, y) !== 'none';
}

/**
 * Whether two compatible names agree only through one of them giving the first part of the other's
 * hyphenated given name alone ("Wei Zhang", "Wei-Qiang Zhang"; "Dumitru Cercel", "Dumitru-Clementin
 * Cercel"). In the ACL Anthology such pairs with a shared co-author are mostly one person, but the
 * short form is also a common name of its own: like an initial, it asks the works for more (people.ts).
 */
export function givenNameShortened(x: PersonName | null, y: PersonName | null): boolean {
  // Without a hyphenated name there is nothing to shorten: people.ts asks this of every pair it
  // weighs, right after asking whether the names are compatible at all.
  if (!x?.hyphenated && !y?.hyphenated) return false;
  return givenAgreement(x, y) === 'shortened';
}

/** How two names' given names agree: not at all, only through a shortened hyphenated name, or fully. */
type Agreement = 'none' | 'shortened' | 'full';

function givenAgreement(x: PersonName | null, y: PersonName | null): Agreement {
  if (!x || !y) return 'none';
  if (familyCore(x) !== familyCore(y)) return 'none';
  if (x.given.length === 0 || y.given.length === 0) return 'none';
  let found: Agreement = 'none';
  for (const vx of givenForms(x)) {
    for (const vy of givenForms(y)) {
      if (!triedAgainst(vx, vy, y) || !triedAgainst(vy, vx, x)) continue;
      if (!givenNamesAgree(vx.given, vy.given)) continue;
      if (!endsInsideHyphenated(vx, vy.given) && !endsInsideHyphenated(vy, vx.given)) return 'full';
      found = 'shortened';
    }
  }
  return found;
}

/** The first given names agree, and every later one both names give. */
function givenNamesAgree(x: readonly string[], y: readonly string[]): boolean {
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (!givenAgree(x[i]!, y[i]!)) return false;
  }
  return true;
}

type GivenForm = Pick<PersonName, 'given' | 'hyphenated'> & {
  /** Two given names written apart, here as one ("Wei Nan" as "weinan"). */
  wordsJoined?: true;
};

/**
 * The forms a name's given names may take, as written first. A given name of two syllables may be
 * written hyphenated, as two words or as one ("Wei-Nan", "Wei Nan", "Weinan"), as romanised Chinese
 * and Korean names are: a hyphenated name adds its hyphenated names written together ("wei", "nan"
 * → "weinan"); a name without a hyphen adds its first two given names written as one, where both
 * are full names.
 */
function givenForms(name: PersonName): GivenForm[] {
  if (!name.hyphenated) {
    const [first, second] = name.given;
    if (!first || !second || first.length < 2 || second.length < 2) return [name];
    return [name, { given: [first + second, ...name.given.slice(2)], wordsJoined: true }];
  }
  const joined: string[] = [];
  name.given.forEach((part, i) => {
    if (i > 0 && name.hyphenated!.includes(i - 1)) joined[joined.length - 1] += part;
    else joined.push(part);
  });
  return [name, { given: joined }];
}

/**
 * Whether `form` is tried against `other`, a form of `otherName`: two given names written as one
 * meet only the other name as written, and one without a hyphen (a hyphenated "Wei-Nan" meets
 * "Wei Nan" as written already).
 */
function triedAgainst(form: GivenForm, other: GivenForm, otherName: PersonName): boolean {
  return !form.wordsJoined || (other === otherName && !otherName.hyphenated);
}

/** `other` stops inside one of the name's hyphenated given names, after a full part: "Wei" of "Wei-Qiang". */
function endsInsideHyphenated(name: GivenForm, other: readonly string[]): boolean {
  for (const i of name.hyphenated ?? []) if (other.length === i + 1 && other[i]!.length > 1) return true;
  return false;
}

/**
 * The first given name as the pairing of a name block can meet it: written as it is, and, when it
 * is hyphenated, its parts together ("wei" and "weinan" for "Wei-Nan"; people.ts pairs records whose
 * first given names are equal or an initial).
 */
export function firstGivenForms(name: PersonName): string[] {
  const first = name.given[0]!;
  if (!name.hyphenated?.includes(0)) return [first];
  return [first, givenForms(name)[1]!.given[0]!];
}

/** Splits a parsed name for display fields (first, middle, last, suffix), as the candidate object has them. */
export function nameParts(raw: string): {
  first: string;
  middle: string | null;
  last: string;
  suffix: string | null;
} {
  const text = raw.replace(/\s+/g, ' ').trim();
  const parsed = parsePersonName(text);
  const parts = text.split(',').map((p) => p.trim());
  // "Family, Given Middle": the written forms are kept, only split.
  if (parts.length >= 2 && parts[1] && !SUFFIXES.has(foldWords(parts[1]))) {
    const given = parts[1].split(' ');
    return {
      first: given[0] ?? '',
      middle: given.length > 1 ? given.slice(1).join(' ') : null,
      last: parts[0]!,
      suffix: parsed?.suffix ?? null,
    };
  }
  const tokens = parts[0]!.split(' ');
  if (tokens.length > 1 && SUFFIXES.has(foldWords(tokens[tokens.length - 1]!))) tokens.pop();
  if (tokens.length < 2)
    return { first: '', middle: null, last: tokens[0] ?? '', suffix: parsed?.suffix ?? null };
  let cut = tokens.length - 1;
  while (cut > 1 && PARTICLES.has(foldWords(tokens[cut - 1]!))) cut--;
  const given = tokens.slice(0, cut);
  return {
    first: given[0] ?? '',
    middle: given.length > 1 ? given.slice(1).join(' ') : null,
    last: tokens.slice(cut).join(' '),
    suffix: parsed?.suffix ?? null,
  };
}
