// A reference list's heading in the languages of theses and journals met since: the Hungarian
// "7 Hivatkozások", the numbered last chapter of a BME thesis printed to PDF, was not known, and
// that thesis's list of 25 was not found at all ("No reference list was found"; held-out set 22).
// Its neighbours' words with it.
import { describe, expect, it } from 'vitest';
import { REFERENCES_HEADING } from '../../src/parsing/sections.ts';

describe('the reference list heading', () => {
  it.each([
    ['7 Hivatkozások'],
    ['Irodalomjegyzék'],
    ['Felhasznált irodalom'],
    ['Βιβλιογραφία'],
    ['Αναφορές'],
    ['Kaynaklar'],
    ['Kaynakça'],
    ['Daftar Pustaka'],
    ['Tài liệu tham khảo'],
    ['Referenser'],
    ['Referanser'],
    ['Källor'],
    ['Lähteet'],
    ['Kirjallisuus'],
  ])('knows "%s"', (heading) => {
    expect(REFERENCES_HEADING.test(heading)).toBe(true);
  });

  it('is still a heading alone on its line, not a sentence that starts with the word', () => {
    expect(REFERENCES_HEADING.test('Hivatkozások a korábbi fejezetekben')).toBe(false);
    expect(REFERENCES_HEADING.test('Kaynaklar arasında en eskisi')).toBe(false);
  });
});
