// The conflict policy on its own: facts in, each conflict with its evidence out (no database).
import { describe, expect, it } from 'vitest';
import {
  conflictFlags,
  conflictPolicy,
  type CandidateFacts,
  type ManuscriptFacts,
  type OrganizationFlag,
} from '../../src/referee-finder/conflict-policy.ts';

// The current year the policy is told (what counts as recent).
const NOW = { currentYear: 2026 };

const NO_MANUSCRIPT_FACTS: ManuscriptFacts = { statedAffiliations: [], corpusAuthors: [] };

function candidate(over: Partial<CandidateFacts> = {}): CandidateFacts {
  return {
    institutionId: null,
    institutionName: null,
    recentAffiliation: null,
    ids: [10],
    orcids: [],
    emails: [],
    coauthoredWorks: [],
    retractedWorks: [],
    citedWorks: [],
    ...over,
  };
}

const work = { id: 7, title: 'Shared results', year: 2019 };

describe('the conflict policy', () => {
  it('finds nothing for a candidate with no shared work, affiliation, retraction, citation or flag', () => {
    const found = conflictPolicy(
      { statedAffiliations: ['University of Springfield'], corpusAuthors: [] },
      [{ originId: null, authorId: 99, orcid: null, email: null }],
      NOW,
    )(candidate({ recentAffiliation: 'Shelbyville Institute of Technology' }));
    expect(found).toEqual([]);
    expect(Object.values(conflictFlags(found)).every((f) => !f.exists)).toBe(true);
  });

  it('a co-authored work is the evidence of a co-authorship, with the manuscript author who wrote it', () => {
    const found = conflictPolicy(
      NO_MANUSCRIPT_FACTS,
      [],
      NOW,
    )(candidate({ coauthoredWorks: [{ work, manuscriptAuthorId: 3 }] }));
    expect(found).toEqual([{ kind: 'coauth_conflicts', evidence: { work, manuscript_author_id: 3 } }]);
    expect(conflictFlags(found).coauth_conflicts.exists).toBe(true);
  });

  it('a shared institution id is an affiliation conflict, named on both sides', () => {
    const found = conflictPolicy(
      {
        statedAffiliations: [],
        corpusAuthors: [{ institutionId: 5, institutionName: 'Shelbyville Tech', recentAffiliation: null }],
      },
      [],
      NOW,
    )(candidate({ institutionId: 5, recentAffiliation: 'Dept. of Physics, Shelbyville Tech' }));
    expect(found).toEqual([
      {
        kind: 'aff_conflicts',
        evidence: {
          candidate_affiliation: 'Dept. of Physics, Shelbyville Tech',
          manuscript_affiliation: 'Shelbyville Tech',
          by: 'institution',
        },
      },
    ]);
  });

  it('affiliation names of one university agree (department and campus aside); another college does not', () => {
    const policy = conflictPolicy(
      { statedAffiliations: ['University of Springfield, Springfield, USA'], corpusAuthors: [] },
      [],
      NOW,
    );
    const same = policy(candidate({ recentAffiliation: 'Department of Physics, University of Springfield' }));
    expect(same.map((c) => c.kind)).toEqual(['aff_conflicts']);
    expect(same[0]!.evidence).toMatchObject({
      manuscript_affiliation: 'University of Springfield, Springfield, USA',
      by: 'name',
    });
    expect(policy(candidate({ recentAffiliation: 'Springfield College, Springfield, USA' }))).toEqual([]);
  });

  it('each retracted work and each cited work is its own evidence', () => {
    const other = { id: 8, title: 'Withdrawn claims', year: null };
    const found = conflictPolicy(
      NO_MANUSCRIPT_FACTS,
      [],
      NOW,
    )(
      candidate({
        retractedWorks: [other],
        citedWorks: [{ work, reference: '[3] A. Author. Shared results. 2019.' }],
      }),
    );
    expect(found).toEqual([
      { kind: 'retracted_articles', evidence: { work: other } },
      { kind: 'referenced_articles', evidence: { work, reference: '[3] A. Author. Shared results. 2019.' } },
    ]);
    const flags = conflictFlags(found);
    expect([flags.retracted_articles.exists, flags.referenced_articles.exists]).toEqual([true, true]);
  });

  it("the organization's flag matches any id of the person, an ORCID, or an email whatever its case", () => {
    const flags: OrganizationFlag[] = [
      { originId: 'ms-1', authorId: 11, orcid: null, email: null },
      { originId: null, authorId: null, orcid: '0000-0002-1825-0097', email: null },
      { originId: null, authorId: null, orcid: null, email: 'ada@example.org' },
    ];
    const policy = conflictPolicy(NO_MANUSCRIPT_FACTS, flags, NOW);
    expect(policy(candidate({ ids: [10, 11] }))).toEqual([
      { kind: 'external_coi', evidence: { origin_id: 'ms-1', matched: 'author_id', value: '11' } },
    ]);
    expect(policy(candidate({ orcids: ['0000-0002-1825-0097'] }))[0]!.evidence).toEqual({
      origin_id: null,
      matched: 'orcid',
      value: '0000-0002-1825-0097',
    });
    expect(policy(candidate({ emails: ['Ada@Example.org'] }))[0]!.evidence).toMatchObject({
      matched: 'email',
    });
    expect(policy(candidate({ ids: [12], emails: ['bob@example.org'] }))).toEqual([]);
  });

  it('several kinds at once are all reported, and the flags say which', () => {
    const found = conflictPolicy(
      {
        statedAffiliations: [],
        corpusAuthors: [{ institutionId: 1, institutionName: 'X', recentAffiliation: null }],
      },
      [{ originId: null, authorId: 10, orcid: null, email: null }],
      NOW,
    )(candidate({ institutionId: 1, coauthoredWorks: [{ work, manuscriptAuthorId: 2 }] }));
    expect(found.map((c) => c.kind)).toEqual(['coauth_conflicts', 'aff_conflicts', 'external_coi']);
    expect(conflictFlags(found)).toEqual({
      coauth_conflicts: { exists: true },
      aff_conflicts: { exists: true },
      retracted_articles: { exists: false },
      referenced_articles: { exists: false },
      external_coi: { exists: true },
    });
  });
});
