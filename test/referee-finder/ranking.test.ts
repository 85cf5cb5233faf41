// Ranking rules through findCandidates over a real database and a real index: fit beats volume,
// manuscript authors are never candidates, concepts and relevant articles explain each candidate.
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { createTestOrg } from '../helpers/app.ts';
import { openWorkIndex } from '../../src/retrieval/db-work-index.ts';
import { manuscriptQuery } from '../../src/retrieval/manuscript-query.ts';
import { buildCorpus, idsOf, manuscript, OFF_TOPIC, openFinder, TOPIC, type Finder } from './fixtures.ts';
import { candidateWhy } from '../../src/referee-finder/concepts.ts';

const open: Array<{ db: TestDatabase; finder?: Finder }> = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.finder?.close();
    await o.db.destroy();
  }
});

async function setup() {
  const db = await createTestDatabase();
  const entry: { db: TestDatabase; finder?: Finder } = { db };
  open.push(entry);
  return entry;
}

describe('referee ranking', () => {
  it('ranks the author whose works match best first, and never returns an off-topic author', async () => {
    const entry = await setup();
    const { db } = entry;
    const ids = await buildCorpus(db, [
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ben Partial' }] },
      { authors: [{ name: 'Ben Partial' }], title: 'Reef fish stocks', abstract: OFF_TOPIC },
      { authors: [{ name: 'Ben Partial' }], title: 'Coastal fisheries', abstract: OFF_TOPIC },
      { authors: [{ name: 'Cy Offtopic' }], title: 'Ocean acidification and coral', abstract: OFF_TOPIC },
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(manuscript(org.id));
    const order = idsOf(result);
    expect(order[0]).toBe(ids.authorId('Ada Expert'));
    expect(order).toContain(ids.authorId('Ben Partial'));
    expect(order).not.toContain(ids.authorId('Cy Offtopic'));
    const [top] = result.candidates;
    expect(top!.score).toBeGreaterThan(result.candidates[1]!.score);
    expect(top!.url).toBe(`http://refmatch.test/authors/${top!.author_id}`);
    expect(top!.first_name).toBe('Ada');
    expect(top!.last_name).toBe('Expert');
    expect(top!.middle_name).toBeNull();
    expect(top!.relevant_articles).toHaveLength(3);
    for (const a of top!.relevant_articles) {
      expect(a.url).toBe(`http://refmatch.test/works/${a.id}`);
      expect(a.year).toBe(2022);
    }
    // Ben's off-topic works are not relevant articles.
    expect(result.candidates[1]!.relevant_articles).toHaveLength(1);
  });

  it('returns the manuscript key concepts as words, and per candidate the ones their works share', async () => {
    const entry = await setup();
    const { db } = entry;
    await buildCorpus(db, [
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Dee Other' }], title: 'Reef fish', abstract: OFF_TOPIC },
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(manuscript(org.id));
    expect(result.concepts).toContain('message passing');
    // "molecular property" and "property prediction", written one after the other, are one phrase.
    expect(result.concepts).toContain('molecular property prediction');
    expect(result.concepts).not.toContain('property prediction');
    for (const c of result.concepts) expect(c).toMatch(/^\S+( \S+){1,3}$/);
    const ada = result.candidates[0]!;
    expect(ada.relevant_concepts.length).toBeGreaterThan(0);
    for (const c of ada.relevant_concepts) expect(result.concepts).toContain(c);
  });

  it('finds at least five multi-word concepts from a file with no abstract, ranked by what explains the match', async () => {
    const entry = await setup();
    const { db } = entry;
    await buildCorpus(db, [
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Bo Second' }] },
      { authors: [{ name: 'Dee Other' }], title: 'Reef fish', abstract: OFF_TOPIC },
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, { title: 'Molecules', abstract: '', fullText: `Introduction. ${TOPIC} ${TOPIC}` }),
    );
    expect(result.concepts.length).toBeGreaterThanOrEqual(5);
    for (const c of result.concepts) expect(c).toMatch(/^\S+( \S+){1,3}$/);
    expect(result.concepts).toContain('message passing');
    // Why Ada is there: her works, each with the terms that made its score, adding up to it.
    const ada = result.candidates[0]!;
    const why = result.explanations.get(ada.author_id)!;
    expect(why.works.length).toBe(2);
    for (const w of why.works) {
      expect(w.terms.length).toBeGreaterThan(0);
      const sum = w.terms.reduce((t, x) => t + x.contribution, 0);
      expect(sum).toBeLessThanOrEqual(w.score + 1e-9);
    }
    expect(why.terms[0]!.contribution).toBeGreaterThanOrEqual(why.terms.at(-1)!.contribution);
    expect(why.concepts.length).toBeGreaterThan(0);
    expect(ada.relevant_concepts).toEqual(why.concepts);
    expect(result.explanations.has(idsOf(result).find((id) => id !== ada.author_id)!)).toBe(true);
    // As the dashboard shows it: shares of the evidence, most first, and the works by their titles.
    const shown = candidateWhy(why);
    expect(shown.docScore).toBeCloseTo(why.docScore, 3);
    // The terms folded into the candidate's phrases: the phrase shown, never a word of it alone.
    expect(shown.terms.map((t) => t.label)).toContain(why.concepts[0]);
    const phraseWords = new Set(why.concepts.flatMap((c) => c.split(' ')));
    for (const t of shown.terms) if (!t.label.includes(' ')) expect(phraseWords.has(t.label)).toBe(false);
    expect(shown.terms.reduce((t, x) => t + x.share, 0)).toBeLessThanOrEqual(1 + 1e-9);
    expect(shown.terms.every((t, i) => i === 0 || t.share <= shown.terms[i - 1]!.share)).toBe(true);
    expect(shown.works.map((w) => w.id).sort()).toEqual(why.works.map((w) => w.workId).sort());
    expect(shown.works.reduce((t, w) => t + w.share, 0)).toBeCloseTo(1, 2);
    for (const w of shown.works) expect(w.terms.length).toBeGreaterThan(0);
  });

  it('shows bigrams the manuscript writes one after the other as one phrase, never its fragments', async () => {
    const entry = await setup();
    const { db } = entry;
    const mt = (title: string) => ({
      authors: [{ name: 'Mia Translator' }],
      title,
      abstract:
        'Neural machine translation for low-resource languages: we train translation models with ' +
        'little parallel data, using transfer learning from high-resource languages.',
    });
    await buildCorpus(db, [
      mt('Neural machine translation with transfer learning'),
      mt('Low-resource languages and parallel data'),
      mt('Unsupervised neural machine translation'),
      { authors: [{ name: 'Dee Other' }], title: 'Reef fish', abstract: OFF_TOPIC },
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        title: 'Neural machine translation for low-resource languages',
        abstract: 'We study transfer learning for translation between languages with little parallel data.',
      }),
    );
    expect(result.concepts).toEqual(
      expect.arrayContaining(['neural machine translation', 'low resource languages', 'transfer learning']),
    );
    for (const fragment of ['neural machine', 'machine translation', 'low resource', 'resource languages'])
      expect(result.concepts).not.toContain(fragment);
    const mia = result.candidates[0]!;
    expect(mia.relevant_concepts).toContain('neural machine translation');
    for (const c of mia.relevant_concepts) expect(result.concepts).toContain(c);
  });

  it('does not join a rare term to a phrase of the field ("analyzing" + "neural machine translation")', async () => {
    const entry = await setup();
    const { db } = entry;
    await buildCorpus(db, [
      ...Array.from({ length: 10 }, (_, i) => ({
        authors: [{ name: 'Mia Translator' }],
        title: `Neural machine translation of domain ${i}`,
        abstract: 'Neural machine translation with attention over subword units.',
      })),
      ...Array.from({ length: 2 }, () => ({
        authors: [{ name: 'Bo Probe' }],
        title: 'Analyzing neural representations',
        abstract: 'Probing classifiers for linguistic structure.',
      })),
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        title: 'Analyzing neural machine translation',
        abstract: 'Neural machine translation with attention, probed layer by layer.',
      }),
    );
    expect(result.concepts).toContain('neural machine translation');
    expect(result.concepts.some((c) => c.startsWith('analyzing neural machine'))).toBe(false);
  });

  it('leaves a run of more than four words as its terms: a five-word phrase is rarely one concept', async () => {
    const entry = await setup();
    const { db } = entry;
    await buildCorpus(
      db,
      Array.from({ length: 3 }, (_, i) => ({
        authors: [{ name: 'Gia Graph' }],
        title: `Graph neural networks message passing, study ${i}`,
        abstract: 'Graph neural networks message passing over molecules.',
      })),
    );
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        title: 'Graph neural networks message passing',
        abstract: 'We revisit graph neural networks message passing for chemistry.',
      }),
    );
    expect(result.concepts.length).toBeGreaterThan(0);
    expect(result.concepts).not.toContain('graph neural networks message passing');
    for (const c of result.concepts) expect(c.split(' ').length).toBeLessThanOrEqual(4);
  });

  it('cuts a run of more than four words where two phrases of the field meet, and never shows the joint', async () => {
    const entry = await setup();
    const { db } = entry;
    const works = (n: number, name: string, title: string, abstract: string) =>
      Array.from({ length: n }, (_, i) => ({ authors: [{ name }], title: `${title}, part ${i}`, abstract }));
    await buildCorpus(db, [
      ...works(
        10,
        'Mia Translator',
        'Neural machine translation',
        'Neural machine translation with attention.',
      ),
      ...works(10, 'Lu Lowres', 'Low-resource languages', 'Low-resource languages lack annotated corpora.'),
      ...works(2, 'Mia Translator', 'Low-resource neural machine translation', 'Pivots for it.'),
      ...works(20, 'Dee Other', 'Reef fish', OFF_TOPIC),
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        title: 'Low-resource neural machine translation through pivot languages',
        abstract: 'We study low-resource neural machine translation when parallel corpora are scarce.',
      }),
    );
    expect(result.concepts).toContain('neural machine translation');
    expect(result.concepts).toContain('low resource');
    expect(result.concepts.filter((c) => c.includes('resource neural'))).toEqual([]);
    for (const c of result.candidates)
      expect(c.relevant_concepts.filter((x) => x.includes('resource neural'))).toEqual([]);
  });

  it('shows no bigram the corpus writes in abstracts but never in titles, unless fewer than five concepts would remain', async () => {
    const entry = await setup();
    const { db } = entry;
    // Made-up terms of a field, each in titles and abstracts, and a turn of phrase in every abstract
    // ("largely mitigates") that no title holds.
    const field = [
      'graph kernels',
      'protein folding',
      'message passing',
      'molecular dynamics',
      'contrastive pretraining',
      'sparse attention',
    ];
    await buildCorpus(db, [
      ...Array.from({ length: 40 }, (_, i) => {
        const [a, b] = [field[i % 6]!, field[(i + 2) % 6]!];
        return {
          authors: [{ name: 'Kai Kernel' }],
          title: `${a} and ${b}`,
          abstract: `With ${a} and ${b}, this largely mitigates the cost.`,
        };
      }),
      ...Array.from({ length: 60 }, (_, i) => ({
        authors: [{ name: 'Dee Other' }],
        title: `Reef fish, part ${i}`,
        abstract: OFF_TOPIC,
      })),
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const long = await entry.finder.find(
      manuscript(org.id, {
        title: 'Graph kernels and protein folding',
        abstract:
          'With message passing and molecular dynamics, and with contrastive pretraining and sparse ' +
          'attention, this largely mitigates the cost.',
      }),
    );
    expect(long.concepts).toEqual(expect.arrayContaining(field));
    expect(long.concepts).not.toContain('largely mitigates');
    for (const c of long.candidates) expect(c.relevant_concepts).not.toContain('largely mitigates');
    // A text of few concepts keeps the wording it has rather than show almost nothing.
    const short = await entry.finder.find(
      manuscript(org.id, {
        title: 'Graph kernels',
        abstract: 'With graph kernels, this largely mitigates the cost.',
      }),
    );
    expect(short.concepts).toEqual(expect.arrayContaining(['graph kernels', 'largely mitigates']));
  });

  it('gives at most five relevant articles (spec 8), all the candidate’s own and distinct', async () => {
    const entry = await setup();
    const { db } = entry;
    const ids = await buildCorpus(
      db,
      Array.from({ length: 7 }, () => ({ authors: [{ name: 'Ada Prolific' }] })),
    );
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const [top] = (await entry.finder.find(manuscript(org.id))).candidates;
    expect(top!.author_id).toBe(ids.authorId('Ada Prolific'));
    const articles = top!.relevant_articles.map((a) => a.id);
    expect(articles).toHaveLength(5);
    expect(new Set(articles).size).toBe(5);
    const own = await db.query<{ work_id: number }>('SELECT work_id FROM authorships WHERE author_id = $1', [
      top!.author_id,
    ]);
    for (const id of articles) expect(own.rows.map((r) => r.work_id)).toContain(id);
  });

  it('returns at most maxCandidates', async () => {
    const entry = await setup();
    const { db } = entry;
    await buildCorpus(
      db,
      Array.from({ length: 6 }, (_, i) => ({ authors: [{ name: `Author Number${i}` }] })),
    );
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    expect((await entry.finder.find(manuscript(org.id), { maxCandidates: 4 })).candidates).toHaveLength(4);
    expect((await entry.finder.find(manuscript(org.id))).candidates).toHaveLength(6);
  });

  it('never returns the manuscript authors themselves: by ORCID, email, or name with affiliation or co-authorship', async () => {
    const entry = await setup();
    const { db } = entry;
    const ids = await buildCorpus(db, [
      { authors: [{ name: 'Orla Orcid', orcid: '0000-0002-1825-0097' }] },
      { authors: [{ name: 'Emil Mail' }] },
      { authors: [{ name: 'Afa Place', affiliation: 'Dept. of Chemistry, Univ. of Springfield' }] },
      { authors: [{ name: 'Cora Coauthor' }, { name: 'Orla Orcid', orcid: '0000-0002-1825-0097' }] },
      { authors: [{ name: 'Ada Expert' }] },
    ]);
    await db.query(`UPDATE authors SET emails = '{emil@example.org}' WHERE id = $1`, [
      ids.authorId('Emil Mail'),
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        authors: [
          {
            name: 'O. Orcid',
            orcid: 'https://orcid.org/0000-0002-1825-0097',
            email: null,
            affiliation: null,
          },
          { name: 'Emil Mail', orcid: null, email: 'EMIL@example.org', affiliation: null },
          {
            name: 'Afa Place',
            orcid: null,
            email: null,
            affiliation: 'University of Springfield, Springfield, USA',
          },
          { name: 'Cora Coauthor', orcid: null, email: null, affiliation: null },
        ],
      }),
    );
    expect(idsOf(result)).toEqual([ids.authorId('Ada Expert')]);
  });

  it('does not exclude a same-named person without a second piece of evidence', async () => {
    const entry = await setup();
    const { db } = entry;
    const ids = await buildCorpus(db, [
      { authors: [{ name: 'Nia Namesake' }] },
      { authors: [{ name: 'Ada Expert' }] },
    ]);
    const org = await createTestOrg({ db });
    entry.finder = await openFinder(db);
    const result = await entry.finder.find(
      manuscript(org.id, {
        authors: [{ name: 'Nia Namesake', orcid: null, email: null, affiliation: 'Elsewhere Institute' }],
      }),
    );
    expect(idsOf(result)).toContain(ids.authorId('Nia Namesake'));
  });
});

describe('one search seam: works and profiles scored like the search scores them', () => {
  it('gives a work the same score through search, scoreWorks and scoreProfiles, and a profile the BM25 of its works joined', async () => {
    const entry = await setup();
    const ids = await buildCorpus(entry.db, [
      { authors: [{ name: 'Ada Expert' }] },
      { authors: [{ name: 'Ada Expert' }], title: 'Graph neural networks for chemistry' },
      { authors: [{ name: 'Ben Partial' }], title: 'Reef fish stocks', abstract: OFF_TOPIC },
      { authors: [{ name: 'Cy Other' }] },
    ]);
    const index = await openWorkIndex(entry.db, { pollMs: 0 });
    try {
      const query = await manuscriptQuery(index, manuscript(1));
      expect(query.terms.length).toBeGreaterThan(3);
      const searched = await index.search({ query, k: 10 });
      const workIds = searched.map((h) => h.workId);
      const scored = await index.scoreWorks({ query, workIds });
      const profiles = await index.scoreProfiles({ query, profiles: [workIds.slice(0, 1), workIds], b: 0.5 });
      for (const hit of searched) {
        expect(scored.find((s) => s.workId === hit.workId)!.score).toBeCloseTo(hit.score, 5);
        expect(profiles.works.get(hit.workId)!.score).toBeCloseTo(hit.score, 5);
        expect(hit.year).toBe(2022);
      }
      // More matching works, more evidence in one profile; none of it for an unknown work.
      expect(profiles.profiles[1]!).toBeGreaterThan(profiles.profiles[0]!);
      const none = await index.scoreProfiles({ query, profiles: [[999_999]], b: 0.5 });
      expect([...none.profiles]).toEqual([0]);
      expect(ids.authorId('Ada Expert')).toBeGreaterThan(0);
    } finally {
      await index.close();
    }
  });
});
