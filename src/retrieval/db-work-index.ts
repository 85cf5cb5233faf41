// The in-process WorkIndex, kept current from the database: at start it reads every work, then
// polls `works.change_seq` (every `pollMs`, and on demand through `refresh()`), so works ingested by
// another process appear within a poll. A changed work replaces its old version; deleted works are
// found by comparing counts (cheap) and then ids (only when the counts differ).
import type { Database } from '../infra/db/index.ts';
import { LocalWorkIndex, type LocalWorkIndexOptions } from './local-work-index.ts';
import type { RefreshResult, WorkIndex } from './work-index.ts';
import {
  CHANGES_LOOKBACK,
  CHANGES_PAGE,
  COUNT_WORKS,
  DELETIONS_LOOKBACK,
  RefreshSchedule,
  SELECT_ALL_IDS,
  SELECT_BY_IDS,
  SELECT_CHANGED,
  SELECT_DELETIONS,
  SELECT_DELETIONS_END,
  SELECT_RECENT_VERSIONS,
  workText,
  type WorkRow,
} from './work-changes.ts';

export interface DbWorkIndexOptions extends LocalWorkIndexOptions {
  /** Poll interval in ms; 0 turns polling off (refresh() still works). Default 2000. */
  pollMs?: number;
  /** Told of a failed background refresh (the next poll retries). */
  onError?: (error: unknown) => void;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class DbWorkIndex extends LocalWorkIndex implements WorkIndex {
  private lastSeq = 0;
  /** Highest `work_deletions.seq` read; null until the first refresh has read the log's end. */
  private lastDeletion: number | null = null;
  private readonly schedule = new RefreshSchedule((reconcile) => this.sync(reconcile));

  constructor(
    private readonly db: Database,
    private readonly options: DbWorkIndexOptions = {},
  ) {
    super(options);
  }

  /** Loads every work, then starts polling. */
  async start(): Promise<this> {
    await this.refresh();
    if (!this.closed) this.schedule.poll(this.options.pollMs ?? 2000, this.options.onError);
    return this;
  }

  override refresh(): Promise<RefreshResult> {
    return this.schedule.refresh(true);
  }

  private async sync(reconcile: boolean): Promise<RefreshResult> {
    const started = performance.now();
    let upserted = 0;
    let removed = 0;
    if (this.closed) return { upserted, removed, ms: 0 };

    // Deletions first: read before the changes, a work deleted meanwhile is never indexed again
    // (its rows are gone by the time the changes are read).
    if (this.lastDeletion === null) {
      // At start the table is read whole, so the log's past does not matter: only its end.
      const end = await this.db.query<{ seq: number | null }>(SELECT_DELETIONS_END);
      this.lastDeletion = Number(end.rows[0]?.seq ?? 0);
    } else {
      const deleted = await this.db.query<{ seq: number; work_id: number }>(SELECT_DELETIONS, [
        Math.max(0, this.lastDeletion - DELETIONS_LOOKBACK),
      ]);
      for (const row of deleted.rows) {
        if (this.core.remove(row.work_id)) removed++;
        this.lastDeletion = Math.max(this.lastDeletion, Number(row.seq));
      }
    }

    if (this.lastSeq > 0) {
      const recent = await this.db.query<{ id: number; change_seq: number }>(SELECT_RECENT_VERSIONS, [
        Math.max(0, this.lastSeq - CHANGES_LOOKBACK),
        this.lastSeq,
      ]);
      const missed = recent.rows.filter((r) => this.core.changeSeqOf(r.id) !== r.change_seq).map((r) => r.id);
      if (missed.length > 0) upserted += await this.fetchAndApply(missed);
    }

    for (;;) {
      const page = await this.db.query<WorkRow>(SELECT_CHANGED, [this.lastSeq, CHANGES_PAGE]);
      for (const row of page.rows) {
        if (this.apply(row)) upserted++;
        if (row.change_seq > this.lastSeq) this.lastSeq = row.change_seq;
      }
      if (page.rows.length < CHANGES_PAGE) break;
      // Indexing a page is CPU work: let requests in between pages.
      await yieldToEventLoop();
    }

    if (reconcile) {
      const { rows } = await this.db.query<{ n: number }>(COUNT_WORKS);
      if ((rows[0]?.n ?? 0) !== this.core.liveWorks) {
        const ids = new Set((await this.db.query<{ id: number }>(SELECT_ALL_IDS)).rows.map((r) => r.id));
        for (const id of this.core.liveWorkIds()) {
          if (!ids.has(id) && this.core.remove(id)) removed++;
        }
        const absent = [...ids].filter((id) => this.core.docOf(id) < 0);
        if (absent.length > 0) upserted += await this.fetchAndApply(absent);
      }
    }

    this.flush(upserted > 0 || removed > 0);
    this.lastRefreshAt = new Date();
    this.lastRefreshMs = performance.now() - started;
    return { upserted, removed, ms: this.lastRefreshMs };
  }

  private async fetchAndApply(ids: number[]): Promise<number> {
    let applied = 0;
    for (let i = 0; i < ids.length; i += CHANGES_PAGE) {
      const { rows } = await this.db.query<WorkRow>(SELECT_BY_IDS, [ids.slice(i, i + CHANGES_PAGE)]);
      for (const row of rows) if (this.apply(row)) applied++;
    }
    return applied;
  }

  private apply(row: WorkRow): boolean {
    return this.upsert(workText(row));
  }

  protected override changeSeq(): number {
    return this.lastSeq;
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
