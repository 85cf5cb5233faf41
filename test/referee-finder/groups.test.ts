// Authors groups named by the folder's settings (spec 2.4): highlight only reports membership,
// limit_to searches among the members only, boost multiplies their scores and re-sorts.
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/infra/db/index.ts';
import type { FolderGroupsSettings } from '../../src/referee-finder/types.ts';
import { finderScope, manuscript, OFF_TOPIC } from './fixtures.ts';

const setup = finderScope(afterEach);

async function group(db: Database, orgId: number, members: Array<[string, number]>): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Panel') RETURNING id`,
    [orgId],
  );
  const id = rows[0]!.id;
  for (const [clientId, authorId] of members) {
    await db.query(
      `INSERT INTO group_authors (group_id, client_id, organization_id, name, linked_author_id)
       VALUES ($1, $2, $3, 'x', $4)`,
      [id, clientId, orgId, authorId],
    );
  }
  return id;
}

const settings = (groupId: number, effect: FolderGroupsSettings['effect'], boost: number | null = null) => ({
  groups: { groups: [{ id: groupId, name: 'Panel', label: null }], effect, boostMultiplier: boost },
});

const corpus = [
  { authors: [{ name: 'Top Expert' }] },
  { authors: [{ name: 'Top Expert' }] },
  { authors: [{ name: 'Top Expert' }] },
  { authors: [{ name: 'Mid Member' }] },
  { authors: [{ name: 'Mid Member' }], title: 'Reef fish stocks', abstract: OFF_TOPIC },
  { authors: [{ name: 'Far Member' }], title: 'Coral growth', abstract: OFF_TOPIC },
  { authors: [{ name: 'Far Member' }], title: 'Message passing on reefs', abstract: OFF_TOPIC },
];

describe('authors groups', () => {
  it('no groups named: authors_groups is empty for everyone', async () => {
    const { org, finder } = await setup(corpus);
    const result = await finder.find(manuscript(org.id));
    for (const c of result.candidates) expect(c.authors_groups).toEqual([]);
  });

  it('highlight lists the groups holding a candidate and changes nothing else', async () => {
    const { db, ids, org, finder } = await setup(corpus);
    const g = await group(db, org.id, [['m-1', ids.authorId('Mid Member')]]);
    const plain = await finder.find(manuscript(org.id));
    const lit = await finder.find(manuscript(org.id), settings(g, 'highlight'));
    expect(lit.candidates.map((c) => [c.author_id, c.score])).toEqual(
      plain.candidates.map((c) => [c.author_id, c.score]),
    );
    const mid = lit.candidates.find((c) => c.author_id === ids.authorId('Mid Member'))!;
    expect(mid.authors_groups).toEqual([{ group_id: g, client_id: 'm-1' }]);
    expect(lit.candidates.find((c) => c.author_id === ids.authorId('Top Expert'))!.authors_groups).toEqual(
      [],
    );
  });

  it('limit_to returns only members, ranked by the same score, even one outside the global top', async () => {
    const { db, ids, org, finder } = await setup(corpus);
    const g = await group(db, org.id, [
      ['m-1', ids.authorId('Mid Member')],
      ['f-1', ids.authorId('Far Member')],
    ]);
    const plain = await finder.find(manuscript(org.id), { maxCandidates: 1 });
    expect(plain.candidates.map((c) => c.author_id)).toEqual([ids.authorId('Top Expert')]);
    const limited = await finder.find(manuscript(org.id), settings(g, 'limit_to'));
    expect(limited.candidates.map((c) => c.author_id)).toEqual([
      ids.authorId('Mid Member'),
      ids.authorId('Far Member'),
    ]);
    for (const c of limited.candidates) expect(c.authors_groups).toHaveLength(1);
  });

  it('boost multiplies members’ scores and re-sorts', async () => {
    const { db, ids, org, finder } = await setup(corpus);
    const mid = ids.authorId('Mid Member');
    const g = await group(db, org.id, [['m-1', mid]]);
    const plain = await finder.find(manuscript(org.id));
    const before = plain.candidates.find((c) => c.author_id === mid)!;
    expect(plain.candidates[0]!.author_id).toBe(ids.authorId('Top Expert'));
    const boosted = await finder.find(manuscript(org.id), settings(g, 'boost', 10));
    expect(boosted.candidates[0]!.author_id).toBe(mid);
    expect(boosted.candidates[0]!.score).toBeCloseTo(before.score * 10, 4);
    const top = boosted.candidates.find((c) => c.author_id === ids.authorId('Top Expert'))!;
    expect(top.score).toBeCloseTo(plain.candidates[0]!.score, 6);
  });
});
