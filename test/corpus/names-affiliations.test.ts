import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  familyCore,
  inLatinLetters,
  KEY_CACHE_LIMIT,
  nameKey,
  nameKeyCacheSize,
  KEY_CACHE_MAX_NAME_CHARS,
  nameReadingKeys,
  nameReadings,
  namesCompatible,
  parsedNamesCompatible,
  givenNameShortened,
  parsePersonName,
  plainNameKey,
} from '../../src/corpus/authors/names.ts';
import {
  affiliationCore,
  affiliationCoresMatch,
  affiliationOrganizations,
  affiliationsMatch,
  cachedAffiliationReading,
  campusesOf,
  PLACE_UNIVERSITY_OF_TECHNOLOGY,
  withCampuses,
} from '../../src/corpus/authors/affiliations.ts';
import {
  normalizeArxivId,
  normalizeDoi,
  normalizeOrcid,
  normalizePmid,
} from '../../src/corpus/openalex/ids.ts';
import { DEGREE_ONLY, isDegreeList, TWO_CAPITALS_AT_END } from '../../src/corpus/authors/name-titles.ts';
import { settlesWithin } from '../helpers/regexp-backtracks.ts';
import { FIXTURES, OPENALEX } from './helpers.ts';

/** Whether any reading of a manuscript's written name is compatible with a corpus name, as the referee finder asks. */
function namesCompatibleByReading(written: string, corpus: string): boolean {
  return nameReadings(written).some((reading) => parsedNamesCompatible(reading, parsePersonName(corpus)));
}

describe('names', () => {
  it('parses given-first, family-first with a comma, PubMed style, particles and suffixes', () => {
    expect(parsePersonName('Jason Priem')).toEqual({ given: ['jason'], family: ['priem'], suffix: null });
    expect(parsePersonName('Liu, Yang')).toEqual({ given: ['yang'], family: ['liu'], suffix: null });
    expect(parsePersonName(',')).toBeNull();
    expect(parsePersonName(' , ,, ')).toBeNull();
    expect(parsePersonName('Smith JM')).toEqual({ given: ['j', 'm'], family: ['smith'], suffix: null });
    expect(parsePersonName('Ludwig van Beethoven')).toEqual({
      given: ['ludwig'],
      family: ['van', 'beethoven'],
      suffix: null,
    });
    expect(parsePersonName('Martin Luther King Jr.')).toEqual({
      given: ['martin', 'luther'],
      family: ['king'],
      suffix: 'jr',
    });
    expect(nameKey('Sebastian Stüker')).toBe('stuker');
    expect(nameKey('van Beethoven, L.')).toBe('beethoven');
  });

  it('calls names compatible when family names agree and given names or initials agree', () => {
    expect(namesCompatible('Yang Liu', 'Liu, Y.')).toBe(true);
    expect(namesCompatible('María García', 'Maria Garcia')).toBe(true);
    expect(namesCompatible('J. M. Smith', 'John Michael Smith')).toBe(true);
    expect(namesCompatible('Jean-Pierre Dupont', 'J. Dupont')).toBe(true);
  });

  it('refuses different given names, different middle initials, and a bare family name', () => {
    expect(namesCompatible('Yang Liu', 'Wei Liu')).toBe(false);
    expect(namesCompatible('John A. Smith', 'John B. Smith')).toBe(false);
    expect(namesCompatible('Smith', 'John Smith')).toBe(false);
    expect(namesCompatible('Yang Liu', 'Yang Li')).toBe(false);
  });

  it('takes a hyphenated given name as one name: its parts apart, together or as initials; its first part alone only as weaker evidence', () => {
    expect(parsePersonName('Wei-Qiang Zhang')).toEqual({
      given: ['wei', 'qiang'],
      family: ['zhang'],
      suffix: null,
      hyphenated: [0],
    });
    // Initials joined by a hyphen are initials, as before.
    expect(parsePersonName('J.-P. Dupont')).toEqual({ given: ['j', 'p'], family: ['dupont'], suffix: null });
    const agreement = (a: string, b: string) => {
      const [x, y] = [parsePersonName(a), parsePersonName(b)];
      const compatible = parsedNamesCompatible(x, y);
      expect(parsedNamesCompatible(y, x)).toBe(compatible);
      expect(givenNameShortened(y, x)).toBe(givenNameShortened(x, y));
      return !compatible ? 'none' : givenNameShortened(x, y) ? 'shortened' : 'full';
    };
    const full = [
      ['Wei-Nan Zhang', 'Weinan Zhang'],
      ['Zhen-Hua Ling', 'Zhenhua Ling'],
      ['Mei-Hua Chen', 'MeiHua Chen'],
      ['Wei-Qiang Zhang', 'Wei Qiang Zhang'],
      ['Wei-Qiang Zhang', 'W. Q. Zhang'],
      ['Wei-Qiang Zhang', 'Zhang, W.'],
      ['Jean-Pierre Dupont', 'Jean P. Dupont'],
      ['Jean-Pierre Dupont', 'J.-P. Dupont'],
      ['Jean-Pierre Dupont', 'Dupont JP'],
      ['Yun-Nung Chen', 'Yun-Nung Chen'],
      ['Derek F. Wong', 'Derek Wong'],
      // Two full given names written apart, and together.
      ['Wei Nan Zhang', 'Weinan Zhang'],
      ['Ai Ti Aw', 'AiTi Aw'],
    ];
    // Real ACL Anthology pairs: one person ("Dumitru Cercel", three shared co-authors) or two.
    const shortened = [
      ['Dumitru-Clementin Cercel', 'Dumitru Cercel'],
      ['Wei-Qiang Zhang', 'Wei Zhang'],
      ['Yun-Nung Chen', 'Yun Chen'],
      ['Jean-Pierre Dupont', 'Jean Dupont'],
    ];
    const none = [
      ['Wei-Qiang Zhang', 'Wei-Nan Zhang'],
      ['Wei-Qiang Zhang', 'Weinan Zhang'],
      ['Wei-Qiang Zhang', 'Wei Ming Zhang'],
      ['Weinan Zhang', 'Wei Zhang'],
      ['Wei Nan Zhang', 'Weiqiang Zhang'],
    ];
    expect(full.map(([a, b]) => [a, b, agreement(a!, b!)])).toEqual(full.map(([a, b]) => [a, b, 'full']));
    expect(shortened.map(([a, b]) => [a, b, agreement(a!, b!)])).toEqual(
      shortened.map(([a, b]) => [a, b, 'shortened']),
    );
    expect(none.map(([a, b]) => [a, b, agreement(a!, b!)])).toEqual(none.map(([a, b]) => [a, b, 'none']));
  });

  it('reads a possibly compound family name both ways, with a hyphen or without', () => {
    const keys = (name: string) => nameReadings(name).map(familyCore);
    // First the parse (the corpus's key), then the other split.
    expect(keys('María García-López')).toEqual(['garcia lopez', 'lopez', 'maria']);
    // Then the first family name alone, as Spanish names are often written ("María García").
    expect(keys('María García López')).toEqual(['lopez', 'garcia lopez', 'garcia', 'maria']);
    expect(keys('José María Álvarez-Buylla Roces')).toContain('alvarez buylla');
    expect(namesCompatibleByReading('Inés Ruiz Moreno', 'Inés Ruiz')).toBe(true);
    expect(namesCompatibleByReading('José María Álvarez-Buylla Roces', 'José M. Álvarez-Buylla')).toBe(true);
    expect(nameReadings('María García López')[1]).toEqual({
      given: ['maria'],
      family: ['garcia', 'lopez'],
      suffix: null,
    });
    expect(nameReadings('García-López, María')[1]).toEqual({
      given: ['maria', 'garcia'],
      family: ['lopez'],
      suffix: null,
    });
  });

  it('reads other names one way only', () => {
    const keys = (name: string) => nameReadings(name).map(familyCore);
    expect(keys('John A. Smith')).toEqual(['smith']); // an initial is not a family name
    expect(keys('D. F. Wong')).toEqual(['wong']); // nor are initials written first
    // A hyphenated given name is no compound family name (read family name first, it is one word).
    expect(keys('Jean-Pierre Dupont')).toEqual(['dupont', 'jean pierre']);
    expect(keys('Smith, John Paul')).toEqual(['smith']); // the comma says where the family name is
    expect(keys('Ludwig van Beethoven')).toEqual(['beethoven', 'ludwig']); // particles: left to the parse
    expect(keys('')).toEqual([]);
  });

  it('ignores titles before a name and degrees after it', () => {
    const parsed = (name: string) => {
      const p = parsePersonName(name);
      return p && [p.given.join(' '), p.family.join(' ')];
    };
    expect(parsed('Prof. Dr. Hans Meier')).toEqual(['hans', 'meier']);
    expect(parsed('Dr Mary Smith')).toEqual(['mary', 'smith']);
    expect(parsed('Assoc. Prof. Ana Costa')).toEqual(['ana', 'costa']);
    expect(parsed('Jane Roe, MD, PhD')).toEqual(['jane', 'roe']);
    expect(parsed('Jane Roe PhD')).toEqual(['jane', 'roe']);
    expect(parsed('Jane Roe, MSc')).toEqual(['jane', 'roe']);
    expect(namesCompatible('Prof. Dr. Hans Meier', 'Hans Meier')).toBe(true);
    expect(namesCompatible('Jane Roe, MD, PhD', 'Jane Roe')).toBe(true);
    expect(nameKey('Jane Roe PhD')).toBe('roe');
    // Capitals after a surname are initials (PubMed style), not a degree.
    expect(parsed('Roe MD')).toEqual(['m d', 'roe']);
    expect(parsed('Smith, M.A.')).toEqual(['m a', 'smith']);
    expect(parsed('Wei MA')).toEqual(['m a', 'wei']);
    // A title's word as a name's only other word is the family name's sole company: kept.
    expect(parsed('Dr. Smith')).toEqual(['', 'smith']);
  });

  it('also reads a family name set in capitals before the given names ("WANG Wei")', () => {
    const readings = (name: string) =>
      nameReadings(name).map((r) => `${r.given.join(' ')} | ${r.family.join(' ')}`);
    expect(readings('WANG Wei')).toContain('wei | wang');
    expect(readings('KIM Min-Jun')).toContain('min jun | kim');
    expect(readings('NAGY Péter')).toContain('peter | nagy');
    expect(readings('Dr. LI Xiaoming')).toContain('xiaoming | li');
    expect(nameReadingKeys('WANG Wei')).toEqual(['wei', 'wang']);
  });

  it('also reads the first written word as the family name ("Wong Derek F.", "Zhang Wei-Nan")', () => {
    const readings = (name: string) =>
      nameReadings(name).map((r) => `${r.given.join(' ')} | ${r.family.join(' ')}`);
    // In written order first (the corpus's key), then family name first, whatever the case.
    expect(readings('Yang Liu')).toEqual(['yang | liu', 'liu | yang']);
    expect(readings('Wei WANG')).toEqual(['wei | wang', 'wang | wei']);
    expect(readings('Wong Derek F.')).toContain('derek f | wong');
    expect(readings('Zhang Wei-Nan')).toContain('wei nan | zhang');
    expect(readings('Müller Jürgen')).toContain('jurgen | muller');
    expect(namesCompatibleByReading('Wong Derek F.', 'Derek F. Wong')).toBe(true);
    expect(namesCompatibleByReading('Zhang Wei-Nan', 'Wei-Nan Zhang')).toBe(true);
    // Not where the first word is initials, an initial inside marks the given-first order, or a
    // comma says where the family name ends.
    expect(readings('D. F. Wong')).toEqual(['d f | wong']);
    expect(readings('John A. Smith').map((r) => r.split(' | ')[1])).not.toContain('john');
    expect(readings('Wong, Derek F.')).toEqual(['derek f | wong']);
    // Another given name stays another person.
    expect(namesCompatibleByReading('Wong Derek F.', 'David Wong')).toBe(false);
  });

  it('reads a name written in Latin letters and in another script beside them by its Latin letters', () => {
    expect(inLatinLetters('Derek F. Wong (黄德)')).toBe('Derek F. Wong');
    expect(inLatinLetters('黄德 Derek F. Wong')).toBe('Derek F. Wong');
    expect(inLatinLetters('Ivan Petrov (Иван Петров)')).toBe('Ivan Petrov');
    expect(namesCompatibleByReading('Derek F. Wong（黄德）', 'Derek F. Wong')).toBe(true);
    expect(nameReadingKeys('黄德 Derek F. Wong')).toEqual(['wong']);
    // One script only: kept whole.
    expect(inLatinLetters('王伟')).toBe('王伟');
    expect(inLatinLetters('José Núñez')).toBe('José Núñez');
    // A letter of another script inside a Latin word (a Greek β typed for ß) is the word's: the name
    // keeps the key it had before names were read by their Latin letters.
    expect(inLatinLetters('Daniel Grieβhaber')).toBe('Daniel Grieβhaber');
    expect(nameReadingKeys('Daniel Grieβhaber')).toContain('grieβhaber');
    expect(nameReadingKeys('Daniel Grieβhaber')).not.toContain('haber');
  });

  it('reads ä, ö, ü and ø as typed without them (ae, oe, ue), and ae, oe, ue as the letters they stand for', () => {
    expect(namesCompatibleByReading('Thomas Mueller', 'Thomas Müller')).toBe(true);
    expect(namesCompatibleByReading('Thomas Müller', 'Thomas Mueller')).toBe(true);
    expect(namesCompatibleByReading('Juergen Mueller', 'Jürgen Müller')).toBe(true);
    expect(namesCompatibleByReading('Jürgen Müller', 'Juergen Mueller')).toBe(true);
    expect(namesCompatibleByReading('Jens Soerensen', 'Jens Sørensen')).toBe(true);
    expect(namesCompatibleByReading('Samuel Mueller', 'Samuel Müller')).toBe(true);
    // Another given name, or another family name, stays another person.
    expect(namesCompatibleByReading('Thomas Mueller', 'Tobias Müller')).toBe(false);
    expect(namesCompatibleByReading('Thomas Mueller', 'Thomas Maller')).toBe(false);
  });

  it("gives every reading's key, the quick way for names of one reading", () => {
    const slowly = (name: string) => [...new Set(nameReadings(name).map(familyCore))];
    for (const name of [
      'María García López',
      'María García-López',
      'Yang Liu',
      'Liu, Yang',
      'John A. Smith',
      'Ludwig van Beethoven',
      "Conan O'Brien",
      'Smith JM',
      'WANG Wei',
      'Wei WANG',
      'AJ Smith',
      // Two plain words that familyFirst does not read family first: the quick path keeps one key.
      'D Wong',
      'AB CD',
      'van Smith',
      'Dr Smith',
      'Smith, John',
      'Wong Derek F.',
      'Derek F. Wong (黄德)',
      'Dr. LI Xiaoming',
      'Thomas Mueller',
      'Jens Sørensen',
      '',
    ]) {
      expect(nameReadingKeys(name)).toEqual(slowly(name));
    }
  });

  it("remembers at most KEY_CACHE_LIMIT names' keys, however many distinct names it is asked", () => {
    // Distinct family names of letters only (i written in base 26, a-z).
    const letters = (i: number) =>
      i.toString(26).replace(/./g, (d) => String.fromCharCode(97 + parseInt(d, 26)));
    let largest = 0;
    for (let i = 0; i < KEY_CACHE_LIMIT + 1000; i++) {
      const key = nameKey(`Ada Cache${letters(i)}`);
      if (i % 50_000 === 0) expect(key).toBe(`cache${letters(i)}`);
      largest = Math.max(largest, nameKeyCacheSize());
    }
    expect(largest).toBe(KEY_CACHE_LIMIT);
    expect(nameKeyCacheSize()).toBeGreaterThan(0);
    expect(nameKeyCacheSize()).toBeLessThanOrEqual(KEY_CACHE_LIMIT);
  });

  it('keys a name longer than KEY_CACHE_MAX_NAME_CHARS without remembering it', () => {
    const long = `Ada ${'Lovelace'.repeat(100)}`;
    expect(long.length).toBeGreaterThan(KEY_CACHE_MAX_NAME_CHARS);
    nameKey('Warm Cacheentry');
    const before = nameKeyCacheSize();
    expect(nameKey(long)).toBe('lovelace'.repeat(100));
    expect(nameKeyCacheSize()).toBe(before);
  });
});

describe('affiliations', () => {
  it('"Univ. of X" is "University of X, City, Country"; departments and campuses of one university match', () => {
    expect(affiliationsMatch('Univ. of Michigan', 'University of Michigan, Ann Arbor, MI, USA')).toBe(true);
    expect(
      affiliationsMatch(
        'Dept. of Computer Science, University of Michigan',
        'Department of Physics, Univ of Michigan',
      ),
    ).toBe(true);
    expect(
      affiliationsMatch('University of California, Berkeley', 'University of California, Los Angeles'),
    ).toBe(true);
    expect(affiliationsMatch('Universität Stuttgart', 'University Stuttgart, Germany')).toBe(true);
    expect(affiliationsMatch('Microsoft Research Asia, Beijing', 'Microsoft')).toBe(true);
    expect(affiliationCore('Department of Physics, University of Valencia, Spain')).toBe(
      'university of valencia',
    );
  });

  it('a segment of generic words or a legal form alone ("Inc.", "GmbH", "University") names no organization', () => {
    expect(affiliationsMatch('Meta Platforms, Inc', 'Rebellions, Inc.')).toBe(false);
    expect(affiliationsMatch('Acme Labs, GmbH', 'Other Labs, GmbH')).toBe(false);
    expect(affiliationsMatch('University', 'University')).toBe(false);
    expect(affiliationsMatch('Research, Inc.', 'Research')).toBe(false);
    expect(affiliationsMatch('Meta Platforms, Inc', 'Meta Platforms Inc., Menlo Park')).toBe(true);
    expect(affiliationCore('Rebellions, Inc.')).toBe('rebellions');
  });

  it('an organization named in its own language is the one named in English', () => {
    expect(affiliationsMatch('Universidad de Granada, Spain', 'University of Granada')).toBe(true);
    expect(affiliationsMatch('Università di Bologna', 'Dept. of Physics, University of Bologna')).toBe(true);
    expect(affiliationsMatch('Universidade do Porto', 'University of Porto')).toBe(true);
    expect(affiliationsMatch('Universität Hamburg', 'University of Hamburg, Germany')).toBe(true);
    expect(affiliationsMatch('Technische Universität München', 'Technical University of Munich')).toBe(true);
    expect(affiliationsMatch('Universität Wien', 'University of Vienna')).toBe(true);
    expect(affiliationsMatch('Universitas Indonesia', 'University of Indonesia')).toBe(true);
    expect(affiliationsMatch('Ankara Üniversitesi', 'Ankara University')).toBe(true);
    // An institute, or a ministry's laboratory, named before its university is the university's.
    expect(affiliationsMatch('Institute of Linguistics, University of Vienna', 'University of Vienna')).toBe(
      true,
    );
    expect(
      affiliationsMatch(
        'Key Laboratory of Computational Linguistics (Ministry of Education), Peking University',
        'Peking University, Beijing',
      ),
    ).toBe(true);
    expect(
      affiliationsMatch(
        'Key Laboratory of Computational Linguistics (Ministry of Education), Peking University',
        'Key Laboratory of Machine Perception (Ministry of Education), Zhejiang University',
      ),
    ).toBe(false);
    // A standalone institute stays the organization.
    expect(affiliationCore('Institute of Computing Technology, Chinese Academy of Sciences')).toBe(
      'institute of computing technology',
    );
    // Another university of the same place, or a part named after the university, stays apart.
    expect(affiliationsMatch('Universidad de Granada', 'Universidad de Sevilla')).toBe(false);
    expect(affiliationsMatch('University College Dublin', 'University of Dublin')).toBe(false);
    expect(affiliationsMatch('Universität Wien', 'Technische Universität Graz')).toBe(false);
  });

  it('a university named by an acronym and its place, or in English word order, is the one named in full', () => {
    expect(affiliationsMatch('Heidelberg University, Germany', 'Universität Heidelberg')).toBe(true);
    expect(affiliationsMatch('Leipzig University', 'University of Leipzig')).toBe(true);
    expect(affiliationsMatch('Heidelberg University', 'Ruprecht-Karls-Universität Heidelberg')).toBe(true);
    expect(affiliationsMatch('TU München', 'Technical University of Munich')).toBe(true);
    expect(affiliationsMatch('TU Delft', 'Delft University of Technology, The Netherlands')).toBe(true);
    expect(affiliationsMatch('Graz University of Technology', 'Technische Universität Graz')).toBe(true);
    expect(affiliationsMatch('KU Leuven', 'Katholieke Universiteit Leuven')).toBe(true);
    expect(affiliationsMatch('KU Leuven', 'Catholic University of Leuven, Belgium')).toBe(true);
    // Where a place has one university named each way, or a kind of university of the place, they
    // are two.
    expect(affiliationsMatch('Washington University in St. Louis', 'University of Washington')).toBe(false);
    expect(affiliationsMatch('Miami University, Oxford, Ohio', 'University of Miami')).toBe(false);
    expect(affiliationsMatch('TU Wien', 'Universität Wien')).toBe(false);
    expect(affiliationsMatch('Technische Universität Wien', 'University of Vienna')).toBe(false);
    expect(affiliationsMatch('Dalian University of Technology', 'Dalian University')).toBe(false);
    expect(affiliationsMatch('State University of New York', 'University of New York')).toBe(false);
    expect(affiliationsMatch('Western University', 'University of Western Australia')).toBe(false);
    expect(affiliationsMatch('KU Leuven', 'Université catholique de Louvain')).toBe(false);
  });

  it('names every organization an affiliation names, the principal one first; not an institute of its university', () => {
    expect(
      affiliationOrganizations(
        'Department of Medicine, Harvard Medical School, Massachusetts General Hospital, Boston, MA',
      ),
    ).toEqual(['harvard medical school', 'massachusetts general hospital']);
    expect(affiliationOrganizations('Institute of Linguistics, University of Vienna, Austria')).toEqual([
      'university of vienna',
    ]);
    // A campus named with "at" is kept, as the name without "at" writes it; the university alone is
    // held in it.
    expect(affiliationOrganizations('Dept. of CS, Univ. of Michigan at Ann Arbor, USA')).toEqual([
      'university of michigan ann arbor',
    ]);
    expect(affiliationsMatch('Univ. of Michigan at Ann Arbor', 'University of Michigan, USA')).toBe(true);
    expect(affiliationOrganizations('Beijing, China')).toEqual(['beijing']);
    // An academy of many institutes, named after one of them, is its parent, not a second place.
    expect(
      affiliationOrganizations('Institute of Automation, Chinese Academy of Sciences, Beijing')[0],
    ).toEqual('institute of automation');
    expect(
      affiliationsMatch(
        'Institute of Automation, Chinese Academy of Sciences',
        'Institute of Computing Technology, Chinese Academy of Sciences',
      ),
    ).toBe(false);
    expect(affiliationOrganizations('Chinese Academy of Sciences')).toEqual(['chinese academy of sciences']);
    expect(
      affiliationOrganizations(
        'Institute of Computing Technology, University of Chinese Academy of Sciences',
      ),
    ).toEqual(['university of chinese academy of sciences']);
    expect(affiliationOrganizations('')).toEqual([]);
  });

  it('an institute of an umbrella by its acronym is the one named in full of that umbrella', () => {
    // The acronyms as the ACL corpus writes them, against the institutes' full names.
    expect(
      affiliationsMatch(
        'IGSNRR, Chinese Academy of Sciences, Beijing, China',
        'Institute of Geographic Sciences and Natural Resources Research, Chinese Academy of Sciences',
      ),
    ).toBe(true);
    expect(
      affiliationsMatch(
        'IIE, Chinese Academy of Sciences',
        'Institute of Information Engineering, Chinese Academy of Sciences, Beijing, China',
      ),
    ).toBe(true);
    // With the umbrella's initials after the institute's ("ISCAS": Institute of Software, CAS).
    expect(
      affiliationsMatch(
        'ISCAS, Chinese Academy of Sciences',
        'Institute of Software, Chinese Academy of Sciences',
      ),
    ).toBe(true);
    // Another institute's acronym, the same acronym of another umbrella, and two full names of one
    // initials (both "IS") are other places.
    expect(
      affiliationsMatch(
        'ICT, Chinese Academy of Sciences',
        'Institute of Information Engineering, Chinese Academy of Sciences',
      ),
    ).toBe(false);
    expect(
      affiliationsMatch(
        'IIE, Chinese Academy of Sciences',
        'Institute of Information Engineering, Polish Academy of Sciences',
      ),
    ).toBe(false);
    expect(
      affiliationsMatch(
        'Institute of Software, Chinese Academy of Sciences',
        'Institute of Semiconductors, Chinese Academy of Sciences',
      ),
    ).toBe(false);
    // The umbrella alone is still no institute of it.
    expect(
      affiliationsMatch(
        'Chinese Academy of Sciences',
        'Institute of Information Engineering, Chinese Academy of Sciences',
      ),
    ).toBe(false);
  });

  it('a place before an umbrella names no institute of it; an acronym does', () => {
    expect(affiliationOrganizations('Beijing, Chinese Academy of Sciences')).toEqual([
      'chinese academy of sciences',
    ]);
    expect(affiliationsMatch('Beijing, Chinese Academy of Sciences', 'Beijing Institute of Technology')).toBe(
      false,
    );
    expect(
      affiliationsMatch('Beijing, Chinese Academy of Sciences', 'Chinese Academy of Sciences, China'),
    ).toBe(true);
    expect(affiliationOrganizations('IGSNRR, Chinese Academy of Sciences, Beijing, China')[0]).toBe('igsnrr');
    // A line in capitals throughout tells no acronym apart: the segment is taken, as before.
    expect(affiliationOrganizations('IIE, CHINESE ACADEMY OF SCIENCES')[0]).toBe('iie');
  });

  it('a campus after a comma is kept where the corpus names two campuses of the name so', () => {
    const campuses = campusesOf([
      'University of California, Davis',
      'University of California, Berkeley',
      'University of Michigan, Ann Arbor',
      'University of Michigan',
      'Massachusetts Institute of Technology',
    ]);
    expect([...campuses.keys()]).toEqual(['university of california']);
    const organizations = (value: string) => withCampuses(cachedAffiliationReading(value), campuses);
    const match = (a: string, b: string) =>
      organizations(a).some((x) => organizations(b).some((y) => affiliationCoresMatch(x, y)));
    expect(organizations('Department of Computer Science, University of California, Davis, CA')).toEqual([
      'university of california davis',
    ]);
    expect(match('University of California, Davis', 'University of California, Berkeley')).toBe(false);
    expect(match('University of California, Davis, CA, USA', 'UC Lab, University of California, Davis')).toBe(
      true,
    );
    // The university alone, or with a part that is no campus the corpus names, may be any campus.
    expect(match('University of California', 'University of California, Berkeley')).toBe(true);
    expect(match('University of California, USA', 'University of California, Berkeley')).toBe(true);
    // A city after a comma, where the corpus names no two campuses so, is the university.
    expect(match('University of Michigan', 'University of Michigan, Ann Arbor')).toBe(true);
    // No campuses known (a corpus without institutions): every campus after a comma is its university.
    expect(withCampuses(cachedAffiliationReading('University of California, Davis'), new Map())).toEqual([
      'university of california',
    ]);
  });

  it('does not match different organizations, nor a generic word', () => {
    expect(affiliationsMatch('University of Michigan', 'Michigan State University')).toBe(false);
    expect(affiliationsMatch('University of Oxford', 'University of Cambridge')).toBe(false);
    expect(affiliationsMatch('University', 'University of Oxford')).toBe(false);
    expect(affiliationsMatch('Amazon', 'Microsoft')).toBe(false);
  });
});

describe('identifiers', () => {
  it('normalizes DOIs, ORCIDs, PubMed and arXiv ids from their usual written forms', () => {
    expect(normalizeDoi('https://doi.org/10.7717/PEERJ.4375')).toBe('10.7717/peerj.4375');
    expect(normalizeDoi('unavailable')).toBeNull();
    expect(normalizeOrcid('https://orcid.org/0000-0002-1694-233x')).toBe('0000-0002-1694-233X');
    expect(normalizeOrcid('000000021694233X')).toBe('0000-0002-1694-233X');
    // A placeholder and a mistyped check digit are no iD.
    expect(normalizeOrcid('0000-0000-0000-0000')).toBeNull();
    expect(normalizeOrcid('0000-0002-1694-2331')).toBeNull();
    expect(normalizePmid('https://pubmed.ncbi.nlm.nih.gov/29456894')).toBe('29456894');
    expect(normalizePmid('0')).toBeNull();
    expect(normalizeArxivId('https://arxiv.org/abs/2101.00001v3')).toBe('2101.00001');
    expect(normalizeArxivId('arXiv:hep-th/9901001')).toBe('hep-th/9901001');
  });

  it(
    'a DOI loses the stops after it, a long run of stops read once',
    () => {
      expect(normalizeDoi('doi:10.1000/ABC.1.;,')).toBe('10.1000/abc.1');
      expect(normalizeDoi('10.1000/a..b.')).toBe('10.1000/a..b');
      // A reference's DOI with a run of stops inside: the old pattern read it again from each stop
      // (200,000: 15 s; a DOCX paragraph holds such a run).
      const stops = '.'.repeat(200_000);
      expect(normalizeDoi(`10.1000/${stops}x.`)).toBe(`10.1000/${stops}x`);
    },
    // Milliseconds read once; 5 s fails only the old reading.
    5_000,
  );
});

describe('name parts for display', () => {
  it('splits first, middle, last and suffix as written', async () => {
    const { nameParts } = await import('../../src/corpus/authors/names.ts');
    expect(nameParts('Martin Luther King Jr.')).toEqual({
      first: 'Martin',
      middle: 'Luther',
      last: 'King',
      suffix: 'jr',
    });
    expect(nameParts('Ludwig van Beethoven')).toEqual({
      first: 'Ludwig',
      middle: null,
      last: 'van Beethoven',
      suffix: null,
    });
    expect(nameParts('Liu, Yang')).toEqual({ first: 'Yang', middle: null, last: 'Liu', suffix: null });
    expect(nameParts('Madonna')).toEqual({ first: '', middle: null, last: 'Madonna', suffix: null });
  });
});

describe('name keys of plain names (ASCII letters, single spaces) computed without parsing', () => {
  it("gives the general path's key for the fixtures' authors and for suffixes, particles and initials", () => {
    const names = new Set([
      'Smith JM',
      'JM Smith',
      'AB CD',
      'Smith JMKL',
      'Smith',
      'Jr',
      'John Smith Jr',
      'Smith Jr',
      'John Smith III',
      'John V',
      'Ludwig van Beethoven',
      'van der Berg',
      'Van Der',
      'Juan Carlos de la Fuente Ruiz',
      'Al Bin',
      'X Ter Ten',
      'JOHN SMITH',
    ]);
    for (const file of [
      path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl'),
      path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl'),
    ])
      for (const line of readFileSync(file, 'utf8').trimEnd().split('\n'))
        for (const a of (JSON.parse(line) as { authorships: Array<Record<string, unknown>> }).authorships) {
          names.add((a.author as { display_name: string }).display_name);
          if (typeof a.raw_author_name === 'string') names.add(a.raw_author_name);
        }
    let plain = 0;
    for (const name of names) {
      const key = plainNameKey(name);
      if (key === undefined) continue;
      plain++;
      const parsed = parsePersonName(name);
      expect(key, name).toBe(parsed ? familyCore(parsed) : null);
    }
    expect(plain).toBeGreaterThan(100);
  });

  it('leaves every other name to the general path', () => {
    for (const name of [
      '',
      ' Smith',
      'Smith ',
      'John  Smith',
      'Smith, John',
      'J. Smith',
      'Jürgen Müller',
      "O'Neil",
      'Jean-Pierre Roy',
      'R2 D2',
      // A title or a degree: the general path cuts it.
      'Dr Mary Smith',
      'prof Hans Meier',
      'Mary Smith PhD',
      'Wei WANG',
    ])
      expect(plainNameKey(name), name).toBeUndefined();
  });
});

// Patterns that read a long run again from each of its characters (or each way to split it): the
// same readings as before on the names and affiliations they are for, and a long run read once,
// counted in the backtracks of V8's regexp engine: these take 3 to 44 a character, the old readings
// n² or 2^n (they took 30 s or more on these inputs), past any bound linear in the input.
const BACKTRACKS_PER_CHARACTER = 200;
const readOnce = (pattern: RegExp, input: string) =>
  settlesWithin(pattern, input, BACKTRACKS_PER_CHARACTER * input.length);

describe('names and affiliations read once', () => {
  it('a name ending in a word beyond ASCII: its degrees looked for in one reading of the last word', () => {
    expect(nameKey('Jöns Roe, PhD')).toBe(nameKey('Jöns Roe'));
    expect(nameKey('Ärla Öberg MD')).toBe('oberg');
    expect(nameKey('Åsa Öberg, M.Sc.')).toBe('oberg');
    expect(nameKey('José Ángel ÉÀ')).toBe('ea');
    // Capitals and a comma before a letter beyond ASCII, in an upload's 1,000-character name: 250
    // ms on the event loop for each such name (cubic: this one took over 30 s).
    const long = 'A'.repeat(5_000);
    // Counted first (the last word is what the pattern reads): a reading that is not once fails here,
    // before it holds the test minutes.
    expect(readOnce(TWO_CAPITALS_AT_END, `${long},Ä`)).toBe(true);
    expect(nameKey(`Jane ${long},Ä`)).toBe(`jane ${long.toLowerCase()}`);
  });

  it('a list of degrees: spaces, commas or both between them, a run of spaces read one way', () => {
    expect(isDegreeList('MD, PhD')).toBe(true);
    expect(isDegreeList('MD PhD FRCS')).toBe(true);
    expect(isDegreeList('M.D. ,  Ph.D.')).toBe(true);
    expect(isDegreeList('MDPhD')).toBe(true);
    expect(isDegreeList('Roe MD')).toBe(false);
    // Each space could be read before or after the comma that is not there: 2^30 ways (the parser's
    // byline pieces; 24 degrees took 1.4 s).
    expect(readOnce(DEGREE_ONLY, `RN${' FRCS'.repeat(30)}s`)).toBe(true);
    expect(isDegreeList(`RN${' FRCS'.repeat(30)}s`)).toBe(false);
  });

  it('"X University of Technology" is the technical university of X, the run before it read once', () => {
    expect(affiliationCore('Delft University of Technology, The Netherlands')).toBe(
      'technical university of delft',
    );
    expect(affiliationCore('Graz University of Technology')).toBe('technical university of graz');
    expect(affiliationOrganizations('Department of Physics, Łódź University of Technology, Poland')).toEqual([
      'technical university of lodz',
    ]);
    // Letters beyond ASCII between ASCII ones: `\b` holds inside the run, and the old pattern read it
    // again from each when "university of technology" did not follow it (2,000 characters, an
    // upload's affiliation: 32 ms; this one over 30 s).
    const long = 'αa'.repeat(30_000);
    // As the pattern reads them: folded, a space at each end.
    expect(readOnce(PLACE_UNIVERSITY_OF_TECHNOLOGY, ` ${long} university `)).toBe(true);
    expect(readOnce(PLACE_UNIVERSITY_OF_TECHNOLOGY, ` ${long} university of technology `)).toBe(true);
    expect(affiliationCore(`${long} University`)).toBe(`${long} university`);
    const core = affiliationCore(`${long} university of technology`);
    expect(core).toContain('technical university of a');
    expect(core.length).toBe(long.length + 'technical university of '.length);
  });
});
