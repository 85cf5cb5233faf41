// CSV files the dashboard hands out (a group's records, a manuscript's candidates; docs/dashboard.md,
// "Exports"), written for a spreadsheet to open as they are: UTF-8 with a byte order mark (Excel
// reads a file without one in the system's code page, "GarcÃ­a"), lines ended by CRLF and cells
// quoted as RFC 4180 says, and a cell that a spreadsheet would run as a formula neutralized (OWASP,
// CSV injection). The group import reads the neutralized cells back (`unneutralizedCell`), so that a
// group exported and imported again holds what it held.
import type { FastifyReply } from 'fastify';

/** The byte order mark that starts each file: Excel reads the file as UTF-8 only with it. */
export const CSV_BOM = '\uFEFF';

/**
 * A cell a spreadsheet reads as a formula begins with one of = + - @, or a tab or a line break (which
 * some strip before reading), or spaces before one of = + - @: LibreOffice Calc's import with "Trim
 * spaces" (a box of its CSV dialog) read " =1+1" as the formula (2; probed in round 26). Apostrophes
 * before them are counted so that a value that begins with apostrophes of its own comes back whole
 * (`unneutralizedCell` takes one away).
 */
const FORMULA_LEAD = String.raw`(?:[\t\r\n]|\s*[=+\-@])`;
const FORMULA_START = new RegExp(`^'*${FORMULA_LEAD}`);
/** A cell `csvCell` neutralized: an apostrophe of its own before what would start a formula. */
const NEUTRALIZED = new RegExp(`^'+${FORMULA_LEAD}`);
/** A number alone is no formula ("-1.5", a custom value; a score): left a number for the sheet. */
const PLAIN_NUMBER = /^[-+]?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/;

/**
 * A cell as the file holds it: a value that would start a formula gets an apostrophe before it (a
 * spreadsheet shows the text and runs nothing); a cell holding a comma, a quote or a line break is
 * quoted, its quotes doubled (RFC 4180). Null and undefined are an empty cell.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let cell = typeof value === 'number' ? String(value) : value;
  if (FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** One line of the file: its cells, then CRLF. */
export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A cell as written before `csvCell` neutralized it: one apostrophe taken from before what would
 * start a formula. The import reads every cell through it, so an exported "'=SUM(A1)" is "=SUM(A1)"
 * again, and "''=x" (a value that began "'=x") is "'=x".
 */
export function unneutralizedCell(cell: string): string {
  return NEUTRALIZED.test(cell) ? cell.slice(1) : cell;
}

/**
 * A list's items in one cell, as the import splits them: "; " between them, or one a line when an
 * item holds a semicolon (a cell of lines is split by lines; one item alone then ends with a line
 * break, so that it is read as lines too).
 */
export function listCell(items: readonly string[] | null | undefined): string {
  if (!items || items.length === 0) return '';
  if (!items.some((item) => item.includes(';'))) return items.join('; ');
  return items.length === 1 ? `${items[0]}\r\n` : items.join('\r\n');
}

/** A name for a file: path separators, control and quoting characters dropped, spaces as hyphens. */
function fileNamePart(value: string): string {
  return (
    value
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f/\\:*?"<>|\u2028\u2029\u2066-\u2069\u202a-\u202e]+/g, ' ')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 80) || 'export'
  );
}

/**
 * A file's name from its parts ("group", the group's name, the date): each made safe for a file
 * system, joined by hyphens, ".csv" after them.
 */
export function csvFileName(parts: readonly string[]): string {
  return `${parts.map(fileNamePart).join('-')}.csv`;
}

/**
 * Content-Disposition for a download named `fileName` (RFC 6266): `filename` in ASCII for the
 * clients that read only it (other letters as "_"), and `filename*` (RFC 5987) in UTF-8,
 * percent-encoded, which browsers take first: "group-Équipe-2026-12-02.csv".
 */
export function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** Sets the headers of a CSV download named `fileName`. */
export function csvDownload(reply: FastifyReply, fileName: string): FastifyReply {
  return reply.type('text/csv; charset=utf-8').header('content-disposition', contentDisposition(fileName));
}

/** Today's date as YYYY-MM-DD (UTC), for a file's name. */
export function fileDate(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}
