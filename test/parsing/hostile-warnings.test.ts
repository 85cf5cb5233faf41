// An upload whose parse fails keeps what the parse said before it gave up: each page it left unread
// is named in the manuscript's warnings (docs/operations.md, "Parsing budgets"), as for a parse that
// succeeds, up to MAX_STORED_PARSE_WARNINGS lines and a count of the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STORED_PARSE_WARNINGS } from '../../src/manuscripts/upload.ts';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { makeFigurePagesPdf } from './hostile-pdfs.ts';

/** A page budget of 4 KiB: a page of 8 KB of lines is not read. */
const parsing = { ...testConfig().parsing, maxPageContentBytes: 4096 };

describe('a failed parse stores the pages it left unread', () => {
  let t: TestApp;
  let org: TestOrg;
  beforeAll(async () => {
    t = await createTestApp({ parsing });
    org = await createTestOrg(t);
  });
  afterAll(async () => t.close());

  async function storedWarnings(name: string, pages: number): Promise<string[]> {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: name }),
      files: [{ name, bytes: Buffer.from(makeFigurePagesPdf(Array(pages).fill(8000))) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toMatchObject({ source_file: name, parsed_text_len: 0 });
    const { rows } = await t.db.query<{ warnings: string[]; parse_error: string | null }>(
      'SELECT warnings, parse_error FROM manuscripts WHERE organization_id = $1 AND origin_id = $2',
      [org.id, name],
    );
    expect(rows[0]!.parse_error).toMatch(/on \d+ page\(s\) whose content passed the reading budgets/);
    return rows[0]!.warnings;
  }

  it('names every unread page after the reason the file was not parsed', async () => {
    const warnings = await storedWarnings('three.pdf', 3);
    expect(warnings[0]).toMatch(
      /^The source file could not be parsed \(Nothing could be read: the text it has lies on 3 page\(s\)/,
    );
    expect(warnings.slice(1)).toEqual(
      [1, 2, 3].map((p) =>
        expect.stringMatching(
          new RegExp(
            `^Parsing: Page ${p} was not read: its content is \\d+ bytes of operators, over the 4096 read of a page$`,
          ),
        ),
      ),
    );
    // The reason is stored once, not repeated as a parse warning.
    expect(warnings.filter((w) => w.includes('Nothing could be read'))).toHaveLength(1);
  });

  it('stores at most MAX_STORED_PARSE_WARNINGS of them, and counts the rest', async () => {
    const pages = MAX_STORED_PARSE_WARNINGS + 10;
    const warnings = await storedWarnings('many.pdf', pages);
    expect(warnings).toHaveLength(1 + MAX_STORED_PARSE_WARNINGS + 1);
    expect(warnings[MAX_STORED_PARSE_WARNINGS]).toMatch(/^Parsing: Page 50 was not read/);
    expect(warnings.at(-1)).toBe('Parsing: 10 more warning(s) not stored');
  });
});
