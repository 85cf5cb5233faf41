// Reference field parsing across citation styles. The strings are written for these tests (invented
// works in each style's conventions), not taken from any gold set.
import { describe, expect, it } from 'vitest';
import { parseReference } from '../../src/parsing/references.ts';

const cases: { style: string; raw: string; authors: string[]; title: string; year: number | null }[] = [
  {
    style: 'APA, ampersand before the last author',
    raw: 'Okafor, N. A., Lindqvist, B., & van der Berg, C. J. (2019). Soil carbon under rotating crops. Journal of Field Studies, 12(3), 45–60. https://doi.org/10.1234/jfs.2019.45',
    authors: ['Okafor, N. A.', 'Lindqvist, B.', 'van der Berg, C. J.'],
    title: 'Soil carbon under rotating crops',
    year: 2019,
  },
  {
    style: 'Vancouver',
    raw: '12. Moreau P, Tanaka K-H, Silva JR. Sleep and memory in older adults. Neurol Res. 2015;37(4):301-9.',
    authors: ['Moreau P', 'Tanaka K-H', 'Silva JR'],
    title: 'Sleep and memory in older adults',
    year: 2015,
  },
  {
    style: 'IEEE, quoted title',
    raw: '[3] A. B. Kowalski, C. Dutta, and E. F. Gomez, “Low-power radios for sensor meshes,” IEEE Trans. Wirel. Commun., vol. 9, no. 2, pp. 10–20, 2011.',
    authors: ['A. B. Kowalski', 'C. Dutta', 'E. F. Gomez'],
    title: 'Low-power radios for sensor meshes',
    year: 2011,
  },
  {
    style: 'Nature, initials after surname without parentheses',
    raw: '7. Haddad, R. & Osei, K. Coral bleaching across ocean basins. Nature 501, 12–18 (2013).',
    authors: ['Haddad, R.', 'Osei, K.'],
    title: 'Coral bleaching across ocean basins',
    year: 2013,
  },
  {
    style: 'ACL / natbib, full given names',
    raw: 'Maria Rossi, Jonas Weber, and Li Wei. 2020. Parsing tweets with small models. In Proceedings of the Workshop on Noisy Text, pages 1–9.',
    authors: ['Maria Rossi', 'Jonas Weber', 'Li Wei'],
    title: 'Parsing tweets with small models',
    year: 2020,
  },
  {
    style: 'Chicago, first author inverted',
    raw: 'Ferreira, Ana, and Thomas Hale. 2008. “Trade Routes of the Baltic.” Economic History Review 61 (2): 233–50.',
    authors: ['Ferreira, Ana', 'Thomas Hale'],
    title: 'Trade Routes of the Baltic',
    year: 2008,
  },
  {
    style: 'Copernicus, colon after the authors and commas between fields',
    raw: 'Nakamura, T., Berger, L., and Diallo, S.: Aerosol growth over boreal forests, Atmos. Chem. Phys., 14, 1203–1219, 2014.',
    authors: ['Nakamura, T.', 'Berger, L.', 'Diallo, S.'],
    title: 'Aerosol growth over boreal forests',
    year: 2014,
  },
  {
    style: 'a title whose first word looks like a given name after the initials',
    raw: 'Moore, B. J. An Introduction to River Ecology. London: Example Press, 1990.',
    authors: ['Moore, B. J.'],
    title: 'An Introduction to River Ecology',
    year: 1990,
  },
  {
    style: 'a question title followed by a sentence-case subtitle',
    raw: 'Ito, H. (2001). Why do birds sing at dawn? A field study of song timing. Animal Behaviour, 5, 1–9.',
    authors: ['Ito, H.'],
    title: 'Why do birds sing at dawn? A field study of song timing',
    year: 2001,
  },
  {
    style: 'et al. after the first author',
    raw: '4. García-López, M. et al. Gene flow between island lizards. Mol. Ecol. 20, 11–19 (2012).',
    authors: ['García-López, M.'],
    title: 'Gene flow between island lizards',
    year: 2012,
  },
];

describe('parseReference', () => {
  for (const c of cases) {
    it(`reads authors, title and year: ${c.style}`, () => {
      const parsed = parseReference(c.raw);
      expect(parsed.authors).toEqual(c.authors);
      expect(parsed.title).toBe(c.title);
      expect(parsed.year).toBe(c.year);
    });
  }

  it('keeps the DOI and leaves no number marker in the raw text', () => {
    const parsed = parseReference(cases[0]!.raw);
    expect(parsed.doi).toBe('10.1234/jfs.2019.45');
    expect(parseReference(cases[1]!.raw).raw.startsWith('Moreau')).toBe(true);
  });

  it('reads the title after a dash standing for the previous entry’s authors', () => {
    const parsed = parseReference('———. 1999. Rivers of the North. Oslo: Example Press.');
    expect(parsed.authors).toEqual([]);
    expect(parsed.title).toBe('Rivers of the North');
  });
});
