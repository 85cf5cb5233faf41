// The ingestion loop shared by every record kind: read a file as batches (batches.ts), write each
// batch with its checkpoint in one transaction, count bad records without stopping. On a large file
// the reading runs in a thread of its own, ahead of the database's writing.
import type { CommandContext } from '../../infra/cli/command.ts';
import { isDatabaseUnavailable, type Database, type Transaction } from '../../infra/db/index.ts';
import { readBatchesInThread } from './batch-thread.ts';
import {
  readBatches,
  type BatchStream,
  type InitialStaging,
  type ParsedBatch,
  type RecordStaging,
} from './batches.ts';
import { recordKinds } from '../openalex/entities.ts';
import { advance, finishFile, startFile, type BadLine } from './checkpoints.ts';
import { InitialLoadStager, type InitialBatch } from './initial-load.ts';
import { entityResolver, finishInitialLoad, initialLoadStart, writeInitialBatch } from './initial-load-db.ts';
import type { StagedBatch } from './load-works.ts';
import { openRecords } from '../openalex/record-reader.ts';
import type { BulkMode, InitialLoadMode, ParseThreadMode } from './modes.ts';
import {
  deferIndexes,
  EARLY_BUILD_SHARE,
  EARLY_BUILD_TABLES,
  restoreDeferredIndexes,
} from './deferred-indexes.ts';

export interface RecordKind<T> extends RecordStaging<T> {
  /** Writes a staged batch inside `tx`. */
  write(db: Database, tx: Transaction, staged: StagedBatch): Promise<void>;
}

export interface FileReport {
  file: string;
  resumed_from_line: number;
  lines: number;
  records: number;
  bad_count: number;
  /** The first 100 bad records, by line. */
  bad_records: BadLine[];
  /**
   * The whole file went in by the initial load (works into an empty corpus; initial-load.ts). It
   * wrote the metrics of every author of the corpus and took them off the queue: the run's end then
   * relinks every name key (afterIngest's `relinkAll`).
   */
  initial_load: boolean;
}

export interface IngestOptions {
  /**
   * Read in a worker thread: 'auto' does from PARSE_THREAD_MIN_BYTES on (a thread costs a few hundred
   * ms to start, more than a small file takes to read).
   */
  parseThread?: ParseThreadMode;
  /**
   * Works into an empty corpus: 'auto' takes the initial load (initial-load.ts: COPY straight into the
   * tables, metrics computed while reading); 'never' always takes the normal path.
   */
  initialLoad?: InitialLoadMode;
  /**
   * The initial load's bulk mode (deferred-indexes.ts): the secondary indexes dropped before the
   * first batch and built after the last. 'auto' from PARSE_THREAD_MIN_BYTES on.
   */
  bulk?: BulkMode;
  signal?: AbortSignal;
  /** Called once every batch of the file is written, before the initial load's end (if any). */
  onBatchesWritten?: () => void;
}

export const PARSE_THREAD_MIN_BYTES = 2 * 1024 * 1024;

async function writeBatch<T>(
  db: Database,
  kind: RecordKind<T>,
  fileKey: string,
  stream: BatchStream,
  batch: ParsedBatch,
): Promise<number> {
  try {
    await db.transaction(async (tx) => {
      if (batch.records > 0) await kind.write(db, tx, batch.staged);
      await advance(tx, fileKey, batch.lastLine, batch.records, batch.bad);
    });
    return batch.records;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
  }
  // The database refused the batch: find the records it refuses one at a time, so that one odd record
  // is reported with its line instead of stopping the run.
  let ok = 0;
  const singles = await stream.singles(batch.seq);
  const bad = [...batch.bad];
  for (const [index, single] of singles.entries()) {
    const last = index === singles.length - 1;
    try {
      await db.transaction(async (tx) => {
        await kind.write(db, tx, single.staged);
        await advance(tx, fileKey, last ? batch.lastLine : single.line, 1, last ? bad : []);
      });
      ok++;
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      bad.push({ line: single.line, reason: `rejected by the database: ${(error as Error).message}` });
      if (last) {
        await db.transaction((tx) => advance(tx, fileKey, batch.lastLine, 0, bad));
      }
    }
  }
  return ok;
}

/** Writes an initial-load batch with its checkpoint; false when it must go through the normal path. */
async function writeInitial(db: Database, fileKey: string, batch: ParsedBatch, initial: InitialBatch) {
  try {
    return await db.transaction(async (tx) => {
      if (!(await writeInitialBatch(db, tx, initial))) return false;
      await advance(tx, fileKey, batch.lastLine, batch.records, batch.bad);
      return true;
    });
  } catch (error) {
    // A record the database refuses, a work of an earlier batch (its key is taken), or a key someone
    // else wrote meanwhile: the normal path sorts it out.
    if (isDatabaseUnavailable(error)) throw error;
    return false;
  }
}

export async function ingestFile<T>(
  ctx: Pick<CommandContext, 'db' | 'progress'>,
  kind: RecordKind<T>,
  file: string,
  batchSize: number,
  options: IngestOptions = {},
): Promise<FileReport> {
  const { db } = ctx;
  // What a bulk load killed midway left to build, first: every ingest finds the schema whole.
  await restoreDeferredIndexes(db);
  const probe = await openRecords(file);
  const checkpoint = await startFile(db, kind.kind, file, probe.size, probe.mtimeMs);
  const mode = options.parseThread ?? 'auto';
  const inThread =
    // The thread finds its kind by name: only the registered kinds can be read there.
    (recordKinds as Record<string, unknown>)[kind.kind] === kind &&
    (mode === 'always' || (mode === 'auto' && probe.size >= PARSE_THREAD_MIN_BYTES));
  const initialStart =
    kind === (recordKinds.works as unknown) && (options.initialLoad ?? 'auto') === 'auto'
      ? await initialLoadStart(db)
      : null;
  // The initial load's resolving of source and institution ids (asked by the reader, ahead) runs
  // beside the batches' writes: it takes no row lock they take (entityResolver). Waiting for the
  // batch being written held the reader up for as long.
  const resolve = entityResolver(db);
  const skipLines = checkpoint.linesDone;
  const bulkMode = options.bulk ?? 'auto';
  // `auto` is the server's only: on PGlite the rebuild runs on the one thread after the file, where the
  // indexes' upkeep overlapped the parsing, and on a quiet machine it was slower (bench:ingest run 5).
  const bulk =
    bulkMode === 'always' ||
    (bulkMode === 'auto' && db.driver === 'postgres' && probe.size >= PARSE_THREAD_MIN_BYTES);
  // Dropped while the parse thread starts (the first batch waits for neither); if the stream cannot
  // be opened they are built again at once, and once it is open the finally below does if anything
  // fails.
  const deferring = initialStart !== null && bulk ? deferIndexes(db) : Promise.resolve(0);
  deferring.catch(() => {});
  let stream: BatchStream;
  try {
    stream = inThread
      ? await readBatchesInThread(
          { kind: kind.kind, file, skipLines, batchSize, ...(initialStart ? { initial: initialStart } : {}) },
          resolve,
        )
      : await readBatches(
          kind,
          file,
          skipLines,
          batchSize,
          initialStart
            ? (new InitialLoadStager(initialStart, resolve) as unknown as InitialStaging<T>)
            : undefined,
        );
  } catch (error) {
    if ((await deferring.catch(() => 0)) > 0) await restoreDeferredIndexes(db).catch(() => {});
    throw error;
  }
  let initialLoad = initialStart !== null;
  let initialLoadFinished = false;
  let done = checkpoint.linesDone;
  let deferred =
    (await deferring.catch(async (error: unknown) => {
      await stream.close();
      throw error;
    })) > 0;
  // The indexes built before the file's end (EARLY_BUILD_SHARE), while the parse thread reads on.
  let earlyBuilds: Promise<number> | null = null;
  const earlyBuildsDone = () => earlyBuilds?.catch(() => 0) ?? Promise.resolve(0);
  let closing: Promise<void> | null = null;
  try {
    for (;;) {
      // Stop between batches: what committed stays, and the checkpoint says where to resume.
      options.signal?.throwIfAborted();
      const batch = await stream.next();
      if (!batch) break;
      const written =
        batch.initial !== undefined &&
        initialLoad &&
        (await writeInitial(db, checkpoint.fileKey, batch, batch.initial));
      if (!written) {
        if (batch.initial) {
          if (initialLoad) {
            initialLoad = false;
            await stream.endInitialLoad();
          }
          // The normal path's lookups need the indexes.
          if (deferred) {
            await earlyBuildsDone();
            await restoreDeferredIndexes(db);
            deferred = false;
          }
          batch.staged = await stream.restage(batch.seq);
        }
        await writeBatch(db, kind, checkpoint.fileKey, stream, batch);
      }
      stream.committed(batch.seq);
      done = batch.lastLine;
      const fraction = batch.bytesRead / Math.max(probe.size, 1);
      if (deferred && !earlyBuilds && fraction >= EARLY_BUILD_SHARE) {
        // One connection: the parse thread holds the other core. The next batches' COPYs into a
        // table wait for its index being built; the parse thread reads on meanwhile.
        earlyBuilds = restoreDeferredIndexes(db, EARLY_BUILD_TABLES, 1);
        earlyBuilds.catch(() => {});
      }
      const estimate = fraction > 0.01 ? Math.max(done, Math.round(done / fraction)) : null;
      ctx.progress({ unit: kind.kind, done, total: estimate, message: file });
    }
    const metrics = initialLoad ? await stream.initialLoadMetrics() : null;
    // The parse thread has nothing left to do: it ends (and frees its memory) beside the run's end.
    closing = stream.close();
    // In bulk mode the indexes of works and authorships left are built while the metrics are written
    // to authors (on connections of their own on the server), then those of authors.
    const rebuilt = deferred
      ? (earlyBuilds ?? Promise.resolve(0)).then(() => restoreDeferredIndexes(db, ['works', 'authorships']))
      : null;
    rebuilt?.catch(() => {});
    if (!rebuilt) options.onBatchesWritten?.();
    if (metrics) initialLoadFinished = await finishInitialLoad(db, metrics);
    if (rebuilt) {
      await rebuilt;
      options.onBatchesWritten?.();
      await restoreDeferredIndexes(db, ['authors']);
      deferred = false;
    }
  } finally {
    await (closing ?? stream.close());
    // Stopped midway (a cancel, a refused batch): the indexes are built again now if the database
    // answers, else by the next ingest.
    if (deferred) {
      await earlyBuildsDone();
      await restoreDeferredIndexes(db).catch(() => {});
    }
  }
  const final = await finishFile(db, checkpoint.fileKey);
  ctx.progress({ unit: kind.kind, done: final.lines, total: final.lines, message: file });
  return {
    file,
    resumed_from_line: checkpoint.linesDone,
    lines: final.lines,
    records: final.records_ok,
    bad_count: final.bad_count,
    bad_records: final.bad_records,
    initial_load: initialLoadFinished,
  };
}
