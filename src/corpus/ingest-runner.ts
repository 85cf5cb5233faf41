// The ingestion loop shared by every record kind: stream a file, parse records into batches, write
// each batch with its checkpoint in one transaction, count bad records without stopping. Parsing of
// the next batch overlaps the database's work on the previous one.
import type { CommandContext } from '../cli/command.ts';
import type { Database, Transaction } from '../infra/db/index.ts';
import { advance, finishFile, startFile, type BadLine } from './checkpoints.ts';
import { BadRecord } from './openalex-work.ts';
import { openRecords } from './record-reader.ts';

export interface RecordKind<T> {
  /** Names the checkpoint space and the progress unit, e.g. "works". */
  kind: string;
  parse(value: unknown): T;
  key(record: T): string;
  load(db: Database, tx: Transaction, records: T[]): Promise<void>;
}

export interface FileReport {
  file: string;
  resumed_from_line: number;
  lines: number;
  records: number;
  bad_count: number;
  /** The first 100 bad records, by line. */
  bad_records: BadLine[];
}

interface Batch<T> {
  records: Map<string, { record: T; line: number }>;
  bad: BadLine[];
  lastLine: number;
}

function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    (/^08/.test(code) || code === '57P01' || code === 'ECONNREFUSED' || code === 'ECONNRESET')
  );
}

async function writeBatch<T>(
  db: Database,
  kind: RecordKind<T>,
  fileKey: string,
  batch: Batch<T>,
): Promise<number> {
  const records = [...batch.records.values()];
  try {
    await db.transaction(async (tx) => {
      await kind.load(
        db,
        tx,
        records.map((r) => r.record),
      );
      await advance(tx, fileKey, batch.lastLine, records.length, batch.bad);
    });
    return records.length;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
  }
  // The database refused the batch: find the records it refuses one at a time, so that one odd record
  // is reported with its line instead of stopping the run.
  let ok = 0;
  records.sort((a, b) => a.line - b.line);
  const bad = [...batch.bad];
  for (const [index, r] of records.entries()) {
    const last = index === records.length - 1;
    try {
      await db.transaction(async (tx) => {
        await kind.load(db, tx, [r.record]);
        await advance(tx, fileKey, last ? batch.lastLine : r.line, 1, last ? bad : []);
      });
      ok++;
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      bad.push({ line: r.line, reason: `rejected by the database: ${(error as Error).message}` });
      if (last) {
        await db.transaction((tx) => advance(tx, fileKey, batch.lastLine, 0, bad));
      }
    }
  }
  return ok;
}

export async function ingestFile<T>(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  kind: RecordKind<T>,
  file: string,
  batchSize: number,
  signal?: AbortSignal,
): Promise<FileReport> {
  const { db } = ctx;
  const probe = await openRecords(file);
  const checkpoint = await startFile(db, kind.kind, file, probe.size, probe.mtimeMs);
  // The probe's stream was never started; open again from the checkpoint.
  const source = await openRecords(file, checkpoint.linesDone);
  let done = checkpoint.linesDone;
  let inFlight: Promise<number> | null = null;
  const newBatch = (): Batch<T> => ({ records: new Map(), bad: [], lastLine: done });
  let batch = newBatch();
  const report = () => {
    const fraction = source.bytesRead() / Math.max(source.size, 1);
    const estimate = fraction > 0.01 ? Math.max(done, Math.round(done / fraction)) : null;
    ctx.progress({ unit: kind.kind, done, total: estimate, message: file });
  };
  const flush = async (b: Batch<T>) => {
    if (inFlight) await inFlight;
    inFlight = writeBatch(db, kind, checkpoint.fileKey, b).then((n) => {
      done = b.lastLine;
      report();
      return n;
    });
  };
  for await (const item of source.lines) {
    batch.lastLine = item.line;
    if (item.error !== undefined) {
      batch.bad.push({ line: item.line, reason: item.error });
    } else {
      try {
        const record = kind.parse(item.value);
        const key = kind.key(record);
        batch.records.delete(key);
        batch.records.set(key, { record, line: item.line });
      } catch (error) {
        if (!(error instanceof BadRecord)) throw error;
        batch.bad.push({ line: item.line, reason: error.message });
      }
    }
    if (batch.records.size + batch.bad.length >= batchSize) {
      if (signal?.aborted) {
        // Stop between batches: what committed stays, and the checkpoint says where to resume.
        if (inFlight) await inFlight;
        signal.throwIfAborted();
      }
      await flush(batch);
      batch = newBatch();
    }
  }
  if (batch.records.size > 0 || batch.bad.length > 0) await flush(batch);
  if (inFlight) await inFlight;
  const final = await finishFile(db, checkpoint.fileKey);
  ctx.progress({ unit: kind.kind, done: final.lines, total: final.lines, message: file });
  return {
    file,
    resumed_from_line: checkpoint.linesDone,
    lines: final.lines,
    records: final.records_ok,
    bad_count: final.bad_count,
    bad_records: final.bad_records,
  };
}
