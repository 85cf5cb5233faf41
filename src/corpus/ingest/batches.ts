// Reading an input file as batches ready to write: lines parsed into records, records deduplicated
// by key within the batch (the last occurrence wins), bad lines collected with their reason, and the
// batch staged as COPY payloads. All of it is CPU work without the database, so it can run in a
// thread of its own (batch-thread.ts) while the database writes the previous batch.
import type { BadLine } from './checkpoints.ts';
import type { InitialBatch, InitialLoadMetrics } from './initial-load.ts';
import type { StagedBatch } from './load-works.ts';
import { BadRecord } from '../openalex/openalex-work.ts';
import { openRecords } from '../openalex/record-reader.ts';

/** How one kind of record is parsed, keyed, staged and written (see entities.ts). */
export interface RecordStaging<T> {
  /** Names the checkpoint space and the progress unit, e.g. "works". */
  kind: string;
  parse(value: unknown): T;
  key(record: T): string;
  /** Pure: the batch's COPY payloads. */
  stage(records: T[]): StagedBatch;
}

export interface ParsedBatch {
  /** 0-based position of the batch in this run. */
  seq: number;
  /** The last line the batch covers: where the checkpoint goes once it is written. */
  lastLine: number;
  /** Records in the batch (after deduplication). */
  records: number;
  bad: BadLine[];
  staged: StagedBatch;
  /** Set when the batch is staged for the initial load (initial-load.ts); `staged` is then empty. */
  initial?: InitialBatch;
  /** Compressed bytes of the file read so far (for the progress estimate). */
  bytesRead: number;
}

/** One record of a batch staged alone: how the record the database refuses is found. */
export interface SingleRecord {
  line: number;
  staged: StagedBatch;
}

export interface BatchStream {
  /** The next batch, or null at the end of the file. */
  next(): Promise<ParsedBatch | null>;
  /** Every record of an uncommitted batch, each staged alone, in line order. */
  singles(seq: number): Promise<SingleRecord[]>;
  /** The batch is written: its records are no longer needed. */
  committed(seq: number): void;
  /** An uncommitted batch staged again for the normal path (after the initial load ended). */
  restage(seq: number): Promise<StagedBatch>;
  /** Ends the initial load: the batches from here on are staged for the normal path. */
  endInitialLoad(): Promise<void>;
  /** The metrics the initial load computed, at the end of the file; null when there was none. */
  initialLoadMetrics(): Promise<InitialLoadMetrics | null>;
  close(): Promise<void>;
}

/** What readBatches needs to stage batches for the initial load (InitialLoadStager). */
export interface InitialStaging<T> {
  stage(records: T[]): Promise<InitialBatch | null>;
  metrics(): InitialLoadMetrics | null;
  end(): void;
}

/** Reads `file` from after line `skipLines` in this thread. */
export async function readBatches<T>(
  kind: RecordStaging<T>,
  file: string,
  skipLines: number,
  batchSize: number,
  initial?: InitialStaging<T>,
): Promise<BatchStream> {
  const source = await openRecords(file, skipLines);
  const lines = source.lines[Symbol.asyncIterator]();
  // Records of the batches not yet committed, kept for `singles`.
  const uncommitted = new Map<number, Array<{ record: T; line: number }>>();
  let lastLine = skipLines;
  let seq = 0;
  let ended = false;

  // At the end of the file the initial load's metrics are computed at once, while the last batches
  // are still being written, rather than after them when the run's end asks for them.
  const atEnd = () => {
    initial?.metrics();
    return null;
  };

  return {
    async next() {
      if (ended) return atEnd();
      const records = new Map<string, { record: T; line: number }>();
      const bad: BadLine[] = [];
      while (records.size + bad.length < batchSize) {
        const item = await lines.next();
        if (item.done) {
          ended = true;
          break;
        }
        const { line, value, error } = item.value;
        lastLine = line;
        if (error !== undefined) {
          bad.push({ line, reason: error });
          continue;
        }
        try {
          const record = kind.parse(value);
          const key = kind.key(record);
          records.delete(key);
          records.set(key, { record, line });
        } catch (failure) {
          if (!(failure instanceof BadRecord)) throw failure;
          bad.push({ line, reason: failure.message });
        }
      }
      if (records.size === 0 && bad.length === 0) return atEnd();
      const kept = [...records.values()];
      uncommitted.set(seq, kept);
      const batchRecords = kept.map((r) => r.record);
      const forInitialLoad = initial ? await initial.stage(batchRecords) : null;
      return {
        seq: seq++,
        lastLine,
        records: kept.length,
        bad,
        staged: forInitialLoad ? { copies: [] } : kind.stage(batchRecords),
        ...(forInitialLoad ? { initial: forInitialLoad } : {}),
        bytesRead: source.bytesRead(),
      };
    },
    async restage(batch) {
      return kind.stage((uncommitted.get(batch) ?? []).map((r) => r.record));
    },
    async endInitialLoad() {
      initial?.end();
    },
    async initialLoadMetrics() {
      return initial?.metrics() ?? null;
    },
    async singles(batch) {
      const kept = uncommitted.get(batch) ?? [];
      return [...kept]
        .sort((a, b) => a.line - b.line)
        .map((r) => ({ line: r.line, staged: kind.stage([r.record]) }));
    },
    committed(batch) {
      uncommitted.delete(batch);
    },
    async close() {
      await lines.return?.();
    },
  };
}
