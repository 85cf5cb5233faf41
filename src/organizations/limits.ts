// Caps on what one organization can store, so that one hostile or buggy client cannot fill the shared
// database: the deployment's values come from configuration (LIMIT_* variables, config.ts), and the
// operator may override any of them for one organization (`refmatch org limits`). Each create checks
// its cap where the object is made, in the store every path (API, dashboard, CLI) goes through;
// replacing or updating an existing object never counts.
import type { Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/app-error.ts';
import {
  DEFAULT_ORGANIZATION_LIMITS,
  MAX_ORGANIZATION_LIMIT,
  type OrganizationLimits,
} from '../infra/config.ts';

export type LimitName = keyof OrganizationLimits;
export type { OrganizationLimits };

export const LIMIT_NAMES = Object.keys(DEFAULT_ORGANIZATION_LIMITS) as LimitName[];

export function isLimitName(value: string): value is LimitName {
  return (LIMIT_NAMES as readonly string[]).includes(value);
}

/** What each cap counts, as the error says it. */
const COUNTED: Record<LimitName, string> = {
  authors_groups: 'authors groups',
  records_per_group: 'records in one authors group',
  custom_fields: 'custom fields',
  options_per_field: 'options of one custom field',
  options: 'options of custom fields',
  option_characters: 'characters in the options of custom fields',
  folders: 'folders',
  api_keys: 'active API keys',
  users: 'users',
};

// Set once at start-up from the configuration (buildApp, and the CLI when it runs a command in its
// own process): the stores are reached with a database handle only, from the API, the dashboard
// and the CLI alike, and threading the configuration through every caller for this one value
// would touch each of them.
let deploymentLimits: OrganizationLimits = { ...DEFAULT_ORGANIZATION_LIMITS };

export function setDeploymentLimits(limits: OrganizationLimits): void {
  deploymentLimits = { ...limits };
}

export function getDeploymentLimits(): OrganizationLimits {
  return { ...deploymentLimits };
}

/** The cap that applies given the organization's stored overrides. */
function effectiveLimit(overrides: Record<string, unknown> | null | undefined, name: LimitName): number {
  const override = overrides?.[name];
  return typeof override === 'number' ? override : deploymentLimits[name];
}

export function limitReached(name: LimitName, limit: number) {
  return errors.limitReached(
    name,
    limit,
    `The organization has reached its limit of ${limit} ${COUNTED[name]}`,
  );
}

/**
 * Refuses a create that would take the organization past its cap. Must run inside the create's
 * transaction, before its insert: it locks the organization's row (FOR NO KEY UPDATE: the foreign
 * keys' KEY SHARE locks of ordinary writes do not wait on it), so that a concurrent create of the
 * same organization waits here until this one commits and then counts its row; the count is a new
 * statement, hence a new snapshot that sees it. Two creates can never both pass the cap.
 * `countSql` counts what exists now (index-backed, at most a few thousand rows); `adding` is how
 * many the create makes. Throws not_found for an unknown organization.
 */
export async function checkLimit(
  tx: Queryable,
  organizationId: number,
  name: LimitName,
  countSql: string,
  countParams: readonly unknown[],
  adding = 1,
): Promise<void> {
  const { rows } = await tx.query<{ limit_overrides: Record<string, unknown> }>(
    'SELECT limit_overrides FROM organizations WHERE id = $1 FOR NO KEY UPDATE',
    [organizationId],
  );
  if (!rows[0]) throw errors.notFound(`Organization ${organizationId}`);
  const limit = effectiveLimit(rows[0].limit_overrides, name);
  if (adding > limit) throw limitReached(name, limit);
  const counted = await tx.query<{ n: number }>(countSql, countParams);
  if (counted.rows[0]!.n + adding > limit) throw limitReached(name, limit);
}

/**
 * The records cap of a group, checked after a record was inserted into it (the count is kept on the
 * group's row by triggers, migration 0101, whose update locks that row until the insert's
 * transaction ends: concurrent inserts into one group take turns, and each sees the others' rows).
 */
export async function checkRecordsPerGroup(tx: Queryable, groupId: number): Promise<void> {
  const { rows } = await tx.query<{ record_count: number; limit_overrides: Record<string, unknown> }>(
    `SELECT g.record_count, o.limit_overrides
       FROM authors_groups g JOIN organizations o ON o.id = g.organization_id WHERE g.id = $1`,
    [groupId],
  );
  const row = rows[0];
  if (!row) return;
  const limit = effectiveLimit(row.limit_overrides, 'records_per_group');
  if (row.record_count > limit) throw limitReached('records_per_group', limit);
}

/** The organization's caps: those that apply, and the overrides the operator stored. */
export interface OrganizationLimitsView {
  organization_id: number;
  limits: OrganizationLimits;
  overrides: Partial<OrganizationLimits>;
}

function view(organizationId: number, stored: Record<string, unknown>): OrganizationLimitsView {
  const overrides: Partial<OrganizationLimits> = {};
  for (const name of LIMIT_NAMES) {
    const value = stored[name];
    if (typeof value === 'number') overrides[name] = value;
  }
  return { organization_id: organizationId, limits: { ...deploymentLimits, ...overrides }, overrides };
}

export async function readOrganizationLimits(
  db: Queryable,
  organizationId: number,
): Promise<OrganizationLimitsView> {
  const { rows } = await db.query<{ limit_overrides: Record<string, unknown> }>(
    'SELECT limit_overrides FROM organizations WHERE id = $1',
    [organizationId],
  );
  if (!rows[0]) throw errors.notFound(`Organization ${organizationId}`);
  return view(organizationId, rows[0].limit_overrides);
}

/**
 * Sets (a number) or removes (null: back to the deployment's value) overrides of one organization.
 * Lowering a cap below what the organization holds deletes nothing: creates are refused until it
 * is under the cap again, and replacing or updating what exists goes on.
 */
export async function setLimitOverrides(
  db: Queryable,
  organizationId: number,
  changes: Partial<Record<LimitName, number | null>>,
): Promise<OrganizationLimitsView> {
  const set: Record<string, number> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(changes)) {
    if (!isLimitName(name)) throw errors.validation(`Unknown limit ${name}: ${LIMIT_NAMES.join(', ')}`);
    if (value === null) removed.push(name);
    else if (!Number.isInteger(value) || value < 0 || value > MAX_ORGANIZATION_LIMIT) {
      throw errors.validation(`The ${name} limit must be a whole number from 0 to ${MAX_ORGANIZATION_LIMIT}`);
    } else set[name] = value;
  }
  const { rows } = await db.query<{ limit_overrides: Record<string, unknown> }>(
    `UPDATE organizations SET limit_overrides = (limit_overrides - $3::text[]) || $2::jsonb
      WHERE id = $1 RETURNING limit_overrides`,
    [organizationId, JSON.stringify(set), removed],
  );
  if (!rows[0]) throw errors.notFound(`Organization ${organizationId}`);
  return view(organizationId, rows[0].limit_overrides);
}
