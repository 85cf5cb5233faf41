// The upload form's rules: required fields, integers, authorK_* numbering, file size and type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, upload } from './upload-helpers.ts';

let t: TestApp;
let org: TestOrg;
beforeAll(async () => {
  t = await createTestApp({ fileLimitBytes: 64 * 1024 });
  org = await createTestOrg(t);
});
afterAll(async () => t.close());

function detailPaths(res: { json(): { error: { details?: Array<{ path: string }> } } }): string[] {
  return (res.json().error.details ?? []).map((d) => d.path).sort();
}

describe('upload form validation', () => {
  it('names every missing required field in one 400', async () => {
    const res = await upload(t.app, { apiKey: org.apiKey, fields: { author1_name: 'A' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('validation_failed');
    expect(detailPaths(res)).toEqual([
      'body.abstract',
      'body.authors_count',
      'body.folder',
      'body.origin_id',
      'body.title',
    ]);
  });

  it('refuses empty folder, origin_id and title but accepts an empty abstract', async () => {
    const bad = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ folder: ' ', origin_id: '', title: '' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(detailPaths(bad)).toEqual(['body.folder', 'body.origin_id', 'body.title']);
    const emptyAbstract = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'empty-abstract', abstract: '' }),
    });
    expect(emptyAbstract.statusCode).toBe(200);
  });

  it('ignores fields the spec does not name (an editorial system sending more than 4.5 lists)', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        origin_id: 'extra-fields',
        keywords: 'graphs; proteins',
        manuscript_type: 'Article',
      }),
    });
    expect(res.statusCode).toBe(200);
  });

  it('requires integers where the spec says integer', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        authors_count: 'two',
        min_h_index: '1.5',
        max_h_index: '-3',
        min_academic_age: 'x',
        max_academic_age: '10e3',
        min_articles_count: '99999999999',
        max_articles_count: ' ',
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(detailPaths(res)).toEqual([
      'body.authors_count',
      'body.max_academic_age',
      'body.max_h_index',
      'body.min_academic_age',
      'body.min_articles_count',
      'body.min_h_index',
    ]);
  });

  it('accepts integer filters and refuses a minimum above its maximum', async () => {
    const ok = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ min_h_index: '2', max_h_index: '2', min_articles_count: '0' }),
    });
    expect(ok.statusCode).toBe(200);
    const bad = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ min_academic_age: '10', max_academic_age: '5' }),
    });
    expect(bad.statusCode).toBe(400);
    expect(detailPaths(bad)).toEqual(['body.min_academic_age']);
  });

  it('requires authors numbered from 1 without gaps', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ author1_name: 'A', author3_name: 'C', author5_email: 'e@x.org' }),
    });
    expect(res.statusCode).toBe(400);
    expect(detailPaths(res)).toEqual(['body.author2_name', 'body.author4_name', 'body.author5_name']);
  });

  it('refuses author number 0, leading zeros and unknown author fields', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ author0_name: 'Z', author01_name: 'Y', author1_phone: '1' }),
    });
    expect(res.statusCode).toBe(400);
    expect(detailPaths(res)).toEqual(['body.author01_name', 'body.author0_name', 'body.author1_phone']);
  });

  it('refuses a field given twice and a file under another field name', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: [...Object.entries(baseFields()), ['title', 'Again']],
      files: [{ field: 'other_file', name: 'x.pdf', bytes: Buffer.from('%PDF-1.4 tiny') }],
    });
    expect(res.statusCode).toBe(400);
    expect(detailPaths(res)).toEqual(['body.other_file', 'body.title']);
  });

  it('refuses text where the source file belongs, and reads an empty one as no file', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: { ...baseFields({ origin_id: 'ms-text-file' }), source_file: 'paper.pdf' },
    });
    expect(res.statusCode).toBe(400);
    expect(detailPaths(res)).toEqual(['body.source_file']);
    const empty = await upload(t.app, {
      apiKey: org.apiKey,
      fields: { ...baseFields({ origin_id: 'ms-text-file' }), source_file: '' },
    });
    expect(empty.statusCode).toBe(200);
    expect(empty.json().debug_info.source_file).toBeNull();
  });

  it('answers 413 for a file over the configured limit', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields(),
      files: [
        { name: 'big.pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(70 * 1024)]) },
      ],
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('answers 415 for a file that is neither PDF nor DOCX, whatever its name', async () => {
    const cases = [
      { name: 'paper.pdf', bytes: Buffer.from('Just some plain text pretending to be a PDF') },
      { name: 'paper.docx', bytes: Buffer.from('PK\u0003\u0004 xl/workbook.xml spreadsheet, not Word') },
      { name: 'paper.png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
    ];
    for (const file of cases) {
      const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields(), files: [file] });
      expect(res.statusCode, file.name).toBe(415);
      expect(res.json().error.code).toBe('unsupported_media_type');
      expect(res.json().error.message).toMatch(/PDF or a DOCX/);
    }
  });

  it('stores nothing when the form is refused', async () => {
    const own = await createTestOrg(t);
    await upload(t.app, { apiKey: own.apiKey, fields: baseFields({ authors_count: 'x' }) });
    await upload(t.app, {
      apiKey: own.apiKey,
      fields: baseFields(),
      files: [{ name: 'a.txt', bytes: Buffer.from('plain text') }],
    });
    const { rows } = await t.db.query('SELECT id FROM manuscripts WHERE organization_id = $1', [own.id]);
    expect(rows).toEqual([]);
  });
});
