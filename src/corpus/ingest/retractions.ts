// Retraction Watch's CSV: each notice whose RetractionNature is "Retraction" marks its original paper
// retracted, found by OriginalPaperDOI, else by OriginalPaperPubMedID. Corrections, expressions of
// concern and reinstatements are not retractions and are skipped. Notices are kept
// (retraction_notices) so that works ingested later are marked too.
import type { CommandContext } from '../../infra/cli/command.ts';
import { columnsByName, csvRecords, filePiecesOf, linesAtMost } from '../../infra/csv-read.ts';
import { firstTextProblem } from '../../infra/storable-text.ts';
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

/**
 * The most characters a line of the file may hold, and a row's fields together (a notice's row is
 * some hundreds; its Notes a few thousand): past it the file is refused, naming the line, before the
 * parser holds the row.
 */
export const RETRACTIONS_LINE_MAX_CHARS = 1024 * 1024;

/** Why a notice's values cannot be kept, naming the column (and the notice, by its Record ID), or null. */
function unstorable(values: Record<string, string | null>): string | null {
  const found = firstTextProblem(values);
  if (!found) return null;
  const id = values['Record ID'];
  return id && found.column !== 'Record ID'
    ? `Record ID ${id}: ${found.column} ${found.problem}`
    : `${found.column} ${found.problem}`;
}

export async function ingestRetractions(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  file: string,
): Promise<RetractionsReport> {
  const bad: BadLine[] = [];
  const notices: Notice[] = [];
  let rows = 0;
  let skipped = 0;
  const pieces = linesAtMost(filePiecesOf(file, Number.POSITIVE_INFINITY), RETRACTIONS_LINE_MAX_CHARS);
  const options = {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: RETRACTIONS_LINE_MAX_CHARS,
  };
  const onSkip = (error: Error, line: number) => {
    bad.push({ line, reason: `invalid CSV: ${error.message}` });
  };
  // The header's columns by name; a row's value by its column's name, trimmed (null when empty or absent).
  let column = new Map<string, number>();
  let header = true;
  for await (const { records, lines } of csvRecords(pieces, options, onSkip)) {
    for (let i = 0; i < records.length; i++) {
      const cells = records[i]!;
      const line = lines[i]!;
      if (header) {
        column = columnsByName(cells);
        header = false;
        continue;
      }
      const field = (name: string): string | null => {
        const k = column.get(name);
        const value = k === undefined ? undefined : cells[k]?.trim();
        return value ? value : null;
      };
      rows++;
      if ((field('RetractionNature') ?? '').toLowerCase() !== 'retraction') {
        skipped++;
        continue;
      }
      const id = field('Record ID');
      const doi = normalizeDoi(field('OriginalPaperDOI'));
      const pmid = normalizePmid(field('OriginalPaperPubMedID'));
      const date = field('RetractionDate');
      const reason = field('Reason');
      // The edge's rule for text (src/infra/storable-text.ts), for each value kept: a NUL refused the
      // whole file at the copy, a run of marks would be stored as the API refuses it.
      const refused = unstorable({
        'Record ID': id,
        OriginalPaperDOI: doi,
        RetractionDate: date,
        Reason: reason,
      });
      if (!id) bad.push({ line, reason: 'missing Record ID' });
      else if (refused) bad.push({ line, reason: refused });
      else if (!doi && !pmid) bad.push({ line, reason: 'no OriginalPaperDOI or OriginalPaperPubMedID' });
      else notices.push({ record_id: id, doi, pmid, date, reason });
      if (rows % 10_000 === 0) ctx.progress({ unit: 'rows', done: rows, total: null, message: file });
    }
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
