// Importing a group's records from CSV (editor; docs/dashboard.md, "Importing a group's records"):
// every row is read and checked first, by the rules a record written from a form or the API meets
// (the store's checkRecordLimits, the custom fields' checkCustomValues); if any row is wrong nothing
// is written and the page names each row, column and reason, with the CSV as it was pasted; else
// every row is written in one transaction by the store's importGroupAuthors (the API's write).
import { isUtf8 } from 'node:buffer';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import { textProblem } from '../../infra/storable-text.ts';
import type { AppContext } from '../../app-context.ts';
import {
  checkRecordLimits,
  countRecords,
  existingClientIds,
  importGroupAuthors,
  importGroupAuthorsFromForm,
  requireGroup,
  type AuthorsGroup,
  type GroupAuthorRecord,
} from '../../authors-groups/store.ts';
import { listOwnerCustomFields, loadFieldRules, type CustomField } from '../../custom-fields/store.ts';
import { checkCustomValues } from '../../custom-fields/values.ts';
import { isEmailAddress } from '../../infra/email-address.ts';
import { heldAddressAdvice, wholeAddressAdvice } from '../email-advice.ts';
import { AppError, errors } from '../../infra/errors.ts';
import { forEachSliced } from '../../infra/event-loop.ts';
import { forEachCsvRecord, piecesOf } from '../../infra/csv-read.ts';
import { newFormValue } from '../../infra/form-seal.ts';
import { readOrganizationLimits } from '../../organizations/limits.ts';
import {
  csrfField,
  dashboardRoute,
  fieldState,
  orgOf,
  postedForm,
  readMultipartForm,
  redirectTo,
  renderPage,
  type SentFile,
} from '../framework.ts';
import { NOT_A_NUMBER } from '../custom-values-form.ts';
import { unneutralizedCell } from '../csv.ts';
import { text, typedNumber } from '../form-values.ts';
import {
  countOf,
  dashboardPath,
  formatCount,
  html,
  isolate,
  isolatedHtml,
  isolateText,
  mebibytes,
  quotedBack,
} from '../html.ts';
import { KIND_FORM_HINTS } from './custom-fields.ts';

const Id = RowId();
const GroupParams = Type.Object({ groupId: Id });

type ListKey = 'emails' | 'orcids' | 'articles' | 'affiliations';
const LIST_KEYS: readonly ListKey[] = ['emails', 'orcids', 'articles', 'affiliations'];

/**
 * The record's own columns: the names a header writes them by exactly (letter case aside), and the
 * others a spreadsheet plainly means them by, folded (`foldedHeader`: "Client ID", "E-mail", "Full
 * name", "ORCID iD").
 */
const RECORD_COLUMNS: ReadonlyArray<{
  key: 'client_id' | 'name' | ListKey;
  names: readonly string[];
  folded: readonly string[];
}> = [
  { key: 'client_id', names: ['client_id'], folded: ['clientid'] },
  { key: 'name', names: ['name'], folded: ['name', 'fullname'] },
  {
    key: 'emails',
    names: ['emails', 'email'],
    folded: ['emails', 'email', 'emailaddress', 'emailaddresses'],
  },
  { key: 'orcids', names: ['orcids', 'orcid'], folded: ['orcids', 'orcid', 'orcidid', 'orcidids'] },
  { key: 'articles', names: ['articles', 'article'], folded: ['articles', 'article'] },
  {
    key: 'affiliations',
    names: ['affiliations', 'affiliation'],
    folded: ['affiliations', 'affiliation'],
  },
];

/**
 * A header name with letter case, spaces, hyphens and underscores aside: a spreadsheet's "Client ID",
 * "client-id" and "client_id" are one name (the first was refused, naming the columns it may be).
 */
function foldedHeader(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s_\-\u2010\u2011\u2013]+/g, '');
}

type ColumnTarget =
  { kind: 'record'; key: 'client_id' | 'name' | ListKey } | { kind: 'custom'; field: CustomField };

/**
 * What a header name names: the record's field or the custom field written so exactly (letter case
 * aside, the record's first, as before), else the one it names folded; several folded, none (said by
 * the caller, with each of them), never a guess.
 */
function columnTargets(name: string, fields: readonly CustomField[]): ColumnTarget[] {
  const lower = name.toLowerCase();
  const exactRecord = RECORD_COLUMNS.find((c) => c.names.includes(lower));
  if (exactRecord) return [{ kind: 'record', key: exactRecord.key }];
  const exactField = fields.find((f) => f.name.trim().toLowerCase() === lower || f.api_id === lower);
  if (exactField) return [{ kind: 'custom', field: exactField }];
  const folded = foldedHeader(name);
  return [
    ...RECORD_COLUMNS.filter((c) => c.folded.includes(folded)).map((c): ColumnTarget => ({
      kind: 'record',
      key: c.key,
    })),
    ...fields
      .filter((f) => foldedHeader(f.name) === folded)
      .map((field): ColumnTarget => ({ kind: 'custom', field })),
  ];
}

/** A column of a record as the import reads it and an export writes it: the record field's own name. */
export type RecordHeader = (typeof RECORD_COLUMNS)[number]['key'];

/** The record's columns as an export writes them, in the import's order: each its field's own name. */
export const RECORD_HEADERS: readonly RecordHeader[] = RECORD_COLUMNS.map((c) => c.key);

/**
 * The name an export writes a custom field's column by: the field's name when the import reads that
 * name as this field, else its api_id (a field named "Email" is read as the record's emails, and one
 * named "E mail" beside one named "E-mail" as neither), so that what is exported imports back.
 */
export function customColumnHeader(field: CustomField, fields: readonly CustomField[]): string {
  const name = field.name.trim();
  const targets = columnTargets(name, fields);
  const only = targets.length === 1 ? targets[0]! : undefined;
  return only?.kind === 'custom' && only.field.api_id === field.api_id ? name : field.api_id;
}

/** How many problems the page lists; the count of the rest is said. */
const SHOWN_PROBLEMS = 200;

export interface ImportProblem {
  /** The CSV's row, the header being row 1; null for the CSV as a whole. */
  row: number | null;
  /** The column as the header names it; null for the row as a whole. */
  column: string | null;
  message: string;
}

type Column = { header: string } & (
  | { kind: 'record'; key: 'client_id' | 'name' | ListKey }
  | { kind: 'custom'; field: CustomField }
  // A column the header leaves without a name: read only to tell that its cells are empty.
  | { kind: 'unnamed'; position: number }
);

interface CheckedImport {
  rows: Array<{ clientId: string; record: GroupAuthorRecord }>;
  problems: ImportProblem[];
}

/**
 * The items of a list cell: its lines when it holds several (a quoted cell), else the parts between
 * semicolons; each trimmed, empty ones dropped.
 */
function items(cell: string): string[] {
  return cell
    .split(/\r?\n/.test(cell) ? /\r?\n/ : ';')
    .map((item) => item.trim())
    .filter(Boolean);
}

function messageOf(error: unknown): string {
  if (error instanceof AppError && error.status === 400) return error.message;
  throw error;
}

/** The header's columns, or the problems that stop the rows from being read. */
function columnsOf(
  header: readonly string[],
  fields: readonly CustomField[],
): { columns: Column[]; problems: ImportProblem[] } {
  // Each column names a field once at most: a longer header is wrong whatever it holds, and is
  // said so once (a header of 2 M columns listed 2 M problems, each column compared with every field).
  // Columns without a name are not counted: they are compared with nothing (`unnamedProblem`).
  const most = RECORD_COLUMNS.length + fields.length;
  const named = header.filter((name) => name.trim() !== '').length;
  if (named > most) {
    const message = `The header names ${formatCount(named)} columns: at most ${formatCount(most)} (the record's ${RECORD_COLUMNS.length} fields and the group's ${countOf(fields.length, 'custom field', 'custom fields')}), each named once`;
    return { columns: [], problems: [{ row: 1, column: null, message }] };
  }
  const problems: ImportProblem[] = [];
  const columns: Column[] = [];
  const seen = new Set<string>();
  for (const [i, raw] of header.entries()) {
    const name = raw.trim();
    // A spreadsheet saved as CSV writes a separator for each column once used, named or not: every
    // row of such a file ended ";;" and the import was refused for a column named "" (Excel, a
    // semicolon locale). An unnamed column is read as empty; a value in it is a row's problem.
    if (name === '') {
      columns.push({ header: name, kind: 'unnamed', position: i + 1 });
      continue;
    }
    const targets = columnTargets(name, fields);
    const target = targets.length === 1 ? targets[0]! : undefined;
    const id = target === undefined ? undefined : target.kind === 'record' ? target.key : target.field.api_id;
    if (targets.length > 1) {
      const named = targets.map((c) =>
        c.kind === 'record' ? c.key : `the custom field ${isolateText(c.field.name)}`,
      );
      problems.push({
        row: 1,
        column: name,
        message: `could name ${named.slice(0, -1).join(', ')} or ${named.at(-1)}: write the column's name exactly as the one you mean is named`,
      });
    } else if (target === undefined || id === undefined) {
      problems.push({
        row: 1,
        column: name,
        message:
          'names neither a field of a record (client_id, name, emails, orcids, articles, affiliations) nor a custom field of authors from groups',
      });
    } else if (seen.has(id)) {
      problems.push({ row: 1, column: name, message: 'names a field an earlier column already names' });
    } else {
      seen.add(id);
      columns.push({ header: name, ...target });
    }
  }
  for (const required of ['client_id', 'name']) {
    if (!seen.has(required)) {
      problems.push({ row: 1, column: null, message: `The header has no ${required} column` });
    }
  }
  return { columns, problems };
}

/** A custom cell as the API's body would carry it: typed, options by their text or api_id. */
function customCell(field: CustomField, cell: string): unknown {
  const raw = cell.trim();
  const option = (value: string) =>
    field.options?.find((o) => o.option.trim().toLowerCase() === value.toLowerCase())?.api_id ?? value;
  if (field.data_kind === 'multi_option') {
    const chosen = items(raw).map(option);
    return chosen.length > 0 ? chosen : null;
  }
  if (raw === '') return null;
  if (field.data_kind === 'number') return typedNumber(raw, null) ?? raw;
  if (field.data_kind === 'single_option') return option(raw);
  return raw;
}

/**
 * A row's emails that are no address ("n/a", a name, two in one item: `isEmailAddress`), each quoted
 * with what to write instead, as the record's form refuses them: the API takes any string there, but
 * such an item links the record to no one and reaches no one. A cell of several items names the item.
 */
/** How the import takes several addresses in one cell. */
const SEMICOLON_APART = 'separated by a semicolon';

function emailProblems(emails: readonly string[], row: number, column: string): ImportProblem[] {
  return emails.flatMap((item, i) => {
    if (isEmailAddress(item)) return [];
    return [
      {
        row,
        column: emails.length > 1 ? `${column}, item ${i + 1}` : column,
        message: `${quotedBack(item)} is not an email address: ${heldAddressAdvice(item, SEMICOLON_APART) ?? wholeAddressAdvice(SEMICOLON_APART)}`,
      },
    ];
  });
}

/** A value in a column the header leaves unnamed: it is no field's, and would be lost unsaid. */
function unnamedProblem(position: number, cell: string, row: number): ImportProblem {
  return {
    row,
    column: `${position} (no name in the header)`,
    message: `${quotedBack(cell.trim())} is in no field: name the column in the header row (client_id, name, emails, orcids, articles, affiliations or a custom field), or delete the column`,
  };
}

/** One data row: its record, or its problems. */
function checkRow(
  cells: readonly string[],
  row: number,
  columns: readonly Column[],
  rules: Awaited<ReturnType<typeof loadFieldRules>>,
): { clientId: string; record: GroupAuthorRecord } | ImportProblem[] {
  if (cells.length !== columns.length) {
    return [
      {
        row,
        column: null,
        message: `has ${countOf(cells.length, 'value', 'values')} where the header has ${countOf(columns.length, 'column', 'columns')}`,
      },
    ];
  }
  const problems: ImportProblem[] = [];
  const record: GroupAuthorRecord = {
    name: '',
    emails: null,
    orcids: null,
    articles: null,
    affiliations: null,
    custom_values: {},
  };
  let clientId = '';
  const custom: Array<[string, unknown]> = [];
  const headers = new Map<string, string>();
  const cellOf = new Map<string, string>();
  const kindOf = new Map<string, string>();
  columns.forEach((column, i) => {
    const cell = cells[i]!;
    // The edge's rule for text (src/infra/storable-text.ts): a file's cells come through no hook.
    const refused = textProblem(cell);
    if (refused) {
      const where = column.kind === 'unnamed' ? `${column.position} (no name in the header)` : column.header;
      problems.push({ row, column: where, message: refused });
    }
    if (column.kind === 'unnamed') {
      if (cell.trim() !== '') problems.push(unnamedProblem(column.position, cell, row));
    } else if (column.kind === 'custom') {
      headers.set(column.field.api_id, column.header);
      cellOf.set(column.field.api_id, cell.trim());
      kindOf.set(column.field.api_id, column.field.data_kind);
      try {
        custom.push([column.field.api_id, customCell(column.field, cell)]);
      } catch (error) {
        problems.push({ row, column: column.header, message: messageOf(error) });
      }
    } else if (column.key === 'client_id') clientId = cell.trim();
    else if (column.key === 'name') record.name = cell.trim();
    else {
      const list = items(cell);
      record[column.key] = list.length > 0 ? list : null;
    }
  });
  // The store's limits of a record, asked of one column at a time so that each wrong one is named.
  const blank = { ...record, name: '-', emails: null, orcids: null, articles: null, affiliations: null };
  const header = (key: string) => columns.find((c) => c.kind === 'record' && c.key === key)?.header ?? key;
  const limit = (column: string, check: () => void): boolean => {
    try {
      check();
      return true;
    } catch (error) {
      problems.push({ row, column: header(column), message: messageOf(error) });
      return false;
    }
  };
  limit('client_id', () => checkRecordLimits(clientId, blank));
  limit('name', () => checkRecordLimits('-', { ...blank, name: record.name }));
  const withinLimits = new Set(
    LIST_KEYS.filter((key) => limit(key, () => checkRecordLimits('-', { ...blank, [key]: record[key] }))),
  );
  if (withinLimits.has('emails')) problems.push(...emailProblems(record.emails ?? [], row, header('emails')));
  const checked = checkCustomValues(custom, rules, 'custom');
  for (const problem of checked.problems) {
    const [, id, item] = problem.path.split('.');
    const column = headers.get(id!) ?? id!;
    // A multi option's item is named by its place in the cell.
    const where = item === undefined ? column : `${column}, item ${Number(item) + 1}`;
    // The value as written, to find it in the editor's sheet: "is not an option of this field" alone
    // left them reading each cell of the column.
    const written = item === undefined ? cellOf.get(id!) : items(cellOf.get(id!) ?? '')[Number(item)];
    // A number field's in the editor's words (`NOT_A_NUMBER`), not the API's.
    const message = kindOf.get(id!) === 'number' ? NOT_A_NUMBER : problem.message;
    problems.push({
      row,
      column: where,
      message: written === undefined ? message : `${quotedBack(written)} ${message}`,
    });
  }
  // A cleared value (an empty cell) is no value: the record is written whole, as 4.2 writes it.
  record.custom_values = checked.set;
  return problems.length > 0 ? problems : { clientId, record };
}

/**
 * What separates the columns, read from the header line: a tab in it, cells copied from a spreadsheet
 * and pasted; semicolons and no comma, a CSV saved by Excel in a language whose decimal mark is a
 * comma; else commas. Such text read by commas was one column, or a quote inside a cell refused.
 * Lists inside a cell come quoted from either, and are split as in a comma-separated file.
 */
function separatorOf(csv: string): string {
  const header = csv.slice(0, csv.search(/\r|\n|$/));
  if (header.includes('\t')) return '\t';
  return header.includes(';') && !header.includes(',') ? ';' : ',';
}

/**
 * The CSV's rows of cells, its columns separated by `delimiter`: at most `maxRecords` of them, the
 * rest left unread (`more` says there were more). Parsed a piece at a time with turns of the event
 * loop between (infra/csv-read.ts): a 50 MiB file of 2.9 M rows, parsed and checked in one run
 * before the records cap refused it, held the loop 22 s of CPU.
 */
async function readCsv(
  csv: string,
  delimiter: string,
  maxRecords: number,
): Promise<{ records: string[][]; more: boolean }> {
  const records: string[][] = [];
  const { stopped } = await forEachCsvRecord(
    piecesOf(csv),
    {
      bom: true,
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
    },
    (record) => {
      if (records.length === maxRecords) return false;
      // A cell an export neutralized ("'=x", csv.ts) read as it was written.
      records.push(record.map(unneutralizedCell));
    },
  );
  return { records, more: stopped };
}

/**
 * Reads and checks the pasted CSV; nothing is written. Rows past `maxRows` (the group's records cap:
 * so many distinct client ids can never fit) are not read, nor are the rows before them checked.
 */
export async function checkImport(
  csv: string,
  fields: readonly CustomField[],
  rules: Awaited<ReturnType<typeof loadFieldRules>>,
  maxRows: number,
): Promise<CheckedImport> {
  let read: { records: string[][]; more: boolean };
  try {
    read = await readCsv(csv, separatorOf(csv), maxRows + 1);
  } catch (error) {
    return {
      rows: [],
      problems: [{ row: null, column: null, message: `The CSV cannot be read: ${(error as Error).message}` }],
    };
  }
  const [header, ...data] = read.records;
  if (!header) {
    return { rows: [], problems: [{ row: null, column: null, message: 'The CSV is empty' }] };
  }
  if (data.length === 0) {
    return { rows: [], problems: [{ row: null, column: null, message: 'The CSV has a header but no rows' }] };
  }
  if (read.more) {
    const message = `The CSV has more than ${countOf(maxRows, 'row', 'rows')}, and a group holds at most ${countOf(maxRows, 'record', 'records')}: import at most that many`;
    return { rows: [], problems: [{ row: null, column: null, message }] };
  }
  const { columns, problems } = columnsOf(header, fields);
  if (problems.length > 0) return { rows: [], problems };
  const rows: CheckedImport['rows'] = [];
  const firstRowOf = new Map<string, number>();
  await forEachSliced(data, (cells, i) => {
    const row = i + 2;
    const checked = checkRow(cells, row, columns, rules);
    if (Array.isArray(checked)) {
      problems.push(...checked);
      return;
    }
    const earlier = firstRowOf.get(checked.clientId);
    if (earlier !== undefined) {
      const column = columns.find((c) => c.kind === 'record' && c.key === 'client_id')!.header;
      problems.push({ row, column, message: `repeats the client id of row ${earlier}` });
      return;
    }
    firstRowOf.set(checked.clientId, row);
    rows.push(checked);
  });
  return { rows, problems };
}

function describeProblem(p: ImportProblem): string {
  const where = [p.row === null ? null : `Row ${p.row}`, p.column === null ? null : `column ${p.column}`]
    .filter(Boolean)
    .join(', ');
  return where ? `${where}: ${p.message}` : p.message;
}

async function importPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  group: AuthorsGroup,
  refused: { csv: string; problems: ImportProblem[]; file?: string; status?: 400 | 413 } | null,
): Promise<string> {
  const organizationId = orgOf(request);
  const [fields, limits, count] = await Promise.all([
    listOwnerCustomFields(ctx.db, organizationId, 'author_from_group'),
    readOrganizationLimits(ctx.db, organizationId),
    countRecords(ctx.db, organizationId, group.group_id),
  ]);
  const problems = refused?.problems ?? [];
  const summary =
    problems.length > 0
      ? `Nothing was imported: ${countOf(problems.length, 'problem', 'problems')} to correct`
      : undefined;
  const csv = fieldState(request, 'csv', {
    hints: [...(problems.length > 0 ? ['csv-problems'] : []), 'csv-hint'],
    ...(summary ? { problem: summary } : {}),
  });
  const posted = postedForm(request);
  // A form sent after the session ended comes back with its file's text, if it was kept, in the field
  // (a file input cannot be filled again: framework.ts, keepUploadSentAfterSessionEnded).
  const value = refused?.csv ?? (posted ? text(posted, 'csv') || text(posted, 'file') : '');
  const action = dashboardPath('groups', group.group_id, 'import');
  return renderPage(ctx, request, reply, {
    title: `Import records into ${isolateText(group.name)}`,
    status: refused ? (refused.status ?? 400) : 200,
    // At the top too, as every refused form says it (with the line that the field says what to change).
    ...(summary
      ? { flash: { kind: 'error' as const, message: `${summary}.`, fields: { csv: summary } } }
      : {}),
    body: html`<p>
        <a href="${dashboardPath('groups', group.group_id)}">${group.name}</a> holds
        ${`${formatCount(count)} of its ${countOf(limits.limits.records_per_group, 'record', 'records')}`}.
      </p>
      <form method="post" action="${action}" class="stack" enctype="multipart/form-data">
        ${csrfField(request)}
        <input type="hidden" name="once" value="${newFormValue()}" />
        <label for="csv">Records as CSV</label>
        ${csv.message}
        ${
          refused?.file
            ? html`<p id="csv-file">
                The problems are those of the file <strong>${refused.file}</strong>, which is not shown here:
                correct it and choose it again.
              </p>`
            : null
        }
        ${
          problems.length > 0
            ? html`<ul id="csv-problems" class="field-error">
                ${problems.slice(0, SHOWN_PROBLEMS).map((p) => html`<li>${isolatedHtml(describeProblem(p))}</li>`)}
                ${
                  problems.length > SHOWN_PROBLEMS
                    ? html`<li>and ${formatCount(problems.length - SHOWN_PROBLEMS)} more</li>`
                    : null
                }
              </ul>`
            : null
        }
        <textarea id="csv" name="csv" rows="16" ${csv.attrs}>${value}</textarea>
        <label for="file">Or a CSV file</label>
        <input
          id="file"
          name="file"
          type="file"
          accept=".csv,.txt,text/csv,text/plain"
          aria-describedby="csv-hint"
        />
        <div id="csv-hint" class="hint">
          <p>
            A header row, then one record a row, the columns separated by commas, or by tabs (cells copied
            from a spreadsheet and pasted here) or semicolons. Columns: <code>client_id</code> and
            <code>name</code> (required), <code>emails</code>, <code>orcids</code>, <code>articles</code>,
            <code>affiliations</code>${fields.length > 0 ? ', and the custom fields by their names' : ''},
            letter case, spaces, hyphens and underscores aside (<code>Client ID</code>, <code>E-mail</code>,
            <code>Full name</code> are read). A list holds its items one a line (in a quoted cell) or
            separated by semicolons; so does a field of several options, which are named by their text.
          </p>
          ${
            fields.length > 0
              ? html`<ul>
                  ${fields.map(
                    (f) =>
                      html`<li>
                        <code>${isolate(f.name)}</code>:
                        ${KIND_FORM_HINTS[f.data_kind]}${
                          f.options && f.options.length > 0
                            ? html` (${f.options.map((o) => o.option).join(', ')})`
                            : null
                        }
                      </li>`,
                  )}
                </ul>`
              : null
          }
          <p>
            A row whose client id the group has replaces that record whole (a column left out, or a cell left
            empty, empties that field); any other row adds a record. Every row is checked first: if one is
            wrong, nothing is imported. Paste the CSV or choose a file saved as UTF-8 text (in a spreadsheet:
            "CSV UTF-8"), of at most ${mebibytes(ctx.config.fileLimitBytes)}: import a longer list in parts.
          </p>
        </div>
        <button type="submit">Import records</button>
      </form>`,
  });
}

export function registerGroupImportPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/groups/:groupId/import/',
    action: 'authors_groups_write',
    schema: { params: GroupParams },
    handler: async (request, reply) => {
      const { groupId } = request.params as { groupId: number };
      const group = await requireGroup(ctx.db, orgOf(request), groupId);
      return importPage(ctx, request, reply, group, null);
    },
  });

  // The post takes a file (multipart/form-data, as the form sends it) or the URL-encoded field, in
  // its own scope with the multipart parser and the manuscript upload's file size limit.
  void scope.register(async (withFiles) => {
    await withFiles.register(multipart, {
      limits: {
        fileSize: ctx.config.fileLimitBytes,
        fieldSize: ctx.config.fileLimitBytes,
        files: 1,
        fields: 3,
        parts: 4,
      },
    });
    dashboardRoute(withFiles, {
      method: 'POST',
      url: '/groups/:groupId/import/',
      action: 'authors_groups_write',
      schema: { params: GroupParams },
      multipart: { bodyBytes: ctx.config.fileLimitBytes + ctx.config.bodyLimitBytes },
      // A refusal by the framework (a records cap reached by a write racing this one) comes back
      // here; the rows' problems are answered by the page itself, with the whole pasted CSV.
      back: (request) => dashboardPath('groups', (request.params as { groupId: number }).groupId, 'import'),
      // Not its one-time value: the page shown again gives the form a new one.
      keepsForm: { without: ['once'] },
      handler: async (request, reply) => {
        const { groupId } = request.params as { groupId: number };
        const organizationId = orgOf(request);
        const group = await requireGroup(ctx.db, organizationId, groupId);
        const sent = request.isMultipart() ? await readImportParts(request) : pastedOnly(request.body);
        const fromFile = sent.file ? { file: sent.file.name } : {};
        const unreadable = sentProblem(sent, ctx.config.fileLimitBytes);
        if (unreadable) {
          const refused = { csv: sent.csv, problems: [unreadable.problem], status: unreadable.status };
          return importPage(ctx, request, reply, group, { ...refused, ...fromFile });
        }
        const csv = sent.file ? sent.file.bytes.toString('utf8') : sent.csv;
        const [fields, rules, limits] = await Promise.all([
          listOwnerCustomFields(ctx.db, organizationId, 'author_from_group'),
          loadFieldRules(ctx.db, organizationId, 'author_from_group'),
          readOrganizationLimits(ctx.db, organizationId),
        ]);
        const limit = limits.limits.records_per_group;
        const checked = await checkImport(csv, fields, rules, limit);
        if (checked.problems.length === 0) {
          const key = { organizationId, groupId };
          const [existing, count] = await Promise.all([
            existingClientIds(
              ctx.db,
              key,
              checked.rows.map((r) => r.clientId),
            ),
            countRecords(ctx.db, organizationId, groupId),
          ]);
          const adding = checked.rows.filter((r) => !existing.has(r.clientId)).length;
          if (count + adding > limit) {
            checked.problems.push({
              row: null,
              column: null,
              message: `The group holds ${countOf(count, 'record', 'records')} and this import would add ${formatCount(adding)}: its limit is ${countOf(limit, 'record', 'records')} (${formatCount(Math.max(0, limit - count))} more can be added)`,
            });
          }
        }
        if (checked.problems.length > 0) {
          // A file's text is not put in the field: it may be far longer than anything pasted.
          const refused = { csv: sent.file ? '' : csv, problems: checked.problems };
          return importPage(ctx, request, reply, group, { ...refused, ...fromFile });
        }
        const key = { organizationId, groupId };
        const written = sent.formValue
          ? await importGroupAuthorsFromForm(ctx.db, key, checked.rows, sent.formValue)
          : { ...(await importGroupAuthors(ctx.db, key, checked.rows)), repeated: false };
        const { added, updated, unchanged } = written;
        const counts = `${countOf(added, 'record', 'records')} added, ${formatCount(updated)} updated, ${formatCount(unchanged)} unchanged`;
        if (written.repeated) {
          // The same form sent again (a second click on a slow import, its answer reloaded): what
          // its first send wrote, and that nothing was written again (form-seal.ts).
          return redirectTo(ctx, request, reply, dashboardPath('groups', groupId), {
            kind: 'ok',
            message: `This import was sent more than once (a second click, or its answer reloaded): only its first send imported, which wrote ${counts}. Nothing was imported again.`,
          });
        }
        return redirectTo(ctx, request, reply, dashboardPath('groups', groupId), {
          kind: 'ok',
          // A record sent as stored is unchanged, not updated: the same file sent twice said "N
          // updated" of its second post, as if it had changed what the first wrote.
          // All unchanged: most often the same import sent again (a click again on a slow import, whose
          // first answer the browser dropped), which read as if the import had done nothing.
          message: `Imported: ${counts}.${
            added === 0 && updated === 0
              ? ' The group already held every record as sent (imported before, or the form sent twice): nothing needed changing.'
              : ''
          }`,
        });
      },
    });
  });
}

/** What an import post sent: the pasted CSV, the file chosen (null: none), the form's one-time value. */
interface SentImport {
  csv: string;
  /** The form's one-time value (form-seal.ts), absent from a script's post: sent again, nothing is imported again. */
  formValue: string | null;
  /** Past the pasted field's limit (the file's). */
  csvTooLarge: boolean;
  file: SentFile | null;
}

/** A URL-encoded post (the form before it took files; a script's): its one field. */
function pastedOnly(body: unknown): SentImport {
  const { csv, once } = (body ?? {}) as { csv?: unknown; once?: unknown };
  return {
    csv: typeof csv === 'string' ? csv : '',
    formValue: formValueOf(once),
    csvTooLarge: false,
    file: null,
  };
}

/** A form's one-time value as `newFormValue` makes it, or null when none was sent. */
function formValueOf(value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^[\w-]{16,64}$/.test(value)) {
    throw errors.validation("The import form's one-time value is not one this page gives");
  }
  return value;
}

/**
 * Reads a multipart import post: its token first (checked before anything else is read; the form
 * sends it first), then the pasted field and the file, a file past the size limit drained and marked.
 */
async function readImportParts(request: FastifyRequest): Promise<SentImport> {
  const { fields, file } = await readMultipartForm(request, {
    name: 'import',
    fields: ['once', 'csv'],
    file: 'file',
  });
  const csv = fields.get('csv');
  return {
    csv: csv?.value ?? '',
    formValue: formValueOf(fields.get('once')?.value),
    csvTooLarge: csv?.truncated ?? false,
    file,
  };
}

/** Why what was sent cannot be read as CSV text, if it cannot. */
function sentProblem(sent: SentImport, limit: number): { problem: ImportProblem; status: 400 | 413 } | null {
  const problem = (message: string, status: 400 | 413 = 400) => ({
    problem: { row: null, column: null, message },
    status,
  });
  if (sent.csvTooLarge) {
    return problem(`The pasted CSV is longer than ${mebibytes(limit)}: import it in parts`, 413);
  }
  if (!sent.file) return null;
  const name = `The file ${isolateText(sent.file.name)}`;
  if (sent.csv.trim() !== '') {
    return problem(
      'Send the records either pasted or as a file, not both: empty the field or remove the file',
    );
  }
  if (sent.file.tooLarge) {
    return problem(`${name} is larger than the ${mebibytes(limit)} a file may have: import it in parts`, 413);
  }
  const { bytes } = sent.file;
  if (bytes.length === 0) return problem(`${name} is empty`);
  if (!isUtf8(bytes) || bytes.includes(0)) {
    return problem(
      `${name} is not UTF-8 text: save it as CSV in UTF-8 (a spreadsheet's "CSV UTF-8"; not a workbook such as .xlsx, nor UTF-16 "Unicode text")`,
    );
  }
  return null;
}
