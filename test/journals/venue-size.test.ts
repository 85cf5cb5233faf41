// Journal ranking rule (docs/journals.md, "Method", step 3): a venue's votes are divided by a mild
// function of its size, so a huge, broad venue does not win on volume alone, while a venue with many
// more matching works still does. Over HTTP, on a corpus made here where the matching works of both
// venues are word for word alike, so only their number and the venues' sizes differ.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { rankedVenueIds } from './ranked-venues.ts';

let t: TestApp;
const venues = { broad: 0, reefs: 0, glacierNote: 0 };

async function addSource(key: string, title: string): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO sources (source_key, title, type) VALUES ($1, $2, 'journal') RETURNING id`,
    [key, title],
  );
  return rows[0]!.id;
}

async function addWorks(sourceId: number, keyPrefix: string, count: number, title: string, abstract: string) {
  await t.db.query(
    `INSERT INTO works (work_key, title, abstract, publication_year, source_id)
     SELECT $1 || n, $2, $3, 2020, $4 FROM generate_series(1, $5::int) AS n`,
    [keyPrefix, title, abstract, sourceId, count],
  );
}

const CORAL_TITLE = 'Coral reef bleaching during marine heatwaves';
const CORAL_ABSTRACT =
  'Thermal stress from marine heatwaves drives coral bleaching and symbiont loss on reefs.';
const GLACIER_TITLE = 'Glacier meltwater runoff in alpine catchments';
const GLACIER_ABSTRACT = 'Meltwater discharge from retreating glaciers feeds alpine rivers and lakes.';

beforeAll(async () => {
  t = await createTestApp();
  venues.broad = await addSource('test:broad', 'Proceedings of Everything');
  venues.reefs = await addSource('test:reefs', 'Coral Reef Science');
  venues.glacierNote = await addSource('test:glacier-note', 'Glacier Notes');
  // The broad venue: 300 works on another subject, 4 coral works and 10 glacier works.
  await addWorks(
    venues.broad,
    'test:broad-history-',
    300,
    'Medieval trade ledgers of Baltic merchants',
    'Account books of Hanseatic guilds record grain, timber and fur shipments.',
  );
  await addWorks(venues.broad, 'test:broad-coral-', 4, CORAL_TITLE, CORAL_ABSTRACT);
  await addWorks(venues.broad, 'test:broad-glacier-', 10, GLACIER_TITLE, GLACIER_ABSTRACT);
  // The focused venue: 3 coral works, alike to the broad venue's.
  await addWorks(venues.reefs, 'test:reefs-', 3, CORAL_TITLE, CORAL_ABSTRACT);
  // A one-work venue on glaciers.
  await addWorks(venues.glacierNote, 'test:glacier-note-', 1, GLACIER_TITLE, GLACIER_ABSTRACT);
  await t.db.query(
    'UPDATE sources SET works_count = (SELECT count(*) FROM works w WHERE w.source_id = sources.id)',
  );
  await t.app.refmatch.index.refresh();
});

afterAll(async () => {
  await t?.close();
});

describe('venue size', () => {
  it('a small venue devoted to the topic beats a huge broad venue with a few more equally close works', async () => {
    // Summed votes (the JANE method) would put the broad venue first: 4 alike works against 3.
    const ids = await rankedVenueIds(t, 'coral', {
      title: 'Coral bleaching under marine heatwaves',
      abstract: CORAL_ABSTRACT,
    });
    expect(ids.slice(0, 2)).toEqual([venues.reefs, venues.broad]);
  });

  it('a huge venue with many more close works still beats a one-work venue', async () => {
    // The size prior keeps a tiny venue from winning on a single vote.
    const ids = await rankedVenueIds(t, 'glacier', {
      title: 'Runoff of glacier meltwater',
      abstract: GLACIER_ABSTRACT,
    });
    expect(ids.slice(0, 2)).toEqual([venues.broad, venues.glacierNote]);
  });
});
