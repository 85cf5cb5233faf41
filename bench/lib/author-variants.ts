// How an editorial system's form may spell a manuscript's authors other than the corpus does: each
// kind is one general rewriting rule, applied to whatever name or affiliation comes (seeded where the
// rule has a choice), never a list of the corpus's strings. bench/conflicts.ts --variants counts, per
// kind, what the referee finder still finds against the names as the corpus writes them.
import type { ManuscriptAuthor } from '../../src/referee-finder/types.ts';
import { seededRandom } from '../../src/retrieval/seeded-random.ts';

export const NAME_VARIANTS = [
  'family-first', // "Wong Derek F."
  'family-comma', // "Wong, Derek F."
  'initials', // "D. F. Wong"
  'no-middle', // "Derek Wong"
  'ascii', // "Mueller", "Soerensen", "Jose Nunez"
  'capitals', // "WONG Derek F."
  'given-spacing', // "Wei-Nan" as "Weinan" or "Wei Nan"; "Wei Nan" as "Wei-Nan"
  'given-joined', // "Wei Nan Zhang" as "Weinan Zhang"
  'titles', // "Prof. Dr. Derek F. Wong", "Derek F. Wong, PhD"
  'own-script', // "Derek F. Wong (黄德)", "黄德 Derek F. Wong"
  'compound-first', // "GARCÍA MÁRQUEZ Gabriel", "van der Berg Anna", "VAN DER BERG, Anna"
] as const;
export const AFFILIATION_VARIANTS = [
  'aff-acronym', // "Massachusetts Institute of Technology" as "MIT"
  'aff-address', // "Department of Computer Science, <affiliation>, 12 Main Road, 10115"
  'aff-language', // "University of Edinburgh" as "Universität Edinburgh", "Université de Edimbourg"
  'aff-email-only', // no affiliation, an address at the institution's domain
] as const;
export type VariantKind = (typeof NAME_VARIANTS)[number] | (typeof AFFILIATION_VARIANTS)[number];
export const VARIANT_KINDS: readonly VariantKind[] = [...NAME_VARIANTS, ...AFFILIATION_VARIANTS];

/** A written name's words: given names (first, middles) and the family name (its last word or words). */
function splitName(name: string): { given: string[]; family: string } | null {
  const words = name.trim().split(/\s+/);
  if (words.length < 2) return null;
  // A particle stays with the family name ("Ludwig van Beethoven").
  let cut = words.length - 1;
  while (cut > 1 && /^(van|von|der|den|de|del|della|di|da|dos|du|la|le|ter|ten)$/i.test(words[cut - 1]!))
    cut--;
  return { given: words.slice(0, cut), family: words.slice(cut).join(' ') };
}

const initial = (word: string) =>
  word
    .split('-')
    .map((p) => `${p.charAt(0).toUpperCase()}.`)
    .join('-');

const GERMAN_TYPED: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ø: 'oe',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  Ø: 'Oe',
  ß: 'ss',
};

/** Letters beyond ASCII typed without them: the German way where it has one, else the accent dropped. */
function typedInAscii(text: string): string {
  return text
    .replace(/[äöüøÄÖÜØß]/g, (c) => GERMAN_TYPED[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

// Han characters common in names: what a form's second name field in the author's own script holds.
const HAN = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚';

export function nameVariant(kind: VariantKind, name: string, random: () => number): string {
  const parts = splitName(name);
  if (!parts) return name;
  const { given, family } = parts;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  switch (kind) {
    case 'family-first':
      return `${family} ${given.join(' ')}`;
    case 'family-comma':
      return `${family}, ${given.join(' ')}`;
    case 'initials':
      return `${given.map(initial).join(' ')} ${family}`;
    case 'no-middle':
      return `${given[0]} ${family}`;
    case 'ascii':
      return typedInAscii(name);
    case 'capitals':
      return `${family.toUpperCase()} ${given.join(' ')}`;
    case 'given-spacing': {
      const first = given[0]!;
      if (/\p{L}-\p{L}/u.test(first)) {
        const [a, ...rest] = first.split('-');
        const joined = pick([`${a}${rest.join('').toLowerCase()}`, `${a} ${rest.join(' ')}`]);
        return [joined, ...given.slice(1), family].join(' ');
      }
      // Two full given names: written as one hyphenated name.
      if (given.length >= 2 && given[0]!.length > 2 && given[1]!.length > 2 && !given[1]!.includes('.'))
        return [`${given[0]}-${given[1]}`, ...given.slice(2), family].join(' ');
      return name;
    }
    case 'given-joined': {
      // Two full given names written as one word, the second in lower case.
      const [a, b] = given;
      if (!a || !b || a.length < 2 || b.length < 2 || /[.-]/.test(a + b)) return name;
      return [`${a}${b.toLowerCase()}`, ...given.slice(2), family].join(' ');
    }
    case 'titles':
      return pick([`Prof. Dr. ${name}`, `${name}, PhD`, `Dr. ${name}`, `${name}, MSc`]);
    case 'compound-first': {
      // A family name of two words or more written first: one with a particle as the name parses it
      // ("van der Berg"); else, for three full words or more, the last two, as Spanish and Portuguese
      // double family names are ("García Márquez"). In capitals or with a comma, seeded. A name of
      // two words, or with an initial, is left (family-first and capitals write those).
      const words = name.trim().split(/\s+/);
      const compound = family.includes(' ')
        ? { family, given }
        : words.length >= 3 && words.every((w) => /^\p{Lu}\p{Ll}+$/u.test(w))
          ? { family: words.slice(-2).join(' '), given: words.slice(0, -2) }
          : null;
      if (!compound || compound.given.length === 0) return name;
      return pick([
        `${compound.family.toUpperCase()} ${compound.given.join(' ')}`,
        `${compound.family} ${compound.given.join(' ')}`,
        `${compound.family}, ${compound.given.join(' ')}`,
      ]);
    }
    case 'own-script': {
      const own = Array.from({ length: 2 + Math.floor(random() * 2) }, () => pick([...HAN])).join('');
      return pick([`${name} (${own})`, `${own} ${name}`]);
    }
    default:
      return name;
  }
}

const ORGANIZATION_WORD = /\b(University|Institute|College|Academy|Laboratory|Center|Centre|School)\b/;

/** The comma-separated part of an affiliation that names its organization (else the whole). */
function organizationPart(affiliation: string): { parts: string[]; at: number } {
  const parts = affiliation.split(',').map((p) => p.trim());
  const at = parts.findIndex(
    (p) => ORGANIZATION_WORD.test(p) && !/^(Department|Faculty|School of)\b/.test(p),
  );
  return { parts, at: at >= 0 ? at : 0 };
}

/** "Massachusetts Institute of Technology" -> "MIT": the initials of its capitalized words (3 or more). */
function acronymOf(part: string): string | null {
  const capitalized = part.split(/\s+/).filter((w) => /^\p{Lu}/u.test(w));
  return capitalized.length >= 3 ? capitalized.map((w) => w.charAt(0).toUpperCase()).join('') : null;
}

/** The word of an organization's name its domain is made of: the acronym, else its one proper word. */
function domainLabel(part: string): string | null {
  const acronym = acronymOf(part);
  if (acronym) return acronym.toLowerCase();
  const proper = part
    .split(/\s+/)
    .filter((w) => /^\p{Lu}\p{Ll}+$/u.test(w) && !ORGANIZATION_WORD.test(w) && w !== 'Technology');
  return proper.length === 1 ? typedInAscii(proper[0]!).toLowerCase() : null;
}

const IN_OTHER_LANGUAGES: Array<(place: string) => string> = [
  (p) => `Universität ${p}`,
  (p) => `Université de ${p}`,
  (p) => `Universidad de ${p}`,
  (p) => `Università di ${p}`,
];

export function affiliationVariant(
  kind: VariantKind,
  author: ManuscriptAuthor,
  random: () => number,
): Pick<ManuscriptAuthor, 'affiliation' | 'email'> {
  const aff = author.affiliation;
  if (!aff) return { affiliation: aff, email: author.email };
  const { parts, at } = organizationPart(aff);
  const part = parts[at]!;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  switch (kind) {
    case 'aff-acronym': {
      const acronym = acronymOf(part);
      if (!acronym) return { affiliation: aff, email: author.email };
      parts[at] = acronym;
      return { affiliation: parts.join(', '), email: author.email };
    }
    case 'aff-address':
      return {
        affiliation: `${/^(Department|Faculty|School) of/.test(aff) ? '' : 'Department of Computer Science, '}${aff}, ${10 + Math.floor(random() * 90)} Main Road, ${10000 + Math.floor(random() * 89999)}`,
        email: author.email,
      };
    case 'aff-language': {
      const place = /^University of (\p{Lu}[\p{L}-]*(?: \p{Lu}[\p{L}-]*)?)$/u.exec(part)?.[1];
      if (!place) return { affiliation: aff, email: author.email };
      parts[at] = pick(IN_OTHER_LANGUAGES)(place);
      return { affiliation: parts.join(', '), email: author.email };
    }
    case 'aff-email-only': {
      const label = domainLabel(part);
      if (!label) return { affiliation: aff, email: author.email };
      const local = `author${Math.floor(random() * 1000)}`;
      return { affiliation: null, email: `${local}@${label}.${pick(['edu', 'ac.uk', 'edu.cn', 'de'])}` };
    }
    default:
      return { affiliation: aff, email: author.email };
  }
}

/** The manuscript's authors as the form would send them under `kind` (seeded by the manuscript). */
export function authorsVariant(
  kind: VariantKind,
  authors: readonly ManuscriptAuthor[],
  seed: number,
): ManuscriptAuthor[] {
  const random = seededRandom(seed);
  return authors.map((a) =>
    (NAME_VARIANTS as readonly string[]).includes(kind)
      ? { ...a, name: nameVariant(kind, a.name, random) }
      : { ...a, ...affiliationVariant(kind, a, random) },
  );
}
