// Malformed multipart bodies are the caller's fault: 400 or 413, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { baseFields, multipartBody, upload } from './upload-helpers.ts';

let t: TestApp;
let org: TestOrg;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
});
afterAll(async () => t.close());

describe('malformed uploads', () => {
  it('answers 400 for a multipart content type without a boundary', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...org.headers, 'content-type': 'multipart/form-data' },
      payload: 'folder=x',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 400 for a body cut off in the middle of a part', async () => {
    const { body, contentType } = multipartBody(baseFields());
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...org.headers, 'content-type': contentType },
      payload: body.subarray(0, body.length - 60),
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 413 for a form field larger than the field limit', async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ abstract: 'x'.repeat(4 * 1024 * 1024 + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });
});
