// The file's authors the form leaves out (an editorial system that sends the corresponding author
// alone), through the upload: with `prefer=supplied` they are not the manuscript's authors as stored
// and answered, but they are its authors for conflicts: never its candidates, their co-authors and
// colleagues flagged, with evidence that says the author was read from the file. The file is the
// "Ten quick tips for deep learning in biology" DOCX (20 authors, each with an ORCID iD).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, testConfig, type TestApp, type TestOrg } from '../helpers/app.ts';
import { fixture, rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus } from './fixtures.ts';
import { pageAs, signInAs } from '../helpers/dashboard.ts';
import { updateSettings, type Prefer } from '../../src/organizations/organizations.ts';
import type { Conflict } from '../../src/referee-finder/conflict-policy.ts';

const DOCX = fixture('manuscripts/deep-rules/manuscript.docx');
// The third author of the file, by the ORCID iD the file gives him; the form below names only the first.
const GREENE_ORCID = '0000-0001-8713-9213';
const LEE_ORCID = '0000-0002-7133-8397';
const DEEP =
  'Deep learning in biology. Deep neural networks learn representations from genomic sequences and ' +
  'biological images; we give quick tips for training deep learning models on biological data, ' +
  'avoiding overfitting and data leakage, and for interpreting the models.';
const SHARED = 'Deep learning models of gene expression, written by Greene and Cora';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;

beforeAll(async () => {
  // A generous parse time: the machine running the suite may be busy.
  t = await createTestApp({ parsing: { ...testConfig().parsing, timeoutMs: 180_000 } });
  ids = await buildCorpus(t.db, [
    {
      authors: [{ name: 'Casey S. Greene', orcid: GREENE_ORCID }, { name: 'Cora Cowriter' }],
      title: SHARED,
      abstract: DEEP,
    },
    { authors: [{ name: 'Casey S. Greene', orcid: GREENE_ORCID }], abstract: DEEP },
    { authors: [{ name: 'Cora Cowriter' }], abstract: DEEP },
    // A colleague of the file's fifth author, Finlay Maguire ("Faculty of Computer Science, Dalhousie
    // University" in the file), in a recent work.
    {
      authors: [
        { name: 'Dale Haligonian', affiliation: 'Department of Biology, Dalhousie University, Halifax' },
      ],
      abstract: DEEP,
      year: 2025,
    },
    { authors: [{ name: 'Olga Outsider' }], abstract: DEEP },
    { authors: [{ name: 'Olga Outsider' }], abstract: DEEP },
    // A record with the file-only fifth author's name and nothing else of his: the name alone settles
    // no one, so it stays a candidate, and the page says whose name it carries.
    {
      authors: [{ name: 'Finlay Maguire', affiliation: 'Institute of Marine Studies, Lisbon' }],
      abstract: DEEP,
    },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t?.close());

async function orgPreferring(prefer: Prefer): Promise<TestOrg> {
  const org = await createTestOrg(t);
  // Before the first request: the key verifier remembers the organization's settings for a while.
  await updateSettings(t.db, org.id, { prefer });
  return org;
}

interface Candidate {
  author_id: number;
  coauth_conflicts: { exists: boolean };
  aff_conflicts: { exists: boolean };
}

/** Uploads the DOCX with a form naming its first author only; the answer, evidence and stored authors. */
async function uploadNamingOne(org: TestOrg, originId: string) {
  const res = await upload(t.app, {
    apiKey: org.apiKey,
    fields: rankingFields({
      origin_id: originId,
      title: 'Ten quick tips for deep learning in biology',
      abstract: DEEP,
      authors_count: 1,
      author1_name: 'Benjamin D. Lee',
      author1_email: 'benjamindlee@me.com',
    }),
    files: [{ name: 'manuscript.docx', bytes: DOCX }],
  });
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { candidates: Candidate[]; manuscript_id: number };
  const stored = await t.db.query<{
    authors: Array<{ name: string; orcid: string | null }>;
    candidates: Array<{ author_id: number; conflicts: Conflict[] }>;
  }>(
    `SELECT m.authors, c.candidates FROM manuscripts m JOIN manuscript_candidates c ON c.manuscript_id = m.id
      WHERE m.organization_id = $1 AND m.origin_id = $2`,
    [org.id, originId],
  );
  const row = stored.rows[0]!;
  const candidate = (name: string) => body.candidates.find((c) => c.author_id === ids.authorId(name));
  const evidence = (name: string) =>
    row.candidates.find((c) => c.author_id === ids.authorId(name))?.conflicts ?? [];
  return { body, authors: row.authors, candidate, evidence, manuscriptId: body.manuscript_id };
}

/** The manuscript page's text as an editor of the organization reads it (tags and isolates out). */
async function pageText(org: TestOrg, manuscriptId: number): Promise<string> {
  const editor = await signInAs(t, org.id, 'editor');
  const page = await pageAs(t.app, editor, `/dashboard/manuscripts/${manuscriptId}`);
  return page
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ');
}

describe("the file's authors the form leaves out, with prefer=supplied", () => {
  it('flags the co-author of a file-only author, says so in the evidence, and never ranks that author', async () => {
    const org = await orgPreferring('supplied');
    const { candidate, evidence } = await uploadNamingOne(org, 'fo-1');
    // Casey S. Greene is on the file's byline (with his ORCID iD), not in the form: not a referee
    // of his own manuscript.
    expect(candidate('Casey S. Greene')).toBeUndefined();
    // His co-author is flagged, and the evidence names him as read from the file.
    expect(candidate('Cora Cowriter')?.coauth_conflicts.exists).toBe(true);
    expect(evidence('Cora Cowriter')).toContainEqual({
      kind: 'coauth_conflicts',
      evidence: {
        work: expect.objectContaining({ title: SHARED }),
        manuscript_author_id: ids.authorId('Casey S. Greene'),
        manuscript_author_only_in_file: true,
      },
    });
    // A colleague of an author the corpus does not hold, by the affiliation the file gives that author.
    expect(candidate('Dale Haligonian')?.aff_conflicts.exists).toBe(true);
    expect(evidence('Dale Haligonian')).toContainEqual({
      kind: 'aff_conflicts',
      evidence: expect.objectContaining({
        manuscript_source: 'manuscript',
        manuscript_author: 'Finlay Maguire',
        manuscript_author_only_in_file: true,
      }),
    });
    // Someone unrelated stays a candidate without a conflict.
    expect(candidate('Olga Outsider')).toMatchObject({
      coauth_conflicts: { exists: false },
      aff_conflicts: { exists: false },
    });
  });

  it('keeps the stored and answered author list the supplied one', async () => {
    const org = await orgPreferring('supplied');
    const { authors } = await uploadNamingOne(org, 'fo-2');
    // The documented merge: the form's author, completed from the file (his ORCID iD), and no other.
    expect(authors).toEqual([expect.objectContaining({ name: 'Benjamin D. Lee', orcid: LEE_ORCID })]);
  });
});

describe('with prefer=parsed', () => {
  it('changes nothing: the file is the author list, and no evidence is marked as from the file alone', async () => {
    const org = await orgPreferring('parsed');
    const { candidate, evidence, authors } = await uploadNamingOne(org, 'fo-3');
    expect(authors).toHaveLength(20);
    expect(candidate('Casey S. Greene')).toBeUndefined();
    expect(candidate('Cora Cowriter')?.coauth_conflicts.exists).toBe(true);
    const marked = [...evidence('Cora Cowriter'), ...evidence('Dale Haligonian')].filter(
      (c) => 'manuscript_author_only_in_file' in c.evidence,
    );
    expect(marked).toEqual([]);
    expect(candidate('Dale Haligonian')?.aff_conflicts.exists).toBe(true);
  });
});

describe('the manuscript page', () => {
  it("lists the file's authors the form left out as used for conflicts, and marks the evidence they gave", async () => {
    const org = await orgPreferring('supplied');
    const { manuscriptId } = await uploadNamingOne(org, 'fo-page');
    const text = await pageText(org, manuscriptId);
    expect(text).toContain('Authors read from the file, not in the form; used for conflicts');
    const listed = text.slice(text.indexOf('Authors read from the file, not in the form'));
    expect(listed).toContain('Casey S. Greene');
    expect(listed).toContain('Finlay Maguire');
    expect(text).toContain('(that author was read from the file, not in the form)');
  });

  it("says a candidate carries the name of an author read from the file, as of a supplied author's", async () => {
    const org = await orgPreferring('supplied');
    const { candidate, manuscriptId } = await uploadNamingOne(org, 'fo-page-namesake');
    expect(candidate('Finlay Maguire'), 'the namesake record is still a candidate').toBeDefined();
    const text = await pageText(org, manuscriptId);
    expect(text).toContain("Named as the manuscript's author Finlay Maguire");
  });

  it('lists what the upload used, not what the merge would give today: none for an upload made before the list was kept', async () => {
    const org = await orgPreferring('supplied');
    const { manuscriptId } = await uploadNamingOne(org, 'fo-page-older');
    // As migration 0117 leaves a row written before it: the upload ranked without the file's authors.
    await t.db.query('UPDATE manuscripts SET file_only_authors = NULL WHERE id = $1', [manuscriptId]);
    const text = await pageText(org, manuscriptId);
    expect(text).not.toContain('Authors read from the file, not in the form');
  });

  it('lists none with prefer=parsed', async () => {
    const org = await orgPreferring('parsed');
    const { manuscriptId } = await uploadNamingOne(org, 'fo-page-parsed');
    const text = await pageText(org, manuscriptId);
    expect(text).not.toContain('Authors read from the file, not in the form');
    expect(text).not.toContain('that author was read from the file');
  });
});
