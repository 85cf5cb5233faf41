// Layouts met in the fifty-ninth held-out set (right-to-left manuscripts: Persian thesis templates of
// Iranian universities set with xepersian, a Tel Aviv University thesis with its Hebrew part, and that
// part as a Word file, a Tunisian report with an Arabic abstract), fixed in the sixty-fourth round.
// Names, titles and texts are made up; only the shapes follow the files.
import { describe, expect, it } from 'vitest';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { testConfig } from '../helpers/app.ts';
import {
  bodyProse,
  docxLargeParagraph,
  makeDocx,
  makeToUnicodePdf,
  type MappedPage,
  paragraph,
  textLine,
  wordBodyParagraphs,
} from './make-files.ts';

const limits = testConfig().parsing;

/** A right-to-left line's glyphs in the order a PDF draws them: from the left edge, its end first. */
const drawn = (logical: string) => [...logical].reverse().join('');

describe('Arabic-script letters given in their contextual shapes', () => {
  // A PDF whose font maps its glyphs to Arabic Presentation Forms (XeTeX with xepersian, Word's PDF
  // export) gives "ﺷﻤﺎﺭﺵ" for "شمارش": the same word to a reader, another string to a search.
  const titlePage = (title: string) =>
    makeToUnicodePdf(
      [textLine(drawn(title), 740, 20), textLine(drawn('ﻣﺮﯾﻢ ﮐﺎﻇﻤﯽ'), 700, 12)],
      bodyProse(640, 30),
    );

  it('reads the title as the letters a reader sees', async () => {
    const result = await parseManuscript(titlePage('ﺷﻤﺎﺭﺵ ﺳﻨﮓ ﺩﺭ ﺑﺴﺘﺮ ﺭﻭﺩﻫﺎ'), 'rivers.pdf', limits);
    expect(result.title).toBe('شمارش سنگ در بستر رودها');
  });

  // The half-space inside a Persian word ("سنگ‌ها", the zero-width non-joiner) is drawn as no
  // glyph; the letter after it is shaped as a word's first (initial) after a letter that would
  // have joined it.
  it('puts back the non-joiner between a joining letter and an initial shape', async () => {
    const result = await parseManuscript(titlePage('ﺷﻤﺎﺭﺵ ﺳﻨﮓﻫﺎ ﺩﺭ ﺑﺴﺘﺮ ﺭﻭﺩﻫﺎ'), 'rivers.pdf', limits);
    expect(result.title).toBe('شمارش سنگ\u200cها در بستر رودها');
  });
});

describe("a right-to-left thesis cover's role labels over their names", () => {
  // Iranian universities' covers (xepersian): the title, "نگارش" (written by) over the student's
  // name, "استاد راهنما" (supervisor) over the supervisor's; a name in a script without capitals.
  const cover = (student: string) =>
    makeToUnicodePdf(
      [
        textLine(drawn('دانشگاه فنی شمال'), 790, 16),
        textLine(drawn('شمارش سنگ در بستر رودها'), 740, 20),
        textLine(drawn('نگارش:'), 700, 14),
        textLine(drawn(student), 680, 14),
        textLine(drawn('استاد راهنما:'), 650, 14),
        textLine(drawn('دکتر علی رضایی'), 630, 14),
      ],
      bodyProse(560, 30),
    );

  it('reads the name under "نگارش" as the author, not the supervisor', async () => {
    const result = await parseManuscript(cover('مریم کاظمی'), 'thesis.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['مریم کاظمی']);
  });

  // The cover's font draws "ي" and "ی" with one glyph; the text layer names it "ي" (U+064A).
  it('reads the Arabic yeh of a Persian page as the Persian letter', async () => {
    const result = await parseManuscript(cover('مریم کاظمي'), 'thesis.pdf', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['مریم کاظمی']);
  });
});

describe('a Hebrew title page in Word', () => {
  // The Tel Aviv thesis's Hebrew part: the university, the title, "על ידי" (by) alone over the
  // student's name, then who supervised the work.
  it('reads the name under "על ידי" as the author', async () => {
    const docx = makeDocx([
      paragraph('אוניברסיטת הצפון'),
      docxLargeParagraph('ספירת אבנים בערוצי נחלים'),
      paragraph('חיבור זה הוגש כעבודת מחקר לקראת התואר מוסמך'),
      paragraph('על ידי'),
      paragraph('דנה לוי'),
      paragraph('בהנחיית פרופ׳ אבי כהן'),
      ...wordBodyParagraphs(6),
    ]);
    const result = await parseManuscript(docx, 'thesis.docx', limits);
    expect(result.authors.map((a) => a.name)).toEqual(['דנה לוי']);
  });
});

describe("a Persian thesis's abstracts", () => {
  // Its own page after the cover: "چکیده" (abstract) over the text, "کلمات کلیدی:" (keywords) under it.
  const persianAbstract = 'در این پژوهش سنگ سه رود را شمردیم و اندازه آنها را در ده سال با هم سنجیدیم.';
  const front = (): MappedPage[] => [
    {
      mapped: [
        textLine(drawn('دانشگاه فنی شمال'), 790, 16),
        textLine(drawn('شمارش سنگ در بستر رودها'), 740, 20),
        textLine(drawn('نگارش:'), 700, 14),
        textLine(drawn('مریم کاظمی'), 680, 14),
      ],
    },
    {
      // The acknowledgements' page before it: a paragraph set apart too, no abstract.
      mapped: [
        textLine(drawn('سپاسگزاری'), 760, 16),
        textLine(drawn('از استادان و خانواده خود برای یاری آنها در این کار سپاسگزارم.'), 730, 11),
      ],
    },
    {
      mapped: [
        textLine(drawn('چکیده'), 760, 16),
        textLine(drawn(persianAbstract), 730, 11),
        textLine(drawn('کلمات کلیدی: سنگ، رود، شمارش'), 700, 11),
      ],
    },
    { mapped: [textLine(drawn('فصل ۱'), 760, 18)], latin: bodyProse(720, 40) },
  ];

  it('reads the text under "چکیده" as the abstract, the keywords left out', async () => {
    const result = await parseManuscript(makeToUnicodePdf(front()), 'thesis.pdf', limits);
    expect(result.abstract).toBe(persianAbstract);
  });

  // The English abstract on a page of its own at the end, after the references, before the
  // English cover: the English one is kept, as the parser keeps it wherever both are printed.
  it('keeps the English abstract printed on its own page at the end', async () => {
    const english = 'We counted the stones of three rivers and compared their sizes over ten years.';
    const pages: MappedPage[] = [
      ...front(),
      ...Array.from({ length: 16 }, () => ({ mapped: [], latin: bodyProse(760, 50) })),
      {
        mapped: [],
        latin: [
          textLine('Abstract', 760, 16, { bold: true }),
          textLine(english, 730, 11),
          textLine('Keywords: stones, rivers, counting', 700, 11),
        ],
      },
    ];
    const result = await parseManuscript(makeToUnicodePdf(pages), 'thesis.pdf', limits);
    expect(result.abstract).toBe(english);
  });
});

describe('a Hebrew abstract in Word', () => {
  it('reads the text under "תקציר" as the abstract', async () => {
    const hebrew = 'ספרנו את האבנים בשלושה נחלים והשווינו את גודלן לאורך עשר שנים.';
    const docx = makeDocx([
      docxLargeParagraph('ספירת אבנים בערוצי נחלים'),
      paragraph('תקציר', 'Heading1'),
      paragraph(hebrew),
      paragraph('מבוא', 'Heading1'),
      ...wordBodyParagraphs(6),
    ]);
    const result = await parseManuscript(docx, 'thesis.docx', limits);
    expect(result.abstract).toBe(hebrew);
  });
});
