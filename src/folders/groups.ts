// The organization's own authors groups among a list of ids: the one place folders read the
// authors-groups table, so another organization's group ids never resolve.
import type { Queryable } from '../infra/db/index.ts';

export interface GroupSummary {
  id: number;
  name: string;
  label: string | null;
}

/** Groups of `organizationId` among `ids`, in the order of `ids`; unknown or foreign ids are dropped. */
export async function findOrganizationGroups(
  db: Queryable,
  organizationId: number,
  ids: readonly number[],
): Promise<GroupSummary[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<GroupSummary>(
    `SELECT id, name, NULL::text AS label FROM authors_groups
      WHERE organization_id = $1 AND id = ANY($2::int[])`,
    [organizationId, [...ids]],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const group = byId.get(id);
    return group ? [group] : [];
  });
}
