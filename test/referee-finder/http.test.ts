// The referee finder's rules seen through the upload (POST /api/external/proposal/): manuscript
// authors given in the form are not candidates, conflicts and the organization's settings apply,
// declared conflicts and folder group settings reach the response.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { tempDir } from '../corpus/helpers.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { runCommand } from '../manuscripts/cli-helpers.ts';
import { buildCorpus, TOPIC } from './fixtures.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
const ADA_ORCID = '0000-0002-9079-593X';

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }, { name: 'Cole Coauthor' }] },
    { authors: [{ name: 'Ada Expert', orcid: ADA_ORCID }] },
    { authors: [{ name: 'Cole Coauthor' }] },
    { authors: [{ name: 'Gus Member' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

interface Candidate {
  author_id: number;
  score: number;
  coauth_conflicts: { exists: boolean };
  external_coi: { exists: boolean };
  authors_groups: Array<{ group_id: number; client_id: string | null }>;
}

async function candidatesFor(apiKey: string, extra: Record<string, string | number> = {}) {
  const fields = rankingFields({
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    author1_name: 'Ada Expert',
    author1_orcid: ADA_ORCID,
    ...extra,
  });
  const res = await upload(t.app, { apiKey, fields });
  expect(res.statusCode).toBe(200);
  return res.json() as { candidates: Candidate[]; authors_groups_settings: Record<string, unknown> | null };
}

describe('referee finder over HTTP', () => {
  it('excludes the manuscript author, flags her co-author, and drops him when the org excludes conflicts', async () => {
    const org = await createTestOrg(t);
    const { candidates } = await candidatesFor(org.apiKey);
    const byId = new Map(candidates.map((c) => [c.author_id, c]));
    expect(byId.has(ids.authorId('Ada Expert'))).toBe(false);
    expect(byId.get(ids.authorId('Cole Coauthor'))!.coauth_conflicts.exists).toBe(true);
    expect(byId.get(ids.authorId('Nell Neutral'))!.coauth_conflicts.exists).toBe(false);

    // Another organization, set before its first upload (a serving process caches settings briefly).
    const strictOrg = await createTestOrg(t);
    await runCommand(t, 'org settings', { org: strictOrg.id, includeConflicts: false });
    const strict = await candidatesFor(strictOrg.apiKey);
    expect(strict.candidates.map((c) => c.author_id)).not.toContain(ids.authorId('Cole Coauthor'));
    expect(strict.candidates.map((c) => c.author_id)).toContain(ids.authorId('Nell Neutral'));
  });

  it('reports conflicts imported with `refmatch coi import`', async () => {
    const org = await createTestOrg(t);
    const file = path.join(await tempDir(), 'coi.csv');
    await writeFile(file, `ms-coi,${ids.authorId('Nell Neutral')}\n`);
    await runCommand(t, 'coi import', { org: org.id, file });
    const { candidates } = await candidatesFor(org.apiKey, { origin_id: 'ms-coi' });
    const nell = candidates.find((c) => c.author_id === ids.authorId('Nell Neutral'))!;
    expect(nell.external_coi.exists).toBe(true);
  });

  it('applies the folder’s group boost and lists the group on its members', async () => {
    const org = await createTestOrg(t);
    const { rows } = await t.db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Board') RETURNING id`,
      [org.id],
    );
    const groupId = rows[0]!.id;
    await t.db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, 'gus', $2, 'Gus Member', $3)`,
      [groupId, org.id, ids.authorId('Gus Member')],
    );
    await runCommand(t, 'folder settings', {
      org: org.id,
      folder: 'BOOSTED',
      groups: String(groupId),
      effect: 'boost',
      boost: '100',
    });
    const body = await candidatesFor(org.apiKey, { origin_id: 'ms-boost', folder: 'BOOSTED' });
    expect(body.authors_groups_settings).toMatchObject({ effect: 'boost', boost_multiplier: 100 });
    expect(body.candidates[0]!.author_id).toBe(ids.authorId('Gus Member'));
    expect(body.candidates[0]!.authors_groups).toEqual([{ group_id: groupId, client_id: 'gus' }]);
    for (const c of body.candidates.slice(1)) expect(c.authors_groups).toEqual([]);
  });
});
