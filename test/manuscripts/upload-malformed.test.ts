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

  it('answers 400 naming a text field whose bytes are not UTF-8, and keeps UTF-8 text as sent', async () => {
    const originId = 'ms-Ünal-李-\u{1F600}';
    const good = await upload(t.app, { apiKey: org.apiKey, fields: baseFields({ origin_id: originId }) });
    expect(good.statusCode).toBe(200);
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/external/recommend-journals/${encodeURIComponent(originId)}/`,
      headers: org.headers,
    });
    expect(stored.statusCode).toBe(200);

    // Latin-1 "Ünal" (0xDC) is not UTF-8: read as UTF-8 it became U+FFFD, an id the client never sent.
    const { body, contentType } = multipartBody(baseFields({ origin_id: 'ms-LATIN1', title: 'T-LATIN1' }));
    const latin1 = Buffer.from(body.toString('latin1').replace('ms-LATIN1', 'ms-\u00dcnal'), 'latin1');
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...org.headers, 'content-type': contentType },
      payload: latin1,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([{ path: 'body.origin_id', message: 'must be UTF-8 text' }]);
    const replaced = await t.app.inject({
      method: 'GET',
      url: `/api/external/recommend-journals/${encodeURIComponent('ms-\uFFFDnal')}/`,
      headers: org.headers,
    });
    expect(replaced.statusCode).toBe(404);

    // A part that names UTF-16 as its charset is not read as UTF-8 text either.
    const utf16 = multipartBody(baseFields({ title: 'T-UTF16' }));
    const header = 'name="title"\r\n\r\nT-UTF16';
    const [head, tail] = utf16.body.toString('latin1').split(header) as [string, string];
    const payload = Buffer.concat([
      Buffer.from(head + 'name="title"\r\nContent-Type: text/plain; charset=utf-16le\r\n\r\n', 'latin1'),
      Buffer.from('Ünal', 'utf16le'),
      Buffer.from(tail, 'latin1'),
    ]);
    const wide = await t.app.inject({
      method: 'POST',
      url: '/api/external/proposal/',
      headers: { ...org.headers, 'content-type': utf16.contentType },
      payload,
    });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().error.details).toEqual([{ path: 'body.title', message: 'must be UTF-8 text' }]);
  });

  it('answers 400 for parts whose Content-Disposition names no field, with or without the key header', async () => {
    // Before: the form reader read the missing name's length and answered 400 "The multipart body is
    // malformed: Cannot read properties of undefined (reading 'length')", the engine's own words.
    const { body, contentType } = multipartBody(baseFields({ origin_id: 'ms-nameless' }));
    const boundary = contentType.split('boundary=')[1]!;
    const nameless =
      `--${boundary}\r\nContent-Disposition: form-data\r\n\r\nsome text\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; filename="a.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n%PDF-1.4\r\n';
    const withNameless = Buffer.concat([Buffer.from(nameless), body]);
    for (const [headers, key] of [
      [org.headers, null],
      [{}, org.apiKey],
    ] as const) {
      const payload = key
        ? Buffer.concat([
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${key}\r\n`),
            withNameless,
          ])
        : withNameless;
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/external/proposal/',
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'validation_failed',
        message: 'The upload form is not valid',
        details: [
          { path: 'body', message: 'has a part without a name (Content-Disposition: form-data; name="…")' },
        ],
      });
    }
    const stored = await t.app.inject({
      method: 'GET',
      url: '/api/external/recommend-journals/ms-nameless/',
      headers: org.headers,
    });
    expect(stored.statusCode).toBe(404);
  });
});
