// A write re-runs the linker only when what linking reads changed (or the corpus did): an unchanged
// replace keeps its link, a changed name or ORCID relinks, and an ingest makes the next write relink.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { authorship, ingest, OPENALEX, tempDir, work, writeLines } from '../corpus/helpers.ts';
import { authorUrl, orgWithGroup, type OrgWithGroup } from './helpers.ts';

const PIWOWAR_ORCID = 'https://orcid.org/0000-0003-1613-5981';

let t: TestApp;
let org: OrgWithGroup;
let piwowar: number;
let decoy: number;

async function authorId(key: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM authors WHERE author_key = $1', [key]);
  return rows[0]!.id;
}

async function put(clientId: string, body: Record<string, unknown>): Promise<void> {
  const url = authorUrl(org.groupId, clientId);
  const res = await t.app.inject({ method: 'POST', url, headers: org.headers, payload: body });
  expect(res.statusCode).toBe(200);
}

async function linkedId(clientId: string): Promise<number | null> {
  const url = authorUrl(org.groupId, clientId);
  const res = await t.app.inject({ method: 'GET', url, headers: org.headers });
  expect(res.statusCode).toBe(200);
  return (res.json() as { author: { id: number } | null }).author?.id ?? null;
}

/** A link the linker would never make: shows whether a write ran the linker or kept the link. */
async function plantLink(clientId: string, authorId: number): Promise<void> {
  await t.db.query('UPDATE group_authors SET linked_author_id = $3 WHERE group_id = $1 AND client_id = $2', [
    org.groupId,
    clientId,
    authorId,
  ]);
}

beforeAll(async () => {
  t = await createTestApp();
  org = await orgWithGroup(t);
  const dir = await tempDir();
  const decoyFile = await writeLines(dir, 'decoy.jsonl', [
    work({ authorships: [authorship('https://openalex.org/A77771001', 'Zeno Quarrington')] }),
  ]);
  await ingest(t.db, 'works', [path.join(OPENALEX, 'W2741809807.json'), decoyFile]);
  piwowar = await authorId('A5048491430');
  decoy = await authorId('A77771001');
});
afterAll(async () => {
  await t.close();
});

describe('relinking on write', () => {
  it('stores a name of commas only, unlinked (the fuzz found it answered 500: no name part to parse)', async () => {
    await put('commas', { name: ',', affiliations: ['University of Edinburgh'] });
    await put('commas', { name: ' , ,, ' });
    expect(await linkedId('commas')).toBeNull();
  });

  it('keeps the link on an unchanged replace and relinks when the name or an ORCID changes', async () => {
    const body = { name: 'H. Piwowar', orcids: [PIWOWAR_ORCID], emails: ['hp@example.org'] };
    await put('hp', body);
    expect(await linkedId('hp')).toBe(piwowar);

    await plantLink('hp', decoy);
    await put('hp', body);
    expect(await linkedId('hp')).toBe(decoy); // same inputs: the linker did not run

    await put('hp', { ...body, name: 'Heather Piwowar' });
    expect(await linkedId('hp')).toBe(piwowar);

    await put('hp', { ...body, name: 'Heather Piwowar', orcids: [] });
    expect(await linkedId('hp')).toBeNull();

    await put('hp', { ...body, name: 'Heather Piwowar', orcids: [PIWOWAR_ORCID] });
    expect(await linkedId('hp')).toBe(piwowar);
  });

  it('relinks a partial update that changes an input, and keeps the link on one that changes none', async () => {
    await put('hp2', { name: 'H. Piwowar', orcids: [PIWOWAR_ORCID] });
    await plantLink('hp2', decoy);
    const url = authorUrl(org.groupId, 'hp2', true);
    const same = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { name: 'H. Piwowar' },
    });
    expect(same.statusCode).toBe(200);
    expect(await linkedId('hp2')).toBe(decoy);
    const changed = await t.app.inject({
      method: 'POST',
      url,
      headers: org.headers,
      payload: { orcids: [] },
    });
    expect(changed.statusCode).toBe(200);
    expect(await linkedId('hp2')).toBeNull();
  });

  it('relinks after an ingest: the unlinked record at once, an unchanged replace of a linked one next', async () => {
    const orcid = 'https://orcid.org/0000-0002-1825-0097';
    await put('new', { name: 'Mira Okonkwo-Hale', orcids: [orcid] });
    expect(await linkedId('new')).toBeNull();
    const body = { name: 'H. Piwowar', orcids: [PIWOWAR_ORCID] };
    await put('hp3', body);
    await plantLink('hp3', decoy); // linked, and the ingest touches no Piwowar: it leaves this row alone

    const dir = await tempDir();
    const file = await writeLines(dir, 'okonkwo.jsonl', [
      work({
        authorships: [
          authorship('https://openalex.org/A77771002', 'Mira Okonkwo-Hale', {
            author: { id: 'https://openalex.org/A77771002', display_name: 'Mira Okonkwo-Hale', orcid },
          }),
        ],
      }),
    ]);
    await ingest(t.db, 'works', [file]);
    expect(await linkedId('new')).toBe(await authorId('A77771002'));
    expect(await linkedId('hp3')).toBe(decoy);

    await put('hp3', body); // same inputs, but the corpus changed since they were evaluated
    expect(await linkedId('hp3')).toBe(piwowar);
  });
});
