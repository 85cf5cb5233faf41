/**
 * Whether an error means the database cannot be reached (connection lost or refused, server shutting
 * down or not yet accepting connections), as opposed to a statement it refused: the first is worth
 * stopping for (an ingest) or answering 503 (the API's error handler), the second is a record to
 * report or the caller's fault.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    (/^08/.test(code) ||
      code === '57P01' ||
      code === '57P03' ||
      code === 'ECONNREFUSED' ||
      code === 'ECONNRESET')
  );
}
