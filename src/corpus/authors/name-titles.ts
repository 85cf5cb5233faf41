// What is written around a person's name and names no one: titles before it ("Dr.", "Prof. Dr.")
// and degrees after it ("Jane Roe, MD, PhD"). Byline reading (parsing/names.ts, header/) cuts them
// from the names it reads; parsePersonName ignores them in the names a client types or a record
// holds, so that "Prof. Dr. Hans Meier" and "Jane Roe, PhD" find Hans Meier and Jane Roe.

/**
 * Academic degrees and professional qualifications printed after a name in clinical and nursing
 * bylines ("Jane Roe, MD¹", "Jo Li MSc²", "Al Fox MD, PhD³"). They name no one: a byline reader
 * that keeps them either glues them to the name or takes the whole entry for something else.
 *
 * Two kinds. A degree written in mixed case (PhD, MSc, BScN, DPhil, PharmD, and a master's or
 * bachelor's written with its subject run on: MStatistics, BNursing, MClinEpi) is never a surname
 * nor a run of initials, so it goes wherever it stands after a name. A degree in capitals (MD, MPH,
 * RN, FRCP) reads like initials after a surname in a byline written surname first ("Roe MD"), and
 * the shortest (MA, MS, BA, DO) like surnames: those go after a comma, the others also after a
 * name that keeps two words in mixed case.
 */
const MIXED_DEGREE = String.raw`(?:Ph\.?\s?D|B\.?M\.?\s?B\.?Ch|D\.?Phil|M\.?Phil|M\.?Sc(?:N|\s?Eng)?|B\.?Sc(?:N|\s?Eng)?|M\.?Eng|B\.?Eng|M\.?Ed|Ed\.?D|Pharm\.?D|Psy\.?D|Dr\.?P\.?H|MBChB|M\.?Res|M\.?Math|MHSc|ScM|[MB](?:[A-Z][a-z]{2,}){1,2})\.?`;
const CAPS_DEGREE = String.raw`(?:M\.?D|M\.?P\.?H|M\.?B\.?B\.?S|MBBCh|MSN|BSN|DNP|CRNA|R\.?N|DDS|DMD|DVM|MBA|MSW|MPA|MFA|FRC[PS]C?|FRACP|FRACS|FRCPath|FACP|FACS|FAHA|FACC|FESC|FAAN|FACEP|FAAP|FCCP|FRCA|FRCR|FRCOG|FANZCA|APRN|MSPH|MHS|MRCP|MRCS|LLM|LLB|DSc|ScD)\.?`;
const SHORT_DEGREE = String.raw`(?:M\.?A|B\.?A|M\.?S|B\.?S|J\.?D|D\.?O|N\.?P|M\.?N)\.?`;
const MIXED_AT_END = new RegExp(String.raw`^(.*[^\s,])(?:\s*,\s*|\s+)${MIXED_DEGREE}$`, 'u');
const CAPS_AT_END = new RegExp(String.raw`^(.*[^\s,])(\s*,\s*|\s+)(?:${CAPS_DEGREE}|${SHORT_DEGREE})$`, 'u');
const SHORT_AT_END = new RegExp(String.raw`\s${SHORT_DEGREE}$`, 'u');
// Degrees apart by spaces, a comma or both: `\s*(?:,\s*)?` reads a run of spaces one way (`\s*,?\s*`
// read each space before either `\s*`: 24 spaced degrees and a stray letter took 1.4 s, 2x a degree).
export const DEGREE_ONLY = new RegExp(
  String.raw`^(?:${MIXED_DEGREE}|${CAPS_DEGREE}|${SHORT_DEGREE})(?:\s*(?:,\s*)?(?:${MIXED_DEGREE}|${CAPS_DEGREE}|${SHORT_DEGREE}))*$`,
  'u',
);

/** "MD", "PhD", "MD, PhD": a byline piece that is degrees and nothing else. */
export function isDegreeList(text: string): boolean {
  return DEGREE_ONLY.test(text.trim());
}

/** A name with the degrees printed after it cut ("Jane Roe, MD, PhD" to "Jane Roe"). */
export function withoutDegrees(raw: string): string {
  let name = raw.trim();
  if (name.length > 120) return name;
  for (;;) {
    const mixed = MIXED_AT_END.exec(name);
    const caps = mixed ? null : CAPS_AT_END.exec(name);
    const rest = mixed?.[1] ?? caps?.[1];
    if (rest === undefined) return name;
    const words = rest.split(/\s+/);
    // The name left keeps two words, one of them its surname in letters.
    if (words.length < 2 || !/\p{L}{2}/u.test(rest)) return name;
    if (caps && !caps[2]!.includes(',') && !isDegreeList(words[words.length - 1]!)) {
      // After a space, a degree in capitals needs a name in mixed case before it (not "Roe MD"),
      // and the shortest, which read like surnames ("Li MA"), need a comma.
      const mixedCase = words.filter((w) => /\p{Lu}/u.test(w) && /\p{Ll}/u.test(w)).length >= 2;
      if (!mixedCase || SHORT_AT_END.test(name)) return name;
    }
    name = rest.replace(/[\s,]+$/u, '');
  }
}

/** Titles written before a name ("Dr.", "Prof. Dr.", "Assoc. Prof.", "Mrs"), lower case, no stop. */
const HONORIFIC_WORDS = [
  'dr',
  'prof',
  'professor',
  'mr',
  'mrs',
  'ms',
  'mx',
  'sir',
  'dame',
  'assoc',
  'asst',
  'associate',
  'assistant',
];
/**
 * Degrees written before a name in Czech, Slovak and Austrian use ("Bc. Jana Nováková", "Ing. Petr
 * Dvořák", "Mgr. et Mgr. ...", "doc. RNDr. ...") and in Turkish ("Bil. Yük. Müh. Ayşe Kaya"): cut
 * only with their stop, since some read as words or names without it ("Doc", "Ing", "Bil").
 */
const DEGREE_BEFORE_WORDS = [
  'bc',
  'bca',
  'mgr',
  'mga',
  'ing',
  'doc',
  'mudr',
  'mvdr',
  'rndr',
  'phdr',
  'judr',
  'paeddr',
  'thdr',
  // Turkish: "Bil. Yük. Müh." (a computer engineer's master's), "Doç.", "Yrd. Doç.", "Öğr. Gör.",
  // "Arş. Gör." (a lecturer's, a research assistant's).
  'bil',
  'yük',
  'müh',
  'doç',
  'yrd',
  'öğr',
  'arş',
  'gör',
];
const TITLE_BEFORE = String.raw`(?:(?:${HONORIFIC_WORDS.join('|')})\.?|(?:${DEGREE_BEFORE_WORDS.join('|')})\.|et)`;
const HONORIFICS = new RegExp(String.raw`^(?:${TITLE_BEFORE}\s+)+(?=\p{Lu})`, 'iu');
const HONORIFIC_SET = new Set([...HONORIFIC_WORDS, ...DEGREE_BEFORE_WORDS]);

/** A name with the titles written before it cut ("Prof. Dr. Hans Meier" to "Hans Meier"). */
export function withoutHonorifics(raw: string): string {
  // Most names start with no title: one look at the first word spares the expression.
  const end = raw.search(/[\s.]/);
  return end > 0 && isHonorific(raw.slice(0, end)) ? raw.replace(HONORIFICS, '') : raw;
}

/** A word that may be a title before a name ("Dr", "prof"; without its stop). */
export function isHonorific(word: string): boolean {
  return word.length <= 9 && HONORIFIC_SET.has(word.toLowerCase());
}

/**
 * Two capitals in the last run without a space or comma, each read once: the last two, then no
 * capital (`\p{Lu}[^\s,]*\p{Lu}[^\s,]*$` read a run of capitals again from each pair of them: 250
 * ms for a 1,000-character name, on the event loop for each name of an upload).
 */
export const TWO_CAPITALS_AT_END = /(?:\p{Lu}[^\s,\p{Lu}]*){2}$/u;

/**
 * Whether a name may end in a degree: its last word holds two capitals ("PhD", "MD", "M.Sc."), as
 * every degree does. Most names do not, and skip withoutDegrees's expressions.
 */
export function mayEndInDegree(name: string): boolean {
  let capitals = 0;
  for (let i = name.length - 1; i >= 0; i--) {
    const c = name.charCodeAt(i);
    if (c === 0x20 || c === 0x2c) break;
    if (c >= 0x41 && c <= 0x5a) capitals++;
    // A letter beyond ASCII: the word is tested as a whole (no degree has one; a capital may).
    else if (c > 0x7f) return TWO_CAPITALS_AT_END.test(name.slice(name.lastIndexOf(' ') + 1));
    if (capitals >= 2) return true;
  }
  return false;
}

/** A written name without the titles before it or the degrees after it. */
export function withoutTitles(raw: string): string {
  const name = withoutHonorifics(raw);
  return mayEndInDegree(name) ? withoutDegrees(name) : name;
}
