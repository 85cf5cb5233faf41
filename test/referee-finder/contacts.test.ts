// Contactable candidates, over HTTP: one person is one candidate, and a candidate's email comes from
// every source we hold (the corpus's affiliation strings, the organization's group records, the
// authors of its own manuscripts), never from another organization's.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { rankingFields, upload } from '../manuscripts/upload-helpers.ts';
import { runCommand } from '../manuscripts/cli-helpers.ts';
import { tempDir } from '../corpus/helpers.ts';
import { buildCorpus, TOPIC } from './fixtures.ts';

let t: TestApp;
let ids: Awaited<ReturnType<typeof buildCorpus>>;

const ADA_ORCID = '0000-0002-7100-0011';

beforeAll(async () => {
  t = await createTestApp();
  ids = await buildCorpus(t.db, [
    // An address in the affiliation string the two authors share: it spells Pia's name, not Max's.
    {
      authors: [
        {
          name: 'Pia Paperwright',
          affiliation: 'Dept. of Chemistry, University of Utopia. pia.paperwright@utopia.example',
        },
        {
          name: 'Max Mute',
          affiliation: 'Dept. of Chemistry, University of Utopia. pia.paperwright@utopia.example',
        },
      ],
    },
    { authors: [{ name: 'Max Mute' }] },
    { authors: [{ name: 'Ada Learnt', orcid: ADA_ORCID }] },
    { authors: [{ name: 'Ada Learnt', orcid: ADA_ORCID }] },
    // One person written two ways, with a co-author in common.
    { authors: [{ name: 'Lena K. Duo' }, { name: 'Cal Common' }] },
    { authors: [{ name: 'Lena K. Duo' }] },
    { authors: [{ name: 'Lena Kim Duo' }, { name: 'Cal Common' }] },
    { authors: [{ name: 'Lena Kim Duo' }] },
  ]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => t.close());

interface Candidate {
  author_id: number;
  name: string;
  email: string | null;
  articlesCount: number;
  external_coi: { exists: boolean };
}

async function candidatesFor(
  org: TestOrg,
  extra: Record<string, string | number> = {},
): Promise<Candidate[]> {
  const fields = rankingFields({
    title: 'Message passing graph neural networks for molecular property prediction',
    abstract: TOPIC,
    author1_name: 'Nobody Incorpus',
    ...extra,
  });
  const res = await upload(t.app, { apiKey: org.apiKey, fields });
  expect(res.statusCode).toBe(200);
  return (res.json() as { candidates: Candidate[] }).candidates;
}

const named = (cs: Candidate[], name: string) => cs.filter((c) => c.name === name);

describe('one person, one candidate', () => {
  it('two records of one person are one candidate, with the metrics of both', async () => {
    const org = await createTestOrg(t);
    const candidates = await candidatesFor(org, { origin_id: 'ms-duo' });
    const duo = candidates.filter((c) => c.name.startsWith('Lena'));
    expect(duo).toHaveLength(1);
    expect(duo[0]!.articlesCount).toBe(4);
  });
});

describe('emails', () => {
  it('an address in a shared affiliation string goes to the author it names, and include_without_email=false keeps that corpus candidate', async () => {
    const org = await createTestOrg(t);
    await runCommand(t, 'org settings', { org: org.id, includeWithoutEmail: false });
    const candidates = await candidatesFor(org, { origin_id: 'ms-mail' });
    expect(named(candidates, 'Pia Paperwright')).toEqual([
      expect.objectContaining({ email: 'pia.paperwright@utopia.example' }),
    ]);
    expect(named(candidates, 'Max Mute')).toEqual([]);
    expect(candidates.every((c) => c.email)).toBe(true);
  });

  it("an email learnt from an organization's manuscript serves that organization alone", async () => {
    const own = await createTestOrg(t);
    const other = await createTestOrg(t);
    // The organization's manuscript names Ada with her ORCID and an email: she is its author (not a
    // candidate for it), and the organization now knows her address.
    const first = await candidatesFor(own, {
      origin_id: 'ms-ada-author',
      author1_name: 'Ada Learnt',
      author1_orcid: ADA_ORCID,
      author1_email: 'ada@own-press.example',
    });
    expect(named(first, 'Ada Learnt')).toEqual([]);
    const later = await candidatesFor(own, { origin_id: 'ms-later' });
    expect(named(later, 'Ada Learnt')).toEqual([expect.objectContaining({ email: 'ada@own-press.example' })]);
    // Another organization never sees it.
    const theirs = await candidatesFor(other, { origin_id: 'ms-later' });
    expect(named(theirs, 'Ada Learnt')).toEqual([expect.objectContaining({ email: null })]);
    expect(JSON.stringify(theirs)).not.toContain('own-press');
    expect(ids.authorId('Ada Learnt')).toBeGreaterThan(0);

    // A flag by the address the candidate is shown with matches it; another organization's flag by
    // the same address matches nobody, since that organization was never told it.
    for (const org of [own, other]) {
      const file = path.join(await tempDir(), 'coi.csv');
      await writeFile(file, 'ms-flagged,ADA@own-press.example\n');
      await runCommand(t, 'coi import', { org: org.id, file });
    }
    const flagged = await candidatesFor(own, { origin_id: 'ms-flagged' });
    expect(named(flagged, 'Ada Learnt')).toEqual([
      expect.objectContaining({ email: 'ada@own-press.example', external_coi: { exists: true } }),
    ]);
    const notTheirs = await candidatesFor(other, { origin_id: 'ms-flagged' });
    expect(named(notTheirs, 'Ada Learnt')).toEqual([
      expect.objectContaining({ external_coi: { exists: false } }),
    ]);
  });
});
