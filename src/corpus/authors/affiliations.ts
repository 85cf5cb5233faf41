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
  [/\bkatholieke\b|\bkatholische\b|\bcatolica\b|\bcattolica\b|\bcatholique\b|\bkatolicki\b/g, 'catholic'],
  [/&/g, ' and '],
];

// Acronyms that a place completes ("TU München", "TU Delft", "KU Leuven"), and a technical
// university named the English way ("Delft University of Technology", "Graz University of
// Technology"): each is the "technical" or "catholic university of" the place, as the university's
// own language names it ("Technische Universität Graz", "Katholieke Universiteit Leuven").
/**
 * "X university of technology": the place's letters from where `\b` first holds in their run (as
 * `\b(\p{L}+)` read them), a match tried once a run: `\b` holds inside a run that mixes letters
 * beyond ASCII with ASCII ones, and `\b(\p{L}+)` read such a run again from each (2,000 characters:
 * 32 ms, each affiliation).
 */
export const PLACE_UNIVERSITY_OF_TECHNOLOGY =
  /(?<!\p{L})((?<=\w)[a-zA-Z]*(?![a-zA-Z])|(?<!\w)(?:(?![a-zA-Z])\p{L})*(?=[a-zA-Z]))(\p{L}+) university of technology\b/gu;
const ACRONYM_OF_PLACE: Array<[RegExp, string]> = [
  [/\btu (?=\p{L})/gu, 'technical university of '],
  [/\bku (?=\p{L})/gu, 'catholic university of '],
  [PLACE_UNIVERSITY_OF_TECHNOLOGY, '$1technical university of $2'],
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

// A company's legal form, written as a segment of its own after its name ("Meta Platforms, Inc.").
const LEGAL_FORMS = new Set([
  'llc',
  'llp',
  'lp',
  'corp',
  'co',
  'limited',
  'plc',
  'ag',
  'kg',
  'sa',
  'bv',
  'nv',
  'srl',
  'spa',
  'pty',
]);

/**
 * A segment of generic words and legal forms alone ("Inc", "GmbH", "Research", "University") names
 * no organization: two companies that each end ", Inc." would otherwise share "inc" as an
 * organization and their people a conflict.
 */
const namesNoOrganization = (segment: string) =>
  segment.split(' ').every((word) => GENERIC.has(word) || LEGAL_FORMS.has(word));

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
  /\buniversity (?!of\b|in\b|at\b|college\b|hospital\b|medical\b|school\b|center\b|clinic\b|press\b|and\b|institute\b|library\b|campus\b)(?=\p{L})/gu;

/** Folded, abbreviations and other languages' organization words in English, stop punctuation removed. */
export function normalizeAffiliation(value: string): string {
  let text = ` ${foldWords(value.replace(/,/g, ' , '))} `;
  for (const [pattern, replacement] of ABBREVIATIONS) text = text.replace(pattern, replacement);
  for (const [pattern, replacement] of ACRONYM_OF_PLACE) text = text.replace(pattern, replacement);
  text = text
    .replace(CITY_NAMES_RE, (city) => CITY_NAMES[city] ?? city)
    .replace(FOREIGN_OF, '$1 of')
    .replace(UNIVERSITY_OF, 'university of ');
  return text.replace(/\s+/g, ' ').trim();
}

// Punctuation, spaces and control characters alone: what normalizes to nothing (a symbol may not:
// "™" decomposes to letters).
const NOTHING_TO_NORMALIZE = /^[\p{P}\p{Z}\p{Cc}]*$/u;

/**
 * The affiliation's segments, normalized. A segment of punctuation and spaces normalizes to nothing,
 * and one written again normalizes as before: each is skipped or reused without its ~30 replacements
 * (an affiliation of 2,000 "(" or ", " was 1,000-2,000 normalizations, 12-20 ms, and 1,000 of them
 * in one form 12-20 s of CPU).
 */
function segments(value: string, normalize: (segment: string) => string): Segment[] {
  const out: Segment[] = [];
  const normalized = new Map<string, string>();
  for (const part of value.split(/[,;()\n]/)) {
    if (NOTHING_TO_NORMALIZE.test(part)) continue;
    // White space around it changes nothing normalized ("A, B, A": "A" and " A" are one).
    const raw = part.trim();
    let segment = normalized.get(raw);
    if (segment === undefined) {
      segment = normalize(raw);
      normalized.set(raw, segment);
    }
    if (segment) out.push({ raw, segment });
  }
  return out;
}

/** A comma-separated part of an affiliation: as written (trimmed) and normalized. */
interface Segment {
  raw: string;
  segment: string;
}

// An institute or a ministry named before a university is the university's part or its sponsor: in
// "Institute of Linguistics, University of Vienna" and "Key Laboratory of X (Ministry of Education),
// Peking University" the organization is the university, as in "Department of X, University of Y".
// A standalone institute ("Institute of Computing Technology, Chinese Academy of Sciences") stays one.
const WITHIN_A_UNIVERSITY = /^(?:institute|ministry)\b/;
const isUniversity = (segment: string) => /\buniversity\b/.test(segment);

/**
 * A core without a leading "the" or a place it is "in" ("Washington University in St. Louis"); a
 * campus named with "at" kept, as the name without "at" writes it: the University of Illinois at
 * Chicago and at Urbana-Champaign are two universities, as "University of Illinois Chicago" and
 * "University of Illinois Urbana-Champaign" are, and "University of Illinois" alone is held in both.
 */
const withoutCampus = (org: string) =>
  org
    .replace(/\sin\s.*$/, '')
    .replace(/\sat\s/, ' ')
    .replace(/^the\s/, '')
    .trim();

/**
 * A segment that may name an institute of an umbrella body by itself, though it does not read as an
 * organization: an acronym ("IIE", "ICT", "INSA Lyon"), not a unit inside one, nor an address (a
 * street or a postcode has digits), nor a word written as a proper noun ("Beijing, Chinese Academy of
 * Sciences": a place, as often as a name). In a line written in capitals throughout no word is told
 * apart as an acronym, and the segment is taken as before.
 */
const mayNameAnInstitute = ({ raw, segment }: Segment, line: string) =>
  !SUBUNIT.test(segment) && !/\d/.test(segment) && (ACRONYM_WORD.test(raw) || !/\p{Ll}/u.test(line));
/** A word of two capitals or more and no small letter ("IIE", "CASIA", "INSA"). */
const ACRONYM_WORD = /(?<!\p{L})\p{Lu}{2,}(?!\p{L})/u;

/** What an affiliation names, read once a string (`cachedAffiliationReading`). */
export interface AffiliationReading {
  /** Every organization named, normalized, the principal one first (`affiliationOrganizations`). */
  organizations: string[];
  /**
   * Each organization written right before another segment, that segment normalized: a campus after a
   * comma ("University of California, Davis") where the corpus names institutions so (`withCampuses`).
   */
  followed: Array<{ organization: string; next: string }>;
}

/**
 * Every organization an affiliation names, normalized, the principal one first: the first
 * comma-separated segment that looks like an organization and not like a unit inside one (else the
 * first segment), then any other organization it names ("Department of X, Harvard Medical School,
 * Massachusetts General Hospital": the hospital too). "Dept. of CS, Univ. of X, City" → ["university
 * of x"]. A campus suffix is dropped so that campuses of one university agree.
 */
export function affiliationOrganizations(
  value: string,
  normalize: (segment: string) => string = normalizeAffiliation,
): string[] {
  return readAffiliation(value, normalize).organizations;
}

function readAffiliation(value: string, normalize: (segment: string) => string): AffiliationReading {
  const parts = segments(value, normalize).filter((p) => !namesNoOrganization(p.segment));
  if (parts.length === 0) return { organizations: [], followed: [] };
  const organizations = parts.filter((p) => ORGANIZATION.test(p.segment) && !SUBUNIT.test(p.segment));
  // An institute named before a university is the university's part, not an organization of its own.
  const own = organizations.filter(
    (p, i) =>
      !WITHIN_A_UNIVERSITY.test(p.segment) ||
      !organizations.slice(i + 1).some((o) => isUniversity(o.segment)),
  );
  let principal = own[0] ?? parts.find((p) => !SUBUNIT.test(p.segment)) ?? parts[0]!;
  // The most specific organization named is the one compared. An umbrella of many institutes named
  // after one of them is its parent, not a second organization: two institutes of one academy are two
  // places ("Institute of Automation, Chinese Academy of Sciences" and "Institute of Computing
  // Technology, Chinese Academy of Sciences"). So is an umbrella named first after a segment that is
  // no organization by its words, an institute by its acronym ("IIE, Chinese Academy of Sciences"):
  // that segment is the organization, or every institute of the academy would share one with it. The
  // umbrella alone is compared only where the string names no institute of it.
  const isUmbrella = (p: Segment) => UMBRELLA.test(p.segment) && !isUniversity(p.segment);
  const acronyms: string[] = [];
  if (isUmbrella(principal)) {
    const umbrella = principal;
    const before = parts[parts.indexOf(umbrella) - 1];
    if (before !== undefined && mayNameAnInstitute(before, value)) {
      principal = before;
      if (!before.segment.includes(' ')) acronyms.push(`${before.segment}${ACRONYM}${umbrellaKey(umbrella)}`);
    }
  }
  const others = own.slice(1).filter((p) => !isUmbrella(p));
  // An institute named in full before its umbrella, by its initials: the acronym it may be written
  // as, of that umbrella ("Institute of Information Engineering, Chinese Academy of Sciences": "IIE",
  // and "ISCAS" of "Institute of Software" with the academy's own initials).
  const initials: string[] = [];
  for (const p of [principal, ...others]) {
    const next = parts[parts.indexOf(p) + 1];
    if (next === undefined || !isUmbrella(next) || !ORGANIZATION.test(p.segment)) continue;
    const key = umbrellaKey(next);
    const own = initialsOf(p.segment);
    const its = initialsOf(next.segment);
    for (const form of new Set([own, `${own}${its}`, `${its}${own}`]))
      initials.push(`${form}${INITIALS}${key}`);
  }
  const named = [principal, ...others];
  return {
    organizations: [
      ...new Set([...named.map((p) => withoutCampus(p.segment)), ...acronyms, ...initials]),
    ].filter(Boolean),
    followed: named.flatMap((p) => {
      const next = parts[parts.indexOf(p) + 1];
      return next === undefined ? [] : [{ organization: withoutCampus(p.segment), next: next.segment }];
    }),
  };
}

// Bodies of many institutes, each institute an organization of its own (in English, as normalized).
const UMBRELLA =
  /\b(academy of sciences?|academia sinica|research council|national research center|cnrs|cnr|csic|max planck society|max planck gesellschaft|fraunhofer|helmholtz|leibniz association|chinese academy)\b/;

// An institute of an umbrella by its acronym ("iie@chinese-academy-of-science") and by the initials of
// its full name ("iie#chinese-academy-of-science"): organizations of their own form, never held in
// a normalized name (which has letters and spaces only), that agree with each other alone
// (`acronymAgrees`). Two full names of one initials are two institutes ("Institute of Software" and
// "Institute of Semiconductors"), so two initials never agree.
const ACRONYM = '@';
const INITIALS = '#';
const umbrellaKey = (umbrella: Segment) =>
  withoutCampus(umbrella.segment)
    .replace(/\bsciences\b/g, 'science')
    .replace(/ /g, '-');
const INITIALS_STOP_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'on', 'at', 'to']);
const initialsOf = (name: string) =>
  name
    .split(' ')
    .filter((w) => !INITIALS_STOP_WORDS.has(w))
    .map((w) => w[0])
    .join('');
/** Whether a core is an acronym's or initials' form (above). */
const isAcronymForm = (core: string) => core.includes(ACRONYM) || core.includes(INITIALS);
/** An acronym and the initials of a full name, of one umbrella. */
const acronymAgrees = (x: string, y: string) =>
  (x.includes(ACRONYM) && y.replace(INITIALS, ACRONYM) === x) ||
  (y.includes(ACRONYM) && x.replace(INITIALS, ACRONYM) === y);

/** The principal organization an affiliation names (`affiliationOrganizations`' first), or ''. */
export function affiliationCore(value: string): string {
  return affiliationOrganizations(value)[0] ?? '';
}

/**
 * A university's campuses named after a comma, as the corpus's institutions name them: the
 * organization before the comma (normalized) to the campuses after it, where two or more are named
 * ("University of California, Davis" and "University of California, Berkeley"; not "University of
 * Michigan", of which the corpus names no two so).
 */
export type Campuses = ReadonlyMap<string, ReadonlySet<string>>;

/** The campuses that institution names (their display names) name after a comma (`Campuses`). */
export function campusesOf(institutionNames: Iterable<string>): Campuses {
  const found = new Map<string, Set<string>>();
  for (const name of institutionNames) {
    const comma = name.indexOf(',');
    if (comma < 0) continue;
    const organization = withoutCampus(normalizeAffiliation(name.slice(0, comma)));
    const campus = normalizeAffiliation(name.slice(comma + 1).split(/[,;()]/)[0] ?? '');
    if (!organization || !campus) continue;
    (found.get(organization) ?? found.set(organization, new Set()).get(organization)!).add(campus);
  }
  for (const [organization, campuses] of found) if (campuses.size < 2) found.delete(organization);
  return found;
}

/**
 * The organizations a reading names, a university's campus after a comma kept where the corpus names
 * it a campus (`Campuses`): "University of California, Davis" is "university of california davis", as
 * a campus named with "at" is; the university named alone, or with a part that is no campus the corpus
 * names ("University of California, CA, USA"), is held in every campus and shares an affiliation with
 * each.
 */
export function withCampuses(reading: AffiliationReading, campuses: Campuses): readonly string[] {
  if (campuses.size === 0 || reading.followed.length === 0) return reading.organizations;
  let out: string[] | null = null;
  for (const { organization, next } of reading.followed) {
    if (!campuses.get(organization)?.has(next)) continue;
    out ??= [...reading.organizations];
    const at = out.indexOf(organization);
    if (at >= 0) out[at] = `${organization} ${next}`;
  }
  return out ?? reading.organizations;
}

// Affiliation strings repeat across co-authors, works and uploads: each is normalised once while it
// stays here. Bounded by the characters its keys hold rather than by their number, so that an
// upload's long affiliations stay too: the form allows 1,000 of 2,000 characters, which the author
// resolution normalises and the conflict policy then asks for again (200 ms at once, unsliced, when
// strings over 1,000 characters were not kept).
const readings = new Map<string, AffiliationReading>();
const CACHE_CHARACTERS = 8_000_000;
/** The longest string kept: one alone never fills a hundredth of the cache. */
const LONGEST_KEPT = CACHE_CHARACTERS / 100;
let cachedCharacters = 0;

/** The affiliation's reading (organizations, and what follows each), remembered for the next time the same string is asked. */
export function cachedAffiliationReading(value: string): AffiliationReading {
  let found = readings.get(value);
  if (found === undefined) {
    found = readAffiliation(value, normalizeAffiliation);
    if (value.length <= LONGEST_KEPT) {
      if (cachedCharacters + value.length > CACHE_CHARACTERS) {
        readings.clear();
        cachedCharacters = 0;
      }
      readings.set(value, found);
      cachedCharacters += value.length;
    }
  }
  return found;
}

/** `affiliationOrganizations`, remembered for the next time the same string is asked. */
export function cachedAffiliationOrganizations(value: string): string[] {
  return cachedAffiliationReading(value).organizations;
}

/** `affiliationCore`, remembered for the next time the same string is asked. */
export function cachedAffiliationCore(value: string): string {
  return cachedAffiliationOrganizations(value)[0] ?? '';
}

/**
 * Whether two affiliation strings name one organization (departments and campuses included), by any
 * organization each names: the rule the conflict policy and the linker apply.
 */
export function affiliationsMatch(a: string, b: string): boolean {
  return anyAffiliationMatches([a], [b], affiliationOrganizations);
}

// "Heidelberg University" is the "University of Heidelberg" ("Universität Heidelberg"): a university
// named after one place, in English word order. Not where the place has two universities, one named
// each way (Washington University in St. Louis and the University of Washington in Seattle).
const PLACE_UNIVERSITY = /^(\p{L}+) university$/u;
const TWO_UNIVERSITIES = new Set(['washington', 'miami', 'york', 'newcastle', 'lincoln', 'victoria']);

/** "university of x" for a core "x university" (x one word, not a kind of university), else null. */
function universityOfPlace(core: string): string | null {
  const place = PLACE_UNIVERSITY.exec(core)?.[1];
  if (place === undefined || GENERIC.has(place) || TWO_UNIVERSITIES.has(place)) return null;
  return `university of ${place}`;
}

/** Whether one core is "x university" and the other "university of x", or ends with it ("Ruprecht-Karls-Universität Heidelberg"). */
function sameUniversityInOtherWordOrder(x: string, y: string): boolean {
  return placeFirstNamedAs(x, y) || placeFirstNamedAs(y, x);
}

function placeFirstNamedAs(placeFirst: string, other: string): boolean {
  // Most pairs fail these two string tests; the expression runs only on the few that pass.
  if (!placeFirst.endsWith(' university')) return false;
  if (!other.endsWith(placeFirst.slice(0, -' university'.length))) return false;
  const named = universityOfPlace(placeFirst);
  return named !== null && (other === named || (other.endsWith(` ${named}`) && namesWithin(other, named)));
}

/** `affiliationsMatch` on cores the caller computed once (comparing one list with many names). */
export function affiliationCoresMatch(x: string, y: string): boolean {
  if (!x || !y) return false;
  if (isAcronymForm(x) || isAcronymForm(y)) return acronymAgrees(x, y);
  if (x === y) return true;
  // "university of x" inside "the university of x medical school", on word boundaries. A single word
  // ("microsoft") may only lead the longer name ("microsoft research asia"), and a generic one
  // ("university") matches nothing, or every university would match every other.
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  if (longer.includes(shorter)) {
    if (!shorter.includes(' ')) return !GENERIC.has(shorter) && longer.startsWith(`${shorter} `);
    if (namesWithin(longer, shorter)) return true;
  }
  return sameUniversityInOtherWordOrder(x, y);
}

// Words that make a university of a place another one than "the university of" it: the Technical
// University of Vienna is not the University of Vienna, nor the Dalian University of Technology
// Dalian University.
const KIND_OF_UNIVERSITY = new Set([
  'technical',
  'catholic',
  'medical',
  'agricultural',
  'pedagogical',
  'economic',
  'economics',
  'polytechnic',
  'state',
  'national',
  'open',
  'free',
  'normal',
  'technological',
  'metropolitan',
  'international',
]);

/** Whether `longer` names `shorter` on word boundaries, not as a kind of it ("technical university of x"). */
function namesWithin(longer: string, shorter: string): boolean {
  // Runs for every pair of affiliations compared: index arithmetic, no strings built but the one
  // word before a hit.
  for (let at = longer.indexOf(shorter); at >= 0; at = longer.indexOf(shorter, at + 1)) {
    const end = at + shorter.length;
    if (at > 0 && longer.charCodeAt(at - 1) !== SPACE) continue;
    if (end < longer.length && longer.charCodeAt(end) !== SPACE) continue;
    if (at === 0) return true;
    const previous = longer.slice(longer.lastIndexOf(' ', at - 2) + 1, at - 1);
    if (!KIND_OF_UNIVERSITY.has(previous)) return true;
  }
  return false;
}
const SPACE = 32;

/**
 * Whether any of `as` matches any of `bs`, by any organization each names; `organizations` gives a
 * string's (`affiliationOrganizations`, or its cache when many lists share their strings).
 */
export function anyAffiliationMatches(
  as: readonly string[],
  bs: readonly string[],
  organizations: (value: string) => readonly string[] = cachedAffiliationOrganizations,
): boolean {
  // Each string normalized once a call: one of `as` was normalized again for every one of `bs`,
  // and a string over the cache's length (an upload's affiliation may be 2,000 characters) is not
  // remembered, so a manuscript author against a namesake's 25 affiliations cost 25 normalizations.
  const theirs = bs.map((b) => organizations(b));
  return as.some((a) => {
    const ours = organizations(a);
    return theirs.some((t) => ours.some((x) => t.some((y) => affiliationCoresMatch(x, y))));
  });
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
 * The cores of `theirs` that match one of `own` as `affiliationCoresMatch` decides, without comparing
 * every pair: the pairs whose words one holds of the other (`coresHeldInRow`, "x university" read
 * also as "university of x") are the only ones that can match, and only those are compared.
 */
export function coresMatchingAny(own: Iterable<string>, theirs: Iterable<string>): Set<string> {
  const ownList = [...new Set(own)].filter(Boolean);
  const theirList = [...new Set(theirs)].filter(Boolean);
  // Each core as written, and "x university" also as "university of x".
  const withForms = (cores: string[]) => cores.flatMap((c) => [c, universityOfPlace(c) ?? []].flat());
  const held = coresHeldInRow(withForms(ownList), withForms(theirList));
  const matched = new Set<string>();
  for (const core of theirList) {
    const may = held.has(core) || held.has(universityOfPlace(core) ?? core) || isAcronymForm(core);
    if (may && ownList.some((x) => affiliationCoresMatch(x, core))) matched.add(core);
  }
  return matched;
}

/**
 * The cores of `theirs` that hold one of `own` in a row of words, or are held so by one, found through
 * their words instead of comparing every pair: a core of several words matches one whose words hold
 * its words in a row; a single word (not a generic one) matches a core of several words it leads.
 * Each core of several words is looked for among the other side's runs of as many words, by a hash
 * rolled along them, so that the work grows with the words of the two sides times the different
 * lengths of the cores looked for, not with the product of the two sides: a record of 1,000
 * affiliations of 1,000 characters against 1,000 namesakes' affiliations compared 10⁶ pairs of
 * strings (1.3 s).
 */
function coresHeldInRow(own: Iterable<string>, theirs: Iterable<string>): Set<string> {
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
