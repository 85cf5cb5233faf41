import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorUrl, getAuthor, orgWithGroup, postAuthor } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const full = {
  name: 'Ada Lovelace',
  emails: ['ada@example.org'],
  orcids: ['0000-0002-1825-0097'],
  articles: ['10.1000/xyz123', 'Notes on the Analytical Engine'],
  affiliations: ['University of London, London, UK'],
};

describe('POST /api/external/author-from-group/{group_id}/{client_id}/ (4.2 create or replace)', () => {
  it('creates a record that GET returns with every field, and author null while unlinked', async () => {
    const org = await orgWithGroup(t);
    const post = await postAuthor(t, org, 'a1', full);
    expect(post.statusCode).toBe(200);
    expect(post.json()).toEqual({ ok: true });
    const get = await getAuthor(t, org, 'a1');
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({ ...full, author: null });
  });

  it('wholly replaces an existing record: a field not supplied becomes null', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'a1');
    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: full });
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'Ada King', emails: ['ada@king.example'] },
    });
    expect(res.statusCode).toBe(200);
    const get = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(get.json()).toEqual({
      name: 'Ada King',
      emails: ['ada@king.example'],
      orcids: null,
      articles: null,
      affiliations: null,
      author: null,
    });
  });

  it('accepts explicit nulls for the lists', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'n');
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'N', emails: null, orcids: [], articles: null, affiliations: null },
    });
    expect(res.statusCode).toBe(200);
    const get = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(get.json()).toMatchObject({ emails: null, orcids: [], articles: null });
  });

  it('ignores the read-only author object, so a read can be posted back', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'rt');
    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: full });
    const read = (await t.app.inject({ method: 'GET', url, headers: org.headers })).json<object>();
    const res = await t.app.inject({ method: 'POST', url, headers: org.headers, payload: read });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url, headers: org.headers })).json()).toEqual(read);
  });

  it('requires name: 400 naming body.name', async () => {
    const org = await orgWithGroup(t);
    const res = await postAuthor(t, org, 'x', { emails: ['a@b.c'] });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; details: { path: string }[] } }>();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d) => d.path)).toEqual(['body.name']);
  });

  it('names each offending path in one 400, and stores nothing', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'bad');
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 12, emails: ['ok@example.org', 7], orcids: 'not-a-list', unknown_key: 1 },
    });
    expect(res.statusCode).toBe(400);
    const paths = res.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining(['body.name', 'body.emails.1', 'body.orcids', 'body.unknown_key']),
    );
    const get = await t.app.inject({ method: 'GET', url, headers: org.headers });
    expect(get.statusCode).toBe(404);
  });

  it('rejects a body that is not an object', async () => {
    const org = await orgWithGroup(t);
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'arr'),
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 for a group that does not exist, and stores nothing', async () => {
    const org = await orgWithGroup(t);
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(2_000_000_000, 'a'),
      headers: org.headers,
      payload: full,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('not_found');
  });
});

describe('field limits of an author from group (docs/api.md, Limits; spec 8: not shown)', () => {
  it('stores a name of 1,000 characters and lists of 1,000 items or of an item of 2,000 characters', async () => {
    const org = await orgWithGroup(t);
    const atLimit = {
      name: 'n'.repeat(1000),
      emails: Array.from({ length: 1000 }, (_, i) => `a${i}@example.org`),
      articles: ['t'.repeat(2000)],
    };
    expect((await postAuthor(t, org, 'limits', atLimit)).statusCode).toBe(200);
    expect((await getAuthor(t, org, 'limits')).json()).toMatchObject(atLimit);
  });

  it('refuses one character or one item more with 400 naming each field, on a partial update too', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'over', full);
    const over = {
      name: 'n'.repeat(1001),
      emails: Array.from({ length: 1001 }, (_, i) => `a${i}@example.org`),
      articles: ['t'.repeat(2001)],
    };
    for (const partial of [false, true]) {
      const res = await postAuthor(t, org, 'over', over, partial);
      expect(res.statusCode).toBe(400);
      const paths = res.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path);
      expect(paths.sort()).toEqual(['body.articles.0', 'body.emails', 'body.name']);
    }
    expect((await getAuthor(t, org, 'over')).json()).toMatchObject(full);
  });
});

describe('client_id in the path', () => {
  const ids = [
    'with spaces inside',
    'a/b/c',
    'Zoë Ñúñez 李雷 🦊',
    'percent %41 and ?query#hash',
    'partial',
    'x'.repeat(256),
    '🦊'.repeat(256),
  ];
  for (const clientId of ids) {
    it(`round-trips ${JSON.stringify(clientId.slice(0, 30))} (URL-encoded)`, async () => {
      const org = await orgWithGroup(t);
      const url = authorUrl(org.groupId, clientId);
      const post = await t.app.inject({
        method: 'POST',
        url,
        headers: org.headers,
        payload: { name: clientId },
      });
      expect(post.statusCode).toBe(200);
      const get = await t.app.inject({ method: 'GET', url, headers: org.headers });
      expect(get.statusCode).toBe(200);
      expect(get.json<{ name: string }>().name).toBe(clientId);
      const rows = await t.db.query<{ client_id: string }>(
        'SELECT client_id FROM group_authors WHERE group_id = $1',
        [org.groupId],
      );
      expect(rows.rows.map((r) => r.client_id)).toEqual([clientId]);
      const del = await t.app.inject({ method: 'DELETE', url, headers: org.headers });
      expect(del.json()).toEqual({ ok: true });
    });
  }

  it('keeps ids that differ only by an encoded slash apart', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'a/b', { name: 'slash' });
    await postAuthor(t, org, 'a b', { name: 'space' });
    const get = await getAuthor(t, org, 'a/b');
    expect(get.json<{ name: string }>().name).toBe('slash');
  });

  it('matches an id exactly as sent: letter case, surrounding spaces and Unicode form make other ids', async () => {
    const org = await orgWithGroup(t);
    const ids = ['Ab', 'ab', ' ab', 'ab ', '\u00e9', 'e\u0301'];
    for (const clientId of ids) await postAuthor(t, org, clientId, { name: JSON.stringify(clientId) });
    for (const clientId of ids) {
      const get = await getAuthor(t, org, clientId);
      expect(get.json<{ name: string }>().name).toBe(JSON.stringify(clientId));
    }
  });

  it('refuses an id longer than 256 characters with 400 on params.client_id', async () => {
    const org = await orgWithGroup(t);
    const res = await t.app.inject({
      method: 'POST',
      url: authorUrl(org.groupId, 'x'.repeat(257)),
      headers: org.headers,
      payload: { name: 'n' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]!.path).toBe(
      'params.client_id',
    );
    // Over the router's own limit (1,024 characters) the path is refused before any schema reads it.
    const longer = await t.app.inject({
      method: 'GET',
      url: authorUrl(org.groupId, 'x'.repeat(1025)),
      headers: org.headers,
    });
    expect(longer.statusCode).toBe(414);
    expect(longer.json<{ error: { code: string } }>().error.code).toBe('uri_too_long');
  });

  it('refuses a NUL character with 400, not a database error', async () => {
    const org = await orgWithGroup(t);
    const res = await postAuthor(t, org, 'a\u0000b', { name: 'n' });
    expect(res.statusCode).toBe(400);
  });

  it('refuses a group_id that is not a positive integer with 400 on params.group_id', async () => {
    const org = await orgWithGroup(t);
    // Also the forms JavaScript's Number reads (hexadecimal, exponent, spaces, a zero fraction): each
    // would name a group the client never wrote, whether or not one exists.
    for (const bad of [
      'abc',
      '1.5',
      '-1',
      '99999999999',
      `0x${org.groupId.toString(16)}`,
      '1e0',
      '%20' + org.groupId,
      `${org.groupId}.0`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/external/author-from-group/${bad}/x/`,
        headers: org.headers,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]!.path).toBe(
        'params.group_id',
      );
    }
  });

  it('refuses a malformed percent-encoding with a 4xx in the error shape, not a 5xx', async () => {
    const org = await orgWithGroup(t);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/external/author-from-group/${org.groupId}/bad%E0%A4%A/`,
      headers: org.headers,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'bad_url', message: expect.any(String) } });
  });

  it('accepts the path without its trailing slash', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'ts').replace(/\/$/, '');
    const res = await t.app.inject({ method: 'POST', url, headers: org.headers, payload: { name: 'n' } });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST .../partial/ (4.3 partial update)', () => {
  it('changes only the supplied fields', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'p', full);
    const res = await postAuthor(
      t,
      org,
      'p',
      { affiliations: ['ETH Zürich, Zürich, Switzerland'], emails: null },
      true,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const get = await getAuthor(t, org, 'p');
    expect(get.json()).toEqual({
      ...full,
      emails: null,
      affiliations: ['ETH Zürich, Zürich, Switzerland'],
      author: null,
    });
  });

  it('accepts every field, name included, and arXiv and PubMed ids in articles', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'p', { name: 'Old' });
    const change = {
      name: 'New',
      emails: ['n@example.org'],
      orcids: ['0000-0001-2345-6789'],
      articles: ['arXiv:2101.00001', '2101.00002v2', 'PMID:31452104', '31452105', '10.1000/abc'],
      affiliations: ['MIT, Cambridge, USA'],
    };
    const res = await postAuthor(t, org, 'p', change, true);
    expect(res.statusCode).toBe(200);
    const get = await getAuthor(t, org, 'p');
    expect(get.json()).toEqual({ ...change, author: null });
  });

  it('keeps an empty list, a null and a missing key apart', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'p', full);
    const res = await postAuthor(t, org, 'p', { emails: [], orcids: null }, true);
    expect(res.statusCode).toBe(200);
    expect((await getAuthor(t, org, 'p')).json()).toEqual({
      ...full,
      emails: [],
      orcids: null,
      author: null,
    });
  });

  it('with an empty body changes nothing', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'p', full);
    const res = await postAuthor(t, org, 'p', {}, true);
    expect(res.statusCode).toBe(200);
    const get = await getAuthor(t, org, 'p');
    expect(get.json()).toEqual({ ...full, author: null });
  });

  it('refuses a null, empty or blank name with 400 on body.name, on a replace too', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'p', full);
    for (const [name, partial] of [
      [null, true],
      ['', true],
      [' \t ', true],
      [' \t ', false],
    ] as const) {
      const res = await postAuthor(t, org, 'p', { name }, partial);
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]!.path).toBe('body.name');
    }
    const blank = await postAuthor(t, org, 'p', { name: '   ' });
    expect(blank.json<{ error: { details: { message: string }[] } }>().error.details[0]!.message).toBe(
      'must not be blank',
    );
    expect((await getAuthor(t, org, 'p')).json<{ name: string }>().name).toBe(full.name);
  });

  it('answers 404 for a record that does not exist, and creates nothing', async () => {
    const org = await orgWithGroup(t);
    const res = await postAuthor(t, org, 'missing', { name: 'Someone' }, true);
    expect(res.statusCode).toBe(404);
    const get = await getAuthor(t, org, 'missing');
    expect(get.statusCode).toBe(404);
  });
});

describe('GET and DELETE (4.1, 4.4)', () => {
  it('GET answers 404 for a client_id that does not exist', async () => {
    const org = await orgWithGroup(t);
    const res = await getAuthor(t, org, 'none');
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('not_found');
  });

  it('DELETE removes the record and answers {ok:true}; a second DELETE is 404', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'd');
    await t.app.inject({ method: 'POST', url, headers: org.headers, payload: full });
    const del = await t.app.inject({ method: 'DELETE', url, headers: org.headers });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    expect((await t.app.inject({ method: 'GET', url, headers: org.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url, headers: org.headers })).statusCode).toBe(404);
  });

  it('DELETE of one record leaves the others of the group', async () => {
    const org = await orgWithGroup(t);
    await postAuthor(t, org, 'keep', full);
    await postAuthor(t, org, 'drop', full);
    await t.app.inject({ method: 'DELETE', url: authorUrl(org.groupId, 'drop'), headers: org.headers });
    expect((await getAuthor(t, org, 'keep')).statusCode).toBe(200);
  });

  it('take no body: an empty one sent with Content-Type: application/json is no body, not bad JSON', async () => {
    const org = await orgWithGroup(t);
    const url = authorUrl(org.groupId, 'ct');
    await postAuthor(t, org, 'ct', full);
    // A client that sets the JSON content type on every request it makes, bodiless ones too.
    const headers = { ...org.headers, 'content-type': 'application/json' };
    const get = await t.app.inject({ method: 'GET', url, headers });
    expect(get.statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url, headers, payload: '' });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toEqual({ ok: true });
    expect((await getAuthor(t, org, 'ct')).statusCode).toBe(404);
  });
});
