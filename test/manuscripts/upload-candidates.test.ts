// End to end: a real upload over a small real corpus returns real candidates, exactly shaped (2.3),
// with marks, the form's filters and exclude_candidates applied. Ranking itself is tested in
// test/referee-finder/.
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { Candidate, UploadResponse } from '../../src/manuscripts/upload-schema.ts';
import { buildCorpus, OFF_TOPIC, TOPIC } from '../referee-finder/fixtures.ts';
import { baseFields, upload } from './upload-helpers.ts';
import { runCommand } from './cli-helpers.ts';
import { clearCandidates, saveCandidates } from '../../src/manuscripts/candidates-store.ts';
import { recordExtractedConcepts } from '../../src/manuscripts/manuscripts-store.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;
const validate = new Ajv({ strict: false }).compile(UploadResponse);

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    { authors: [{ name: 'Ada Expert', orcid: 'https://orcid.org/0000-0001-0000-0017' }] },
    { authors: [{ name: 'Ada Expert' }, { name: 'Ben Second' }] },
    { authors: [{ name: 'Ada Expert' }] },
    { authors: [{ name: 'Ben Second' }] },
    { authors: [{ name: 'Cy Offtopic' }], title: 'Ocean acidification and coral', abstract: OFF_TOPIC },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

function fields(overrides: Record<string, string | number> = {}) {
  const f = baseFields({
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    author1_name: 'Nobody Incorpus',
    ...overrides,
  });
  if (!('exclude_candidates' in overrides)) delete f.exclude_candidates;
  return f;
}

describe('candidates from a real upload', () => {
  it('returns ranked candidates with every field of 2.3, exactly typed and named', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: fields() });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(body.version).toBe(7);
    const candidates = body.candidates as Array<Record<string, unknown>>;
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates[0]!.author_id).toBe(ids.authorId('Ada Expert'));
    expect(candidates.map((c) => c.author_id)).not.toContain(ids.authorId('Cy Offtopic'));
    for (const c of candidates) {
      expect(Object.keys(c)).toEqual(Object.keys(Candidate.properties));
      expect(c.marked).toBe(false);
      expect(c.marked_by).toBeNull();
      expect(Number.isInteger(c.articlesCount)).toBe(true);
      expect(Number.isInteger(c.citationsCount)).toBe(true);
      expect(Number.isInteger(c.hIndex)).toBe(true);
      expect(typeof c.score).toBe('number');
      expect(c.authors_groups).toEqual([]);
    }
    expect(body.debug_info.extracted_concepts).toBeGreaterThan(0);
    expect(body.authors_groups_settings).toBeNull();
  });

  it('shows a mark made with `refmatch mark`, and keeps it across a re-upload', async () => {
    const org = await createTestOrg(t);
    await upload(t.app, { apiKey: org.apiKey, fields: fields({ origin_id: 'marked' }) });
    const ada = ids.authorId('Ada Expert');
    await runCommand(t, 'mark', { org: org.id, originId: 'marked', author: ada, by: 'editor@journal.org' });
    const again = await upload(t.app, {
      apiKey: org.apiKey,
      fields: fields({ origin_id: 'marked', folder: 'ELSEWHERE' }),
    });
    const candidates = again.json().candidates as Array<{
      author_id: number;
      marked: boolean;
      marked_by: string | null;
    }>;
    expect(candidates.find((c) => c.author_id === ada)).toMatchObject({
      marked: true,
      marked_by: 'editor@journal.org',
    });
    for (const c of candidates.filter((c) => c.author_id !== ada)) {
      expect([c.marked, c.marked_by]).toEqual([false, null]);
    }
    // Another organization's upload of the same origin_id sees no mark.
    const other = await createTestOrg(t);
    const theirs = await upload(t.app, { apiKey: other.apiKey, fields: fields({ origin_id: 'marked' }) });
    expect((theirs.json().candidates as Array<{ marked: boolean }>).every((c) => !c.marked)).toBe(true);
  });

  it('computes candidates when exclude_candidates is sent empty', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, { apiKey: org.apiKey, fields: fields({ exclude_candidates: '' }) });
    expect(Array.isArray(res.json().candidates)).toBe(true);
    expect(res.json().candidates.length).toBeGreaterThan(0);
  });

  it('hands the form filters to the finder', async () => {
    const org = await createTestOrg(t);
    const none = await upload(t.app, { apiKey: org.apiKey, fields: fields({ max_articles_count: 0 }) });
    expect(none.statusCode).toBe(200);
    expect(none.json().candidates).toEqual([]);
    const ben = await upload(t.app, {
      apiKey: org.apiKey,
      fields: fields({ max_articles_count: 2, min_articles_count: 2 }),
    });
    expect((ben.json().candidates as Array<{ author_id: number }>).map((c) => c.author_id)).toEqual([
      ids.authorId('Ben Second'),
    ]);
  });

  it('never ranks the manuscript authors themselves', async () => {
    const org = await createTestOrg(t);
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields: fields({ author1_name: 'Ada Expert', author1_orcid: '0000-0001-0000-0017' }),
    });
    const authorIds = (res.json().candidates as Array<{ author_id: number }>).map((c) => c.author_id);
    expect(authorIds).not.toContain(ids.authorId('Ada Expert'));
  });
});

describe('two uploads of one origin_id at once', () => {
  it('keep the candidates of the manuscript as the last upload wrote it, whichever ranking ends last', async () => {
    const org = await createTestOrg(t);
    const first = await upload(t.app, { apiKey: org.apiKey, fields: fields({ origin_id: 'ms-race' }) });
    const id = first.json<{ manuscript_id: number }>().manuscript_id;
    const revisionNow = async () =>
      (await t.db.query<{ r: string }>('SELECT updated_at::text AS r FROM manuscripts WHERE id = $1', [id]))
        .rows[0]!.r;
    const older = await revisionNow();
    // The second upload replaces the manuscript (another title) and stores its own candidates.
    const second = await upload(t.app, {
      apiKey: org.apiKey,
      fields: fields({ origin_id: 'ms-race', title: 'Graph networks for molecules, revised' }),
    });
    const count = second.json<{ candidates: unknown[] }>().candidates.length;
    const newer = await revisionNow();
    expect(newer).not.toBe(older);
    // The first upload's ranking, finishing only now, stores nothing over them, nor clears them.
    expect(await saveCandidates(t.db, id, older, [], [])).toBe(false);
    await clearCandidates(t.db, id, older);
    await recordExtractedConcepts(t.db, id, older, 99);
    const stored = await t.db.query<{ candidate_count: number; extracted_concepts: number }>(
      `SELECT c.candidate_count, m.extracted_concepts FROM manuscript_candidates c
         JOIN manuscripts m ON m.id = c.manuscript_id WHERE c.manuscript_id = $1`,
      [id],
    );
    expect(stored.rows[0]!.candidate_count).toBe(count);
    expect(stored.rows[0]!.extracted_concepts).not.toBe(99);
    // The ranking of the manuscript as it stands is stored.
    expect(await saveCandidates(t.db, id, newer, [], [])).toBe(true);
  });
});
