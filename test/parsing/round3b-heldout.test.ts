// Layouts met in the measure half of the third held-out set, now fixed against: a byline holding a
// person known by one name (Interspeech), a placeholder byline of initials and lower-case words
// (Royal Society), emails in the institute notes at the foot of the title page (Springer's
// svjour3), numbered sample names and addresses printed after the article (VTeX, International Press), a name
// followed by itself in another script and an email link with a space after "mailto:" (AASTeX).
// Names and text are made up; only the shapes follow the
// templates.
import { describe, expect, it } from 'vitest';
import { isMarkedNameLike, splitByline } from '../../src/parsing/names.ts';
import { parseManuscript } from '../../src/parsing/parse-manuscript.ts';
import { splitReferences } from '../../src/parsing/references.ts';
import { testConfig } from '../helpers/app.ts';
import { bodyProse, makeTextPdf, piecesOnOneLine, textLine } from './make-files.ts';

const limits = testConfig().parsing;

type Line = Parameters<typeof makeTextPdf>[0][number][number];

const parse = (pages: Line[][]) => parseManuscript(makeTextPdf(pages), 'built.pdf', limits);

const onOneLine = (pieces: { text: string; sup?: boolean }[], y: number, size: number): Line[] =>
  piecesOnOneLine(pieces, y, size, { x: 150, bold: true });

describe('a person known by one name in a byline (Interspeech)', () => {
  const page = (byline: string): Line[] => [
    { text: 'Listening to Dialects With Two Ears', size: 16, x: 150, y: 760, bold: true },
    { text: byline, size: 13, x: 130, y: 735, bold: true },
    { text: 'Department of Hearing, Somewhere University, Town, Country', size: 13, x: 110, y: 718 },
    textLine('ann.carter@example.org, zubin77@example.org, cleo@example.org', 704, 10, {
      x: 120,
      bold: true,
    }),
    { text: 'Abstract', size: 13, x: 100, y: 680, bold: true },
    ...bodyProse(665),
  ];

  it('reads a single word set between two names as a name, and gives each its email in order', async () => {
    const result = await parse([page('Ann Carter, Zubin , Cleo Evans')]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Ann Carter', ['ann.carter@example.org']],
      ['Zubin', ['zubin77@example.org']],
      ['Cleo Evans', ['cleo@example.org']],
    ]);
  });

  it('keeps a single word at the end of the list out: it may be an affiliation run on', async () => {
    const result = await parse([page('Ann Carter, Cleo Evans, Google')]);
    expect(result.authors.map((a) => a.name)).not.toContain('Google');
  });

  it('reads a long byline of one-word pieces in bounded time', async () => {
    const byline = Array.from({ length: 4000 }, (_, i) => (i % 2 ? 'Zubin' : 'Ann Carter')).join(', ');
    const result = await parse([page(byline)]);
    expect(result.title).toBe('Listening to Dialects With Two Ears');
  });
});

describe('a placeholder byline of initials and words in lower case (Royal Society)', () => {
  it('reads each marked entry that opens with initials as a name, across the wrapped line', async () => {
    const line = (pieces: { text: string; sup?: boolean }[], y: number): Line[] => {
      let x = 200;
      return pieces.map((p) => {
        const size = p.sup ? 9 : 13;
        const out = { text: p.text, size, x, y: p.sup ? y + 4 : y, bold: true };
        x += p.text.length * size * 0.5;
        return out;
      });
    };
    const result = await parse([
      [
        { text: 'Put the article title here', size: 19, x: 200, y: 700, bold: true },
        ...line(
          [
            { text: 'Y. Z. Lead writer' },
            { text: '1', sup: true },
            { text: ', Y. Other writer' },
            { text: '2', sup: true },
            { text: ' and' },
          ],
          670,
        ),
        ...line([{ text: 'Y. Last writer' }, { text: '3', sup: true }], 654),
        { text: 'Address of the lead writer', size: 10, x: 200, y: 630, bold: true },
        ...bodyProse(600),
      ],
    ]);
    expect(result.authors.map((a) => a.name)).toEqual([
      'Y. Z. Lead writer',
      'Y. Other writer',
      'Y. Last writer',
    ]);
  });

  it('weighs a long run of initials in bounded time, and calls it no name', () => {
    expect(isMarkedNameLike('X. '.repeat(50_000) + 'writer', true)).toBe(false);
  });
});

describe('institute notes at the foot of the title page, one per author (svjour3)', () => {
  it('gives each note’s email to the author its first line names by initials and surname', async () => {
    const result = await parse([
      [
        { text: 'Put your title here', size: 14, x: 72, y: 740, bold: true },
        { text: 'Alma Writer Jr. · Boris Writer', size: 10, x: 72, y: 710, bold: true },
        { text: 'Received: date / Accepted: date', size: 8, x: 72, y: 690 },
        { text: 'Abstract', size: 10, x: 72, y: 670, bold: true },
        ...bodyProse(655, 10),
        { text: 'A. Writer', size: 8, x: 72, y: 160 },
        { text: 'Some Street 12, Some Town, Country', size: 8, x: 72, y: 151 },
        { text: 'E-mail: awriter@example.com', size: 8, x: 72, y: 142 },
        { text: 'B. Writer', size: 8, x: 72, y: 126 },
        { text: 'Department of Counting, Other University, Other Town, Country', size: 8, x: 72, y: 117 },
        { text: 'Present address: Far Away Institute, Remote Place, Country', size: 8, x: 72, y: 104 },
        { text: 'E-mail: bwriter@example.org', size: 8, x: 72, y: 95 },
      ],
    ]);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([
      ['Alma Writer Jr.', ['awriter@example.com']],
      ['Boris Writer', ['bwriter@example.org']],
    ]);
  });
});

describe('numbered sample names (VTeX)', () => {
  it('keeps the number printed on each word of the name, and marks raised after it apart', () => {
    const names = splitByline([
      { text: 'Givenname1 FAMILYNAME1', sup: false },
      { text: '1,∗', sup: true },
      { text: ', Givenname2 FAMILYNAME2', sup: false },
      { text: '2', sup: true },
    ]);
    expect(names.map((n) => [n.name, n.marks])).toEqual([
      ['Givenname1 FAMILYNAME1', ['1', '*']],
      ['Givenname2 FAMILYNAME2', ['2']],
    ]);
  });

  it('reads a numbered name with hyphens ("Given-Name1 Family-1") as a name when it carries marks', () => {
    expect(isMarkedNameLike('Given-Name1 Family-1', true)).toBe(true);
    expect(isMarkedNameLike('Given-Name1 Family-1', false)).toBe(false);
  });
});

describe('a byline over an abstract without a label, addresses after the article (International Press)', () => {
  const addresses = (runIn: boolean): Line[] =>
    runIn
      ? [
          { text: 'Ann Carter. Address of the first writer, Somewhere', size: 10, x: 72, y: 300, bold: true },
          { text: 'University, Country.', size: 10, x: 72, y: 288, bold: true },
          { text: 'E-mail address: ann@example.org', size: 10, x: 72, y: 276, bold: true },
          { text: 'Bob Dunn. Address of the second writer, Elsewhere', size: 10, x: 72, y: 256, bold: true },
          { text: 'Institute, Country.', size: 10, x: 72, y: 244, bold: true },
          { text: 'E-mail address: bob@example.org', size: 10, x: 72, y: 232, bold: true },
        ]
      : [
          { text: 'Ann Carter', size: 9, x: 72, y: 300, bold: true },
          { text: 'Address of the first writer', size: 9, x: 72, y: 289, bold: true },
          { text: 'Country', size: 9, x: 72, y: 278, bold: true },
          { text: 'E-mail address: ann@example.org', size: 9, x: 72, y: 262, bold: true },
          { text: 'Bob Dunn', size: 9, x: 72, y: 244, bold: true },
          { text: 'Address of the second writer', size: 9, x: 72, y: 233, bold: true },
          { text: 'Country', size: 9, x: 72, y: 222, bold: true },
          { text: 'E-mail address: bob@example.org', size: 9, x: 72, y: 206, bold: true },
        ];
  const pages = (runIn: boolean): Line[][] => [
    [
      { text: 'A made-up document', size: 17, x: 200, y: 720, bold: true },
      ...onOneLine(
        [{ text: 'Ann Carter' }, { text: '†', sup: true }, { text: ', Bob Dunn, and Cleo Evans' }],
        690,
        11,
      ),
      ...bodyProse(660, 8).map((l) => ({ ...l, size: 10, bold: true })),
      { text: '1. Opening', size: 11, x: 72, y: 520, bold: true },
      ...bodyProse(505, 20),
    ],
    [...bodyProse(720, 20), ...addresses(runIn)],
  ];

  it('reads the names in bold right under the title as a byline, not as a heading over the abstract', async () => {
    const result = await parse(pages(false));
    expect(result.authors.map((a) => a.name)).toEqual(['Ann Carter', 'Bob Dunn', 'Cleo Evans']);
  });

  it('gives each author the email under her name after the article', async () => {
    const result = await parse(pages(false));
    expect(result.authors.map((a) => a.emails)).toEqual([['ann@example.org'], ['bob@example.org'], []]);
  });

  it('reads a name run in before its address ("Ann Carter. Address of ...")', async () => {
    const result = await parse(pages(true));
    expect(result.authors.map((a) => a.emails)).toEqual([['ann@example.org'], ['bob@example.org'], []]);
  });

  it('weighs long lines after the article in bounded time', async () => {
    const long: Line = { text: 'Ann Carter '.repeat(3000) + '. Address', size: 9, x: 72, y: 190 };
    const [first, second] = pages(false);
    const result = await parse([first!, [...second!, long]]);
    expect(result.authors).toHaveLength(3);
  });
});

describe('a name followed by itself in another script, an email linked with a space (AASTeX)', () => {
  it('reads the name without the bracket, and the linked address without the space', async () => {
    const pages: Line[][] = [
      [
        { text: 'Pwned Sample Article', size: 14, x: 250, y: 740, bold: true },
        ...onOneLine([{ text: 'Ann Roe (安娜)' }, { text: '1, 2', sup: true }], 715, 9),
        textLine('1Department of Stars, Somewhere University, Town, Country', 700, 8, { x: 100, bold: true }),
        { text: 'Abstract', size: 10, x: 280, y: 670, bold: true },
        ...bodyProse(655, 20),
        { text: 'ann.roe at example dot edu', size: 8, x: 72, y: 90 },
      ],
    ];
    const links = [
      [{ rect: [72, 88, 200, 98] as [number, number, number, number], url: 'mailto: ann.roe@example.edu' }],
    ];
    const result = await parseManuscript(makeTextPdf(pages, '', links), 'built.pdf', limits);
    expect(result.authors.map((a) => [a.name, a.emails])).toEqual([['Ann Roe', ['ann.roe@example.edu']]]);
  });

  it('drops a bracket of another script, and leaves one that holds Latin letters on the name', () => {
    expect(splitByline([{ text: 'Ann Roe (安娜)', sup: false }]).map((n) => n.name)).toEqual(['Ann Roe']);
    expect(splitByline([{ text: 'Ann Roe (Smith)', sup: false }]).map((n) => n.name)).toEqual([
      'Ann Roe (Smith)',
    ]);
  });
});

describe('reference entries that indent their first line instead of hanging (pandoc’s svjour3)', () => {
  const line = (text: string, indent: number, gapAbove = 0) => ({ text, indent, gapAbove });
  const list = [
    line('Carter, Ann, and Bob Dunn. 2014. “A Study of Many Things in One', 0),
    line('Place.” In Proceedings of a Meeting.', 0),
    line('Dunn, B., and C. Evans. 2002. “Tracing links between code and', 1.6, 0.14),
    line('words.” Transactions on Things 28 (10): 970–83. doi:10.1000/tt.2002.104.', 0),
    line('Evans, Cleo, Ann Carter, and Dan Fox. 2006. “Who should fix this?” In', 1.6, 0.14),
    line('Proceedings of Another Meeting, 361.', 0),
    line('New York: Some Press. doi:10.1000/am.2006.336.', 0),
    line('Fox, Dan. 2010. A Book About Nothing. Town: Publisher.', 1.6),
  ];

  it('starts an entry at each line set in, and keeps each DOI in its own entry', () => {
    const entries = splitReferences(list, null);
    expect(entries.map((e) => e.text.slice(0, 12))).toEqual([
      'Carter, Ann,',
      'Dunn, B., an',
      'Evans, Cleo,',
      'Fox, Dan. 20',
    ]);
    expect(entries[1]!.text).toMatch(/doi:10\.1000\/tt\.2002\.104\.$/);
  });

  it('still reads a hanging list, where the flush lines open the entries', () => {
    const hanging = [
      line('Carter, A. 2014. A Study of Many Things in One', 0),
      line('Place. Proceedings of a Meeting.', 1.6),
      line('Dunn, B. 2002. Tracing links between code and', 0, 0.14),
      line('words. Transactions on Things 28.', 1.6),
      line('Evans, C. 2006. Who should fix this? Proceedings of', 0),
      line('Another Meeting, 361.', 1.6),
    ];
    expect(splitReferences(hanging, null).map((e) => e.text.slice(0, 9))).toEqual([
      'Carter, A',
      'Dunn, B. ',
      'Evans, C.',
    ]);
  });

  it('splits a long list in bounded time', () => {
    const long = Array.from({ length: 20_000 }, (_, k) => list[k % list.length]!);
    // Each repeat of the list after the first runs its unindented opening entry on into the last one.
    expect(splitReferences(long, null).length).toBe(1 + 2500 * 3);
  });
});

describe('a note set larger than the title after an abstract run in without a stop (Springer’s sola)', () => {
  it('takes the title from before the abstract, not the larger note after it', async () => {
    const abstract =
      'Abstract This is a made-up abstract that runs on for a while, as abstracts do, so that it reads as prose';
    const result = await parse([
      [
        { text: 'Made-up Guidelines for Writers of Sample Articles', size: 12, x: 100, y: 720, bold: true },
        { text: 'Ann Carter · Bob Dunn', size: 10, x: 100, y: 700, bold: true },
        { text: abstract, size: 10, x: 100, y: 670 },
        textLine('rather than as a label or a heading, and ends here after a second line of text.', 657, 10, {
          x: 100,
        }),
        { text: 'Keywords: Things, Other things', size: 10, x: 100, y: 640 },
        { text: 'B Ann Carter', size: 13, x: 100, y: 150, bold: true },
        { text: 'ann@example.org', size: 8, x: 100, y: 138 },
        ...bodyProse(600, 20),
      ],
    ]);
    expect(result.title).toBe('Made-up Guidelines for Writers of Sample Articles');
  });
});
