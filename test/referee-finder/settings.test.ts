// Upload filters (inclusive bounds), the organization's settings on emails, and conflicts declared
// by the organization through `refmatch coi import`.
import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { coiImport } from '../../src/referee-finder/commands.ts';
import {
  COI_FILE_MAX_BYTES,
  COI_LINE_MAX_CHARS,
  COI_QUOTED_CHARS,
  COI_REJECTED_LISTED,
} from '../../src/referee-finder/coi-limits.ts';
import type { Database } from '../../src/infra/db/index.ts';
import { MAX_MARKS_IN_A_ROW } from '../../src/infra/storable-text.ts';
import { COI_WRITE_BATCH_ROWS, importCoi, type CoiRow } from '../../src/referee-finder/external-coi.ts';
import { testConfig, createTestOrg } from '../helpers/app.ts';
import { tempDir } from '../corpus/helpers.ts';
import { finderScope, manuscript } from './fixtures.ts';

const setup = finderScope(afterEach);

async function importCsv(db: Database, org: number, csv: string) {
  const file = path.join(await tempDir(), 'coi.csv');
  await writeFile(file, csv);
  return coiImport.run({ config: testConfig(), db, progress: () => {} }, { org, file });
}

const year = new Date().getUTCFullYear();

describe('filters', () => {
  it('h-index, academic age and articles count bounds are inclusive', async () => {
    const { ids, org, finder } = await setup([
      // Senior: 3 works cited 5 times each (h-index 3), first published 10 years ago.
      { authors: [{ name: 'Sen Senior' }], cited: 5, year: year - 10 },
      { authors: [{ name: 'Sen Senior' }], cited: 5, year: year - 5 },
      { authors: [{ name: 'Sen Senior' }], cited: 5, year: year - 1 },
      // Junior: one uncited work two years ago (h-index 0, 1 article, age 2).
      { authors: [{ name: 'Jun Junior' }], year: year - 2 },
    ]);
    const senior = ids.authorId('Sen Senior');
    const junior = ids.authorId('Jun Junior');
    const m = manuscript(org.id);
    const found = async (filters: Record<string, number>) =>
      (await finder.find(m, { filters })).candidates.map((c) => c.author_id).sort();

    expect(await found({})).toEqual([senior, junior].sort());
    const row = (await finder.find(m)).candidates.find((c) => c.author_id === senior)!;
    expect(row.hIndex).toBe(3);
    expect(row.articlesCount).toBe(3);
    expect(await found({ minHIndex: 3 })).toEqual([senior]);
    expect(await found({ maxHIndex: 0 })).toEqual([junior]);
    expect(await found({ minHIndex: 1, maxHIndex: 2 })).toEqual([]);
    expect(await found({ minAcademicAge: 10 })).toEqual([senior]);
    expect(await found({ maxAcademicAge: 2 })).toEqual([junior]);
    expect(await found({ minAcademicAge: 3, maxAcademicAge: 9 })).toEqual([]);
    expect(await found({ minArticlesCount: 3 })).toEqual([senior]);
    expect(await found({ maxArticlesCount: 1 })).toEqual([junior]);
    expect(await found({ minArticlesCount: 2, maxArticlesCount: 2 })).toEqual([]);
  });
});

describe('include_without_email', () => {
  it("keeps candidates with a corpus email or one from the organization's own group records, never another's", async () => {
    const { db, ids, org, finder } = await setup([
      { authors: [{ name: 'Cora Corpusmail' }] },
      { authors: [{ name: 'Gus Groupmail' }] },
      { authors: [{ name: 'Otto Othersmail' }] },
      { authors: [{ name: 'Nell Nomail' }] },
    ]);
    await db.query(`UPDATE authors SET emails = '{cora@uni.example}' WHERE id = $1`, [
      ids.authorId('Cora Corpusmail'),
    ]);
    const other = await createTestOrg({ db });
    for (const [orgId, name, email] of [
      [org.id, 'Gus Groupmail', 'gus@own.example'],
      [other.id, 'Otto Othersmail', 'otto@other.example'],
    ] as const) {
      const { rows } = await db.query<{ id: number }>(
        `INSERT INTO authors_groups (organization_id, name) VALUES ($1, 'Board') RETURNING id`,
        [orgId],
      );
      await db.query(
        `INSERT INTO group_authors (group_id, client_id, organization_id, name, emails, linked_author_id)
         VALUES ($1, 'c1', $2, $3, $4, $5)`,
        [rows[0]!.id, orgId, name, [email], ids.authorId(name)],
      );
    }
    const m = manuscript(org.id);
    const all = (await finder.find(m)).candidates;
    const emailOf = (name: string) => all.find((c) => c.name === name)!.email;
    expect(emailOf('Cora Corpusmail')).toBe('cora@uni.example');
    expect(emailOf('Gus Groupmail')).toBe('gus@own.example');
    expect(emailOf('Otto Othersmail')).toBeNull();
    expect(emailOf('Nell Nomail')).toBeNull();
    const withEmail = (await finder.find(m, { includeWithoutEmail: false })).candidates;
    expect(withEmail.map((c) => c.name).sort()).toEqual(['Cora Corpusmail', 'Gus Groupmail']);
  });
});

describe('external_coi', () => {
  it('flags pairs the organization imported, by ORCID, email or author id, for one manuscript or all (*)', async () => {
    const { db, ids, org, finder } = await setup([
      { authors: [{ name: 'Ora Orcidflag', orcid: '0000-0003-1415-9269' }] },
      { authors: [{ name: 'Eve Emailflag' }] },
      { authors: [{ name: 'Ian Idflag' }] },
      { authors: [{ name: 'Mo Othermanuscript' }] },
      { authors: [{ name: 'Una Unflagged' }] },
    ]);
    await db.query(`UPDATE authors SET emails = '{eve@lab.example}' WHERE id = $1`, [
      ids.authorId('Eve Emailflag'),
    ]);
    const other = await createTestOrg({ db });
    const report = await importCsv(
      db,
      org.id,
      [
        'origin_id,person',
        '*,https://orcid.org/0000-0003-1415-9269',
        'MS-1,EVE@lab.example',
        `MS-1,${ids.authorId('Ian Idflag')}`,
        `MS-2,${ids.authorId('Mo Othermanuscript')}`,
        'MS-1,not a person',
      ].join('\n'),
    );
    expect(report).toMatchObject({
      rows: 4,
      inserted: 4,
      rejected: [{ line: 6, row: 6 }],
      rejected_count: 1,
    });
    await importCsv(db, other.id, `*,${ids.authorId('Una Unflagged')}\n`);

    const flagged = async (originId: string) =>
      (await finder.find(manuscript(org.id, { originId }))).candidates
        .filter((c) => c.external_coi.exists)
        .map((c) => c.name)
        .sort();
    expect(await flagged('MS-1')).toEqual(['Eve Emailflag', 'Ian Idflag', 'Ora Orcidflag']);
    expect(await flagged('MS-2')).toEqual(['Mo Othermanuscript', 'Ora Orcidflag']);
    const clean = await finder.find(manuscript(org.id), { includeConflicts: false });
    expect(clean.candidates.map((c) => c.name).sort()).toEqual(['Mo Othermanuscript', 'Una Unflagged']);
  });
});

describe('refmatch coi import, bounded (docs/benchmarks/hostile-uploads.md, round 23)', () => {
  const declared = async (db: Database) =>
    (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM external_coi')).rows[0]!.n;

  it('lists the first 100 rejected rows, counts them all, and imports the good ones', async () => {
    const { db, ids, org } = await setup([{ authors: [{ name: 'Gus Good' }] }]);
    const bad = Array.from({ length: 150 }, (_, i) => `MS-${i},not a person`);
    const report = await importCsv(db, org.id, [...bad, `MS-1,${ids.authorId('Gus Good')}`].join('\n'));
    expect(report).toMatchObject({ rows: 1, inserted: 1, rejected_count: 150 });
    expect(report.rejected).toHaveLength(COI_REJECTED_LISTED);
    expect(report.rejected.at(-1)).toMatchObject({ line: COI_REJECTED_LISTED });
  });

  it('quotes at most 80 characters of a refused value, saying its length', async () => {
    const { db, org } = await setup([]);
    const report = await importCsv(db, org.id, `MS-1,${'y'.repeat(1000)}`);
    expect(report.rejected).toEqual([
      {
        line: 1,
        row: 1,
        reason: `"${'y'.repeat(COI_QUOTED_CHARS)}… (1,000 characters)" is not an ORCID, an email or an author id`,
      },
    ]);
  });

  it('rejects a row holding what the API refuses (a NUL, more than 30 combining marks in a row), naming its line and column', async () => {
    const { db, org } = await setup([]);
    const marks = (n: number) => `e${'\u0301'.repeat(n)}`;
    const report = await importCsv(
      db,
      org.id,
      [
        'origin_id,person',
        `MS-${marks(MAX_MARKS_IN_A_ROW + 1)},eve@lab.example`,
        `MS-1,${marks(MAX_MARKS_IN_A_ROW + 1)}@lab.example`,
        'MS-\u0000,eve@lab.example',
        `MS-${marks(MAX_MARKS_IN_A_ROW)},${marks(MAX_MARKS_IN_A_ROW)}@lab.example`,
      ].join('\n'),
    );
    expect(report).toMatchObject({ rows: 1, inserted: 1, rejected_count: 3 });
    expect(report.rejected).toEqual([
      {
        line: 2,
        row: 2,
        reason: expect.stringMatching(/^origin_id must not hold more than 30 combining marks/),
      },
      {
        line: 3,
        row: 3,
        reason: expect.stringMatching(/^the person must not hold more than 30 combining marks/),
      },
      { line: 4, row: 4, reason: 'origin_id must not contain NUL characters' },
    ]);
    expect(await declared(db)).toBe(1);
  });

  it('refuses a line past 4,096 characters (a field, or columns of commas), importing nothing', async () => {
    const { db, ids, org } = await setup([{ authors: [{ name: 'Gus Good' }] }]);
    const good = `MS-1,${ids.authorId('Gus Good')}`;
    const atCap = `MS-2,${'z'.repeat(COI_LINE_MAX_CHARS - 5)}`;
    expect(await importCsv(db, org.id, [good, atCap].join('\n'))).toMatchObject({
      rows: 1,
      rejected_count: 1,
    });
    for (const long of [`${atCap}z`, ','.repeat(100_000)]) {
      await expect(importCsv(db, org.id, [good, long, good].join('\r\n'))).rejects.toMatchObject({
        status: 400,
        message: 'line 2 is longer than 4,096 characters',
      });
    }
    expect(await declared(db)).toBe(1);
  });

  it('refuses a row whose fields hold more than 4,096 characters over several lines', async () => {
    const { db, org } = await setup([]);
    const quoted = `"${Array.from({ length: 50 }, () => 'q'.repeat(99)).join('\n')}"`;
    await expect(importCsv(db, org.id, `MS-1,${quoted}\n`)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^line \d+: a row's fields hold more than 4,096 characters$/),
    });
  });

  it('names a rejected row and a refused one by the same lines (a quoted field spanning lines, empty lines)', async () => {
    const { db, org } = await setup([]);
    const head = ['origin_id,person', '', 'MS-1,"not\r\na person"', 'MS-2,nobody'];
    const report = await importCsv(db, org.id, head.join('\r\n'));
    // Lines 3-4 hold the second row (the header the first), line 5 the third.
    expect(report.rejected.map(({ line, row }) => ({ line, row }))).toEqual([
      { line: 3, row: 2 },
      { line: 5, row: 3 },
    ]);
    const long = `MS-3,${'z'.repeat(COI_LINE_MAX_CHARS)}`;
    await expect(importCsv(db, org.id, [...head, long].join('\r\n'))).rejects.toMatchObject({
      status: 400,
      message: 'line 6 is longer than 4,096 characters',
    });
    const spans = `MS-3,"${Array.from({ length: 50 }, () => 'q'.repeat(99)).join('\r\n')}"`;
    await expect(importCsv(db, org.id, [...head, spans].join('\r\n'))).rejects.toMatchObject({
      status: 400,
      message: "line 6: a row's fields hold more than 4,096 characters",
    });
  });

  it('writes in batches within one transaction: a batch refused leaves the declarations as they were', async () => {
    const { db, ids, org } = await setup([{ authors: [{ name: 'Gus Good' }] }]);
    await importCsv(db, org.id, `MS-1,${ids.authorId('Gus Good')}`);
    const rows = Array.from({ length: 2 * COI_WRITE_BATCH_ROWS + 1 }, (_, i): CoiRow => ({
      originId: `MS-${i}`,
      authorId: i + 1,
      orcid: null,
      email: null,
    }));
    // The last batch's row names no person (the table's CHECK refuses it).
    rows[rows.length - 1] = { originId: 'MS-x', authorId: null, orcid: null, email: null };
    await expect(importCoi(db, org.id, rows, true)).rejects.toThrow();
    expect(await declared(db)).toBe(1);
    expect(await importCoi(db, org.id, rows.slice(0, -1), true)).toEqual({ inserted: rows.length - 1 });
    expect(await declared(db)).toBe(rows.length - 1);
  });

  it('refuses a file past 64 MiB, importing nothing', async () => {
    const { db, ids, org } = await setup([{ authors: [{ name: 'Gus Good' }] }]);
    const line = `MS-1,${ids.authorId('Gus Good')},${'p'.repeat(4000)}\n`;
    const file = path.join(await tempDir(), 'coi.csv');
    await writeFile(file, line.repeat(Math.floor(COI_FILE_MAX_BYTES / line.length)));
    const run = () => coiImport.run({ config: testConfig(), db, progress: () => {} }, { org: org.id, file });
    expect(await run()).toMatchObject({ rejected_count: 0 });
    await appendFile(file, line);
    await expect(run()).rejects.toMatchObject({ status: 400, message: `${file} is larger than 64 MiB` });
  });
});
