// Conflicts of interest, each kind on a corpus built for it, and the same-name trap: two corpus
// authors share a name; only the one the evidence points to is the manuscript's author.
import { afterEach, describe, expect, it } from 'vitest';
import type { RankedCandidate } from '../../src/referee-finder/types.ts';
import { finderScope, manuscript, type Person } from './fixtures.ts';

const setup = finderScope(afterEach);

// A candidate's affiliations count in works of the last three years (docs/conflicts.md).
const RECENT = new Date().getUTCFullYear() - 1;
const MS_ORCID = '0000-0001-5109-3700';
const author = (over: Partial<{ name: string; orcid: string; email: string; affiliation: string }>) => ({
  name: 'Someone Else',
  orcid: null,
  email: null,
  affiliation: null,
  ...over,
});

function byName(candidates: RankedCandidate[], name: string): RankedCandidate {
  const found = candidates.find((c) => c.name === name);
  if (!found) throw new Error(`${name} is not among the candidates`);
  return found;
}

const CONFLICT_KEYS = [
  'coauth_conflicts',
  'aff_conflicts',
  'retracted_articles',
  'referenced_articles',
  'external_coi',
] as const;

function flags(c: RankedCandidate): string[] {
  return CONFLICT_KEYS.filter((k) => c[k].exists);
}

describe('conflicts of interest', () => {
  it('flags each kind on the right candidate only, and include_conflicts=false drops them', async () => {
    const shelby = { id: 'https://openalex.org/I77001', name: 'Shelbyville Institute of Technology' };
    const msAuthor: Person = { name: 'Mara Author', orcid: MS_ORCID, institution: shelby };
    const { ids, org, finder } = await setup([
      { authors: [msAuthor, { name: 'Cole Coauthor' }], year: 2015 },
      { authors: [{ name: 'Cole Coauthor' }] },
      {
        authors: [
          {
            name: 'Fay Sameuni',
            affiliation: 'Department of Physics, University of Springfield, Springfield, USA',
          },
        ],
        year: RECENT,
      },
      { authors: [{ name: 'Gil Otheruni', affiliation: 'Springfield College, Springfield, USA' }] },
      { authors: [{ name: 'Hal Sameinst', institution: shelby }], year: RECENT },
      { authors: [{ name: 'Rex Retracted' }], retracted: true },
      { authors: [{ name: 'Rex Retracted' }] },
      { authors: [{ name: 'Pia Cited' }], doi: '10.5555/cited.1' },
      { authors: [{ name: 'Quin Titled' }], title: 'Deep sets for molecular chemistry' },
      { authors: [{ name: 'Clara Clean' }] },
      { authors: [{ name: 'Clara Clean' }] },
    ]);
    const m = manuscript(org.id, {
      authors: [
        author({ name: 'Mara Author', orcid: MS_ORCID }),
        author({ name: 'Zed Newcomer', affiliation: 'Univ. of Springfield' }),
      ],
      references: [
        {
          raw: 'x',
          doi: 'https://doi.org/10.5555/CITED.1',
          title: null,
          authors: [],
          year: null,
          container: null,
        },
        {
          raw: 'y',
          doi: null,
          title: 'Deep Sets for Molecular Chemistry.',
          authors: [],
          year: null,
          container: null,
        },
      ],
    });
    const all = (await finder.find(m)).candidates;
    expect(all.map((c) => c.author_id)).not.toContain(ids.authorId('Mara Author'));
    expect(flags(byName(all, 'Cole Coauthor'))).toEqual(['coauth_conflicts']);
    expect(flags(byName(all, 'Fay Sameuni'))).toEqual(['aff_conflicts']);
    expect(flags(byName(all, 'Gil Otheruni'))).toEqual([]);
    expect(flags(byName(all, 'Hal Sameinst'))).toEqual(['aff_conflicts']);
    expect(flags(byName(all, 'Rex Retracted'))).toEqual(['retracted_articles']);
    expect(flags(byName(all, 'Pia Cited'))).toEqual(['referenced_articles']);
    expect(flags(byName(all, 'Quin Titled'))).toEqual(['referenced_articles']);
    expect(flags(byName(all, 'Clara Clean'))).toEqual([]);

    const clean = (await finder.find(m, { includeConflicts: false })).candidates;
    expect(clean.map((c) => c.name).sort()).toEqual(['Clara Clean', 'Gil Otheruni']);
  });

  it('same-name trap: only the John Smith the evidence points to is excluded, and only his co-author flagged', async () => {
    const { ids, org, finder } = await setup([
      {
        authors: [
          { name: 'John Smith', affiliation: 'Stanford University, Stanford, CA, USA' },
          { name: 'Xia Stanfordpal' },
        ],
      },
      {
        authors: [
          { name: 'John Smith #2', affiliation: 'University of Oxford, Oxford, UK' },
          { name: 'Yan Oxfordpal' },
        ],
      },
      { authors: [{ name: 'Xia Stanfordpal' }] },
      { authors: [{ name: 'Yan Oxfordpal' }] },
    ]);
    const result = await finder.find(
      manuscript(org.id, {
        authors: [author({ name: 'John Smith', affiliation: 'Dept. of CS, Stanford Univ.' })],
      }),
    );
    const candidateIds = result.candidates.map((c) => c.author_id);
    expect(candidateIds).not.toContain(ids.authorId('John Smith'));
    expect(candidateIds).toContain(ids.authorId('John Smith #2'));
    const other = result.candidates.find((c) => c.author_id === ids.authorId('John Smith #2'))!;
    expect(flags(other)).toEqual([]);
    expect(flags(byName(result.candidates, 'Xia Stanfordpal'))).toEqual(['coauth_conflicts']);
    expect(flags(byName(result.candidates, 'Yan Oxfordpal'))).toEqual([]);
  });

  it('a name matched through co-authorship with another manuscript author counts as that author', async () => {
    const { ids, org, finder } = await setup([
      { authors: [{ name: 'Mara Author', orcid: MS_ORCID }, { name: 'Jane Roe' }] },
      { authors: [{ name: 'Jane Roe' }, { name: 'Kai Roepal' }] },
      { authors: [{ name: 'Jane Roe #2' }] },
      { authors: [{ name: 'Kai Roepal' }] },
    ]);
    const result = await finder.find(
      manuscript(org.id, {
        authors: [author({ name: 'Mara Author', orcid: MS_ORCID }), author({ name: 'Jane Roe' })],
      }),
    );
    const candidateIds = result.candidates.map((c) => c.author_id);
    expect(candidateIds).not.toContain(ids.authorId('Jane Roe'));
    expect(candidateIds).toContain(ids.authorId('Jane Roe #2'));
    expect(flags(byName(result.candidates, 'Kai Roepal'))).toEqual(['coauth_conflicts']);
  });
});
