// The words that name a kind of institution ("University", "Département", "Laboratories"), in one
// list, and the two ways the parser matches them: a word that opens with a kind's stem ("Univ.",
// "Institutional"), where any hint of an affiliation counts, and a whole word of the kind
// ("Eaton Innovation Center" is no person's name), where a name must not be mistaken for one.
import { LATIN_WORD_END } from './text-utils.ts';

/**
 * A kind of institution: `stem` opens every word of it (a regular expression's source), `endings`
 * complete the stem into its whole words ('' where the stem is the word). A `whole` kind is a word
 * that only as a whole names an institution, in either way of matching ("Inc", "Lab": "Label",
 * "Income" and "Unity" name none). A `wordOnly` kind is left out of the stem matcher: a line that
 * holds it is not taken for an affiliation by it alone ("The Garden Collaboration, Al A. Quist, ..."
 * opens an astronomy byline: a collaboration signs papers as its members do).
 */
interface Kind {
  stem: string;
  endings?: string;
  whole?: boolean;
  wordOnly?: boolean;
}

/**
 * Indonesian and Malay kinds of institution and study programme: "Politeknik", "Fakultas",
 * "Jurusan" (department), "Program Studi", "Sekolah Tinggi" and its acronyms (STMIK, STIKOM, STIE,
 * STIKES, STKIP, STT), "Akademi", "Teknik" (engineering, as in "Teknik Informatika").
 */
const INDONESIAN =
  'universitas|politeknik|polytechnic|fakultas|jurusan|program studi|prodi|sekolah tinggi|akademi|stmik|stikom|stie|stikes|stkip|stt|teknik';

const KINDS: Kind[] = [
  { stem: 'univ', endings: '(?:ersit(?:y|ies|ät|é|at|à|eit|et)|ersidad(?:e|es)?)' },
  { stem: 'institut', endings: '(?:e|o)?' },
  { stem: 'istituto' },
  { stem: 'instytut' },
  { stem: 'uniwersytet' },
  { stem: 'college' },
  { stem: 'school' },
  { stem: 'hochschule' },
  { stem: 'politechnika' },
  { stem: 'academy' },
  { stem: 'department' },
  { stem: 'dept' },
  { stem: 'departament', endings: '(?:o|ul)?' },
  { stem: 'd[ée]partement' },
  { stem: 'dipartimento' },
  { stem: 'facult', endings: '(?:y|é|ad|at|atea)' },
  { stem: 'faculdade' },
  { stem: 'fakultät' },
  // Croatian, Serbian and Slovene "fakultet", "fakulteta", Czech and Slovak "fakulta" (a cover's
  // faculty line in capitals reads like a name otherwise); Croatian "sveučilište" (university).
  { stem: 'fakult', endings: '(?:et|eta|etu|a|y|ě)' },
  { stem: 'sveučilišt', endings: '(?:e|a|u)' },
  { stem: 'wydział' },
  { stem: 'katedra' },
  { stem: 'zakład' },
  { stem: 'division' },
  { stem: 'unit', whole: true },
  { stem: 'group' },
  { stem: 'program' },
  { stem: 'consortium' },
  { stem: 'collaboration', wordOnly: true },
  { stem: 'cent(?:er|re)' },
  { stem: 'laborator', endings: '(?:y|ies)' },
  { stem: 'labs?', whole: true },
  { stem: 'observatory' },
  { stem: 'museum' },
  { stem: 'research' },
  { stem: 'sciences?', whole: true },
  { stem: 'hospital' },
  { stem: 'clinic' },
  { stem: 'foundation' },
  { stem: 'council' },
  { stem: 'agency' },
  { stem: 'ministry' },
  { stem: 'corporation' },
  { stem: 'company' },
  { stem: 'inc', whole: true },
  { stem: 'ltd' },
  { stem: 'gmbh' },
  { stem: `(?:${INDONESIAN})`, whole: true },
];

/**
 * Turkish kinds of institution, with their suffixes ("Üniversitesi", "Fakültesi", "Enstitüsü",
 * "Yüksekokulu", "Bölümü", "Hastanesi", a graduate department "Anabilim Dalı"). They open with a
 * letter outside ASCII, next to which `\b` sees no word's edge: a letter before them is looked for
 * instead. A pattern of its own: the Unicode flag on the long patterns below makes each test
 * several times slower. In capitals Turkish writes i as "İ", which no case-blind match takes for
 * "i" ("ÜNİVERSİTESİ", "ENSTİTÜSÜ", "ANABİLİM DALI", a cover's lines): both are allowed.
 */
const TURKISH =
  /(?<!\p{L})(?:ün[iİ]vers[iİ]te|fakülte|enst[iİ]tü|yüksekokul|bölüm|hastane|anab[iİ]l[iİ]m dal)/iu;
/**
 * Vietnamese kinds of institution: school (trường), university (đại học), institute (viện, học
 * viện), major (chuyên ngành), department (bộ môn). "Khoa" (faculty) is a given name too.
 */
const VIETNAMESE = /(?<!\p{L})(?:trường|đại học|viện|chuyên ngành|bộ môn)(?!\p{L})/iu;
/**
 * Greek kinds of institution, accented or in capitals (a cover's lines): university
 * (Πανεπιστήμιο), polytechnic (Πολυτεχνείο), school (Σχολή), department (Τμήμα), division (Τομέας),
 * laboratory (Εργαστήριο, and "Εργαστηριακή", a laboratory's staff), institute (Ινστιτούτο),
 * academy (Ακαδημία). Greek letters have no `\b` edges either: a letter before them is looked for.
 */
const GREEK =
  /(?<!\p{L})(?:πανεπιστ[ηή]μ|πολυτεχνε[ιί]|σχολ[ηή](?!\p{L})|τμ[ηή]μα|τομ[εέ]α|εργαστ[ηή]ρι|ινστιτο[υύ]τ|ακαδημ[ιί]α)/iu;
/**
 * Cyrillic kinds of institution (Russian, Ukrainian, Bulgarian, Serbian): university
 * (университет, університет, универзитет), institute (институт, інститут), faculty (факультет,
 * факултет), department (кафедра), school (училище, a Bulgarian technical school's name), academy
 * (академия, академія), laboratory (лаборатория, лабораторія), college (колледж, коледж), ministry
 * (министерство, міністерство). A cover's line in capitals naming one reads like a name otherwise.
 */
const CYRILLIC =
  /(?<!\p{L})(?:универс?итет|університет|универзитет|институт|інститут|факул[ьт]?тет|кафедр|училищ|академи|академі|лаборатор|(?:колледж|коледж|колеж)(?!\p{L})|министерств|міністерств)/iu;
/**
 * Chinese and Japanese kinds of institution: university (大学, 大學), college or school (学院),
 * institute (研究所, 研究院), faculty (学部), department (学科, 系 is too short to tell), graduate
 * school (研究科, 研究生院), hospital (医院). Their script has no case and no word edges.
 */
const CJK = /大学|大學|学院|學院|研究所|研究院|研究生院|学部|學部|学科|學科|研究科|医院|醫院/;

const STEMS = new RegExp(
  `\\b(?:${KINDS.filter((k) => !k.wordOnly)
    .map((k) => (k.whole ? `${k.stem}${LATIN_WORD_END}` : k.stem))
    .join('|')})`,
  'i',
);
const WORDS = new RegExp(
  `\\b(?:${KINDS.map((k) => `${k.stem}${k.endings ?? ''}`).join('|')})${LATIN_WORD_END}`,
  'i',
);

const matcher = (latin: RegExp) => ({
  test: (text: string): boolean =>
    latin.test(text) ||
    TURKISH.test(text) ||
    VIETNAMESE.test(text) ||
    GREEK.test(text) ||
    CYRILLIC.test(text) ||
    CJK.test(text),
});

/** A word that names an institution, whole or in part ("Univ.", "Laboratories"). */
export const INSTITUTION = matcher(STEMS);

/** A whole word that names an institution: "Eaton Innovation Center" reads like a name otherwise. */
export const INSTITUTION_WORD = matcher(WORDS);
