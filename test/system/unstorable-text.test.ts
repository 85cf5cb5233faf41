// Text PostgreSQL cannot store (NUL, lone UTF-16 surrogates) is refused at the edge with a 400 that
// names the field, from every kind of input: JSON bodies (values, list items, custom field values,
// property names), the upload form's fields and file name, query strings and path parameters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorUrl, orgWithGroup, postAuthor, type OrgWithGroup } from '../authors-groups/helpers.ts';
import { baseFields, upload } from '../manuscripts/upload-helpers.ts';
import { createCustomField } from '../../src/custom-fields/store.ts';

let t: TestApp;
let org: OrgWithGroup;
beforeAll(async () => {
  t = await createTestApp();
  org = await orgWithGroup(t);
});
afterAll(async () => {
  await t.close();
});

interface ErrorBody {
  error: { code: string; details?: Array<{ path: string; message: string }> };
}

function expectRefused(res: { statusCode: number; json<T>(): T }, paths: string[]) {
  expect(res.statusCode).toBe(400);
  const { error } = res.json<ErrorBody>();
  expect(error.code).toBe('validation_failed');
  expect(error.details?.map((d) => d.path).sort()).toEqual([...paths].sort());
}

describe('JSON bodies (4.2, 4.3)', () => {
  it('a NUL in name and in list items: 400 naming each path, nothing stored', async () => {
    const res = await postAuthor(t, org, 'nul-1', {
      name: 'Ada\u0000Lovelace',
      emails: ['ada@example.org', 'a\u0000@example.org'],
      affiliations: ['Uni\u0000'],
      articles: ['10.1000/x\u0000'],
      orcids: ['0000-0002-1825-0097\u0000'],
    });
    expectRefused(res, [
      'body.name',
      'body.emails.1',
      'body.affiliations.0',
      'body.articles.0',
      'body.orcids.0',
    ]);
    const get = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'nul-1'),
      headers: org.headers,
    });
    expect(get.statusCode).toBe(404);
  });

  it('a partial update (4.3) with a NUL: 400 on its path', async () => {
    expect((await postAuthor(t, org, 'nul-2', { name: 'Ada' })).statusCode).toBe(200);
    const res = await postAuthor(t, org, 'nul-2', { affiliations: ['x\u0000y'] }, true);
    expectRefused(res, ['body.affiliations.0']);
  });

  it('a str custom field value with a NUL: 400 on body.<field>', async () => {
    const field = await createCustomField(t.db, org.id, {
      owner: 'author_from_group',
      dataKind: 'str',
      name: 'Note',
      options: [],
    });
    const res = await postAuthor(t, org, 'nul-3', { name: 'Ada', [field.api_id]: 'a\u0000b' });
    expectRefused(res, [`body.${field.api_id}`]);
  });

  it('a lone surrogate (valid JSON escape, not valid Unicode): 400, not stored as U+FFFD', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'surrogate'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: '{"name": "Ada \\ud800 Lovelace", "emails": ["x\\udc00@example.org"]}',
    });
    expectRefused(res, ['body.name', 'body.emails.0']);
    // A well-formed pair (an emoji) is text like any other.
    const ok = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'pair'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: '{"name": "Ada \\ud83d\\ude00 Lovelace"}',
    });
    expect(ok.statusCode).toBe(200);
    const stored = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'pair'),
      headers: org.headers,
    });
    expect(stored.json<{ name: string }>().name).toBe('Ada \u{1F600} Lovelace');
  });

  it('a property name with a NUL: 400 with the name written as \\u0000', async () => {
    const res = await postAuthor(t, org, 'nul-4', { name: 'Ada', 'cu\u0000stom': 1 });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.details).toContainEqual({
      path: 'body.cu\\u0000stom',
      message: 'its name must not contain NUL characters',
    });
  });

  it('a NUL under a name written in raw UTF-8 (an emoji): its path writes the name as escapes', async () => {
    const res = await postAuthor(t, org, 'nul-5', { name: 'Ada', '\u{1F600}': [{ x: 'a\u0000b' }] });
    expect(res.statusCode).toBe(400);
    expect(res.json<ErrorBody>().error.details).toEqual([
      { path: 'body.\\ud83d\\ude00.0.x', message: 'must not contain NUL characters' },
    ]);
  });

  it('a body with no \\u escape and no NUL byte is not walked for them, and is stored', async () => {
    const res = await postAuthor(t, org, 'raw-1', {
      name: 'Ada \u{1F600} Lovelace',
      emails: ['ada@example.org'],
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('the upload form (4.5)', () => {
  for (const field of [
    'folder',
    'origin_id',
    'title',
    'abstract',
    'author1_name',
    'author1_aff',
    'author1_email',
  ]) {
    it(`a NUL in ${field}: 400 on body.${field}`, async () => {
      const res = await upload(t.app, {
        apiKey: org.apiKey,
        fields: baseFields({
          origin_id: `nul-${field}`,
          author1_email: 'ada@example.org',
          [field]: 'x\u0000y',
        }),
      });
      expectRefused(res, [`body.${field}`]);
    });
  }

  it("a NUL in the uploaded file's name: 400 on body.source_file.filename", async () => {
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'nul-file' }),
      files: [{ name: 'paper\u0000.pdf', bytes: Buffer.from('%PDF-1.4\n') }],
    });
    expectRefused(res, ['body.source_file.filename']);
  });
});

describe('path parameters and query strings', () => {
  it('4.6: /recommend-journals/a%00b/ is 400 on params.origin_id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/external/recommend-journals/a%00b/',
      headers: org.headers,
    });
    expectRefused(res, ['params.origin_id']);
  });

  it('4.1: a NUL in client_id is 400 on params.client_id', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'a\u0000b'),
      headers: org.headers,
    });
    expectRefused(res, ['params.client_id']);
  });

  it('a NUL in any query parameter, even one the route ignores: 400 on querystring.<name>', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/external/custom-fields/all/?note=a%00b',
      headers: org.headers,
    });
    expectRefused(res, ['querystring.note']);
  });
});

// Combining marks past Unicode's stream-safe limit (30 in a row): folding them sorts the run by
// insertion, in PostgreSQL's normalize (fold_text) and V8's, at the square of its length.
describe('runs of combining marks', () => {
  /** A letter and `n` marks whose classes come in reverse (U+0301, 230, then U+0316, 220). */
  const marks = (n: number) => `a${'\u0301'.repeat(Math.ceil(n / 2))}${'\u0316'.repeat(Math.floor(n / 2))}`;
  const message = "must not hold more than 30 combining marks in a row (Unicode's stream-safe limit)";

  it('the upload form: 31 marks in the title and in an author name are 400 naming both; 30 are stored', async () => {
    const refused = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({
        origin_id: 'marks-31',
        title: `T ${marks(31)}`,
        author1_name: `Ada ${marks(31)}`,
      }),
    });
    expectRefused(refused, ['body.title', 'body.author1_name']);
    expect(refused.json<ErrorBody>().error.details?.[0]?.message).toBe(message);
    const kept = await upload(t.app, {
      apiKey: org.apiKey,
      fields: baseFields({ origin_id: 'marks-30', title: `T ${marks(30)} ${marks(30)}` }),
    });
    expect(kept.statusCode).toBe(200);
  });

  it('a JSON body written in raw UTF-8 (not walked for NUL): a name of 1,000 marks is 400 on body.name', async () => {
    const res = await postAuthor(t, org, 'marks-1', { name: marks(999), affiliations: [`U ${marks(30)}`] });
    expectRefused(res, ['body.name']);
    expect((await postAuthor(t, org, 'marks-2', { name: `Ada ${marks(30)}` })).statusCode).toBe(200);
    // Counted in characters: 30 marks beyond the BMP are 60 UTF-16 units.
    expect((await postAuthor(t, org, 'marks-3', { name: `Ada a${'\u{1D167}'.repeat(30)}` })).statusCode).toBe(
      200,
    );
  });

  it('a query parameter: 400 on querystring.<name>', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/external/custom-fields/all/?note=${encodeURIComponent(marks(40))}`,
      headers: org.headers,
    });
    expectRefused(res, ['querystring.note']);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(
      'The request contains text with more combining marks in a row than text may have',
    );
  });
});
