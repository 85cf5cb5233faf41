import path from 'node:path';
import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { ingestRetractions, RETRACTIONS_LINE_MAX_CHARS } from '../../src/corpus/ingest/retractions.ts';
import { LineTooLongError } from '../../src/infra/csv-read.ts';
import { MAX_MARKS_IN_A_ROW } from '../../src/infra/storable-text.ts';
import { ingest, tempDir, work, writeLines } from './helpers.ts';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  await db.destroy();
});

const HEADER =
  'Record ID,Title,Subject,Institution,Journal,Publisher,Country,Author,URLS,ArticleType,RetractionDate,RetractionDOI,RetractionPubMedID,OriginalPaperDate,OriginalPaperDOI,OriginalPaperPubMedID,RetractionNature,Reason,Paywalled,Notes';

function row(id: string, doi: string, pmid: string, nature: string): string {
  return `${id},"A title, with a comma",(BLS) Biology;,"Some University, Somewhere",J,P,Norway,A. Author,,Research Article;,1/2/2020 0:00,10.1/retraction.${id},0,1/1/2019 0:00,${doi},${pmid},${nature},+Falsification/Fabrication of Data;,No,`;
}

async function retracted(): Promise<Record<string, boolean>> {
  const { rows } = await db.query<{ title: string; is_retracted: boolean }>(
    'SELECT title, is_retracted FROM works',
  );
  return Object.fromEntries(rows.map((r) => [r.title, r.is_retracted]));
}

describe('ingest retractions (Retraction Watch CSV)', () => {
  it('reads the file through the shared CSV reader: its lines bounded, a refused row named by the line it starts on', async () => {
    const csv = path.join(await tempDir(), 'rw.csv');
    const notes = '"a note\r\nof two lines"';
    const lines = [
      HEADER,
      `${row('1', 'unavailable', '0', 'Retraction')}${notes}`,
      '',
      `7,"a quote "not closed" here"`,
      row('8', 'unavailable', '0', 'Retraction'),
    ];
    await writeFile(csv, lines.join('\r\n'));
    const report = await ingestRetractions({ db, progress: () => {} }, csv);
    // Lines 2-3 hold the first notice, line 4 is empty, line 5 refused (twice: two quotes out of place),
    // line 6 the last notice.
    expect(report.bad_records).toEqual([
      { line: 2, reason: 'no OriginalPaperDOI or OriginalPaperPubMedID' },
      { line: 5, reason: expect.stringMatching(/^invalid CSV: Invalid Closing Quote/) as unknown as string },
      { line: 5, reason: expect.stringMatching(/^invalid CSV: Invalid Closing Quote/) as unknown as string },
      { line: 6, reason: 'no OriginalPaperDOI or OriginalPaperPubMedID' },
    ]);
    await writeFile(csv, [HEADER, `1,${'x'.repeat(RETRACTIONS_LINE_MAX_CHARS)}`].join('\n'));
    await expect(ingestRetractions({ db, progress: () => {} }, csv)).rejects.toEqual(
      new LineTooLongError(2, RETRACTIONS_LINE_MAX_CHARS),
    );
  });

  it('keeps no notice holding what the API refuses (a NUL, more than 30 combining marks in a row), naming its line, notice and column', async () => {
    const csv = path.join(await tempDir(), 'rw.csv');
    const marks = (n: number) => `e${'\u0301'.repeat(n)}`;
    const withReason = (id: string, reason: string) =>
      row(id, `10.1234/r.${id}`, '0', 'Retraction').replace('+Falsification/Fabrication of Data;', reason);
    const lines = [
      HEADER,
      withReason('1', `+${marks(MAX_MARKS_IN_A_ROW + 1)};`),
      withReason('2', '+Nul\u0000;'),
      withReason(`3${marks(MAX_MARKS_IN_A_ROW + 1)}`, '+Plagiarism;'),
      withReason('4', `+${marks(MAX_MARKS_IN_A_ROW)};`),
    ];
    await writeFile(csv, lines.join('\n'));
    const report = await ingestRetractions({ db, progress: () => {} }, csv);
    expect(report).toMatchObject({ rows: 4, retractions: 1, bad_count: 3 });
    expect(report.bad_records).toEqual([
      {
        line: 2,
        reason: expect.stringMatching(/^Record ID 1: Reason must not hold more than 30 combining marks/),
      },
      { line: 3, reason: 'Record ID 2: Reason must not contain NUL characters' },
      { line: 4, reason: expect.stringMatching(/^Record ID must not hold more than 30 combining marks/) },
    ]);
    const { rows } = await db.query<{ record_id: string }>('SELECT record_id FROM retraction_notices');
    expect(rows).toEqual([{ record_id: '4' }]);
  });

  it('marks works by OriginalPaperDOI, then OriginalPaperPubMedID; only RetractionNature = Retraction counts', async () => {
    const dir = await tempDir();
    await ingest(db, 'works', [
      await writeLines(dir, 'w.jsonl', [
        work({ title: 'By DOI', doi: 'https://doi.org/10.1234/ABC.1' }),
        work({ title: 'By PMID', ids: { pmid: 'https://pubmed.ncbi.nlm.nih.gov/11112222' } }),
        work({ title: 'Only corrected', doi: 'https://doi.org/10.1234/corr.1' }),
        work({ title: 'Concern', doi: 'https://doi.org/10.1234/eoc.1' }),
        work({ title: 'Clean', doi: 'https://doi.org/10.1234/clean.1' }),
      ]),
    ]);
    const csv = path.join(dir, 'rw.csv');
    await writeFile(
      csv,
      [
        HEADER,
        row('1', '10.1234/abc.1', '0', 'Retraction'),
        row('2', 'unavailable', '11112222', 'Retraction'),
        row('3', '10.1234/corr.1', '0', 'Correction'),
        row('4', '10.1234/eoc.1', '0', 'Expression of concern'),
        row('5', 'unavailable', '0', 'Retraction'),
        row('6', '10.9999/not.in.corpus', '0', 'Retraction'),
      ].join('\n'),
    );
    const report = await ingestRetractions({ db, progress: () => {} }, csv);
    expect(report).toMatchObject({
      rows: 6,
      retractions: 3,
      skipped_not_retraction: 2,
      works_marked: 2,
      notices_matched: 2,
      bad_count: 1,
      bad_records: [{ line: 6, reason: 'no OriginalPaperDOI or OriginalPaperPubMedID' }],
    });
    expect(await retracted()).toEqual({
      'By DOI': true,
      'By PMID': true,
      'Only corrected': false,
      Concern: false,
      Clean: false,
    });

    // A work ingested after its notice is retracted at once; re-ingesting a retracted work that its
    // source does not know is retracted keeps it retracted.
    await ingest(db, 'works', [
      await writeLines(dir, 'w2.jsonl', [
        work({ title: 'Later', doi: 'https://doi.org/10.9999/NOT.IN.CORPUS' }),
      ]),
    ]);
    const { rows } = await db.query<{ is_retracted: boolean }>(
      `SELECT is_retracted FROM works WHERE title = 'Later'`,
    );
    expect(rows[0]!.is_retracted).toBe(true);
  });
});
