// What `refmatch coi import` reads at most (docs/benchmarks/hostile-uploads.md, round 23): here, apart
// from the reader, so that the command's help says them without loading the store.

/** The most bytes the file may hold (some 1.5 M rows of ORCIDs). */
export const COI_FILE_MAX_BYTES = 64 * 1024 * 1024;
/**
 * The most characters a line may hold, and a row's fields together (a row of quoted fields may span
 * lines): so a field is never longer, nor a row of more columns (the first two are read).
 */
export const COI_LINE_MAX_CHARS = 4096;
/** How many rejected rows are listed; all are counted. */
export const COI_REJECTED_LISTED = 100;
/** How many characters of a refused value a rejection quotes. */
export const COI_QUOTED_CHARS = 80;
