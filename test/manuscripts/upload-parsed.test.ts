// Uploads with real source files: parsed metadata merged with the supplied fields by the
// organization's `prefer` setting, debug_info from the parse, and re-uploads without a file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { updateSettings, type Prefer } from '../../src/organizations/organizations.ts';
import { baseFields, fixture, upload } from './upload-helpers.ts';
import { requireManuscript } from '../../src/manuscripts/list.ts';
import { makeDocx, paragraph, wordBodyParagraphs } from '../parsing/make-files.ts';

const PDF = fixture('manuscripts/deep-rules/manuscript.pdf');
const DOCX = fixture('manuscripts/deep-rules/manuscript.docx');
const PARSED_TITLE = 'Ten Quick Tips for Deep Learning in Biology';

let t: TestApp;
beforeAll(async () => {
  // A generous wall time: the machine running the suite may be busy, and these tests are about the
  // merge, not the parser's speed.
  const parsing = { ...testConfig().parsing, timeoutMs: 180_000 };
  t = await createTestApp({ parsing });
});
afterAll(async () => t.close());

async function orgPreferring(prefer: Prefer): Promise<TestOrg> {
  const org = await createTestOrg(t);
  // Before the first request: the key verifier remembers the organization's settings for a while.
  await updateSettings(t.db, org.id, { prefer });
  return org;
}

interface Row {
  title: string;
  abstract: string;
  keywords: string[];
  authors: Array<{ name: string; email: string | null; orcid: string | null; affiliation: string | null }>;
  full_text: string | null;
  references: unknown[];
  warnings: string[];
  source_file: string | null;
}

async function row(org: TestOrg, originId = 'ms-1'): Promise<Row> {
  const { rows } = await t.db.query<Row>(
    `SELECT title, abstract, keywords, authors, full_text, "references", warnings, source_file
       FROM manuscripts WHERE organization_id = $1 AND origin_id = $2`,
    [org.id, originId],
  );
  return rows[0]!;
}

const supplied = baseFields({
  title: 'A supplied working title',
  abstract: 'A supplied abstract.',
  authors_count: 2,
  author1_name: 'Benjamin D. Lee',
  author1_email: 'benjamindlee@me.com',
  author2_name: 'Anthony Gitter',
});

describe('prefer supplied (the default)', () => {
  it('keeps the supplied title, abstract and authors, completing the authors from the PDF', async () => {
    const org = await orgPreferring('supplied');
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: supplied,
      files: [{ name: 'manuscript.pdf', bytes: PDF, type: 'application/pdf' }],
    });
    expect(res.statusCode).toBe(200);
    const stored = await row(org);
    expect(stored.title).toBe('A supplied working title');
    expect(stored.abstract).toBe('A supplied abstract.');
    expect(stored.authors.map((a) => a.name)).toEqual(['Benjamin D. Lee', 'Anthony Gitter']);
    expect(stored.authors[0]).toMatchObject({ email: 'benjamindlee@me.com', orcid: '0000-0002-7133-8397' });
    expect(stored.authors[1]!.orcid).toBe('0000-0002-5324-9833');
    // What was supplied stays as the form gave it, beside the authors completed from the file.
    const shown = await requireManuscript(t.db, org.id, res.json().manuscript_id);
    expect(shown.supplied.authors).toEqual([
      { name: 'Benjamin D. Lee', email: 'benjamindlee@me.com', orcid: null, affiliation: null },
      { name: 'Anthony Gitter', email: null, orcid: null, affiliation: null },
    ]);
    expect(stored.full_text!.length).toBeGreaterThan(20_000);
    expect(stored.source_file).toBe('manuscript.pdf');

    const debug = res.json().debug_info;
    expect(debug.source_file).toBe('manuscript.pdf');
    expect(debug.parsed_text_len).toBe(stored.full_text!.length);
    expect(debug.parsed_references).toBe(stored.references.length);
    expect(debug.parsed_references).toBeGreaterThan(100);
    expect(debug.authors_info.authors_count).toBe(20);
    expect(debug.authors_info.orcids_count).toBeGreaterThanOrEqual(18);
    expect(Number.isInteger(debug.authors_info.emails_count)).toBe(true);
    expect(debug.extracted_concepts).toBe(0);
  });
});

describe('prefer parsed', () => {
  it('takes title, keywords and authors from the DOCX, completing the authors from the form', async () => {
    const org = await orgPreferring('parsed');
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: { ...supplied, authors_count: 20 },
      files: [{ name: 'manuscript.docx', bytes: DOCX }],
    });
    expect(res.statusCode).toBe(200);
    const stored = await row(org);
    expect(stored.title).toBe(PARSED_TITLE);
    expect(stored.authors).toHaveLength(20);
    const lee = stored.authors.find((a) => a.orcid === '0000-0002-7133-8397')!;
    expect(lee.email).toBe('benjamindlee@me.com');
    expect(stored.keywords).toEqual(expect.arrayContaining(['deep learning', 'machine learning']));
    // The counts agree with authors_count: no warning.
    expect(stored.warnings.filter((w) => w.startsWith('authors_count'))).toEqual([]);
    expect(res.json().debug_info).toMatchObject({ source_file: 'manuscript.docx' });
    // What was supplied is kept beside what was used: the form's two authors.
    const shown = await requireManuscript(t.db, org.id, res.json().manuscript_id);
    expect(shown.supplied.authors.map((a) => a.name)).toEqual(['Benjamin D. Lee', 'Anthony Gitter']);
    expect(shown.supplied.abstract).toBe('A supplied abstract.');
  });

  it("cuts a parsed title's run of marks past 30 to 30: text read from a file is kept, not refused", async () => {
    // A title so stored would be folded by fold_text (a run sorted by insertion, at its square) at
    // every search of the titles; sent in the form, the same title is refused (storable-text).
    const org = await orgPreferring('parsed');
    const marks = `a${'\u0301'.repeat(1_000)}${'\u0316'.repeat(999)}`;
    const docx = makeDocx([
      paragraph(`Graph networks ${marks}`, 'Title'),
      paragraph('Ada Lovelace'),
      ...wordBodyParagraphs(5),
    ]);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ title: 'Placeholder' }),
      files: [{ name: 'marks.docx', bytes: Buffer.from(docx) }],
    });
    expect(res.statusCode).toBe(200);
    expect((await row(org)).title).toBe(`Graph networks a${'\u0301'.repeat(30)}`);
  });

  it('takes the title of a journal article PDF from the file', async () => {
    const org = await orgPreferring('parsed');
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ title: 'Placeholder' }),
      files: [{ name: 'test1.pdf', bytes: fixture('pdf/cermine/test1.pdf') }],
    });
    expect(res.statusCode).toBe(200);
    expect((await row(org)).title).toBe(
      'Complications related to deep venous thrombosis prophylaxis in trauma: a systematic review of the literature',
    );
  });
});

describe('re-uploads', () => {
  it('keep what was read from the earlier file when no new file is sent', async () => {
    const org = await orgPreferring('parsed');
    const first = await upload(t.app, {
      apiKey: org.apiKey,
      fields: supplied,
      files: [{ name: 'manuscript.docx', bytes: DOCX }],
    });
    const again = await upload(t.app, {
      apiKey: org.apiKey,
      fields: { ...supplied, folder: 'MOVED', title: 'Changed supplied title' },
    });
    expect(again.json().manuscript_id).toBe(first.json().manuscript_id);
    expect(again.json().debug_info).toEqual(first.json().debug_info);
    const stored = await row(org);
    expect(stored.title).toBe(PARSED_TITLE);
    expect(stored.source_file).toBe('manuscript.docx');
  });

  it('replace the parsed data when the new file cannot be parsed', async () => {
    const org = await orgPreferring('parsed');
    await upload(t.app, { apiKey: org.apiKey, fields: supplied, files: [{ name: 'm.docx', bytes: DOCX }] });
    const broken = await upload(t.app, {
      apiKey: org.apiKey,
      fields: supplied,
      files: [{ name: 'broken.docx', bytes: DOCX.subarray(0, 5000) }],
    });
    expect(broken.statusCode).toBe(200);
    expect(broken.json().debug_info).toMatchObject({ source_file: 'broken.docx', parsed_text_len: 0 });
    const stored = await row(org);
    expect(stored.title).toBe('A supplied working title');
    expect(stored.full_text).toBeNull();
    expect(stored.warnings.some((w) => w.includes('could not be parsed'))).toBe(true);
  });
});
