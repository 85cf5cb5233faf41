// Retraction Watch's CSV: each notice whose RetractionNature is "Retraction" marks its original paper
// retracted, found by OriginalPaperDOI, else by OriginalPaperPubMedID. Corrections, expressions of
// concern and reinstatements are not retractions and are skipped. Notices are kept
// (retraction_notices) so that works ingested later are marked too.
import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import type { CommandContext } from '../../infra/cli/command.ts';
import { normalizeDoi, normalizePmid } from '../openalex/ids.ts';
import { csvRows } from './csv.ts';
import type { BadLine } from './checkpoints.ts';

export interface RetractionsReport {
  file: string;
  rows: number;
  retractions: number;
  skipped_not_retraction: number;
  works_marked: number;
  notices_matched: number;
  bad_count: number;
  bad_records: BadLine[];
}

interface Notice {
  record_id: string;
  doi: string | null;
  pmid: string | null;
  date: string | null;
  reason: string | null;
}

const MATCH = `
WITH by_doi AS (
  SELECT n.record_id, w.id FROM stage_notices n JOIN works w ON w.doi = n.original_doi
),
by_pmid AS (
  SELECT n.record_id, w.id FROM stage_notices n JOIN works w ON w.pmid = n.original_pmid
   WHERE NOT EXISTS (SELECT 1 FROM by_doi d WHERE d.record_id = n.record_id)
),
matched AS (SELECT record_id, id FROM by_doi UNION SELECT record_id, id FROM by_pmid),
marked AS (
  UPDATE works SET is_retracted = true FROM (SELECT DISTINCT id FROM matched) m
   WHERE works.id = m.id AND NOT works.is_retracted
  RETURNING works.id
)
SELECT (SELECT count(*) FROM marked)::int AS marked, (SELECT count(DISTINCT record_id) FROM matched)::int AS matched`;

function field(row: Record<string, string>, name: string): string | null {
  const value = row[name]?.trim();
  return value ? value : null;
}

export async function ingestRetractions(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  file: string,
): Promise<RetractionsReport> {
  const bad: BadLine[] = [];
  const notices: Notice[] = [];
  let rows = 0;
  let skipped = 0;
  const parser = createReadStream(file).pipe(
    parse({
      columns: true,
      bom: true,
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      skip_records_with_error: true,
    }),
  );
  parser.on('skip', (error: { lines?: number; message: string }) => {
    bad.push({ line: error.lines ?? 0, reason: `invalid CSV: ${error.message}` });
  });
  for await (const item of parser as AsyncIterable<{
    record: Record<string, string>;
    info: { lines: number };
  }>) {
    rows++;
    const { record, info } = item;
    if ((field(record, 'RetractionNature') ?? '').toLowerCase() !== 'retraction') {
      skipped++;
      continue;
    }
    const id = field(record, 'Record ID');
    const doi = normalizeDoi(field(record, 'OriginalPaperDOI'));
    const pmid = normalizePmid(field(record, 'OriginalPaperPubMedID'));
    if (!id) bad.push({ line: info.lines, reason: 'missing Record ID' });
    else if (!doi && !pmid)
      bad.push({ line: info.lines, reason: 'no OriginalPaperDOI or OriginalPaperPubMedID' });
    else
      notices.push({
        record_id: id,
        doi,
        pmid,
        date: field(record, 'RetractionDate'),
        reason: field(record, 'Reason'),
      });
    if (rows % 10_000 === 0) ctx.progress({ unit: 'rows', done: rows, total: null, message: file });
  }
  const unique = [...new Map(notices.map((n) => [n.record_id, n])).values()];
  const result = await ctx.db.transaction(async (tx) => {
    await tx.exec(
      'CREATE TEMP TABLE stage_notices (record_id text, original_doi text, original_pmid text, retraction_date text, reason text) ON COMMIT DROP',
    );
    if (unique.length > 0) {
      await ctx.db.copyCsv(
        'stage_notices',
        ['record_id', 'original_doi', 'original_pmid', 'retraction_date', 'reason'],
        csvRows(unique.map((n) => [n.record_id, n.doi, n.pmid, n.date, n.reason])),
        tx,
      );
    }
    await tx.query(
      `INSERT INTO retraction_notices (record_id, original_doi, original_pmid, retraction_date, reason)
       SELECT record_id, original_doi, original_pmid, retraction_date, reason FROM stage_notices
       ON CONFLICT (record_id) DO UPDATE SET original_doi = excluded.original_doi, original_pmid = excluded.original_pmid,
         retraction_date = excluded.retraction_date, reason = excluded.reason`,
    );
    const matched = await tx.query<{ marked: number; matched: number }>(MATCH);
    return matched.rows[0] ?? { marked: 0, matched: 0 };
  });
  ctx.progress({ unit: 'rows', done: rows, total: rows, message: file });
  bad.sort((a, b) => a.line - b.line);
  return {
    file,
    rows,
    retractions: unique.length,
    skipped_not_retraction: skipped,
    works_marked: result.marked,
    notices_matched: result.matched,
    bad_count: bad.length,
    bad_records: bad.slice(0, 100),
  };
}
