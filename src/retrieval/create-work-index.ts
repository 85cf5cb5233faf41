// The one place that picks the engine behind the WorkIndex (SEARCH_ENGINE): the app, and anything
// else that serves searches, asks for a WorkIndex here and never learns which one it got.
import type { SearchEngineConfig } from '../infra/config.ts';
import type { Database } from '../infra/db/index.ts';
import { DbWorkIndex, type IndexLog } from './db-work-index.ts';
import { OpenSearchWorkIndex } from './opensearch-work-index.ts';
import type { WorkIndex } from './work-index.ts';

/** A WorkIndex fed from the database: `start()` loads (or catches up) and then keeps it current. */
export interface DatabaseWorkIndex extends WorkIndex {
  start(): Promise<unknown>;
}

export interface WorkIndexSettings {
  /** How often the index reads the works other processes changed, in ms (0: only on refresh()). */
  pollMs: number;
  /** Told of a failed background refresh (the next poll retries). */
  onError?: (error: unknown) => void;
  /**
   * Where the in-process index keeps its snapshot (INDEX_SNAPSHOT_DIR; null: none). OpenSearch keeps
   * its own index on the cluster and has no use for one.
   */
  snapshotDir?: string | null;
  log?: IndexLog;
}

export function createWorkIndex(
  db: Database,
  engine: SearchEngineConfig,
  settings: WorkIndexSettings,
): DatabaseWorkIndex {
  const { pollMs, onError, snapshotDir, log } = settings;
  switch (engine.engine) {
    case 'local':
      return new DbWorkIndex(db, { pollMs, onError, snapshotDir, log });
    case 'opensearch':
      return new OpenSearchWorkIndex(db, {
        url: engine.url,
        index: engine.index,
        shards: engine.shards,
        replicas: engine.replicas,
        pollMs,
        onError,
      });
  }
}
