// The in-process WorkIndex, kept current from the database: at start it reads every work, then
// polls `works.change_seq` (every `pollMs`, and on demand through `refresh()`), so works ingested by
// another process appear within a poll. A changed work replaces its old version; deleted works are
// found by comparing counts (cheap) and then ids (only when the counts differ).
// With a snapshot directory, the start reads the index from its snapshot (index-snapshot.ts) when
// one made from this database is there and passes every check, and reads from the database only the
// works changed after the snapshot's cursors; otherwise it builds from the database as before. Either
// way it serves only once caught up. A new snapshot is written after serving starts when there was
// no usable one, and later once enough has changed (see `snapshotDue`).
import path from 'node:path';
import { rm } from 'node:fs/promises';
import type { Database } from '../infra/db/index.ts';
import { databaseIdentity } from '../infra/db/identity.ts';
import {
  SNAPSHOT_FILE,
  readIndexSnapshot,
  removeAbandonedTemps,
  writeIndexSnapshot,
  type SnapshotHeader,
  type SnapshotRejection,
} from './index-snapshot.ts';
import { LocalWorkIndex, type LocalWorkIndexOptions } from './local-work-index.ts';
import type { RefreshResult, WorkIndex } from './work-index.ts';
import { ChangeCursor, RefreshSchedule, catchUp, type ChangeTarget } from './work-changes.ts';

/** Where the log lines about the snapshot go (a pino logger fits). */
export interface IndexLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export interface DbWorkIndexOptions extends LocalWorkIndexOptions {
  /** Poll interval in ms; 0 turns polling off (refresh() still works). Default 2000. */
  pollMs?: number;
  /** Told of a failed background refresh (the next poll retries). */
  onError?: (error: unknown) => void;
  /**
   * Directory of the index's snapshot; null or absent: no snapshot, every start builds the index
   * from the database.
   */
  snapshotDir?: string | null;
  log?: IndexLog;
}

/** What the last start did: read a snapshot and caught up, or built from the database. */
export interface IndexStartup {
  source: 'snapshot' | 'database';
  /** Why a snapshot was not used (null when none was there, or it was used). */
  rejected: { reason: Exclude<SnapshotRejection, 'missing'>; detail: string } | null;
  /** Snapshot file size read, 0 when none was used. */
  snapshotBytes: number;
  /** Reading the snapshot (checks and checksums included). */
  snapshotMs: number;
  /** Catching up from the database after the snapshot, or the whole build without one. */
  databaseMs: number;
  /** What was read from the database: every work without a snapshot, the changes after it with one. */
  fromDatabase: RefreshResult;
  totalMs: number;
}

// When to write a new snapshot while serving. Catching up costs about what indexing costs (~60 µs
// of CPU a work, plus reading the rows), so the changes since the last snapshot are kept below what
// a start can absorb in a second or two; and writing (the whole index: ~1.3 GB at a million works,
// seconds of I/O) must stay a small share of the time, so never more often than every
// SNAPSHOT_MIN_INTERVAL_MS nor than SNAPSHOT_COST_FACTOR times the last write took.
const SNAPSHOT_MIN_CHANGES = 1000;
const SNAPSHOT_MAX_CHANGES = 20_000;
const SNAPSHOT_CHANGE_SHARE = 0.02;
const SNAPSHOT_MIN_INTERVAL_MS = 60_000;
const SNAPSHOT_COST_FACTOR = 50;
// After a failed write (a full disk, a directory not writable) the wait doubles, up to an hour: a
// write that fails late has cost the whole write.
const SNAPSHOT_MAX_RETRY_MS = 3_600_000;

/** The database's cursors: nothing a snapshot made from this database can be ahead of. */
const SELECT_CURSOR_CEILINGS = `SELECT
  (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM works_change_seq) AS change_seq,
  (SELECT coalesce(max(seq), 0) FROM work_deletions) AS deletion_seq`;

export class DbWorkIndex extends LocalWorkIndex implements WorkIndex {
  private readonly cursor = new ChangeCursor();
  private readonly schedule = new RefreshSchedule((reconcile) => this.sync(reconcile));
  private readonly snapshotFile: string | null;
  private databaseId: string | null = null;
  /** Works applied since the state the snapshot on disk holds; null when there is no usable one. */
  private changesSinceSnapshot: number | null = null;
  private lastSnapshotAt = 0;
  private lastSnapshotMs = 0;
  private failedSnapshots = 0;
  /** Set once the start has caught up: snapshots are written while serving, never before. */
  private serving = false;
  private lastStartup: IndexStartup | null = null;
  private snapshotLoad: Awaited<ReturnType<DbWorkIndex['loadSnapshot']>> = null;
  /** The start while it runs (a refresh waits for it). */
  private startInProgress: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly options: DbWorkIndexOptions = {},
  ) {
    super(options);
    this.snapshotFile = options.snapshotDir ? path.join(options.snapshotDir, SNAPSHOT_FILE) : null;
  }

  /** What the start did (null before it has finished). */
  get startup(): IndexStartup | null {
    return this.lastStartup;
  }

  /**
   * Reads the index from its snapshot, or from the database without a usable one; catches up with
   * the database; then starts polling. Resolves once the index answers for the whole corpus.
   */
  async start(): Promise<this> {
    const run = this.startOnce();
    this.startInProgress = run;
    try {
      await run;
    } finally {
      this.startInProgress = null;
    }
    return this;
  }

  private async startOnce(): Promise<void> {
    const started = performance.now();
    // A start retried after a failure (the database out of reach) keeps what an earlier attempt read.
    this.snapshotLoad ??= await this.loadSnapshot();
    const loaded = this.snapshotLoad;
    const snapshotRead = performance.now();
    const fromDatabase = await this.schedule.refresh(true);
    this.lastStartup = {
      source: loaded?.used ? 'snapshot' : 'database',
      rejected: loaded?.rejected ?? null,
      snapshotBytes: loaded?.bytes ?? 0,
      snapshotMs: snapshotRead - started,
      databaseMs: performance.now() - snapshotRead,
      fromDatabase,
      totalMs: performance.now() - started,
    };
    this.options.log?.info(
      { ...this.lastStartup, works: this.core.liveWorks },
      this.lastStartup.source === 'snapshot'
        ? 'search index read from its snapshot and caught up'
        : 'search index built from the database',
    );
    this.serving = true;
    if (this.snapshotDue()) {
      // The first snapshot is written in the background, once the index serves.
      this.schedule.refresh(false).catch((error: unknown) => this.options.onError?.(error));
    }
    if (!this.closed) this.schedule.poll(this.options.pollMs ?? 2000, this.options.onError);
  }

  /**
   * Reads what changed in the database. Asked for while the start runs (the server refreshes once
   * the demo corpus is there, a command run through the admin channel once it is done), it waits
   * for the start: read then, the whole corpus would fill the index that the snapshot is about to be
   * read into, and the snapshot be refused and thrown away at every restart.
   */
  override async refresh(): Promise<RefreshResult> {
    if (this.startInProgress) await this.startInProgress.catch(() => undefined);
    return this.schedule.refresh(true);
  }

  private async sync(reconcile: boolean): Promise<RefreshResult> {
    const started = performance.now();
    if (this.closed) return { upserted: 0, removed: 0, ms: 0 };
    const { upserted, removed } = await catchUp(this.db, this.cursor, this.changeTarget, reconcile);
    this.flush(upserted > 0 || removed > 0);
    this.lastRefreshAt = new Date();
    this.lastRefreshMs = performance.now() - started;
    if (this.changesSinceSnapshot !== null) this.changesSinceSnapshot += upserted + removed;
    // Inside the refresh, so nothing changes the index while it is written.
    if (this.snapshotDue()) await this.writeSnapshot();
    return { upserted, removed, ms: this.lastRefreshMs };
  }

  /**
   * Reads the snapshot into the (empty) index when one is there, made from this database, and
   * passes every check; a snapshot refused is removed (it will be written again once the index is
   * built).
   */
  private async loadSnapshot(): Promise<{
    used: boolean;
    bytes: number;
    rejected: IndexStartup['rejected'];
  } | null> {
    if (!this.snapshotFile) return null;
    this.databaseId ??= await databaseIdentity(this.db);
    await removeAbandonedTemps(this.snapshotFile);
    let read = await readIndexSnapshot(this.snapshotFile, this.core.options, (header) =>
      this.checkAgainstDatabase(header),
    );
    if (read.ok) {
      try {
        // Checks the state before it changes anything: a refused one leaves the index empty.
        this.core.restore(read.state);
      } catch (error) {
        read = {
          ok: false,
          reason: 'corrupt',
          detail: error instanceof Error ? error.message : String(error),
        };
      }
    }
    if (!read.ok) {
      if (read.reason === 'missing') return { used: false, bytes: 0, rejected: null };
      this.options.log?.warn(
        { file: this.snapshotFile, reason: read.reason, detail: read.detail },
        'search index snapshot refused; building the index from the database',
      );
      await rm(this.snapshotFile, { force: true }).catch(() => undefined);
      return { used: false, bytes: 0, rejected: { reason: read.reason, detail: read.detail } };
    }
    this.cursor.changeSeq = read.header.changeSeq;
    this.cursor.deletionSeq = read.header.deletionSeq;
    this.changesSinceSnapshot = 0;
    return { used: true, bytes: read.bytes, rejected: null };
  }

  /** Refuses a snapshot of another database, or one ahead of this database's change logs. */
  private async checkAgainstDatabase(
    header: SnapshotHeader,
  ): Promise<{ reason: 'stale'; detail: string } | null> {
    if (header.databaseId !== this.databaseId)
      return {
        reason: 'stale',
        detail: `made from database ${header.databaseId}, this is ${this.databaseId}`,
      };
    const { rows } = await this.db.query<{ change_seq: number; deletion_seq: number }>(
      SELECT_CURSOR_CEILINGS,
    );
    const changeSeq = Number(rows[0]?.change_seq ?? 0);
    const deletionSeq = Number(rows[0]?.deletion_seq ?? 0);
    // The sequences never go back: a cursor past them was read from a database since restored.
    if (header.changeSeq > changeSeq)
      return {
        reason: 'stale',
        detail: `change_seq ${header.changeSeq} is ahead of the database's ${changeSeq}`,
      };
    if (header.deletionSeq > deletionSeq)
      return {
        reason: 'stale',
        detail: `work deletion ${header.deletionSeq} is ahead of the database's ${deletionSeq}`,
      };
    return null;
  }

  /**
   * Whether to write a snapshot now: while serving, when there is no usable one on disk or enough
   * has changed since it was written, and not sooner than the interval after the last write.
   */
  private snapshotDue(): boolean {
    if (!this.snapshotFile || !this.serving || this.closed || this.databaseId === null) return false;
    const changes = this.changesSinceSnapshot;
    if (changes !== null) {
      const enough = Math.min(
        SNAPSHOT_MAX_CHANGES,
        Math.max(SNAPSHOT_MIN_CHANGES, this.core.liveWorks * SNAPSHOT_CHANGE_SHARE),
      );
      if (changes < enough) return false;
    }
    if (this.lastSnapshotAt === 0) return true;
    const interval =
      this.failedSnapshots > 0
        ? Math.min(SNAPSHOT_MAX_RETRY_MS, SNAPSHOT_MIN_INTERVAL_MS * 2 ** (this.failedSnapshots - 1))
        : Math.max(SNAPSHOT_MIN_INTERVAL_MS, SNAPSHOT_COST_FACTOR * this.lastSnapshotMs);
    return Date.now() - this.lastSnapshotAt >= interval;
  }

  private async writeSnapshot(): Promise<void> {
    const file = this.snapshotFile!;
    const started = performance.now();
    try {
      const bytes = await writeIndexSnapshot(
        file,
        this.core.state(),
        {
          databaseId: this.databaseId!,
          changeSeq: this.cursor.changeSeq,
          deletionSeq: this.cursor.deletionSeq ?? 0,
        },
        { shouldStop: () => this.closed },
      );
      if (bytes === null) return;
      this.changesSinceSnapshot = 0;
      this.failedSnapshots = 0;
      this.lastSnapshotMs = performance.now() - started;
      this.options.log?.info(
        { file, works: this.core.liveWorks, bytes, ms: Math.round(this.lastSnapshotMs) },
        'search index snapshot written',
      );
    } catch (error) {
      // Serving goes on without it; the next start builds from the database (or an older snapshot).
      this.failedSnapshots++;
      this.options.log?.warn({ err: error, file }, 'writing the search index snapshot failed');
    } finally {
      this.lastSnapshotAt = Date.now();
    }
  }

  /** The works read from the database go into the in-process index (flushed once the refresh is done). */
  private readonly changeTarget: ChangeTarget = {
    apply: (works) => {
      let applied = 0;
      for (const work of works) if (this.upsert(work)) applied++;
      return applied;
    },
    remove: (ids) => {
      let removed = 0;
      for (const id of ids) if (this.core.remove(id)) removed++;
      return removed;
    },
    versionOf: (id) => this.core.changeSeqOf(id),
    count: () => this.core.liveWorks,
    held: () => ({ ids: this.core.liveWorkIds(), has: (id) => this.core.docOf(id) >= 0 }),
  };

  protected override changeSeq(): number {
    return this.cursor.changeSeq;
  }

  override async close(): Promise<void> {
    this.closed = true;
    await this.schedule.stop();
    await super.close();
  }
}

/** Builds the index from the database and starts keeping it current. */
export function openWorkIndex(db: Database, options: DbWorkIndexOptions = {}): Promise<DbWorkIndex> {
  return new DbWorkIndex(db, options).start();
}
