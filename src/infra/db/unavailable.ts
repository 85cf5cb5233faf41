/**
 * Whether an error means the database cannot be reached (connection lost or refused, server shutting
 * down), as opposed to a statement it refused: the first is worth stopping for, the second is a
 * record to report.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    (/^08/.test(code) || code === '57P01' || code === 'ECONNREFUSED' || code === 'ECONNRESET')
  );
}
