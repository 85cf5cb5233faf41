// Organizations: the tenants. Every other table hangs off an organization id, and every query a
// tenant can trigger is scoped by it.
import type { Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { type Feature, isFeature } from './features.ts';
import { createApiKey } from './api-keys.ts';
import { checkOneLine } from '../infra/one-line-text.ts';

export type Prefer = 'parsed' | 'supplied';

export interface OrganizationSettings {
  prefer: Prefer;
  include_conflicts: boolean;
  include_without_email: boolean;
  max_candidates: number;
}

export interface Organization extends OrganizationSettings {
  id: number;
  name: string;
  features: Feature[];
}

const COLUMNS = 'id, name, features, prefer, include_conflicts, include_without_email, max_candidates';

export function parseFeatures(list: string): Feature[] {
  const names = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !isFeature(n));
  if (unknown.length > 0) throw errors.validation(`Unknown feature: ${unknown.join(', ')}`);
  return [...new Set(names)] as Feature[];
}

export async function createOrganization(
  db: Queryable,
  input: { name: string; features: Feature[]; isDemo?: boolean },
): Promise<Organization & { api_key: string }> {
  const name = input.name.trim();
  if (!name) throw errors.validation('The organization name must not be empty');
  checkOneLine(name, 'The organization name');
  const { rows } = await db.query<Organization>(
    `INSERT INTO organizations (name, features, is_demo) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
    [name, input.features, input.isDemo ?? false],
  );
  const org = rows[0]!;
  const key = await createApiKey(db, org.id);
  return { ...org, api_key: key };
}

export async function getOrganization(db: Queryable, id: number): Promise<Organization | null> {
  const { rows } = await db.query<Organization>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function requireOrganization(db: Queryable, id: number): Promise<Organization> {
  const org = await getOrganization(db, id);
  if (!org) throw errors.notFound(`Organization ${id}`);
  return org;
}

export async function listOrganizations(db: Queryable): Promise<Organization[]> {
  const { rows } = await db.query<Organization>(`SELECT ${COLUMNS} FROM organizations ORDER BY id`);
  return rows;
}

export async function updateSettings(
  db: Queryable,
  id: number,
  changes: Partial<OrganizationSettings> & { features?: Feature[] },
): Promise<Organization> {
  const sets: string[] = [];
  const values: unknown[] = [];
  const add = (column: string, value: unknown) => {
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  };
  if (changes.prefer !== undefined) add('prefer', changes.prefer);
  if (changes.include_conflicts !== undefined) add('include_conflicts', changes.include_conflicts);
  if (changes.include_without_email !== undefined)
    add('include_without_email', changes.include_without_email);
  if (changes.max_candidates !== undefined) {
    if (
      !Number.isInteger(changes.max_candidates) ||
      changes.max_candidates < 1 ||
      changes.max_candidates > 500
    ) {
      throw errors.validation(
        'The maximum number of candidates (max_candidates) must be a whole number from 1 to 500',
      );
    }
    add('max_candidates', changes.max_candidates);
  }
  if (changes.features !== undefined) add('features', changes.features);
  if (sets.length === 0) return requireOrganization(db, id);
  values.push(id);
  const { rows } = await db.query<Organization>(
    `UPDATE organizations SET ${sets.join(', ')} WHERE id = $${values.length} RETURNING ${COLUMNS}`,
    values,
  );
  if (!rows[0]) throw errors.notFound(`Organization ${id}`);
  return rows[0];
}
