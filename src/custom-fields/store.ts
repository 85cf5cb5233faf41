// Custom fields of an organization (spec 2.5): created, changed and deleted through the CLI (the
// spec's "user interface") and the dashboard, listed read-only through 4.7, and read by the
// author-from-group routes and the folder and manuscript values (folder-manuscript-values.ts) to
// validate values.
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { DATA_KINDS, KIND_LABELS, OWNERS, type DataKind, type Owner } from './kinds.ts';
import { appendTo } from '../infra/collections.ts';
import { checkLimit } from '../organizations/limits.ts';
import { checkOneLine } from '../infra/one-line-text.ts';

export interface FieldOption {
  api_id: string;
  option: string;
}

/** A custom field as 4.7 shows it; `options` only for the option kinds. */
export interface CustomField {
  api_id: string;
  data_kind: DataKind;
  name: string;
  description: string | null;
  options?: FieldOption[];
}

export type CustomFieldsByOwner = Record<Owner, CustomField[]>;

export function isOptionKind(kind: DataKind): boolean {
  return kind === 'single_option' || kind === 'multi_option';
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function checkName(name: string, what: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) {
    throw errors.validation(`${what} must have 1 to 200 characters`);
  }
  checkOneLine(trimmed, what);
  return trimmed;
}

/**
 * Two fields of one owner with one name (letter case aside) would be two identical labels on the
 * same form, told apart by nobody: refused (409).
 */
async function refuseTakenName(
  tx: Queryable,
  organizationId: number,
  owner: string,
  name: string,
  except: string | null,
): Promise<void> {
  const { rows } = await tx.query(
    `SELECT 1 FROM custom_fields WHERE organization_id = $1 AND owner = $2 AND lower(name) = lower($3)
        AND ($4::uuid IS NULL OR api_id <> $4::uuid)`,
    [organizationId, owner, name, except],
  );
  if (rows.length > 0)
    throw errors.conflict(`A field named “${name}” already exists for the same owner`).naming(name);
}

function checkOptions(options: readonly string[]): string[] {
  const trimmed = options.map((o) => o.trim());
  const bad = trimmed.find((o) => o.length === 0 || o.length > 500);
  if (bad !== undefined) throw errors.validation('An option must have 1 to 500 characters');
  for (const option of trimmed) checkOneLine(option, 'An option');
  // The first to repeat an earlier one, by a set: each compared with all before it (indexOf) took
  // 1.9 s for the 42,000 options a form's 100,000 characters can list.
  const seen = new Set<string>();
  const twice = trimmed.find((o) => seen.size === seen.add(o).size);
  if (twice !== undefined)
    throw errors.validation(`Options of a field must differ: “${twice}” is given twice`).naming(twice);
  return trimmed;
}

/**
 * The organization-wide caps on options (limits.ts): their number and their characters over all the
 * organization's fields, counted after the change's removals. They bound the 4.7 answer, which lists
 * every option of every field. Characters are code points, as PostgreSQL's char_length counts them.
 * Runs inside the change's transaction, after a checkLimit that took the organization's lock.
 */
async function checkOrganizationOptions(
  tx: Queryable,
  organizationId: number,
  adding: readonly string[],
): Promise<void> {
  if (adding.length === 0) return;
  const fromOrganization = `FROM custom_field_options o JOIN custom_fields f ON f.api_id = o.field
      WHERE f.organization_id = $1`;
  await checkLimit(
    tx,
    organizationId,
    'options',
    `SELECT count(*)::integer AS n ${fromOrganization}`,
    [organizationId],
    adding.length,
  );
  const characters = adding.reduce((sum, option) => sum + [...option].length, 0);
  await checkLimit(
    tx,
    organizationId,
    'option_characters',
    `SELECT coalesce(sum(char_length(o.option)), 0)::integer AS n ${fromOrganization}`,
    [organizationId],
    characters,
  );
}

export interface NewCustomField {
  owner: Owner;
  dataKind: DataKind;
  name: string;
  description?: string | null;
  options?: readonly string[];
}

export async function createCustomField(
  db: Database,
  organizationId: number,
  input: NewCustomField,
): Promise<CustomField> {
  if (!(OWNERS as readonly string[]).includes(input.owner)) {
    throw errors.validation(`owner must be one of ${OWNERS.join(', ')}`);
  }
  if (!(DATA_KINDS as readonly string[]).includes(input.dataKind)) {
    throw errors.validation(`data kind must be one of ${DATA_KINDS.join(', ')}`);
  }
  const name = checkName(input.name, 'A field name');
  const options = checkOptions(input.options ?? []);
  if (isOptionKind(input.dataKind) && options.length === 0) {
    throw errors.validation(
      `A field of kind “${KIND_LABELS[input.dataKind]}” (${input.dataKind}) needs at least one option`,
    );
  }
  if (!isOptionKind(input.dataKind) && options.length > 0) {
    throw errors.validation(
      `A field of kind “${KIND_LABELS[input.dataKind]}” (${input.dataKind}) takes no options`,
    );
  }
  const apiId = randomUUID();
  await db.transaction(async (tx) => {
    const org = await tx.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
    if (org.rows.length === 0) throw errors.notFound(`Organization ${organizationId}`);
    // One cap over the three owners: it also bounds the custom keys of a record, a folder or a
    // manuscript, each of which must name a field of its owner (values.ts).
    await checkLimit(
      tx,
      organizationId,
      'custom_fields',
      'SELECT count(*)::integer AS n FROM custom_fields WHERE organization_id = $1',
      [organizationId],
    );
    // A new field has no options yet: only the ones given count.
    await checkLimit(tx, organizationId, 'options_per_field', 'SELECT 0 AS n', [], options.length);
    await checkOrganizationOptions(tx, organizationId, options);
    await refuseTakenName(tx, organizationId, input.owner, name, null);
    await tx.query(
      `INSERT INTO custom_fields (api_id, organization_id, owner, data_kind, name, description)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [apiId, organizationId, input.owner, input.dataKind, name, input.description ?? null],
    );
    await insertOptions(tx, apiId, options, 0);
  });
  return requireCustomField(db, apiId);
}

async function insertOptions(tx: Queryable, fieldId: string, options: string[], firstOrder: number) {
  for (const [i, option] of options.entries()) {
    await tx.query(
      'INSERT INTO custom_field_options (api_id, field, option, "order") VALUES ($1, $2, $3, $4)',
      [randomUUID(), fieldId, option, firstOrder + i],
    );
  }
}

interface FieldRow {
  api_id: string;
  organization_id: number;
  owner: Owner;
  data_kind: DataKind;
  name: string;
  description: string | null;
}

interface OptionRow {
  api_id: string;
  field: string;
  option: string;
}

function assemble(fields: FieldRow[], options: OptionRow[]): Array<CustomField & { owner: Owner }> {
  const byField = new Map<string, FieldOption[]>();
  for (const o of options) {
    appendTo(byField, o.field, { api_id: o.api_id, option: o.option });
  }
  return fields.map((f) => ({
    owner: f.owner,
    api_id: f.api_id,
    data_kind: f.data_kind,
    name: f.name,
    description: f.description,
    ...(isOptionKind(f.data_kind) ? { options: byField.get(f.api_id) ?? [] } : {}),
  }));
}

/** The field's row; with `organizationId`, only that organization's (another's is "not found"). */
async function fieldRow(db: Queryable, apiId: string, organizationId?: number): Promise<FieldRow | null> {
  if (!isUuid(apiId)) return null;
  const { rows } = await db.query<FieldRow>(
    `SELECT api_id::text, organization_id, owner, data_kind, name, description
       FROM custom_fields WHERE api_id = $1 AND ($2::integer IS NULL OR organization_id = $2)`,
    [apiId, organizationId ?? null],
  );
  return rows[0] ?? null;
}

export async function requireCustomField(db: Queryable, apiId: string): Promise<CustomField> {
  const { owner: _owner, ...field } = await requireOwnedCustomField(db, apiId);
  return field;
}

/** The field with its owner; with `organizationId`, only that organization's (another's is "not found"). */
export async function requireOwnedCustomField(
  db: Queryable,
  apiId: string,
  organizationId?: number,
): Promise<CustomField & { owner: Owner }> {
  const row = await fieldRow(db, apiId, organizationId);
  if (!row) throw errors.notFound(`Custom field ${apiId}`);
  const { rows } = await db.query<OptionRow>(
    `SELECT api_id::text, field::text, option FROM custom_field_options
      WHERE field = $1 ORDER BY "order", api_id`,
    [apiId],
  );
  return assemble([row], rows)[0]!;
}

/**
 * The organization's custom fields of `owner` (of every owner for null), with their options: only
 * the options of the fields read, none when no field read takes options. A page showing one owner's
 * fields read every option of the organization: a folder's page, with no field of its own, spent
 * some 200 ms of CPU on PGlite reading the 20,000 options (the cap) of the records' fields
 * (docs/benchmarks/hostile-uploads.md, round 19).
 */
async function readCustomFields(
  db: Queryable,
  organizationId: number,
  owner: Owner | null,
): Promise<Array<CustomField & { owner: Owner }>> {
  // The owner named in the statement only when there is one: a test of a null parameter beside it
  // would keep the planner from the index on (organization_id, owner).
  const [ofOwner, params] =
    owner === null ? ['', [organizationId]] : ['AND f.owner = $2', [organizationId, owner]];
  const fields = await db.query<FieldRow>(
    `SELECT api_id::text, organization_id, owner, data_kind, name, description
       FROM custom_fields f WHERE organization_id = $1 ${ofOwner}
      ORDER BY created_at, api_id`,
    params,
  );
  if (!fields.rows.some((f) => isOptionKind(f.data_kind))) return assemble(fields.rows, []);
  const options = await db.query<OptionRow>(
    `SELECT o.api_id::text, o.field::text, o.option
       FROM custom_field_options o JOIN custom_fields f ON f.api_id = o.field
      WHERE f.organization_id = $1 ${ofOwner}
      ORDER BY o."order", o.api_id`,
    params,
  );
  return assemble(fields.rows, options.rows);
}

export async function listCustomFields(db: Queryable, organizationId: number): Promise<CustomFieldsByOwner> {
  const out: CustomFieldsByOwner = { author_from_group: [], folder: [], proposal: [] };
  for (const { owner, ...field } of await readCustomFields(db, organizationId, null)) out[owner].push(field);
  return out;
}

/** The organization's custom fields of one owner, with their options (those of the others unread). */
export async function listOwnerCustomFields(
  db: Queryable,
  organizationId: number,
  owner: Owner,
): Promise<CustomField[]> {
  return (await readCustomFields(db, organizationId, owner)).map(({ owner: _owner, ...field }) => field);
}

export interface CustomFieldChanges {
  name?: string;
  /** An empty string clears the description. */
  description?: string;
  addOptions?: readonly string[];
  removeOptions?: readonly string[];
}

export async function updateCustomField(
  db: Database,
  apiId: string,
  changes: CustomFieldChanges,
  organizationId?: number,
): Promise<CustomField> {
  const row = await fieldRow(db, apiId, organizationId);
  if (!row) throw errors.notFound(`Custom field ${apiId}`);
  const adding = checkOptions(changes.addOptions ?? []);
  const removing = [...new Set((changes.removeOptions ?? []).map((id) => id.toLowerCase()))];
  if ((adding.length > 0 || removing.length > 0) && !isOptionKind(row.data_kind)) {
    throw errors.validation(
      `A field of kind “${KIND_LABELS[row.data_kind]}” (${row.data_kind}) takes no options`,
    );
  }
  await db.transaction(async (tx) => {
    if (changes.name !== undefined) {
      const name = checkName(changes.name, 'A field name');
      await refuseTakenName(tx, row.organization_id, row.owner, name, apiId);
      await tx.query('UPDATE custom_fields SET name = $2 WHERE api_id = $1', [apiId, name]);
    }
    if (changes.description !== undefined) {
      const description = changes.description.trim() === '' ? null : changes.description;
      await tx.query('UPDATE custom_fields SET description = $2 WHERE api_id = $1', [apiId, description]);
    }
    if (removing.length > 0) {
      // All in one statement each: an option removed at a time read every record of the
      // organization again, 1,000 options of a field over 205,000 records 41 s of CPU.
      const { rows: gone } = await tx.query<{ api_id: string }>(
        `DELETE FROM custom_field_options WHERE field = $1 AND api_id = ANY($2::uuid[])
         RETURNING api_id::text`,
        [apiId, removing.filter(isUuid)],
      );
      const removed = new Set(gone.map((r) => r.api_id));
      const missing = removing.find((id) => !removed.has(id));
      // A 400, not a 404: the field exists, and the request names an option it does not hold (a
      // form of a tab opened before the option was removed elsewhere): said on the field's page.
      if (missing !== undefined) {
        throw errors.validation(
          `${missing} is not an option of this field (it may have been removed already)`,
        );
      }
      await forgetOptionValues(tx, row, [...removed]);
    }
    if (adding.length > 0) {
      const existing = await tx.query<{ option: string }>(
        'SELECT option FROM custom_field_options WHERE field = $1 AND option = ANY($2::text[])',
        [apiId, adding],
      );
      if (existing.rows.length > 0) {
        throw errors.validation(`The field already has the option "${existing.rows[0]!.option}"`);
      }
      const last = await tx.query<{ next: number }>(
        'SELECT coalesce(max("order") + 1, 0) AS next FROM custom_field_options WHERE field = $1',
        [apiId],
      );
      // Counted after this change's removals: a form that swaps options at the cap goes through.
      await checkLimit(
        tx,
        row.organization_id,
        'options_per_field',
        'SELECT count(*)::integer AS n FROM custom_field_options WHERE field = $1',
        [apiId],
        adding.length,
      );
      await checkOrganizationOptions(tx, row.organization_id, adding);
      await insertOptions(tx, apiId, adding, last.rows[0]!.next);
    }
    const left = await tx.query<{ n: number }>(
      'SELECT count(*) AS n FROM custom_field_options WHERE field = $1',
      [apiId],
    );
    if (isOptionKind(row.data_kind) && left.rows[0]!.n === 0) {
      throw errors.validation('An option field must keep at least one option');
    }
  });
  return requireCustomField(db, apiId);
}

/**
 * Where the values of folder and manuscript fields are stored (migration 0100), one row a value: a
 * constant table, never input, for the SQL of folder-manuscript-values.ts and of this file.
 */
export const VALUE_TABLES = {
  folder: { table: 'folder_custom_values', subject: 'folder_id', subjects: 'folders' },
  proposal: { table: 'manuscript_custom_values', subject: 'manuscript_id', subjects: 'manuscripts' },
} as const;

/** Removes removed options from stored values: reads also ignore them, this keeps rows clean. */
async function forgetOptionValues(
  tx: Queryable,
  field: FieldRow,
  optionIds: readonly string[],
): Promise<void> {
  if (field.owner !== 'author_from_group') {
    // A value that held nothing else is no value: its row goes, as when a form clears it.
    const { table } = VALUE_TABLES[field.owner];
    await tx.query(
      `UPDATE ${table} SET value = value - $2::text[], updated_at = now()
        WHERE field = $1 AND jsonb_typeof(value) = 'array' AND jsonb_exists_any(value, $2::text[])`,
      [field.api_id, optionIds],
    );
    await tx.query(
      `DELETE FROM ${table}
        WHERE field = $1
          AND ((jsonb_typeof(value) = 'string' AND value #>> '{}' = ANY($2::text[])) OR value = '[]'::jsonb)`,
      [field.api_id, optionIds],
    );
    return;
  }
  if (field.data_kind === 'single_option') {
    await tx.query(
      `UPDATE group_authors SET custom_values = custom_values - $1::text
        WHERE organization_id = $2 AND jsonb_typeof(custom_values -> $1::text) = 'string'
          AND custom_values ->> $1::text = ANY($3::text[])`,
      [field.api_id, field.organization_id, optionIds],
    );
  } else {
    await tx.query(
      `UPDATE group_authors
          SET custom_values = jsonb_set(custom_values, ARRAY[$1::text], (custom_values -> $1::text) - $3::text[])
        WHERE organization_id = $2 AND jsonb_exists_any(custom_values -> $1::text, $3::text[])`,
      [field.api_id, field.organization_id, optionIds],
    );
  }
}

export async function deleteCustomField(db: Database, apiId: string, organizationId?: number): Promise<void> {
  const row = await fieldRow(db, apiId, organizationId);
  if (!row) throw errors.notFound(`Custom field ${apiId}`);
  await db.transaction(async (tx) => {
    // The values of folder and manuscript fields go with it (ON DELETE CASCADE, migration 0100).
    await tx.query('DELETE FROM custom_fields WHERE api_id = $1', [apiId]);
    if (row.owner === 'author_from_group') {
      await tx.query(
        `UPDATE group_authors SET custom_values = custom_values - $1::text
          WHERE organization_id = $2 AND jsonb_exists(custom_values, $1::text)`,
        [apiId, row.organization_id],
      );
    }
  });
}

/** What validating a value needs (values.ts): each field's kind and option ids. */
export interface FieldRule {
  dataKind: DataKind;
  options: ReadonlySet<string>;
}

export async function loadFieldRules(
  db: Queryable,
  organizationId: number,
  owner: Owner,
): Promise<Map<string, FieldRule>> {
  const { rows } = await db.query<{ api_id: string; data_kind: DataKind; options: string[] | null }>(
    `SELECT f.api_id::text, f.data_kind,
            (SELECT array_agg(o.api_id::text) FROM custom_field_options o WHERE o.field = f.api_id) AS options
       FROM custom_fields f WHERE f.organization_id = $1 AND f.owner = $2`,
    [organizationId, owner],
  );
  return new Map(rows.map((r) => [r.api_id, { dataKind: r.data_kind, options: new Set(r.options ?? []) }]));
}
