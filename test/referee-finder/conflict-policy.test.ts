// The conflict policy on its own: facts in, each conflict with its evidence out (no database).
import { describe, expect, it } from 'vitest';
import {
  conflictFlags,
  conflictPolicy,
  type CandidateFacts,
  type ManuscriptFacts,
  type OrganizationFlag,
} from '../../src/referee-finder/conflict-policy.ts';
import { affiliationCore } from '../../src/corpus/authors/affiliations.ts';

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
          manuscript_source: 'corpus',
          manuscript_author: null,
        },
      },
    ]);
  });

  it("an institution a stated affiliation names by its acronym is the manuscript author's, by id and by its full name", () => {
    const policy = conflictPolicy(
      {
        statedAffiliations: ['SBT, Shelbyville'],
        statedBy: ['Ann Author'],
        statedInstitutions: [
          {
            institutionId: 5,
            institutionName: 'Shelbyville Institute of Technology',
            affiliation: 'SBT, Shelbyville',
            author: 'Ann Author',
          },
        ],
        corpusAuthors: [],
      },
      [],
      NOW,
    );
    expect(policy(candidate({ institutionId: 5, recentAffiliation: 'SBT' }))).toEqual([
      {
        kind: 'aff_conflicts',
        evidence: {
          candidate_affiliation: 'SBT',
          manuscript_affiliation: 'SBT, Shelbyville',
          by: 'institution',
          manuscript_source: 'manuscript',
          manuscript_author: 'Ann Author',
        },
      },
    ]);
    expect(
      policy(candidate({ recentAffiliation: 'Dept. of Physics, Shelbyville Institute of Technology' })),
    ).toEqual([
      {
        kind: 'aff_conflicts',
        evidence: {
          candidate_affiliation: 'Dept. of Physics, Shelbyville Institute of Technology',
          manuscript_affiliation: 'Shelbyville Institute of Technology',
          by: 'name',
          manuscript_source: 'manuscript',
          manuscript_author: 'Ann Author',
        },
      },
    ]);
  });

  it('an affiliation naming two organizations conflicts with a candidate of either', () => {
    const policy = conflictPolicy(
      {
        statedAffiliations: [
          'Department of Medicine, Harvard Medical School, Massachusetts General Hospital, Boston',
        ],
        corpusAuthors: [],
      },
      [],
      NOW,
    );
    expect(
      conflictFlags(policy(candidate({ recentAffiliation: 'Massachusetts General Hospital, Boston, MA' })))
        .aff_conflicts.exists,
    ).toBe(true);
    expect(
      conflictFlags(policy(candidate({ recentAffiliation: 'Harvard Medical School' }))).aff_conflicts.exists,
    ).toBe(true);
    // And the other way round: the candidate's second organization.
    expect(
      conflictFlags(
        policy(candidate({ recentAffiliation: 'Broad Institute, Massachusetts General Hospital' })),
      ).aff_conflicts.exists,
    ).toBe(true);
    expect(
      conflictFlags(policy(candidate({ recentAffiliation: "Boston Children's Hospital" }))).aff_conflicts
        .exists,
    ).toBe(false);
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

  it("compares every affiliation of the candidate's last three years, not older ones, nor the latest once they are known", () => {
    const recent = (name: string, year: number, institution_id: number | null = null) => ({
      institution_id,
      name,
      core: affiliationCore(name),
      year,
    });
    const policy = conflictPolicy(
      {
        statedAffiliations: ['University of Springfield'],
        statedBy: ['Edna Krabappel'],
        corpusAuthors: [{ institutionId: 5, institutionName: 'Shelbyville Tech', recentAffiliation: null }],
      },
      [],
      NOW,
    );
    // Moved from Shelbyville (id 5) in 2024 to Ogdenville: flagged for Shelbyville.
    const moved = candidate({
      institutionId: 6,
      recentAffiliation: 'Ogdenville Polytechnic',
      recentAffiliations: [recent('Ogdenville Polytechnic', 2026, 6), recent('Shelbyville Tech', 2024, 5)],
    });
    expect(policy(moved)).toEqual([
      {
        kind: 'aff_conflicts',
        evidence: {
          candidate_affiliation: 'Shelbyville Tech',
          manuscript_affiliation: 'Shelbyville Tech',
          by: 'institution',
          manuscript_source: 'corpus',
          manuscript_author: null,
        },
      },
    ]);
    // Springfield in 2023 (three years back) counts by name; in 2022 it does not.
    const edge = candidate({
      recentAffiliations: [recent('Dept. of Physics, University of Springfield', 2023)],
    });
    expect(policy(edge)[0]!.evidence).toEqual({
      candidate_affiliation: 'Dept. of Physics, University of Springfield',
      manuscript_affiliation: 'University of Springfield',
      by: 'name',
      // Given with the manuscript, for the author it was given for.
      manuscript_source: 'manuscript',
      manuscript_author: 'Edna Krabappel',
    });
    expect(
      policy(
        candidate({
          recentAffiliations: [
            recent('University of Springfield', 2022),
            recent('Shelbyville Tech', 2022, 5),
          ],
        }),
      ),
    ).toEqual([]);
    // Computed, with no recent work: the most recent affiliation, older, is not compared.
    expect(
      policy(candidate({ institutionId: 5, recentAffiliation: 'Shelbyville Tech', recentAffiliations: [] })),
    ).toEqual([]);
    // Not computed yet (null): the most recent affiliation is compared, as before.
    expect(policy(candidate({ institutionId: 5, recentAffiliations: null })).map((c) => c.kind)).toEqual([
      'aff_conflicts',
    ]);
  });

  it("compares every affiliation of the manuscript authors' last three years as well as their latest", () => {
    const policy = conflictPolicy(
      {
        statedAffiliations: [],
        corpusAuthors: [
          {
            institutionId: 7,
            institutionName: 'Capital City Institute',
            recentAffiliation: 'Capital City Institute',
            recentAffiliations: [
              {
                institution_id: 7,
                name: 'Capital City Institute',
                core: 'capital city institute',
                year: 2026,
              },
              { institution_id: 5, name: 'Shelbyville Tech', core: 'shelbyville tech', year: 2024 },
              { institution_id: 9, name: 'Old Place University', core: 'old place university', year: 2021 },
            ],
          },
        ],
      },
      [],
      NOW,
    );
    const at = (id: number, name: string) =>
      candidate({
        recentAffiliations: [{ institution_id: id, name, core: affiliationCore(name), year: 2025 }],
      });
    expect(policy(at(7, 'Capital City Institute')).map((c) => c.kind)).toEqual(['aff_conflicts']);
    expect(policy(at(5, 'Shelbyville Tech'))[0]!.evidence).toEqual({
      candidate_affiliation: 'Shelbyville Tech',
      manuscript_affiliation: 'Shelbyville Tech',
      by: 'institution',
      manuscript_source: 'corpus',
      manuscript_author: null,
    });
    expect(policy(at(9, 'Old Place University'))).toEqual([]);
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
