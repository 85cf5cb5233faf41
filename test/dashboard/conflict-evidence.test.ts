// How the manuscript page words each shared-affiliation conflict's evidence: where the manuscript
// author's affiliation came from is what lets an editor judge it.
import { describe, expect, it } from 'vitest';
import { conflictList } from '../../src/dashboard/pages/manuscripts.ts';
import type { Conflict } from '../../src/referee-finder/conflict-policy.ts';

const affiliation = (source: 'manuscript' | 'corpus' | 'group', author: string | null = null): Conflict => ({
  kind: 'aff_conflicts',
  evidence: {
    candidate_affiliation: 'University of Tartu, Estonia',
    manuscript_affiliation: 'Institute of Physics, University of Tartu',
    by: 'name',
    manuscript_source: source,
    manuscript_author: author,
  },
});

const text = (conflicts: Conflict[]) =>
  conflictList('/dashboard', conflicts)
    .toString()
    .replace(/<[^>]+>/g, '')
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ');

describe('shared-affiliation evidence on the manuscript page', () => {
  it('says where the manuscript author affiliation came from', () => {
    expect(text([affiliation('manuscript', 'Ann Author')])).toContain(
      '“Institute of Physics, University of Tartu”, given with the manuscript for Ann Author',
    );
    expect(text([affiliation('corpus')])).toContain("from a manuscript author's recent works in the corpus");
    expect(text([affiliation('group')])).toContain(
      "“Institute of Physics, University of Tartu”, a manuscript author's affiliation in your authors groups",
    );
  });

  it('says when the shared affiliation is an email domain of one institution', () => {
    const byDomain: Conflict = {
      kind: 'aff_conflicts',
      evidence: {
        candidate_affiliation: 'uni-tartu.ee',
        manuscript_affiliation: 'uni-tartu.ee',
        by: 'email_domain',
        manuscript_source: 'manuscript',
        manuscript_author: 'Ann Author',
      },
    };
    expect(text([byDomain])).toContain('(email addresses of one institution)');
    expect(text([affiliation('manuscript')])).toContain('(same organization name)');
  });
});
