// CSV text for COPY ... FROM STDIN (FORMAT csv): an unquoted empty field is NULL, a quoted one is ''.
export type CsvValue = string | number | boolean | null | readonly string[] | readonly number[];

/** A Postgres array literal: every element double-quoted, so no element needs further thought. */
function pgArray(values: readonly (string | number)[]): string {
  return `{${values.map((v) => `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

function field(value: CsvValue): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = typeof value === 'string' ? value : pgArray(value);
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvRows(rows: Iterable<readonly CsvValue[]>): string {
  const out: string[] = [];
  for (const row of rows) out.push(row.map(field).join(','));
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}
