// Per-file ingestion state. A file is resumed only when it is the same file (path, size, mtime) and
// its last run did not complete; otherwise it is read again from the start, which is safe because
// every write is an upsert.
import path from 'node:path';
import type { Database, Queryable } from '../../infra/db/index.ts';

export interface Checkpoint {
  fileKey: string;
  linesDone: number;
  recordsOk: number;
  resumed: boolean;
}

export async function startFile(
  db: Database,
  kind: string,
  file: string,
  size: number,
  mtimeMs: number,
): Promise<Checkpoint> {
  const absolute = path.resolve(file);
  const fileKey = `${kind}:${absolute}`;
  return db.transaction(async (tx) => {
    const prior = await tx.query<{
      lines_done: number;
      records_ok: number;
      completed: boolean;
      file_size: number;
      file_mtime_ms: number;
    }>(
      'SELECT lines_done, records_ok, completed, file_size, file_mtime_ms FROM ingest_checkpoints WHERE file_key = $1 FOR UPDATE',
      [fileKey],
    );
    const row = prior.rows[0];
    if (row && !row.completed && row.file_size === size && row.file_mtime_ms === mtimeMs) {
      return { fileKey, linesDone: row.lines_done, recordsOk: row.records_ok, resumed: row.lines_done > 0 };
    }
    await tx.query('DELETE FROM ingest_bad_records WHERE file_key = $1', [fileKey]);
    await tx.query(
      `INSERT INTO ingest_checkpoints (file_key, kind, path, file_size, file_mtime_ms, lines_done, records_ok, completed)
       VALUES ($1, $2, $3, $4, $5, 0, 0, false)
       ON CONFLICT (file_key) DO UPDATE SET file_size = $4, file_mtime_ms = $5, lines_done = 0, records_ok = 0,
         completed = false, updated_at = now()`,
      [fileKey, kind, absolute, size, mtimeMs],
    );
    return { fileKey, linesDone: 0, recordsOk: 0, resumed: false };
  });
}

export interface BadLine {
  line: number;
  reason: string;
}

/** Advances the checkpoint inside the batch's transaction, with the batch's bad records. */
export async function advance(
  tx: Queryable,
  fileKey: string,
  linesDone: number,
  okInBatch: number,
  bad: readonly BadLine[],
): Promise<void> {
  if (bad.length > 0) {
    await tx.query(
      `INSERT INTO ingest_bad_records (file_key, line, reason)
       SELECT $1, line, reason FROM unnest($2::bigint[], $3::text[]) AS b(line, reason)
       ON CONFLICT (file_key, line) DO UPDATE SET reason = excluded.reason`,
      [fileKey, bad.map((b) => b.line), bad.map((b) => b.reason.slice(0, 500))],
    );
  }
  await tx.query(
    `UPDATE ingest_checkpoints SET lines_done = $2, records_ok = records_ok + $3, updated_at = now()
      WHERE file_key = $1`,
    [fileKey, linesDone, okInBatch],
  );
}

export async function finishFile(
  db: Database,
  fileKey: string,
): Promise<{ records_ok: number; lines: number; bad_count: number; bad_records: BadLine[] }> {
  await db.query('UPDATE ingest_checkpoints SET completed = true, updated_at = now() WHERE file_key = $1', [
    fileKey,
  ]);
  const row = await db.query<{ records_ok: number; lines_done: number }>(
    'SELECT records_ok, lines_done FROM ingest_checkpoints WHERE file_key = $1',
    [fileKey],
  );
  const count = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM ingest_bad_records WHERE file_key = $1',
    [fileKey],
  );
  const bad = await db.query<BadLine>(
    'SELECT line, reason FROM ingest_bad_records WHERE file_key = $1 ORDER BY line LIMIT 100',
    [fileKey],
  );
  return {
    records_ok: row.rows[0]?.records_ok ?? 0,
    lines: row.rows[0]?.lines_done ?? 0,
    bad_count: count.rows[0]?.n ?? 0,
    bad_records: bad.rows,
  };
}
