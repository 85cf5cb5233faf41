// The OpenAlex snapshot as published, built here from real records (the 200 works of the openalexPro
// fixture, split into partitions by their own updated_date, and the real author, source and
// institution entities): loaded once, then incrementally, with manifests and merged ids.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestSnapshot, type SnapshotReport } from '../../src/corpus/ingest/snapshot-load.ts';
import { ingestSnapshotCommand } from '../../src/corpus/commands.ts';
import { parseConfig } from '../../src/infra/config.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { OPENALEX, tempDir } from './helpers.ts';
import { MERGED_IDS_LINE_MAX_CHARS, readMergedIds } from '../../src/corpus/openalex/merged-ids.ts';
import { LineTooLongError } from '../../src/infra/csv-read.ts';

type Json = Record<string, unknown>;

let db: TestDatabase;
let root: string;
let works: Json[];
beforeEach(async () => {
  db = await createTestDatabase();
  root = await tempDir();
  const text = await readFile(path.join(OPENALEX, 'openalexPro-biodiversity-finance-200works.jsonl'), 'utf8');
  works = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Json);
});
afterEach(async () => {
  await db.destroy();
});

const day = (record: Json) => String(record.updated_date).slice(0, 10);
const key = (record: Json) => String(record.id).replace('https://openalex.org/', '');

/** Writes records as `<entity>/updated_date=<day>/part_000.gz` files and the entity's manifest. */
async function writeEntity(entity: string, records: Json[], extraManifest: string[] = []) {
  const byDay = new Map<string, Json[]>();
  for (const r of records) byDay.set(day(r), [...(byDay.get(day(r)) ?? []), r]);
  const entries = [];
  for (const [date, group] of byDay) {
    const dir = path.join(root, 'data', entity, `updated_date=${date}`);
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'part_000.gz'),
      gzipSync(group.map((r) => JSON.stringify(r)).join('\n') + '\n'),
    );
    entries.push({
      url: `s3://openalex/data/${entity}/updated_date=${date}/part_000.gz`,
      meta: { content_length: 1, record_count: group.length },
    });
  }
  for (const name of extraManifest) {
    entries.push({
      url: `s3://openalex/data/${entity}/${name}`,
      meta: { content_length: 1, record_count: 7 },
    });
  }
  await writeFile(path.join(root, 'data', entity, 'manifest'), JSON.stringify({ entries }));
}

async function writeMergedIds(entity: string, date: string, pairs: Array<[string, string]>) {
  const dir = path.join(root, 'data', 'merged_ids', entity);
  await mkdir(dir, { recursive: true });
  const csv = ['merge_date,id,merge_into_id', ...pairs.map(([from, into]) => `${date},${from},${into}`)].join(
    '\n',
  );
  await writeFile(path.join(dir, `${date}.csv.gz`), gzipSync(csv + '\n'));
}

async function entity(file: string, updatedDate: string): Promise<Json> {
  return {
    ...(JSON.parse(await readFile(path.join(OPENALEX, file), 'utf8')) as Json),
    updated_date: updatedDate,
  };
}

const load = (entities?: Array<'works' | 'authors' | 'sources' | 'institutions'>): Promise<SnapshotReport> =>
  ingestSnapshot({ db, progress: () => {} }, root, { batchSize: 50, ...(entities ? { entities } : {}) });

const count = async (sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(sql, params)).rows[0]!.n);

describe('ingest openalex-snapshot: the layout OpenAlex publishes', () => {
  it('loads every partition of every entity once, checks the manifests, and reads nothing again', async () => {
    await writeEntity('works', works);
    await writeEntity('authors', [await entity('A5023888391.json', '2025-11-01')]);
    await writeEntity('institutions', [await entity('I27837315.json', '2025-11-01')]);
    await writeEntity('sources', [await entity('S137773608.json', '2025-11-02')]);
    const days = new Set(works.map(day));

    const first = await load();
    expect(first.records).toBe(203);
    expect(first.bad_count).toBe(0);
    const worksReport = first.entities.find((e) => e.entity === 'works')!;
    expect(worksReport.partitions).toBe(days.size);
    expect(worksReport.partitions_loaded).toEqual([...days].sort());
    expect(worksReport.manifest).toEqual({
      files_listed: days.size,
      files_missing: [],
      files_unlisted: [],
      record_count_mismatches: [],
    });
    expect(first.entities.map((e) => e.entity)).toEqual(['works', 'authors', 'sources', 'institutions']);
    // Works first, into the empty corpus: the initial load.
    expect(worksReport.files[0]!.initial_load).toBe(true);
    expect(await count('SELECT count(*) AS n FROM works')).toBe(200);
    expect(await count('SELECT count(*) AS n FROM authors WHERE articles_count > 0')).toBeGreaterThan(100);

    const second = await load();
    expect(second.records).toBe(0);
    expect(second.entities.every((e) => e.partitions_loaded.length === 0)).toBe(true);
    expect(second.entities.find((e) => e.entity === 'works')!.partitions_unchanged).toBe(days.size);
    expect(await count('SELECT count(*) AS n FROM works')).toBe(200);
  });

  it('reads only a new partition: a changed work is updated, a new one added', async () => {
    await writeEntity('works', works);
    await load(['works']);
    const changed = { ...works[0]!, title: 'A title changed later', updated_date: '2026-11-20T00:00:00' };
    const added = {
      ...works[1]!,
      id: 'https://openalex.org/W9999999990',
      doi: null,
      updated_date: '2026-11-20T00:00:00',
    };
    await writeEntity('works', [...works.slice(1), changed, added]);

    const report = await load(['works']);
    const w = report.entities[0]!;
    // Its old partition lost the changed work (moved to the newer one): not read again.
    expect(w.partitions_loaded).toEqual(['2026-11-20']);
    expect(w.records).toBe(2);
    expect(await count('SELECT count(*) AS n FROM works')).toBe(201);
    const title = await db.query<{ title: string }>('SELECT title FROM works WHERE work_key = $1', [
      key(works[0]!),
    ]);
    expect(title.rows[0]!.title).toBe('A title changed later');
  });

  it('reads the newest loaded partition again when a later release gives it another file', async () => {
    await writeEntity('works', works);
    await load(['works']);
    const newest = [...new Set(works.map(day))].sort().at(-1)!;
    const extra = { ...works[2]!, id: 'https://openalex.org/W9999999991', doi: null, updated_date: newest };
    await writeFile(
      path.join(root, 'data', 'works', `updated_date=${newest}`, 'part_001.gz'),
      gzipSync(JSON.stringify(extra) + '\n'),
    );
    const report = await load(['works']);
    expect(report.entities[0]!.partitions_loaded).toEqual([newest]);
    expect(await count('SELECT count(*) AS n FROM works')).toBe(201);
  });

  it('does not mark a partition loaded while a file its manifest lists is missing, and reads it again', async () => {
    await writeEntity('works', works, ['updated_date=2025-11-06/part_001.gz']);
    const first = await load(['works']);
    expect(first.entities[0]!.manifest!.files_missing).toEqual(['updated_date=2025-11-06/part_001.gz']);
    const second = await load(['works']);
    expect(second.entities[0]!.partitions_loaded).toEqual(['2025-11-06']);
    expect(await count('SELECT count(*) AS n FROM works')).toBe(200);
  });

  it('reports a file whose records differ from the count its manifest gives', async () => {
    await writeEntity('works', works);
    const manifestPath = path.join(root, 'data', 'works', 'manifest');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
      entries: Array<{ url: string; meta: { record_count: number } }>;
    };
    manifest.entries[0]!.meta.record_count += 5;
    await writeFile(manifestPath, JSON.stringify(manifest));
    const report = await load(['works']);
    const listed = manifest.entries[0]!;
    expect(report.entities[0]!.manifest!.record_count_mismatches).toEqual([
      {
        file: listed.url.slice(listed.url.indexOf('updated_date=')),
        listed: listed.meta.record_count,
        read: listed.meta.record_count - 5,
      },
    ]);
  });
});

describe('ingest openalex-snapshot: merged ids', () => {
  it('finds the columns by their names trimmed (a header cell " id " is the id column)', async () => {
    const file = path.join(await tempDir(), 'merged.csv.gz');
    await writeFile(file, gzipSync(['merge_date, id ,merge_into_id ', '2026-11-21,W1,W2'].join('\n')));
    const chunks: Array<Array<{ from: string; into: string }>> = [];
    for await (const chunk of readMergedIds(file)) chunks.push(chunk);
    expect(chunks.flat()).toEqual([{ from: 'W1', into: 'W2' }]);
  });

  it("skips a row whose id holds a NUL (no text column stores one: the chunk's transaction failed on it)", async () => {
    const file = path.join(await tempDir(), 'merged.csv.gz');
    await writeFile(
      file,
      gzipSync(['merge_date,id,merge_into_id', '2026-11-21,W1\u0000,W2', '2026-11-21,W3,W4'].join('\n')),
    );
    const chunks: Array<Array<{ from: string; into: string }>> = [];
    for await (const chunk of readMergedIds(file)) chunks.push(chunk);
    expect(chunks.flat()).toEqual([{ from: 'W3', into: 'W4' }]);
  });

  it('reads a merge file through the shared CSV reader, its lines bounded', async () => {
    const file = path.join(await tempDir(), 'merged.csv.gz');
    const read = async (lines: string[]) => {
      await writeFile(file, gzipSync(lines.join('\r\n')));
      const chunks: Array<Array<{ from: string; into: string }>> = [];
      for await (const chunk of readMergedIds(file)) chunks.push(chunk);
      return chunks.flat();
    };
    const head = ['\uFEFFmerge_date,id,merge_into_id', '', '2026-11-21,https://openalex.org/W1,W2'];
    expect(await read([...head, '2026-11-21,A3,A3', '2026-11-21,A4,A5'])).toEqual([
      { from: 'W1', into: 'W2' },
      { from: 'A4', into: 'A5' },
    ]);
    await expect(read([...head, `2026-11-21,A3,${'A'.repeat(MERGED_IDS_LINE_MAX_CHARS)}`])).rejects.toEqual(
      new LineTooLongError(4, MERGED_IDS_LINE_MAX_CHARS),
    );
  });

  it('deletes a merged work, recounts its authors, and logs the deletion for the search index', async () => {
    await writeEntity('works', works);
    await load(['works']);
    const merged = works.find((w) => (w.authorships as Json[]).some((a) => (a.author as Json).id))!;
    const author = String(((merged.authorships as Json[])[0]!.author as Json).id).replace(
      'https://openalex.org/',
      '',
    );
    const articles = () => count('SELECT articles_count AS n FROM authors WHERE author_key = $1', [author]);
    const before = await articles();
    const deletionsBefore = await count('SELECT count(*) AS n FROM work_deletions');
    await writeMergedIds('works', '2026-11-21', [[key(merged), key(works.find((w) => w !== merged)!)]]);

    const report = await load(['works']);
    expect(report.entities[0]).toMatchObject({
      merged_id_files_applied: ['2026-11-21'],
      merged_ids_read: 1,
      merged_in_corpus: 1,
    });
    expect(await count('SELECT count(*) AS n FROM works WHERE work_key = $1', [key(merged)])).toBe(0);
    expect(await articles()).toBe(before - 1);
    expect(await count('SELECT count(*) AS n FROM work_deletions')).toBe(deletionsBefore + 1);
    // Applied once: the next run leaves it.
    expect((await load(['works'])).entities[0]!.merged_id_files_applied).toEqual([]);
  });

  it('folds a merged author into its survivor (authorships, group links, metrics) or renames it when the survivor is absent', async () => {
    await writeEntity('works', works);
    await load(['works']);
    const byArticles = await db.query<{ id: number; author_key: string; articles: number }>(
      `SELECT id, author_key, articles_count AS articles FROM authors
        WHERE author_key LIKE 'A%' ORDER BY articles_count DESC, author_key LIMIT 3`,
    );
    const [survivor, merged, renamed] = byArticles.rows;
    const org = await db.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ('Merges') RETURNING id`,
    );
    const group = await db.query<{ id: number }>(
      `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'g') RETURNING id`,
      [org.rows[0]!.id],
    );
    await db.query(
      `INSERT INTO group_authors (group_id, organization_id, client_id, name, linked_author_id) VALUES ($1, $3, 'c1', 'Someone', $2)`,
      [group.rows[0]!.id, merged!.id, org.rows[0]!.id],
    );
    // A record whose person is the merged record (corpus/authors/people.ts) must not point at a deleted row.
    await db.query('UPDATE authors SET person_id = $1 WHERE id = $2', [merged!.id, renamed!.id]);
    await writeMergedIds('authors', '2026-11-21', [
      [merged!.author_key, survivor!.author_key],
      [renamed!.author_key, 'A9999999999'],
    ]);

    const report = await load(['authors']);
    expect(report.entities[0]).toMatchObject({ merged_ids_read: 2, merged_in_corpus: 2 });
    expect(await count('SELECT count(*) AS n FROM authors WHERE author_key = $1', [merged!.author_key])).toBe(
      0,
    );
    expect(await count('SELECT count(*) AS n FROM authorships WHERE author_id = $1', [survivor!.id])).toBe(
      survivor!.articles + merged!.articles,
    );
    expect(await count('SELECT articles_count AS n FROM authors WHERE id = $1', [survivor!.id])).toBe(
      survivor!.articles + merged!.articles,
    );
    expect(
      await count('SELECT linked_author_id AS n FROM group_authors WHERE group_id = $1', [group.rows[0]!.id]),
    ).toBe(survivor!.id);
    expect(await count(`SELECT id AS n FROM authors WHERE author_key = 'A9999999999'`)).toBe(renamed!.id);
    expect(await count('SELECT count(*) AS n FROM authors WHERE person_id = $1', [merged!.id])).toBe(0);
  });

  it('moves works and an organization’s journal link from a merged source to its survivor', async () => {
    await writeEntity('works', works);
    await load(['works']);
    const sources = await db.query<{ id: number; source_key: string; works_count: number }>(
      `SELECT s.id, s.source_key, s.works_count FROM sources s WHERE works_count > 0 ORDER BY works_count DESC, source_key LIMIT 2`,
    );
    const [survivor, merged] = sources.rows;
    const org = await db.query<{ id: number }>(
      `INSERT INTO organizations (name) VALUES ('Links') RETURNING id`,
    );
    const folder = await db.query<{ id: number }>(
      `INSERT INTO folders (organization_id, name) VALUES ($1, 'JX') RETURNING id`,
      [org.rows[0]!.id],
    );
    await db.query('INSERT INTO journal_links (organization_id, source_id, folder_id) VALUES ($1, $2, $3)', [
      org.rows[0]!.id,
      merged!.id,
      folder.rows[0]!.id,
    ]);
    await writeMergedIds('sources', '2026-11-21', [[merged!.source_key, survivor!.source_key]]);

    await load(['sources']);
    expect(await count('SELECT count(*) AS n FROM sources WHERE id = $1', [merged!.id])).toBe(0);
    expect(await count('SELECT count(*) AS n FROM works WHERE source_id = $1', [survivor!.id])).toBe(
      survivor!.works_count + merged!.works_count,
    );
    expect(await count('SELECT works_count AS n FROM sources WHERE id = $1', [survivor!.id])).toBe(
      survivor!.works_count + merged!.works_count,
    );
    expect(
      await count('SELECT source_id AS n FROM journal_links WHERE organization_id = $1', [org.rows[0]!.id]),
    ).toBe(survivor!.id);
  });

  it('replaces a merged institution in authorships and authors, keeping each list’s order', async () => {
    // Recent works, so that their authors keep the institutions among their recent affiliations.
    const year = new Date().getUTCFullYear();
    await writeEntity(
      'works',
      works.map((w) => ({ ...w, publication_year: year })),
    );
    await load(['works']);
    const institutions = await db.query<{ id: number; institution_key: string }>(
      `SELECT i.id, i.institution_key FROM institutions i
        WHERE EXISTS (SELECT 1 FROM authorships a WHERE i.id = ANY(a.institution_ids))
        ORDER BY i.institution_key LIMIT 2`,
    );
    const [survivor, merged] = institutions.rows;
    const usedBefore = await count('SELECT count(*) AS n FROM authorships WHERE $1 = ANY(institution_ids)', [
      merged!.id,
    ]);
    expect(usedBefore).toBeGreaterThan(0);
    const naming = (id: number) =>
      count(
        `SELECT count(*) AS n FROM authors
          WHERE recent_affiliations @> jsonb_build_array(jsonb_build_object('institution_id', $1::int))`,
        [id],
      );
    expect(await naming(merged!.id)).toBeGreaterThan(0);
    await writeMergedIds('institutions', '2026-11-21', [
      [merged!.institution_key, survivor!.institution_key],
    ]);

    await load(['institutions']);
    expect(
      await count('SELECT count(*) AS n FROM authorships WHERE $1 = ANY(institution_ids)', [merged!.id]),
    ).toBe(0);
    expect(await count('SELECT count(*) AS n FROM institutions WHERE id = $1', [merged!.id])).toBe(0);
    expect(
      await count('SELECT count(*) AS n FROM authors WHERE recent_institution_id = $1', [merged!.id]),
    ).toBe(0);
    // The recent affiliations name the survivor instead (recomputed at the end of the run).
    expect(await naming(merged!.id)).toBe(0);
    expect(await naming(survivor!.id)).toBeGreaterThan(0);
  });
});

describe('the ingest openalex-snapshot command', () => {
  it('refuses an unknown entity and a folder that holds no snapshot', async () => {
    const ctx = { db, progress: () => {}, config: parseConfig({}) };
    await expect(ingestSnapshotCommand.run(ctx, { dir: root, entities: ['topics'] })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(ingestSnapshotCommand.run(ctx, { dir: root })).rejects.toThrow(/No OpenAlex snapshot under/);
  });
});
