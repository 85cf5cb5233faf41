// A group's record left unlinked because the evidence fits more than one corpus author: its page
// names them, with their newest articles, and says what picks one. It said only "more than one
// author of the corpus fits", so an editor could neither tell who they were nor what to add, and the
// record stayed out of its folders' boosts and limits (seen in QA round 14: "André Martins" of
// "Instituto Superior Técnico" over the demo corpus).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup } from '../../src/authors-groups/store.ts';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { type InjectSession, signInAs } from '../helpers/dashboard.ts';
import { FIXTURES, ingest } from '../corpus/helpers.ts';

let t: TestApp;
let editor: InjectSession;
let groupId: number;
let orgId: number;
const authorIds: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  // Two distinct Yang Lius of the ACL Anthology (Edinburgh; ICSI).
  await ingest(t.db, 'works', [path.join(FIXTURES, 'corpus/yang-liu-acl.jsonl')]);
  for (const key of ['edinburgh', 'icsi']) {
    const { rows } = await t.db.query<{ id: number }>('SELECT id FROM authors WHERE author_key = $1', [
      `acl:person/yang-liu-${key}`,
    ]);
    authorIds[key] = rows[0]!.id;
  }
  const org = await createTestOrg(t);
  orgId = org.id;
  editor = await signInAs(t, org.id, 'editor');
  groupId = (await createGroup(t.db, org.id, 'Board')).group_id;
});
afterAll(async () => t?.close());

describe('a record whose evidence fits more than one corpus author', () => {
  it('names each author that fits, with their articles, and what to add to pick one', async () => {
    // One article of each Yang Liu: the linker refuses to choose.
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, articles)
       VALUES ($1, 'yl', $2, 'Yang Liu', ARRAY['10.18653/v1/D19-1387', '10.18653/v1/D17-1231'])`,
      [groupId, orgId],
    );
    const page = await t.app.inject({
      url: `/dashboard/groups/${groupId}/records/yl/`,
      headers: { cookie: editor.cookie },
    });
    expect(page.statusCode).toBe(200);
    const body = page.body.replace(/\s+/g, ' ');
    expect(body).toContain('Not linked: these 2 authors of the corpus all fit what this record says');
    for (const id of [authorIds.edinburgh!, authorIds.icsi!]) {
      expect(body).toContain(`<a href="/authors/${id}"><bdi>Yang Liu</bdi></a> (author ${id},`);
    }
    expect(body).toContain("add that author's ORCID iD or one of the articles listed under them");
  });
});
