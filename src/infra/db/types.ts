// The one seam every feature talks to the database through. Two drivers implement it (server
// PostgreSQL through pg.Pool, embedded PGlite); features never know which one they run on.

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
}

export interface Transaction extends Queryable {
  /** Runs a script of several statements inside the transaction; no parameters. */
  exec(script: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly driver: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction on one connection; rolls back if it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  /** Runs a script of several statements (migrations); no parameters. */
  exec(script: string): Promise<void>;
  /**
   * Bulk-loads rows with COPY ... FROM STDIN in CSV format: the fastest path each driver has.
   * `csv` is the complete CSV text (no header), as a string or as its UTF-8 bytes (sent as they are:
   * a producer that writes bytes spares decoding them into a string only to encode it again).
   */
  copyCsv(table: string, columns: readonly string[], csv: string | Uint8Array, tx?: Queryable): Promise<void>;
  /**
   * Bytes the database itself holds inside this process (PGlite: its WebAssembly memory, which
   * grows and is never given back); absent for server PostgreSQL, whose memory is its own processes'.
   */
  memoryBytes?(): number;
  close(): Promise<void>;
}
