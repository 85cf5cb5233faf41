// Conflicts of interest that must not be missed, seen through the upload (POST /api/external/proposal/):
// a cited work found by its title when the reference's DOI is not the corpus's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp } from '../helpers/app.ts';
import { baseFields, upload, type FilePart } from '../manuscripts/upload-helpers.ts';
import { makeDocx, paragraph } from '../parsing/make-files.ts';
import { buildCorpus, TOPIC } from './fixtures.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;

const CITED_TITLE = 'Equivariant message passing for molecular graphs';

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    // Cited by title; the corpus holds the work without a DOI.
    { authors: [{ name: 'Rita Refcited' }], title: CITED_TITLE },
    { authors: [{ name: 'Rita Refcited' }] },
    { authors: [{ name: 'Nell Neutral' }] },
    { authors: [{ name: 'Nell Neutral' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

type Flag =
  'coauth_conflicts' | 'aff_conflicts' | 'retracted_articles' | 'referenced_articles' | 'external_coi';

interface Candidate extends Record<Flag, { exists: boolean }> {
  author_id: number;
  name: string;
  orcid: string | null;
}

async function candidatesFor(
  apiKey: string,
  extra: Record<string, string | number>,
  files: FilePart[] = [],
): Promise<Candidate[]> {
  const fields = baseFields({
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    ...extra,
  });
  delete fields.exclude_candidates;
  const res = await upload(t.app, { apiKey, fields, files });
  expect(res.statusCode).toBe(200);
  return (res.json() as { candidates: Candidate[] }).candidates;
}

function withName(candidates: Candidate[], name: string): Candidate {
  const found = candidates.find((c) => c.author_id === ids.authorId(name));
  if (!found) throw new Error(`${name} is not among the candidates`);
  return found;
}

describe('conflicts are never missed', () => {
  it('a work cited with a DOI the corpus does not hold is still found by its title', async () => {
    const org = await createTestOrg(t);
    const docx = makeDocx([
      paragraph('Message passing graph neural networks for molecular property prediction', 'Title'),
      paragraph('Abstract', 'Heading1'),
      paragraph('We study graph neural networks for molecules.'),
      paragraph('References', 'Heading1'),
      paragraph(
        `[1] R. Refcited. ${CITED_TITLE}. Journal of Chemistry, 12(3):45-67, 2020. doi:10.9999/JCHEM.2020.001`,
      ),
    ]);
    const candidates = await candidatesFor(
      org.apiKey,
      { origin_id: 'ms-cited', author1_name: 'Nobody Incorpus' },
      [{ name: 'ms.docx', bytes: Buffer.from(docx) }],
    );
    expect(withName(candidates, 'Rita Refcited').referenced_articles.exists).toBe(true);
    expect(withName(candidates, 'Nell Neutral').referenced_articles.exists).toBe(false);
  });
});
