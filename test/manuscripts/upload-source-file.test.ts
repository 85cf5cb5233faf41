// The source file: parsed when it can be, never losing the upload when it cannot; debug_info (2.7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, fixture, upload } from './upload-helpers.ts';

let t: TestApp;
beforeAll(async () => {
  // A JSON body limit far below the file's size: the file is bounded by fileLimitBytes alone.
  t = await createTestApp({ bodyLimitBytes: 16 * 1024 });
});
afterAll(async () => t.close());

async function storedRow(organizationId: number) {
  const { rows } = await t.db.query<{
    title: string;
    source_file: string | null;
    parse_error: string | null;
    warnings: string[];
    parsed_text_len: number;
  }>(
    `SELECT title, source_file, parse_error, warnings, parsed_text_len FROM manuscripts
      WHERE organization_id = $1`,
    [organizationId],
  );
  return rows;
}

describe('a source file that cannot be parsed', () => {
  it('still stores the manuscript from the supplied metadata, with parsed_text_len 0 and a warning', async () => {
    const org = await createTestOrg(t);
    const pdf = fixture('manuscripts/deep-rules/manuscript.pdf');
    const truncated = pdf.subarray(0, 4000);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields(),
      files: [{ name: 'broken.pdf', bytes: truncated, type: 'application/pdf' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toEqual({
      source_file: 'broken.pdf',
      parsed_text_len: 0,
      parsed_references: 0,
      extracted_concepts: 0,
      authors_info: { authors_count: 0, emails_count: 0, orcids_count: 0 },
    });
    const [row] = await storedRow(org.id);
    expect(row).toMatchObject({ title: baseFields().title, source_file: 'broken.pdf', parsed_text_len: 0 });
    expect(row!.parse_error).toBeTruthy();
    expect(row!.warnings.some((w) => w.includes('could not be parsed'))).toBe(true);
  });

  it('treats an empty named file the same way', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields(),
      files: [{ name: 'empty.pdf', bytes: Buffer.alloc(0) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info).toMatchObject({ source_file: 'empty.pdf', parsed_text_len: 0 });
    expect((await storedRow(org.id))[0]!.parse_error).toBe('the file is empty');
  });

  it('ignores a nameless empty file part (a form whose file input was left empty)', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields(),
      files: [{ name: '', bytes: Buffer.alloc(0) }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().debug_info.source_file).toBeNull();
    expect((await storedRow(org.id))[0]!.warnings).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('describes the upload as multipart with its response', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json();
    const op = doc.paths['/api/external/proposal/'].post;
    expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
    const form = op.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(form.properties)).toEqual(
      expect.arrayContaining(['folder', 'origin_id', 'title', 'abstract', 'authors_count', 'source_file']),
    );
    const ok = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(ok.properties)).toEqual([
      'version',
      'manuscript_id',
      'origin_id',
      'candidates',
      'authors_groups_settings',
      'debug_info',
    ]);
  });
});
