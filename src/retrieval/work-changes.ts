// What every database-backed WorkIndex reads to follow the corpus: the named queries over `works`
// and `work_deletions`, their paging and look-back, and the one-refresh-at-a-time schedule with
// its poll timer. The in-process index (db-work-index.ts) and the OpenSearch one
// (opensearch-work-index.ts) both catch up from `works.change_seq` through `catchUp`, each saying
// only how it applies what was read (a ChangeTarget).
import type { Queryable } from '../infra/db/index.ts';
import { yieldToEventLoop } from '../infra/event-loop.ts';
import type { WorkText } from './bm25-index.ts';
import type { RefreshResult } from './work-index.ts';

export interface WorkRow {
  id: number;
  title: string;
  abstract: string | null;
  publication_year: number | null;
  change_seq: number;
}

export const CHANGES_PAGE = 1000;
// Sequence numbers are taken at insert but become visible at commit, so a transaction that took a
// lower number can commit after we read past it. Each poll re-reads the ids and sequence numbers of
// this many recent changes and fetches any version it has not indexed.
export const CHANGES_LOOKBACK = 5000;
// Deletions are read from `work_deletions` (filled by a trigger) on every poll. Only an explicit
// `refresh()` also reconciles the whole table (a count, and the ids when it differs): a scan of
// `works` that the periodic poll must not pay (on the embedded database it runs on the serving
// thread). Like change_seq, a deletion's number becomes visible at commit: re-read this many.
const DELETIONS_LOOKBACK = 1000;

const SELECT_CHANGED = `SELECT id, title, abstract, publication_year, change_seq FROM works
  WHERE change_seq > $1 ORDER BY change_seq LIMIT $2`;
const SELECT_RECENT_VERSIONS = `SELECT id, change_seq FROM works WHERE change_seq > $1 AND change_seq <= $2`;
const SELECT_BY_IDS = `SELECT id, title, abstract, publication_year, change_seq FROM works WHERE id = ANY($1::int[])`;
const COUNT_WORKS = `SELECT count(*)::int AS n FROM works`;
const SELECT_DELETIONS = `SELECT seq, work_id FROM work_deletions WHERE seq > $1 ORDER BY seq`;
const SELECT_DELETIONS_END = 'SELECT max(seq) AS seq FROM work_deletions';
const SELECT_ALL_IDS = `SELECT id FROM works`;

export function workText(row: WorkRow): WorkText {
  return {
    workId: row.id,
    title: row.title,
    abstract: row.abstract,
    year: row.publication_year,
    changeSeq: row.change_seq,
  };
}

/**
 * Where an index stands in the corpus's changes, and the reads that move it on: each refresh takes
 * the deletions since the cursor, then the recent changes it may have missed, then the pages of
 * changes after it. What the index does with them (apply in process, write to a cluster) is its own.
 */
export class ChangeCursor {
  /** Highest `works.change_seq` the index holds. */
  changeSeq = 0;
  /** Highest `work_deletions.seq` read; null until the first refresh has read the log's end. */
  deletionSeq: number | null = null;

  /**
   * The works deleted since the last call. The first call reads only the log's end: a start reads
   * the table whole, so the log's past does not matter.
   */
  async deletions(db: Queryable): Promise<number[]> {
    if (this.deletionSeq === null) {
      const end = await db.query<{ seq: number | null }>(SELECT_DELETIONS_END);
      this.deletionSeq = Number(end.rows[0]?.seq ?? 0);
      return [];
    }
    const deleted = await db.query<{ seq: number; work_id: number }>(SELECT_DELETIONS, [
      Math.max(0, this.deletionSeq - DELETIONS_LOOKBACK),
    ]);
    const ids: number[] = [];
    for (const row of deleted.rows) {
      ids.push(row.work_id);
      this.deletionSeq = Math.max(this.deletionSeq, Number(row.seq));
    }
    return ids;
  }

  /**
   * Among the last CHANGES_LOOKBACK changes, the works whose version the index does not hold
   * (`versionOf`): committed after a later number was read.
   */
  async missedVersions(db: Queryable, versionOf: (id: number) => number | undefined): Promise<number[]> {
    if (this.changeSeq <= 0) return [];
    const recent = await db.query<{ id: number; change_seq: number }>(SELECT_RECENT_VERSIONS, [
      Math.max(0, this.changeSeq - CHANGES_LOOKBACK),
      this.changeSeq,
    ]);
    return recent.rows.filter((r) => versionOf(r.id) !== r.change_seq).map((r) => r.id);
  }

  /** The next page of works changed after the cursor, oldest first; `passed` once it is applied. */
  async nextChanges(db: Queryable): Promise<WorkRow[]> {
    return (await db.query<WorkRow>(SELECT_CHANGED, [this.changeSeq, CHANGES_PAGE])).rows;
  }

  /** Moves the cursor past a page the index now holds. */
  passed(page: readonly WorkRow[]): void {
    for (const row of page) if (row.change_seq > this.changeSeq) this.changeSeq = row.change_seq;
  }
}

/** The works an index holds, as a reconciliation compares them with the table. */
export interface HeldWorks {
  ids: Iterable<number>;
  has(id: number): boolean;
}

/** What an index does with the changes `catchUp` reads: applied in process, or written to a cluster. */
export interface ChangeTarget {
  /** Indexes these works' versions; how many it did not hold already. */
  apply(works: WorkText[]): number | Promise<number>;
  /** Takes these works out; how many it held. */
  remove(ids: number[]): number | Promise<number>;
  /** The version (change_seq) of a work the index holds, if it knows it. */
  versionOf(id: number): number | undefined;
  /** After each page of changes is applied and the cursor has passed it. */
  pagePassed?(): void;
  /** How many works the index holds (read only by a reconciliation). */
  count(): number | Promise<number>;
  /** Which works the index holds (read only when the counts differ). */
  held(): HeldWorks | Promise<HeldWorks>;
}

/**
 * One refresh of an index from the database: the deletions since the cursor first (read before the
 * changes, a work deleted meanwhile is never indexed again: its rows are gone by the time the
 * changes are read), then the recent versions it may have missed, then the pages of changes after
 * the cursor; with `reconcile`, the whole table against what the index holds (a count, and the
 * ids when the counts differ).
 */
export async function catchUp(
  db: Queryable,
  cursor: ChangeCursor,
  target: ChangeTarget,
  reconcile: boolean,
): Promise<{ upserted: number; removed: number }> {
  let upserted = 0;
  let removed = 0;
  const deleted = await cursor.deletions(db);
  if (deleted.length > 0) removed += await target.remove(deleted);

  const missed = await cursor.missedVersions(db, (id) => target.versionOf(id));
  if (missed.length > 0) upserted += await fetchAndApply(db, missed, target);

  for (;;) {
    const page = await cursor.nextChanges(db);
    if (page.length > 0) upserted += await target.apply(page.map(workText));
    cursor.passed(page);
    target.pagePassed?.();
    if (page.length < CHANGES_PAGE) break;
    // Indexing a page is CPU work: let requests in between pages.
    await yieldToEventLoop();
  }

  if (reconcile) {
    const { rows } = await db.query<{ n: number }>(COUNT_WORKS);
    if ((rows[0]?.n ?? 0) !== (await target.count())) {
      const inDb = new Set((await db.query<{ id: number }>(SELECT_ALL_IDS)).rows.map((r) => r.id));
      const held = await target.held();
      const gone: number[] = [];
      for (const id of held.ids) if (!inDb.has(id)) gone.push(id);
      if (gone.length > 0) removed += await target.remove(gone);
      const absent = [...inDb].filter((id) => !held.has(id));
      if (absent.length > 0) upserted += await fetchAndApply(db, absent, target);
    }
  }
  return { upserted, removed };
}

/** Reads these works a page at a time and applies them. */
async function fetchAndApply(db: Queryable, ids: number[], target: ChangeTarget): Promise<number> {
  let applied = 0;
  for (let i = 0; i < ids.length; i += CHANGES_PAGE) {
    const { rows } = await db.query<WorkRow>(SELECT_BY_IDS, [ids.slice(i, i + CHANGES_PAGE)]);
    if (rows.length > 0) applied += await target.apply(rows.map(workText));
  }
  return applied;
}

/**
 * One refresh at a time: a call during one runs once more after it (changes may have landed
 * since); a poll that finds one running skips its turn. `run(reconcile)` does the work: explicit
 * refreshes reconcile the whole table, polls do not.
 */
export class RefreshSchedule {
  private running: Promise<RefreshResult> | null = null;
  private queued: Promise<RefreshResult> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly run: (reconcile: boolean) => Promise<RefreshResult>) {}

  refresh(reconcile: boolean): Promise<RefreshResult> {
    if (!this.running) {
      this.running = this.run(reconcile).finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = null;
        return this.refresh(reconcile);
      });
    return this.queued;
  }

  /** Polls every `pollMs` (0: never); a failed poll is told to `onError` and the next one retries. */
  poll(pollMs: number, onError?: (error: unknown) => void): void {
    if (pollMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      if (this.running) return;
      this.refresh(false).catch((error: unknown) => onError?.(error));
    }, pollMs);
    this.timer.unref();
  }

  /** Stops polling and waits for a refresh under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => undefined);
    await this.queued?.catch(() => undefined);
  }
}
