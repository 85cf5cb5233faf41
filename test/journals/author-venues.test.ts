// Journal ranking rule (docs/journals.md, "Method", step 5): where the manuscript's authors have
// published before weighs on the ranking, the authors found in the corpus by the referee finder's
// rule (an ORCID settles it; a name alone never does). Over HTTP, on a corpus made here: two venues
// hold word-for-word alike works on the manuscript's topic, one venue a few more of them, and the
// other the works of the manuscript's author on another topic.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { rankedVenueIds } from './ranked-venues.ts';
import { nameKey } from '../../src/corpus/authors/names.ts';

let t: TestApp;
const venues = { reefs: 0, heat: 0, filler: 0 };
const ORCID = '0000-0002-1825-0097';
const AUTHOR = 'Mara Okafor';

async function addSource(key: string, title: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type) VALUES ($1, $2, 'journal') RETURNING id`,
    [key, title],
  );
  return rows[0]!.id;
}

async function addWorks(
  sourceId: number,
  keyPrefix: string,
  count: number,
  title: string,
  abstract: string,
): Promise<number[]> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO works (work_key, title, abstract, publication_year, source_id)
     SELECT $1 || n, $2, $3, 2020, $4 FROM generate_series(1, $5::int) AS n RETURNING id`,
    [keyPrefix, title, abstract, sourceId, count],
  );
  return rows.map((r) => r.id);
}

const CORAL_TITLE = 'Coral reef bleaching during marine heatwaves';
const CORAL_ABSTRACT =
  'Thermal stress from marine heatwaves drives coral bleaching and symbiont loss on reefs.';

beforeAll(async () => {
  t = await createTestApp();
  venues.reefs = await addSource('test:reefs', 'Coral Reef Science');
  venues.heat = await addSource('test:heat', 'Marine Heatwave Letters');
  venues.filler = await addSource('test:filler', 'Proceedings of Everything');
  // Both venues have five works: four coral works and one other in the first, three coral works and
  // the author's two seagrass works in the second. By content alone the first fits better.
  await addWorks(venues.reefs, 'test:reefs-coral-', 4, CORAL_TITLE, CORAL_ABSTRACT);
  await addWorks(
    venues.reefs,
    'test:reefs-other-',
    1,
    'Kelp forest decline',
    'Urchin grazing and kelp loss.',
  );
  await addWorks(venues.heat, 'test:heat-coral-', 3, CORAL_TITLE, CORAL_ABSTRACT);
  const own = await addWorks(
    venues.heat,
    'test:heat-seagrass-',
    2,
    'Seagrass meadow carbon burial',
    'Sediment cores measure carbon stored under seagrass meadows.',
  );
  // The rest of the corpus, on other subjects, sets the venues' base rates.
  await addWorks(
    venues.filler,
    'test:filler-',
    100,
    'Medieval trade ledgers of Baltic merchants',
    'Account books of Hanseatic guilds record grain, timber and fur shipments.',
  );
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO authors (author_key, display_name, orcid, name_key) VALUES ('test:okafor', $1, $2, $3)
     RETURNING id`,
    [AUTHOR, ORCID, nameKey(AUTHOR)],
  );
  for (const workId of own) {
    await t.db.query('INSERT INTO authorships (work_id, position, author_id) VALUES ($1, 1, $2)', [
      workId,
      rows[0]!.id,
    ]);
  }
  await t.db.query(
    'UPDATE sources SET works_count = (SELECT count(*) FROM works w WHERE w.source_id = sources.id)',
  );
  await t.app.refmatch.index.refresh();
});

afterAll(async () => {
  await t?.close();
});

const manuscript = { title: 'Coral bleaching under marine heatwaves', abstract: CORAL_ABSTRACT };

describe("the authors' venues", () => {
  it('without authors the corpus knows, the venue with more similar works comes first', async () => {
    const ids = await rankedVenueIds(t, 'unknown-author', { ...manuscript, author1_name: 'Ada Lovelace' });
    expect(ids).toEqual([venues.reefs, venues.heat]);
  });

  it('a venue the authors publish in comes before one with a few more similar works', async () => {
    const ids = await rankedVenueIds(t, 'known-author', {
      ...manuscript,
      author1_name: AUTHOR,
      author1_orcid: ORCID,
    });
    expect(ids).toEqual([venues.heat, venues.reefs]);
  });

  it("a namesake's venues do not count: a name alone does not say who the author is", async () => {
    const ids = await rankedVenueIds(t, 'namesake', { ...manuscript, author1_name: AUTHOR });
    expect(ids).toEqual([venues.reefs, venues.heat]);
  });
});
