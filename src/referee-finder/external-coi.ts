// Conflicts of interest declared by the organization (spec 2.3 `external_coi`): imported from CSV,
// matched to candidates by the conflict policy (conflict-policy.ts; read in conflict-facts.ts).
import type { Database, Queryable } from '../infra/db/index.ts';
import { normalizeOrcid } from '../corpus/openalex/ids.ts';
import { errors } from '../infra/app-error.ts';
import { cutShort, formatCount } from '../infra/counts.ts';
import { CsvRowError, forEachCsvRecord, linesAtMost, LineTooLongError, piecesOf } from '../infra/csv-read.ts';
import { firstTextProblem } from '../infra/storable-text.ts';
import { COI_LINE_MAX_CHARS, COI_QUOTED_CHARS, COI_REJECTED_LISTED } from './coi-limits.ts';

export interface CoiRow {
  originId: string | null;
  authorId: number | null;
  orcid: string | null;
  email: string | null;
}

/** One person identifier: an ORCID, an email or a corpus author id; null when it is none of them. */
export function classifyPerson(value: string): Omit<CoiRow, 'originId'> | null {
  const v = value.trim();
  // An author id fits the column (int4); longer digit strings are ORCIDs written without hyphens.
  if (/^\d{1,10}$/.test(v) && Number(v) <= 2_147_483_647) {
    return { authorId: Number(v), orcid: null, email: null };
  }
  if (v.includes('@')) return { authorId: null, orcid: null, email: v.toLowerCase() };
  const orcid = normalizeOrcid(v);
  if (orcid) return { authorId: null, orcid, email: null };
  return null;
}

export interface CoiRead {
  rows: CoiRow[];
  /**
   * The first `COI_REJECTED_LISTED` rows rejected, each by the line it starts on (as a refusal names
   * a line: a quoted field may span lines, empty lines count), its row (1 the first, the header
   * included; empty lines not counted) and why.
   */
  rejected: Array<{ line: number; row: number; reason: string }>;
  /** Every row rejected. */
  rejectedCount: number;
}

/** A value as a rejection quotes it: cut past `COI_QUOTED_CHARS` characters, its length said. */
function quoted(value: string): string {
  return `"${cutShort(value, COI_QUOTED_CHARS)}"`;
}

/**
 * Rows of `origin_id,person`; a first row naming the columns is skipped. Read in pieces with turns
 * of the event loop between them (the command runs in the serving process with the embedded
 * database: a 40 MB file parsed in one call held it 23-31 s). A line, or a row's fields, past
 * `COI_LINE_MAX_CHARS` characters, or text that is not CSV, refuses the file (a validation error
 * naming its line); rejected rows are counted, the first `COI_REJECTED_LISTED` listed. A row with a
 * value the edge refuses (`textProblem`: a NUL, more combining marks in a row than text may have) is
 * rejected.
 */
export async function readCoiCsv(csv: string | AsyncIterable<string>): Promise<CoiRead> {
  const rows: CoiRow[] = [];
  const rejected: CoiRead['rejected'] = [];
  let rejectedCount = 0;
  const reject = (line: number, row: number, reason: () => string) => {
    if (rejectedCount++ < COI_REJECTED_LISTED) rejected.push({ line, row, reason: reason() });
  };
  try {
    await forEachCsvRecord(
      linesAtMost(typeof csv === 'string' ? piecesOf(csv) : csv, COI_LINE_MAX_CHARS),
      {
        relax_column_count: true,
        skip_empty_lines: true,
        trim: true,
        max_record_size: COI_LINE_MAX_CHARS,
      },
      (record, i, line) => {
        const [origin, person] = record;
        if (i === 0 && origin && /origin/i.test(origin)) return;
        if (!origin || !person) {
          reject(line, i + 1, () => 'expected two columns: origin_id (or *) and the person');
          return;
        }
        // The edge's rule for text (src/infra/storable-text.ts): a file's cells come through no hook.
        const refused = firstTextProblem({ origin_id: origin, 'the person': person });
        if (refused) {
          reject(line, i + 1, () => `${refused.column} ${refused.problem}`);
          return;
        }
        const who = classifyPerson(person);
        if (!who) {
          reject(line, i + 1, () => `${quoted(person)} is not an ORCID, an email or an author id`);
          return;
        }
        rows.push({ originId: origin === '*' ? null : origin, ...who });
      },
    );
  } catch (error) {
    if (error instanceof LineTooLongError) {
      throw errors.validation(
        `line ${error.line} is longer than ${formatCount(COI_LINE_MAX_CHARS)} characters`,
      );
    }
    if (error instanceof CsvRowError) {
      throw errors.validation(
        error.code === 'CSV_MAX_RECORD_SIZE'
          ? `line ${error.line}: a row's fields hold more than ${formatCount(COI_LINE_MAX_CHARS)} characters`
          : `The CSV cannot be read: ${error.message}`,
      );
    }
    throw error;
  }
  return { rows, rejected, rejectedCount };
}

/**
 * Rows written a statement at a time. PGlite runs a statement on the
 * event loop: 400,000 rows in one INSERT held it 17 s (docs/benchmarks/hostile-uploads.md, "coi
 * import's hold"); 1,000 take some 40 ms, and the loop turns between statements (the driver hands
 * each answer over after a turn, as a server's arrives as I/O).
 */
export const COI_WRITE_BATCH_ROWS = 1000;

/**
 * Writes the rows (after deleting the organization's earlier declarations when `replace`) in one
 * transaction, so that a failure leaves the declarations as they were, in statements of
 * `COI_WRITE_BATCH_ROWS` rows.
 */
export async function importCoi(
  db: Database,
  organizationId: number,
  rows: readonly CoiRow[],
  replace: boolean,
): Promise<{ inserted: number }> {
  return db.transaction(async (tx) => {
    // One statement: deleted in batches, each batch's scan passed again the rows the ones before
    // deleted (still in the index until the commit), 29 s for 400,000 where one statement takes 0.3 s.
    if (replace) await tx.query('DELETE FROM external_coi WHERE organization_id = $1', [organizationId]);
    let inserted = 0;
    for (let at = 0; at < rows.length; at += COI_WRITE_BATCH_ROWS) {
      const batch = rows.slice(at, at + COI_WRITE_BATCH_ROWS);
      const { rows: done } = await tx.query<{ n: number }>(
        `WITH ins AS (
          INSERT INTO external_coi (organization_id, origin_id, author_id, orcid, email)
          SELECT $1, * FROM unnest($2::text[], $3::int[], $4::text[], $5::text[])
          ON CONFLICT DO NOTHING RETURNING 1
        ) SELECT count(*)::int AS n FROM ins`,
        [
          organizationId,
          batch.map((r) => r.originId),
          batch.map((r) => r.authorId),
          batch.map((r) => r.orcid),
          batch.map((r) => r.email),
        ],
      );
      inserted += done[0]?.n ?? 0;
    }
    return { inserted };
  });
}

/** One author's flag on one manuscript: set, or taken off; true when that changed a row. */
function authorFlagStatement(sql: string) {
  return async (
    db: Queryable,
    organizationId: number,
    originId: string,
    authorId: number,
  ): Promise<boolean> => {
    const { rows } = await db.query(sql, [organizationId, originId, authorId]);
    return rows.length > 0;
  };
}

/**
 * Flags a corpus author as in conflict with one manuscript (the dashboard's button on a candidate):
 * a row as `refmatch coi import` writes for `origin_id,author_id`. True when it was not flagged yet.
 */
export const flagAuthorConflict = authorFlagStatement(
  `INSERT INTO external_coi (organization_id, origin_id, author_id) VALUES ($1, $2, $3)
   ON CONFLICT DO NOTHING RETURNING 1`,
);

/** Takes off the flag `flagAuthorConflict` wrote (not one for every manuscript, nor by ORCID or email). */
export const unflagAuthorConflict = authorFlagStatement(
  `DELETE FROM external_coi WHERE organization_id = $1 AND origin_id = $2 AND author_id = $3 RETURNING 1`,
);

/** Which of the authors are flagged for this manuscript by author id (what the button flags). */
export async function authorsFlaggedFor(
  db: Queryable,
  organizationId: number,
  originId: string,
  authorIds: readonly number[],
): Promise<Set<number>> {
  if (!authorIds.length) return new Set();
  const { rows } = await db.query<{ author_id: number }>(
    `SELECT author_id FROM external_coi
      WHERE organization_id = $1 AND origin_id = $2 AND author_id = ANY($3::int[])`,
    [organizationId, originId, authorIds],
  );
  return new Set(rows.map((r) => r.author_id));
}
