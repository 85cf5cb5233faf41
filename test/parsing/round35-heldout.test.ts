// Layouts met in the thirty-third held-out set (clinical degree projects, R Markdown and pandoc
// output, a French thesis in medicine), fixed in the thirty-fifth round. Names, titles and
// identifiers are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, textLine } from './make-files.ts';

// The test PDFs are written in WinAnsi without accents: the French cover's words lose theirs.
const limits = testConfig().parsing;

describe('a French thesis cover: "Par" and the name over the title, the jury under it', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'UNIVERSITE DU LITTORAL NORD', size: 12, x: 95, y: 780 },
        { text: 'FACULTE DE MEDECINE DE PORTVAL', size: 12, x: 133, y: 752 },
        { text: 'Annee 2019', size: 10, x: 47, y: 710 },
        { text: 'These de DOCTORAT en MEDECINE', size: 10, x: 163, y: 670 },
        { text: 'Par', size: 10, x: 284, y: 610 },
        { text: 'Lucie MARVAND', size: 12, x: 233, y: 582 },
        { text: 'Nee le 2 Juin 1990', size: 8.5, x: 244, y: 550 },
        { text: 'Role des canaux ioniques dans la', size: 18, x: 60, y: 440 },
        { text: 'migration des cellules epitheliales', size: 18, x: 100, y: 414 },
        { text: 'President', size: 10, x: 28, y: 250 },
        { text: 'Monsieur le Professeur Paul RENOIR', size: 10, x: 167, y: 250 },
        { text: 'Membres du jury', size: 10, x: 28, y: 220 },
        { text: 'Madame le Docteur Anne VERLAC', size: 10, x: 167, y: 220 },
        { text: 'Monsieur le Docteur Yves CORDIER', size: 10, x: 167, y: 198 },
      ],
      [{ text: 'Introduction', size: 12, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
    ]);

  it('reads the name under "Par" as the author and no member of the jury', async () => {
    const result = await parseManuscript(file(), 'these.pdf', limits);
    expect(result.title).toBe('Role des canaux ioniques dans la migration des cellules epitheliales');
    expect(result.authors.map((a) => a.name.toLowerCase())).toEqual(['lucie marvand']);
  });
});

describe('a French thesis whose abstract is on its back cover: "RESUME :" run in on the last page', () => {
  const file = () =>
    makeTextPdf([
      [
        { text: 'Par', size: 10, x: 284, y: 700 },
        { text: 'Lucie MARVAND', size: 12, x: 233, y: 672 },
        { text: 'Role des canaux ioniques dans la', size: 18, x: 60, y: 560 },
        { text: 'migration des cellules epitheliales', size: 18, x: 100, y: 534 },
      ],
      [{ text: 'Introduction', size: 12, x: 72, y: 780, bold: true }, ...bodyProse(760, 40)],
      [
        { text: 'MARVAND (Lucie) - Role des canaux ioniques - 40 pages', size: 10, x: 72, y: 780 },
        textLine('RESUME : Les canaux ioniques reglent la migration des cellules epitheliales dans', 750),
        textLine('la cicatrisation. Nous avons mesure leur activite dans trois lignees cellulaires et', 737),
        textLine('montre que leur blocage ralentit la fermeture des plaies de moitie.', 724),
        { text: 'MOTS CLEFS :', size: 10, x: 72, y: 700 },
        { text: 'CANAUX IONIQUES', size: 10, x: 72, y: 687 },
      ],
    ]);

  it('reads the abstract from the last page, up to its keywords', async () => {
    const result = await parseManuscript(file(), 'these-resume.pdf', limits);
    expect(result.abstract).toBe(
      'Les canaux ioniques reglent la migration des cellules epitheliales dans la cicatrisation. Nous avons mesure leur activite dans trois lignees cellulaires et montre que leur blocage ralentit la fermeture des plaies de moitie.',
    );
  });
});
