// The ingest's modes and batch size, apart from the runner: the CLI offers them as choices without loading the
// runner and the database drivers behind it (`refmatch --help` stays fast).
export const PARSE_THREAD_MODES = ['auto', 'always', 'never'] as const;
export type ParseThreadMode = (typeof PARSE_THREAD_MODES)[number];

export const INITIAL_LOAD_MODES = ['auto', 'never'] as const;
export type InitialLoadMode = (typeof INITIAL_LOAD_MODES)[number];

// Fewer, larger statements: 5,000 works per batch cost ~15% less database CPU than 2,000 on the ACL
// works; the parse thread holds at most three batches (a few tens of MB).
export const DEFAULT_BATCH_SIZE = 5_000;

export const BULK_MODES = ['auto', 'always', 'never'] as const;
export type BulkMode = (typeof BULK_MODES)[number];
