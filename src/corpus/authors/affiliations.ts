// Affiliation strings: normalization and matching. "Univ. of X" and "University of X, City, Country"
// are one place; so are two departments or campuses of one university. Used by linking (group
// authors' affiliations) and by the referee finder (affiliation conflicts).
import { foldWords } from '../../infra/text-fold.ts';

// Abbreviations, and the words of other languages for the kinds of organization, in English: an
// affiliation is written in the language of its author, a corpus's institution in another one
// ("Universidad de Granada", "University of Granada"; "Technische Universität München", "Technical
// University of Munich").
const ABBREVIATIONS: Array<[RegExp, string]> = [
  [
    /\buniv\b|\buniversitat\b|\buniversitaet\b|\buniversite\b|\buniversidad\b|\buniversidade\b|\buniversita\b|\buniversiteit\b|\buniwersytet\b|\buniversitet\b|\buniversiteti\b|\buniversitesi\b|\buniversitas\b|\buniversiti\b|\buniverzita\b|\buniverzitet\b/g,
    'university',
  ],
  [/\btechnische\b|\btecnica\b|\btecnico\b|\btechnique\b/g, 'technical'],
  [/\bpolitecnico\b|\bpolitecnica\b|\bpolytechnique\b/g, 'polytechnic'],
  [/\binst\b|\binstitut\b|\binstituto\b|\bistituto\b/g, 'institute'],
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

// Cities whose universities are named with the city's own name in one language and its English one
// in another ("Universität Wien", "University of Vienna").
const CITY_NAMES: Record<string, string> = {
  munchen: 'munich',
  wien: 'vienna',
  koln: 'cologne',
  praha: 'prague',
  warszawa: 'warsaw',
  lisboa: 'lisbon',
  roma: 'rome',
  firenze: 'florence',
  milano: 'milan',
  napoli: 'naples',
  torino: 'turin',
  genova: 'genoa',
  venezia: 'venice',
  geneve: 'geneva',
  bruxelles: 'brussels',
  sevilla: 'seville',
  goteborg: 'gothenburg',
  kobenhavn: 'copenhagen',
  moskva: 'moscow',
};
const CITY_NAMES_RE = new RegExp(`\\b(?:${Object.keys(CITY_NAMES).join('|')})\\b`, 'g');
// "Universidad de Granada", "Università di Bologna", "Universidade do Porto": the name's preposition
// in English.
const FOREIGN_OF =
  /\b(university|institute|polytechnic) (?:de la|de|di|da|do|des|du|della|del|degli|dos|das|van|der|von|of the)\b/g;
// "Universität Hamburg", "Universitas Indonesia", "Technical University Darmstadt": a university named
// after a place with no "of" between is "University of" it, as the English name says. Not before
// the words that make the university a part or a kind ("University College", "University Hospital").
const UNIVERSITY_OF =
  /\buniversity (?!of\b|college\b|hospital\b|medical\b|school\b|center\b|clinic\b|press\b|and\b|institute\b|library\b|campus\b)(?=\p{L})/gu;

/** Folded, abbreviations and other languages' organization words in English, stop punctuation removed. */
export function normalizeAffiliation(value: string): string {
  let text = ` ${foldWords(value.replace(/,/g, ' , '))} `;
  for (const [pattern, replacement] of ABBREVIATIONS) text = text.replace(pattern, replacement);
  text = text
    .replace(CITY_NAMES_RE, (city) => CITY_NAMES[city] ?? city)
    .replace(FOREIGN_OF, '$1 of')
    .replace(UNIVERSITY_OF, 'university of ');
  return text.replace(/\s+/g, ' ').trim();
}

function segments(value: string): string[] {
  return value
    .split(/[,;()\n]/)
    .map((s) => normalizeAffiliation(s))
    .filter(Boolean);
}

// An institute or a ministry named before a university is the university's part or its sponsor: in
// "Institute of Linguistics, University of Vienna" and "Key Laboratory of X (Ministry of Education),
// Peking University" the organization is the university, as in "Department of X, University of Y".
// A standalone institute ("Institute of Computing Technology, Chinese Academy of Sciences") stays one.
const WITHIN_A_UNIVERSITY = /^(?:institute|ministry)\b/;
const isUniversity = (segment: string) => /\buniversity\b/.test(segment);

/**
 * The organization an affiliation names, normalized: the first comma-separated segment that looks
 * like an organization and not like a unit inside one, else the first segment. "Dept. of CS, Univ.
 * of X, City" → "university of x". A campus suffix ("University of X at Y", "University of X - Y")
 * is dropped so that campuses of one university agree.
 */
export function affiliationCore(value: string): string {
  const parts = segments(value);
  if (parts.length === 0) return '';
  const organizations = parts.filter((p) => ORGANIZATION.test(p) && !SUBUNIT.test(p));
  const org =
    organizations.find(
      (p, i) => !WITHIN_A_UNIVERSITY.test(p) || !organizations.slice(i + 1).some(isUniversity),
    ) ??
    parts.find((p) => !SUBUNIT.test(p)) ??
    parts[0]!;
  return org
    .replace(/\s(at|in)\s.*$/, '')
    .replace(/^the\s/, '')
    .trim();
}

// Affiliation strings repeat across co-authors, works and uploads: each is normalised once while it
// stays here.
const cores = new Map<string, string>();
const CORE_CACHE_LIMIT = 100_000;

/** `affiliationCore`, remembered for the next time the same string is asked. */
export function cachedAffiliationCore(value: string): string {
  let core = cores.get(value);
  if (core === undefined) {
    if (cores.size >= CORE_CACHE_LIMIT) cores.clear();
    core = affiliationCore(value);
    if (value.length <= 1_000) cores.set(value, core);
  }
  return core;
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

/** A core's words, each as a number given by `ids` (the same word, the same number). */
function wordIds(core: string, ids: Map<string, number>): number[] {
  return core.split(' ').map((word) => {
    let id = ids.get(word);
    if (id === undefined) ids.set(word, (id = ids.size));
    return id;
  });
}

const HASH_BASE = 0x01000193;

/**
 * Calls `found` with the start of every run of `k` words of `words` whose hash (a polynomial of the
 * word numbers, rolled along) is a key of `buckets`, with that bucket: linear in the words.
 */
function eachWindow<T>(
  words: readonly number[],
  k: number,
  buckets: ReadonlyMap<number, T>,
  found: (bucket: T, at: number) => boolean | void,
): void {
  if (words.length < k) return;
  let power = 1;
  for (let i = 1; i < k; i++) power = Math.imul(power, HASH_BASE);
  let hash = 0;
  for (let i = 0; i < k; i++) hash = (Math.imul(hash, HASH_BASE) + words[i]!) | 0;
  for (let at = 0; ; at++) {
    const bucket = buckets.get(hash);
    if (bucket !== undefined && found(bucket, at) === true) return;
    if (at + k >= words.length) return;
    hash = (Math.imul((hash - Math.imul(words[at]!, power)) | 0, HASH_BASE) + words[at + k]!) | 0;
  }
}

function windowHash(words: readonly number[]): number {
  let hash = 0;
  for (const word of words) hash = (Math.imul(hash, HASH_BASE) + word) | 0;
  return hash;
}

function sameRun(words: readonly number[], at: number, run: readonly number[]): boolean {
  for (let i = 0; i < run.length; i++) if (words[at + i] !== run[i]) return false;
  return true;
}

/** Multi-word cores by their number of words, then by the hash of their words. */
function byLengthAndHash(
  cores: ReadonlyArray<{ core: string; words: number[] }>,
): Map<number, Map<number, Array<{ core: string; words: number[] }>>> {
  const index = new Map<number, Map<number, Array<{ core: string; words: number[] }>>>();
  for (const entry of cores) {
    const k = entry.words.length;
    const byHash = index.get(k) ?? index.set(k, new Map()).get(k)!;
    const hash = windowHash(entry.words);
    const bucket = byHash.get(hash);
    if (bucket) bucket.push(entry);
    else byHash.set(hash, [entry]);
  }
  return index;
}

/**
 * The cores of `theirs` that match one of `own` as `affiliationCoresMatch` decides, found through
 * their words instead of comparing every pair: a core of several words matches one whose words hold
 * its words in a row; a single word (not a generic one) matches a core of several words it leads.
 * Each core of several words is looked for among the other side's runs of as many words, by a hash
 * rolled along them, so that the work grows with the words of the two sides times the different
 * lengths of the cores looked for, not with the product of the two sides: a record of 1,000
 * affiliations of 1,000 characters against 1,000 namesakes' affiliations compared 10⁶ pairs of
 * strings (1.3 s).
 */
export function coresMatchingAny(own: Iterable<string>, theirs: Iterable<string>): Set<string> {
  const matched = new Set<string>();
  const ownSet = new Set([...own].filter(Boolean));
  const theirSet = new Set([...theirs].filter(Boolean));
  if (ownSet.size === 0 || theirSet.size === 0) return matched;
  const ids = new Map<string, number>();
  const split = (cores: Set<string>) => {
    const singles = new Set<string>();
    const leading = new Set<string>();
    const several: Array<{ core: string; words: number[] }> = [];
    for (const core of cores) {
      if (!core.includes(' ')) {
        if (!GENERIC.has(core)) singles.add(core);
        continue;
      }
      leading.add(core.slice(0, core.indexOf(' ')));
      several.push({ core, words: wordIds(core, ids) });
    }
    return { singles, leading, several };
  };
  const mine = split(ownSet);
  const their = split(theirSet);
  for (const core of theirSet) {
    if (ownSet.has(core) || (their.singles.has(core) && mine.leading.has(core))) matched.add(core);
  }
  for (const { core } of their.several) {
    if (mine.singles.has(core.slice(0, core.indexOf(' ')))) matched.add(core);
  }
  // Their cores held in a row by one of mine.
  for (const [k, byHash] of byLengthAndHash(their.several)) {
    for (const { words } of mine.several) {
      eachWindow(words, k, byHash, (bucket, at) => {
        for (const entry of bucket) if (sameRun(words, at, entry.words)) matched.add(entry.core);
      });
    }
  }
  // Mine held in a row by one of theirs not matched yet.
  const mineIndex = byLengthAndHash(mine.several);
  for (const { core, words } of their.several) {
    if (matched.has(core)) continue;
    for (const [k, byHash] of mineIndex) {
      let hit = false;
      eachWindow(words, k, byHash, (bucket, at) => (hit = bucket.some((e) => sameRun(words, at, e.words))));
      if (hit) {
        matched.add(core);
        break;
      }
    }
  }
  return matched;
}
