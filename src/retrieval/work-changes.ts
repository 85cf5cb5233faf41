// What every database-backed WorkIndex reads to follow the corpus: the named queries over `works`
// and `work_deletions`, their paging and look-back, and the one-refresh-at-a-time schedule with
// its poll timer. The in-process index (db-work-index.ts) and the OpenSearch one
// (opensearch-work-index.ts) both catch up from `works.change_seq` through these.
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
export const DELETIONS_LOOKBACK = 1000;

export const SELECT_CHANGED = `SELECT id, title, abstract, publication_year, change_seq FROM works
  WHERE change_seq > $1 ORDER BY change_seq LIMIT $2`;
export const SELECT_RECENT_VERSIONS = `SELECT id, change_seq FROM works WHERE change_seq > $1 AND change_seq <= $2`;
export const SELECT_BY_IDS = `SELECT id, title, abstract, publication_year, change_seq FROM works WHERE id = ANY($1::int[])`;
export const COUNT_WORKS = `SELECT count(*)::int AS n FROM works`;
export const SELECT_DELETIONS = `SELECT seq, work_id FROM work_deletions WHERE seq > $1 ORDER BY seq`;
export const SELECT_DELETIONS_END = 'SELECT max(seq) AS seq FROM work_deletions';
export const SELECT_ALL_IDS = `SELECT id FROM works`;

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
