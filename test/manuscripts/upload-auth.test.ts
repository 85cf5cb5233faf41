// Authentication of the upload: the X-ApiKey header or the api_key form field, either suffices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, multipartBody, upload } from './upload-helpers.ts';
import { FORM_KEY_WINDOW_BYTES, FORM_KEY_WINDOW_RAW_BYTES } from '../../src/manuscripts/upload-form.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('POST /api/external/proposal/ authentication', () => {
  it('accepts the key in the X-ApiKey header alone', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields() });
    expect(res.statusCode).toBe(200);
    expect(res.json().origin_id).toBe('ms-1');
  });

  it('accepts the key in the api_key form field alone', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { fields: baseFields({ api_key: org.apiKey }) });
    expect(res.statusCode).toBe(200);
  });

  it('accepts the same key in both places', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ api_key: org.apiKey }) });
    expect(res.statusCode).toBe(200);
  });

  it('refuses two different keys with 401 conflicting_api_keys, even when both are valid', async () => {
    const a = await createTestOrg(t);
    const b = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: a.apiKey, fields: baseFields({ api_key: b.apiKey }) });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('conflicting_api_keys');
  });

  it('answers 401 when no key is sent, before looking at the form', async () => {
    const res = await upload(t.app, { fields: { title: '' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('missing_api_key');
  });

  it('answers 401 for an unknown key in the header or in the field', async () => {
    const bogus = `rm_${'0'.repeat(16)}_${'A'.repeat(43)}`;
    const viaHeader = await upload(t.app, { apiKey: bogus, fields: baseFields() });
    expect(viaHeader.statusCode).toBe(401);
    expect(viaHeader.json().error.code).toBe('invalid_api_key');
    const viaField = await upload(t.app, { fields: baseFields({ api_key: bogus }) });
    expect(viaField.statusCode).toBe(401);
    expect(viaField.json().error.code).toBe('invalid_api_key');
  });

  it('accepts the key in the api_key form field before a form far larger than the window, while it is checked', async () => {
    const org = await createTestOrg(t);
    // The key first, then an abstract of 90,000 characters and 40 authors with long affiliations: the
    // whole body arrives at once (inject), past FORM_KEY_WINDOW_RAW_BYTES before the key is checked.
    const authors = Array.from({ length: 40 }, (_, i) => [
      ...(i === 0 ? [] : [[`author${i + 1}_name`, `Author Number${i + 1}`]]),
      [`author${i + 1}_aff`, `Department ${i + 1}, ${'Institute of Long Names, '.repeat(60)}Somewhere`],
    ]).flat() as Array<[string, string]>;
    const fields: Array<[string, string | number]> = [
      ['api_key', org.apiKey],
      ...Object.entries(
        baseFields({
          author1_name: 'Author Number1',
          abstract: 'Graph neural networks for protein structure prediction. '.repeat(1_600),
          origin_id: 'ms-big-form',
          authors_count: 40,
        }),
      ),
      ...authors,
    ];
    const { body } = multipartBody(fields);
    expect(body.length).toBeGreaterThan(FORM_KEY_WINDOW_RAW_BYTES);
    const res = await upload(t.app, { fields });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().origin_id).toBe('ms-big-form');
  });

  it('still refuses a body whose api_key field comes past the window', async () => {
    const org = await createTestOrg(t);
    const fields: Array<[string, string | number]> = [
      ...Object.entries(baseFields({ abstract: 'x'.repeat(FORM_KEY_WINDOW_BYTES + 1) })),
      ['api_key', org.apiKey],
    ];
    const res = await upload(t.app, { fields });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a body that is not multipart with 415', async () => {
    const org = await createTestOrg(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: org.headers,
      payload: { folder: 'X' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('unsupported_media_type');
  });
});
