// Values of the custom fields of a folder or a manuscript (owners "folder" and "proposal", spec 2.5),
// one row a value (migration 0100), checked by the rules author-from-group values are checked by
// (values.ts). Entered on the dashboard's folder and manuscript pages.
import type { Database, Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import type { Owner } from './kinds.ts';
import { loadFieldRules, VALUE_TABLES, type FieldRule } from './store.ts';
import { checkCustomValues, type CustomValue } from './values.ts';

/** The owners whose values are stored apart from their rows: a folder, a manuscript. */
export type ValueOwner = Exclude<Owner, 'author_from_group'>;

const SUBJECT_NAMES: Readonly<Record<ValueOwner, string>> = { folder: 'Folder', proposal: 'Manuscript' };

/**
 * The stored values of one folder or manuscript of the organization, by field api_id. An option
 * removed while a value holding it was written (the store takes removed options out of values) is
 * left out, as is a value it leaves empty.
 */
export async function readCustomValues(
  db: Queryable,
  organizationId: number,
  owner: ValueOwner,
  subjectId: number,
): Promise<Record<string, CustomValue>> {
  const { table, subject } = VALUE_TABLES[owner];
  const [rules, stored] = await Promise.all([
    loadFieldRules(db, organizationId, owner),
    db.query<{ field: string; value: CustomValue }>(
      `SELECT field::text, value FROM ${table} WHERE ${subject} = $1 AND organization_id = $2`,
      [subjectId, organizationId],
    ),
  ]);
  const out: Record<string, CustomValue> = {};
  for (const { field, value } of stored.rows) {
    const rule = rules.get(field);
    const live = rule ? liveOptions(rule, value) : undefined;
    if (live !== undefined) out[field] = live;
  }
  return out;
}

function liveOptions(rule: FieldRule, value: CustomValue): CustomValue | undefined {
  if (rule.dataKind === 'single_option') return rule.options.has(String(value)) ? value : undefined;
  if (rule.dataKind !== 'multi_option' || !Array.isArray(value)) return value;
  const kept = value.filter((id) => rule.options.has(id));
  return kept.length > 0 ? kept : undefined;
}

/**
 * Sets and clears values of one folder or manuscript of the organization: each entry is a field
 * api_id and its value, null to clear it. Every value is checked first (checkCustomValues); if any
 * is refused, nothing is written and the message names each refused field.
 */
export async function saveCustomValues(
  db: Database,
  organizationId: number,
  owner: ValueOwner,
  subjectId: number,
  entries: ReadonlyArray<[string, unknown]>,
): Promise<void> {
  const { table, subject, subjects } = VALUE_TABLES[owner];
  const found = await db.query(`SELECT 1 FROM ${subjects} WHERE id = $1 AND organization_id = $2`, [
    subjectId,
    organizationId,
  ]);
  if (found.rows.length === 0) throw errors.notFound(`${SUBJECT_NAMES[owner]} ${subjectId}`);
  const rules = await loadFieldRules(db, organizationId, owner);
  const checked = checkCustomValues(entries, rules, 'custom', owner);
  if (checked.problems.length > 0) {
    throw errors.validation(await namedProblems(db, organizationId, checked.problems), checked.problems);
  }
  await db.transaction(async (tx) => {
    if (checked.cleared.length > 0) {
      await tx.query(
        `DELETE FROM ${table} WHERE ${subject} = $1 AND organization_id = $2 AND field = ANY($3::uuid[])`,
        [subjectId, organizationId, checked.cleared],
      );
    }
    for (const [field, value] of Object.entries(checked.set)) {
      await tx.query(
        `INSERT INTO ${table} (${subject}, field, organization_id, value) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (${subject}, field) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
        [subjectId, field, organizationId, JSON.stringify(value)],
      );
    }
  });
}

/** "Pages must be a finite number; Topics.1 is not an option of this field": by field name. */
async function namedProblems(
  db: Queryable,
  organizationId: number,
  problems: ReadonlyArray<{ path: string; message: string }>,
): Promise<string> {
  const { rows } = await db.query<{ api_id: string; name: string }>(
    'SELECT api_id::text, name FROM custom_fields WHERE organization_id = $1',
    [organizationId],
  );
  const names = new Map(rows.map((r) => [r.api_id, r.name]));
  return problems
    .map((p) => {
      // custom.<api_id>[.<item>]: the item of a list is said by its place, counted from 1.
      const [, id = '', item] = p.path.split('.');
      const where = item === undefined ? '' : ` (choice ${Number(item) + 1})`;
      return `${names.get(id) ?? id}${where} ${p.message}`;
    })
    .join('; ');
}
