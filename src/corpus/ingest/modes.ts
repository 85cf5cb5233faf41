// The ingest's modes, apart from the runner: the CLI offers them as choices without loading the
// runner and the database drivers behind it (`refmatch --help` stays fast).
export const PARSE_THREAD_MODES = ['auto', 'always', 'never'] as const;
export type ParseThreadMode = (typeof PARSE_THREAD_MODES)[number];

export const INITIAL_LOAD_MODES = ['auto', 'never'] as const;
export type InitialLoadMode = (typeof INITIAL_LOAD_MODES)[number];

export const BULK_MODES = ['auto', 'always', 'never'] as const;
export type BulkMode = (typeof BULK_MODES)[number];
