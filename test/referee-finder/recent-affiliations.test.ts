// The shared-affiliation conflict compares every affiliation of the last three years (docs/conflicts.md),
// seen through the upload (POST /api/external/proposal/) with the evidence the manuscript's page keeps:
// a candidate who moved is flagged for the institution they left, by id and by name; the year three
// years back still counts, the year before it does not; a manuscript author who moved is compared by
// both institutions; a person held under two records is compared by the affiliations of either.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from './fixtures.ts';
import { RECENT_AFFILIATION_YEARS } from '../../src/corpus/authors/metrics.ts';
import type { Conflict } from '../../src/referee-finder/conflict-policy.ts';

// Years relative to now: what is recent moves with the clock, as the rule does.
const Y = new Date().getUTCFullYear();
const OLDEST_RECENT = Y - RECENT_AFFILIATION_YEARS;

const SHELBY = { id: 'https://openalex.org/I88001', name: 'Shelbyville Institute of Technology' };
const CAPITAL = { id: 'https://openalex.org/I88002', name: 'Capital City Institute' };
const OGDEN = { id: 'https://openalex.org/I88003', name: 'Ogdenville Polytechnic' };
const MARA_ORCID = '0000-0002-8800-0018';
const PAT_ORCID = '0000-0002-8800-0026';
const SPRINGFIELD = 'Department of Physics, University of Springfield, Springfield, USA';
const HAVERBROOK = 'North Haverbrook College, North Haverbrook, USA';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    // The manuscript author moved from Shelbyville to Capital City within the three years.
    { authors: [{ name: 'Mara Author', orcid: MARA_ORCID, institution: SHELBY }], year: Y - 2 },
    { authors: [{ name: 'Mara Author', orcid: MARA_ORCID, institution: CAPITAL }], year: Y },
    // Left Shelbyville for Ogdenville last year: flagged for Shelbyville (the manuscript author's, by id).
    { authors: [{ name: 'Moe Mover', institution: SHELBY }], year: Y - 2 },
    { authors: [{ name: 'Moe Mover', institution: OGDEN }], year: Y - 1 },
    // Left Springfield (the affiliation given with the form, by name) for North Haverbrook.
    { authors: [{ name: 'Nia Namemover', affiliation: SPRINGFIELD }], year: Y - 1 },
    { authors: [{ name: 'Nia Namemover', affiliation: HAVERBROOK }], year: Y },
    // At Springfield exactly three years back: still recent.
    { authors: [{ name: 'Eve Edge', affiliation: SPRINGFIELD }], year: OLDEST_RECENT },
    { authors: [{ name: 'Eve Edge', affiliation: HAVERBROOK }], year: Y },
    // At Springfield and Shelbyville four years back: no longer.
    {
      authors: [{ name: 'Olga Oldtimer', affiliation: SPRINGFIELD, institution: SHELBY }],
      year: OLDEST_RECENT - 1,
    },
    { authors: [{ name: 'Olga Oldtimer', affiliation: HAVERBROOK }], year: Y },
    // At the manuscript author's new institution, which is her most recent one.
    { authors: [{ name: 'Cy Capital', institution: CAPITAL }], year: Y - 1 },
    // One person under two records (one ORCID): the second record holds the Shelbyville years.
    { authors: [{ name: 'Pat Twice', orcid: PAT_ORCID, affiliation: HAVERBROOK }], year: Y },
    { authors: [{ name: 'Pat Twice', orcid: PAT_ORCID, affiliation: HAVERBROOK }], year: Y },
    { authors: [{ name: 'Pat Twice #2', orcid: PAT_ORCID, institution: SHELBY }], year: Y - 1 },
    { authors: [{ name: 'Nell Neutral', affiliation: HAVERBROOK }], year: Y },
    // Two companies that each end ", Inc.": the legal form names no organization they share.
    { authors: [{ name: 'Ike Otherco', affiliation: 'Rebellions, Inc., Seoul' }], year: Y },
    { authors: [{ name: 'Ida Sameco', affiliation: 'Meta Platforms Inc., Menlo Park, CA' }], year: Y },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

interface Candidate {
  author_id: number;
  name: string;
  orcid: string | null;
  aff_conflicts: { exists: boolean };
}

async function uploadFor(
  originId: string,
  author2Affiliation = 'Univ. of Springfield',
): Promise<{ candidates: Candidate[]; evidence: Map<number, Conflict[]> }> {
  const org = await createTestOrg(t);
  const fields = rankingFields({
    origin_id: originId,
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    authors_count: 2,
    author1_name: 'Mara Author',
    author1_orcid: MARA_ORCID,
    author2_name: 'Zed Newcomer',
    author2_aff: author2Affiliation,
  });
  const res = await upload(t.app, { apiKey: org.apiKey, fields });
  expect(res.statusCode).toBe(200);
  const { candidates } = res.json() as { candidates: Candidate[] };
  // The evidence the manuscript's page shows (manuscripts/candidates-store.ts).
  const stored = await t.db.query<{ candidates: Array<{ author_id: number; conflicts: Conflict[] }> }>(
    `SELECT c.candidates FROM manuscript_candidates c JOIN manuscripts m ON m.id = c.manuscript_id
      WHERE m.organization_id = $1 AND m.origin_id = $2`,
    [org.id, originId],
  );
  const evidence = new Map(stored.rows[0]!.candidates.map((c) => [c.author_id, c.conflicts]));
  return { candidates, evidence };
}

function affiliationEvidence(
  result: Awaited<ReturnType<typeof uploadFor>>,
  name: string,
): { flagged: boolean; evidence: unknown[] } {
  const id = ids.authorId(name);
  const candidate = result.candidates.find((c) => c.author_id === id);
  if (!candidate) throw new Error(`${name} is not among the candidates`);
  return {
    flagged: candidate.aff_conflicts.exists,
    evidence: (result.evidence.get(id) ?? [])
      .filter((c) => c.kind === 'aff_conflicts')
      .map((c) => c.evidence),
  };
}

describe('the shared-affiliation conflict over the last three years', () => {
  it('flags a candidate for the institution they left, with that affiliation as evidence', async () => {
    const result = await uploadFor('ms-moved');
    expect(affiliationEvidence(result, 'Moe Mover')).toEqual({
      flagged: true,
      evidence: [
        {
          candidate_affiliation: SHELBY.name,
          manuscript_affiliation: SHELBY.name,
          by: 'institution',
          manuscript_source: 'corpus',
          manuscript_author: null,
        },
      ],
    });
    expect(affiliationEvidence(result, 'Nia Namemover')).toEqual({
      flagged: true,
      evidence: [
        {
          candidate_affiliation: SPRINGFIELD,
          manuscript_affiliation: 'Univ. of Springfield',
          by: 'name',
          // Given with the upload, for the author it was given for.
          manuscript_source: 'manuscript',
          manuscript_author: 'Zed Newcomer',
        },
      ],
    });
    expect(affiliationEvidence(result, 'Cy Capital')).toMatchObject({ flagged: true });
    expect(affiliationEvidence(result, 'Nell Neutral')).toEqual({ flagged: false, evidence: [] });
  });

  it('counts the year three years back, not the one before', async () => {
    const result = await uploadFor('ms-window');
    expect(affiliationEvidence(result, 'Eve Edge')).toEqual({
      flagged: true,
      evidence: [
        {
          candidate_affiliation: SPRINGFIELD,
          manuscript_affiliation: 'Univ. of Springfield',
          by: 'name',
          // Given with the upload, for the author it was given for.
          manuscript_source: 'manuscript',
          manuscript_author: 'Zed Newcomer',
        },
      ],
    });
    expect(affiliationEvidence(result, 'Olga Oldtimer')).toEqual({ flagged: false, evidence: [] });
  });

  it('takes no legal form for an organization two companies share ("Meta Platforms, Inc." and "Rebellions, Inc.")', async () => {
    const result = await uploadFor('ms-inc', 'Meta Platforms, Inc.');
    expect(affiliationEvidence(result, 'Ike Otherco')).toEqual({ flagged: false, evidence: [] });
    expect(affiliationEvidence(result, 'Ida Sameco')).toMatchObject({ flagged: true });
  });

  it("compares a person's affiliations over all their records", async () => {
    const result = await uploadFor('ms-person');
    const pat = result.candidates.filter((c) => c.orcid === PAT_ORCID);
    expect(pat).toHaveLength(1);
    expect(pat[0]!.aff_conflicts.exists).toBe(true);
    expect(result.evidence.get(pat[0]!.author_id)).toContainEqual({
      kind: 'aff_conflicts',
      evidence: {
        candidate_affiliation: SHELBY.name,
        manuscript_affiliation: SHELBY.name,
        by: 'institution',
        manuscript_source: 'corpus',
        manuscript_author: null,
      },
    });
  });

  it('keeps the recent affiliations on the author rows, newest first, with the year each was last stated', async () => {
    const { rows } = await t.db.query<{ recent_affiliations: unknown }>(
      'SELECT recent_affiliations FROM authors WHERE id = $1',
      [ids.authorId('Moe Mover')],
    );
    expect(rows[0]!.recent_affiliations).toEqual([
      { institution_id: expect.any(Number), name: OGDEN.name, core: 'ogdenville polytechnic', year: Y - 1 },
      {
        institution_id: expect.any(Number),
        name: SHELBY.name,
        core: 'shelbyville institute of technology',
        year: Y - 2,
      },
    ]);
  });
});
