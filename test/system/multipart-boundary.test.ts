// A multipart body's boundary (src/infra/client-errors.ts, multipartBoundaryProblem): one of 1 to 70
// characters (RFC 2046), checked before any route's parser, so every multipart route answers a
// missing, empty, doubled or overlong one with the same 400 malformed_request. Before, the upload
// answered the parser's own words ("The needle cannot have a length bigger than 256") and the
// dashboard's group import a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { baseFields } from '../manuscripts/upload-helpers.ts';
import { createGroup } from '../../src/authors-groups/store.ts';
import { MAX_BOUNDARY_CHARS } from '../../src/infra/client-errors.ts';

let t: TestApp;
let org: TestOrg;
let editor: InjectSession;
let groupId: number;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  editor = await signInAs(t, org.id, 'editor');
  groupId = (await createGroup(t.db, org.id, 'Pool')).group_id;
});
afterAll(async () => t?.close());

/** The fields as multipart parts delimited by `boundary`, whatever the Content-Type says. */
function parts(boundary: string, fields: Record<string, string | number>): string {
  return (
    Object.entries(fields)
      .map(
        ([name, value]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('') + `--${boundary}--\r\n`
  );
}

function postUpload(contentType: string, boundary: string, originId: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/external/proposal/',
    headers: { ...org.headers, 'content-type': contentType },
    payload: parts(boundary, baseFields({ origin_id: originId })),
  });
}

function postImport(contentType: string, boundary: string) {
  return t.app.inject({
    method: 'POST',
    url: `/dashboard/groups/${groupId}/import/`,
    headers: { cookie: editor.cookie, 'content-type': contentType },
    payload: parts(boundary, { _csrf: editor.csrf, csv: 'client_id,name\nr1,Ada Lovelace\n' }),
  });
}

const long = 'b'.repeat(MAX_BOUNDARY_CHARS + 1);
const refused: Array<[string, string, string]> = [
  ['none', 'multipart/form-data', 'b'],
  ['empty', 'multipart/form-data; boundary=', ''],
  ['empty and quoted', 'multipart/form-data; boundary=""', ''],
  ['two', 'multipart/form-data; boundary=a; boundary=b', 'a'],
  [`of ${MAX_BOUNDARY_CHARS + 1} characters`, `multipart/form-data; boundary=${long}`, long],
  [
    'of 300 characters (past the parser’s 256)',
    `multipart/form-data; boundary=${'b'.repeat(300)}`,
    'b'.repeat(300),
  ],
];

describe('a multipart boundary that is missing, empty, doubled or overlong', () => {
  for (const [name, contentType, boundary] of refused) {
    it(`${name}: the upload (4.5) answers 400 malformed_request naming the boundary, nothing stored`, async () => {
      const res = await postUpload(contentType, boundary, `ms-${name}`);
      expect(res.statusCode, res.body).toBe(400);
      const { error } = res.json<{ error: { code: string; message: string } }>();
      expect(error.code).toBe('malformed_request');
      expect(error.message).toMatch(/boundary of 1 to 70 characters/);
      const stored = await t.db.query('SELECT 1 FROM manuscripts WHERE origin_id = $1', [`ms-${name}`]);
      expect(stored.rows).toHaveLength(0);
    });

    it(`${name}: the dashboard's group import answers a 400 page, not a 500, nothing imported`, async () => {
      const res = await postImport(contentType, boundary);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toMatch(/boundary of 1 to 70 characters/);
      const { rows } = await t.db.query('SELECT 1 FROM group_authors WHERE group_id = $1', [groupId]);
      expect(rows).toHaveLength(0);
    });
  }

  it(`a boundary of ${MAX_BOUNDARY_CHARS} characters, quoted or not, is read as before`, async () => {
    const b = 'c'.repeat(MAX_BOUNDARY_CHARS);
    for (const [contentType, originId] of [
      [`multipart/form-data; boundary=${b}`, 'ms-plain'],
      [`multipart/form-data; charset=utf-8; boundary="${b}"`, 'ms-quoted'],
    ] as const) {
      const res = await postUpload(contentType, b, originId);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('a JSON route sent a multipart body with a boundary still answers 415 (the check adds no refusal there)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/external/author-from-group/${groupId}/r1/`,
      headers: { ...org.headers, 'content-type': 'multipart/form-data; boundary=x' },
      payload: parts('x', { name: 'Ada' }),
    });
    expect(res.statusCode).toBe(415);
  });
});
