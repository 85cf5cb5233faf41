// Layouts met in the twenty-second held-out set, fixed in the twenty-fourth round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import { assemblePdf, bodyProse, makeDocx, makeTextPdf, paragraph, paragraphStyles } from './make-files.ts';

const limits = testConfig().parsing;

/** A paragraph of one run at a size in half-points, bold when asked (a cover set by hand). */
const sizedRun = (text: string, halfPoints: number, bold = false) =>
  `<w:p><w:r><w:rPr>${bold ? '<w:b/>' : ''}<w:sz w:val="${halfPoints}"/></w:rPr><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

const prose = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    paragraph(
      `Paragraful ${i + 1} al lucrării descrie pe larg metoda, datele și rezultatele obținute în acest studiu.`,
    ),
  );

describe('a Romanian diploma cover: the kind of work set largest, the roles labelled side by side', () => {
  const file = () =>
    makeDocx([
      sizedRun('UNIVERSITATEA DIN ORAȘUL DE JOS', 26),
      sizedRun('FACULTATEA DE ȘTIINȚE', 26),
      sizedRun('DEPARTAMENTUL DE MATEMATICĂ APLICATĂ', 26),
      sizedRun('PROIECT DE DIPLOMĂ', 56, true),
      sizedRun('Grafuri rare și drumuri scurte în rețele de transport urban', 48, true),
      sizedRun('Coordonator științific:', 26),
      sizedRun('Absolvent:', 26),
      sizedRun('Prof. Ion Marinescu', 26),
      sizedRun('Dobre Ana-Maria', 26),
      sizedRun('Orașul de Jos, 2025', 26),
      ...prose(8),
    ]);

  it('takes the subject for the title, not the line naming the kind of work', async () => {
    const result = await parseManuscript(file(), 'licenta.docx', limits);
    expect(result.title).toBe('Grafuri rare și drumuri scurte în rețele de transport urban');
  });

  it('names the student under "Absolvent:", not the coordinator or the department', async () => {
    const result = await parseManuscript(file(), 'licenta.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Dobre Ana-Maria']);
  });
});

describe('a Serbian master’s cover: "Ментор:" and "Кандидат:" each over its name, an index number after the student', () => {
  const file = () =>
    makeDocx([
      sizedRun('Универзитет у Граду', 26),
      sizedRun('Технички факултет', 26),
      sizedRun('Кратки путеви у ретким графовима градског превоза', 44, true),
      sizedRun('Мастер рад', 30),
      sizedRun('Ментор:', 24),
      sizedRun('др Јован Петровић, ред. проф.', 24),
      sizedRun('Кандидат:', 24),
      sizedRun('Милица Јанковић 1234/2020', 24),
      sizedRun('Град, јун 2024.', 24),
      ...prose(8),
    ]);

  it('names the candidate, without the index number, and not the mentor', async () => {
    const result = await parseManuscript(file(), 'master.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Милица Јанковић']);
  });
});

/** A styles part with the contents' first level and Word's first heading level. */
const contentsStyles = paragraphStyles([
  ['TJ1', 'toc 1'],
  ['Heading1', 'heading 1'],
]);

describe('a Hungarian thesis: contents, a signed statement, "Összefoglaló", then "Abstract"', () => {
  const file = () =>
    makeDocx(
      [
        sizedRun('Északi Műszaki Egyetem', 24),
        sizedRun('Kovács Anna Réka', 40),
        sizedRun('Ritka gráfok rövid útjai a városi közlekedésben', 52, true),
        sizedRun('Konzulens', 24),
        sizedRun('Szabó Gergely', 40),
        paragraph('Tartalomjegyzék', 'Heading1'),
        paragraph('Összefoglaló 5', 'TJ1'),
        paragraph('Abstract 6', 'TJ1'),
        paragraph('1 Bevezetés 7', 'TJ1'),
        paragraph('2 Módszerek 9', 'TJ1'),
        paragraph('Hallgatói nyilatkozat', 'Heading1'),
        paragraph('Alulírott Kovács Anna Réka kijelentem, hogy ezt a dolgozatot magam készítettem.'),
        paragraph('Hozzájárulok, hogy a munkám alapadatait az egyetem nyilvánosan közzétegye.'),
        paragraph('Tudomásul veszem, hogy a dolgozat szövege az egyetem belső hálózatán elérhető lesz.'),
        paragraph('Kijelentem, hogy a benyújtott munka és annak elektronikus változata megegyezik.'),
        paragraph('Kelt: Északváros, 2024. 05. 10.'),
        paragraph('Kovács Anna Réka'),
        paragraph('Összefoglaló', 'Heading1'),
        ...[1, 2, 3, 4, 5, 6].map((k) =>
          paragraph(
            `A dolgozat ${k}. bekezdése a ritka gráfok rövid útjait vizsgálja a városi hálózatokban.`,
          ),
        ),
        paragraph('Abstract', 'Heading1'),
        paragraph('This thesis studies short paths in sparse graphs of urban transport networks.'),
        paragraph('It compares three methods on the networks of four cities and reports their costs.'),
        paragraph('Bevezetés', 'Heading1'),
        ...prose(6),
      ],
      [contentsStyles],
    );

  it('keeps the English abstract printed after the one in Hungarian, not a contents entry', async () => {
    const result = await parseManuscript(file(), 'szakdolgozat.docx', limits);
    expect(result.abstract).toBe(
      'This thesis studies short paths in sparse graphs of urban transport networks.\n\nIt compares three methods on the networks of four cities and reports their costs.',
    );
  });
});

describe('a PDF whose table of contents names the abstract with dot leaders and a page number', () => {
  const line = (text: string, y: number, size = 10, bold = false) => ({ text, size, x: 72, y, bold });
  const file = () =>
    makeTextPdf([
      [
        line('Short Paths in Sparse Graphs of Urban Transport', 760, 18, true),
        line('Jana Nováková', 730, 12),
        line('Contents', 690, 14, true),
        line('Abstract ............................................................ 2', 670),
        line('1 Introduction ...................................................... 3', 656),
        line('2 Methods ........................................................... 5', 642),
      ],
      [
        line('Abstract', 760, 14, true),
        line('This thesis studies short paths in sparse graphs of urban transport networks and', 740),
        line('compares three methods on the networks of four cities, reporting their costs.', 727),
        line('1 Introduction', 690, 14, true),
        ...bodyProse(670, 10),
      ],
    ]);

  it('reads the abstract under its heading, not the contents entry', async () => {
    const result = await parseManuscript(file(), 'thesis.pdf', limits);
    expect(result.abstract).toBe(
      'This thesis studies short paths in sparse graphs of urban transport networks and compares three methods on the networks of four cities, reporting their costs.',
    );
  });
});

describe('an abstract label typed with a Greek capital among its Latin letters', () => {
  const file = () =>
    makeDocx([
      sizedRun('Sparse Labels for Long Legal Texts', 44, true),
      sizedRun('Eleni K. Markou', 28),
      sizedRun('\u0391BSTRACT', 32, true),
      paragraph(
        'This thesis tags long legal texts with sparse labels drawn from a large set of concepts and compares four models on a new collection of statutes.',
      ),
      sizedRun('1 Introduction', 32, true),
      ...prose(6),
    ]);

  it('reads the abstract under it', async () => {
    const result = await parseManuscript(file(), 'thesis.docx', limits);
    expect(result.abstract).toBe(
      'This thesis tags long legal texts with sparse labels drawn from a large set of concepts and compares four models on a new collection of statutes.',
    );
  });
});

describe('a one-author byline over a Portuguese university’s name and the author’s address', () => {
  const line = (text: string, y: number, size = 10, bold = false) => ({ text, size, x: 72, y, bold });
  const file = () =>
    makeTextPdf([
      [
        line('Medir a geada em pomares do interior com sensores baratos', 760, 16, true),
        line('Rita Sousa', 735, 10),
        line('Universidade de Montemor', 722, 10),
        line('a12345@alunos.planalto.pt', 709, 10, true),
        line('Resumo', 680, 9, true),
        line('A geada tardia estraga as flores dos pomares do interior todos os anos e custa caro.', 666, 9),
        line(
          'Neste trabalho medimos a geada com sensores baratos e comparamos com a estação oficial.',
          655,
          9,
        ),
        line('1 Introdução', 620, 13, true),
        ...bodyProse(600, 10),
      ],
    ]);

  it('names the author alone, not the university, and gives her the address', async () => {
    const result = await parseManuscript(file(), 'trabalho.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Rita Sousa', ['a12345@alunos.planalto.pt']],
    ]);
  });
});

describe('a title whose note mark, set high after its last line, is read as a line of its own', () => {
  const line = (text: string, y: number, size = 10, bold = false, x = 72) => ({ text, size, x, y, bold });
  const file = () =>
    makeTextPdf([
      [
        line('Frost Warnings for Orchards in Valleys:', 760, 14, true, 120),
        line('?', 745, 14, true, 420),
        line('A Controller Tuned by Hand', 735, 14, true, 170),
        line('J. Roe  B. Poe', 705, 10, false, 200),
        line(
          'Abstract: A controller warns orchards of frost from three sensors and a model of the valley.',
          670,
          9,
        ),
        line('1. INTRODUCTION', 630, 10, true),
        ...bodyProse(610, 10),
      ],
    ]);

  it('leaves the mark out of the title', async () => {
    const result = await parseManuscript(file(), 'ifac.pdf', limits);
    expect(result.title).toBe('Frost Warnings for Orchards in Valleys: A Controller Tuned by Hand');
  });
});

/** Greek letters by their PostScript glyph names, which a simple font's encoding can name. */
const GREEK_GLYPHS: Record<string, string> = Object.fromEntries(
  [
    ['Α', 'Alpha'],
    ['Β', 'Beta'],
    ['Γ', 'Gamma'],
    ['Δ', 'Delta'],
    ['Ε', 'Epsilon'],
    ['Η', 'Eta'],
    ['Ι', 'Iota'],
    ['Κ', 'Kappa'],
    ['Λ', 'Lambda'],
    ['Μ', 'Mu'],
    ['Ν', 'Nu'],
    ['Ο', 'Omicron'],
    ['Π', 'Pi'],
    ['Ρ', 'Rho'],
    ['Σ', 'Sigma'],
    ['Τ', 'Tau'],
    ['Φ', 'Phi'],
    ['α', 'alpha'],
    ['γ', 'gamma'],
    ['δ', 'delta'],
    ['ε', 'epsilon'],
    ['η', 'eta'],
    ['ι', 'iota'],
    ['κ', 'kappa'],
    ['λ', 'lambda'],
    ['μ', 'mu'],
    ['ν', 'nu'],
    ['ο', 'omicron'],
    ['π', 'pi'],
    ['ρ', 'rho'],
    ['σ', 'sigma'],
    ['ς', 'sigma1'],
    ['τ', 'tau'],
    ['υ', 'upsilon'],
    ['ω', 'omega'],
  ].map(([c, name], k) => [c!, `${160 + k} ${name}`]),
);

/** A PDF of pages of lines in Helvetica whose upper half of codes draws the Greek letters above. */
function greekTextPdf(pages: { text: string; size: number; y: number; bold?: boolean }[][]): Uint8Array {
  const differences = Object.values(GREEK_GLYPHS)
    .map((d) => {
      const [code, name] = d.split(' ');
      return `${code} /${name}`;
    })
    .join(' ');
  const font = (base: string) =>
    `<< /Type /Font /Subtype /Type1 /BaseFont /${base} /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [${differences}] >> >>`;
  const encode = (t: string) =>
    [...t]
      .map((c) => {
        const g = GREEK_GLYPHS[c];
        if (g) return `\\${Number(g.split(' ')[0]).toString(8)}`;
        return c === '(' || c === ')' || c === '\\' ? `\\${c}` : c;
      })
      .join('');
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', font('Helvetica'), font('Helvetica-Bold')];
  const kids: string[] = [];
  for (const lines of pages) {
    const id = objects.length + 1;
    kids.push(`${id} 0 R`);
    const content = lines
      .map((l) => `BT /${l.bold ? 'F2' : 'F1'} ${l.size} Tf 72 ${l.y} Td (${encode(l.text)}) Tj ET`)
      .join('\n');
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${id + 1} 0 R >>`,
    );
    objects.push(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.join(' ')}] /Count ${pages.length} >>`;
  return assemblePdf(objects);
}

describe('a thesis whose cover is printed again in Greek on a later page', () => {
  const file = () =>
    greekTextPdf([
      [
        { text: 'NORTHERN UNIVERSITY OF THESSALY', size: 12, y: 780, bold: true },
        { text: 'MSc THESIS', size: 12, y: 740, bold: true },
        { text: 'Sparse Labels for Long Legal Texts', size: 16, y: 700, bold: true },
        { text: 'Eleni K. Markou', size: 11, y: 660, bold: true },
        { text: 'Supervisor: Nikos Pappas, Professor', size: 12, y: 620, bold: true },
      ],
      [
        { text: 'ΒΟΡΕΙΟ ΠΑΝΕΠΙΣΤΗΜΙΟ ΘΕΣΣΑΛΙΑΣ', size: 12, y: 780, bold: true },
        { text: 'ΔΙΠΛΩΜΑΤΙΚΗ ΕΡΓΑΣΙΑ', size: 12, y: 740, bold: true },
        { text: 'Αραιες ετικετες για μακρα νομικα κειμενα', size: 16, y: 700, bold: true },
        { text: 'Ελενη Κ. Μαρκου', size: 12, y: 660, bold: true },
        { text: 'ΕΠΙΒΛΕΠΩΝ: Νικος Παππας, Καθηγητης', size: 12, y: 620, bold: true },
      ],
      [{ text: 'ABSTRACT', size: 14, y: 780, bold: true }, ...bodyProse(760, 12)],
    ]);

  it('names the author once, in the script of the first cover', async () => {
    const result = await parseManuscript(file(), 'thesis.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['Eleni K. Markou']);
  });
});

describe('a notebook exported to Word: title, keywords, an unlabelled abstract of three paragraphs', () => {
  const sentences = (topic: string) =>
    `This project studies ${topic} across several valleys of the northern hills over many seasons. ` +
    `Its records come from volunteers, from archives and from sensors placed in the orchards themselves. ` +
    `The results are published with the notebooks that produced them, so that others can rerun them.`;
  const abstract = [sentences('frost damage'), sentences('flowering dates'), sentences('orchard yields')];
  const file = () =>
    makeDocx(
      [
        paragraph('Frost, Flowers and Fruit: A Notebook History of Valley Orchards', 'Title'),
        paragraph('Digital History, Orchards, Frost, Notebooks'),
        ...abstract.map((a) => paragraph(a)),
        paragraph('Introduction', 'Heading1'),
        ...prose(6),
      ],
      [contentsStyles],
    );

  it('reads the three paragraphs as the abstract', async () => {
    const result = await parseManuscript(file(), 'notebook.docx', limits);
    expect(result.abstract).toBe(abstract.join('\n\n'));
  });
});
