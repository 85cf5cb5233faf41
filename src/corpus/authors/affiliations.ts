// Affiliation strings: normalization and matching. "Univ. of X" and "University of X, City, Country"
// are one place; so are two departments or campuses of one university. Used by linking (group
// authors' affiliations) and by the referee finder (affiliation conflicts).
import { foldWords } from '../../infra/text-fold.ts';

const ABBREVIATIONS: Array<[RegExp, string]> = [
  [
    /\buniv\b|\buniversitat\b|\buniversitaet\b|\buniversite\b|\buniversidad\b|\buniversidade\b|\buniversita\b|\buniversiteit\b/g,
    'university',
  ],
  [/\binst\b|\binstitut\b|\binstituto\b/g, 'institute'],
  [/\bdept\b|\bdep\b/g, 'department'],
  [/\btech\b/g, 'technology'],
  [/\bnatl\b/g, 'national'],
  [/\bctr\b|\bcentre\b/g, 'center'],
  [/\blab\b|\blabs\b/g, 'laboratory'],
  [/\bcoll\b/g, 'college'],
  [/\bhosp\b/g, 'hospital'],
  [/\bsch\b/g, 'school'],
  [/\bres\b/g, 'research'],
  [/\bsci\b/g, 'science'],
  [/\bu\.? of\b/g, 'university of'],
  [/&/g, ' and '],
];

// Words that name a unit inside an organization: a segment led by one of them is not the organization.
const SUBUNIT =
  /^(department|faculty|school|division|laboratory|group|chair|section|unit|program|programme|college of|center for|centre for|graduate school|key laboratory)\b/;
const ORGANIZATION =
  /\b(university|institute|college|academy|hospital|school|laboratory|center|foundation|corporation|company|inc|ltd|gmbh|research|council|agency|ministry|polytechnic|ecole|politecnico|universidad|google|microsoft|meta|amazon|ibm|apple|nvidia|deepmind|openai)\b/;

const GENERIC = new Set([
  'university',
  'institute',
  'college',
  'school',
  'hospital',
  'laboratory',
  'center',
  'department',
  'faculty',
  'research',
  'academy',
  'foundation',
  'company',
  'inc',
  'ltd',
  'gmbh',
]);

/** Folded, abbreviations expanded, stop punctuation removed. */
export function normalizeAffiliation(value: string): string {
  let text = ` ${foldWords(value.replace(/,/g, ' , '))} `;
  for (const [pattern, replacement] of ABBREVIATIONS) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, ' ').trim();
}

function segments(value: string): string[] {
  return value
    .split(/[,;()\n]/)
    .map((s) => normalizeAffiliation(s))
    .filter(Boolean);
}

/**
 * The organization an affiliation names, normalized: the first comma-separated segment that looks
 * like an organization and not like a unit inside one, else the first segment. "Dept. of CS, Univ.
 * of X, City" → "university of x". A campus suffix ("University of X at Y", "University of X - Y")
 * is dropped so that campuses of one university agree.
 */
export function affiliationCore(value: string): string {
  const parts = segments(value);
  if (parts.length === 0) return '';
  const org =
    parts.find((p) => ORGANIZATION.test(p) && !SUBUNIT.test(p)) ??
    parts.find((p) => !SUBUNIT.test(p)) ??
    parts[0]!;
  return org
    .replace(/\s(at|in)\s.*$/, '')
    .replace(/^the\s/, '')
    .trim();
}

/** Whether two affiliation strings name the same organization (departments and campuses included). */
export function affiliationsMatch(a: string, b: string): boolean {
  return affiliationCoresMatch(affiliationCore(a), affiliationCore(b));
}

/** `affiliationsMatch` on cores the caller computed once (comparing one list with many names). */
export function affiliationCoresMatch(x: string, y: string): boolean {
  if (!x || !y) return false;
  if (x === y) return true;
  // "university of x" inside "the university of x medical school", on word boundaries. A single word
  // ("microsoft") may only lead the longer name ("microsoft research asia"), and a generic one
  // ("university") matches nothing, or every university would match every other.
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  if (!shorter.includes(' ')) return !GENERIC.has(shorter) && longer.startsWith(`${shorter} `);
  return ` ${longer} `.includes(` ${shorter} `);
}

/**
 * Whether any of `as` matches any of `bs`; `core` gives each string's core (`affiliationCore`, or a
 * caller's cache of it when many lists share their strings).
 */
export function anyAffiliationMatches(
  as: readonly string[],
  bs: readonly string[],
  core: (value: string) => string = affiliationCore,
): boolean {
  return as.some((a) => bs.some((b) => affiliationCoresMatch(core(a), core(b))));
}
