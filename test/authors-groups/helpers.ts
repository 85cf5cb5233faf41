// Shortcuts for author-from-group tests: a group of a fresh organization, and URL building.
import type { TestApp, TestOrg } from '../helpers/app.ts';
import { createTestOrg } from '../helpers/app.ts';
import { createGroup } from '../../src/authors-groups/store.ts';

export interface OrgWithGroup extends TestOrg {
  groupId: number;
}

export async function orgWithGroup(t: Pick<TestApp, 'db'>): Promise<OrgWithGroup> {
  const org = await createTestOrg(t);
  const group = await createGroup(t.db, org.id, 'Reviewers');
  return { ...org, groupId: group.group_id };
}

export function authorUrl(groupId: number, clientId: string, partial = false): string {
  return `/api/external/author-from-group/${groupId}/${encodeURIComponent(clientId)}/${partial ? 'partial/' : ''}`;
}

/** POST an author of the organization's group: a replace, or with `partial` a partial update. */
export function postAuthor(
  t: TestApp,
  org: OrgWithGroup,
  clientId: string,
  payload: unknown,
  partial = false,
) {
  return t.app.inject({
    method: 'POST',
    url: authorUrl(org.groupId, clientId, partial),
    headers: org.headers,
    payload: payload as Record<string, unknown>,
  });
}

export function getAuthor(t: TestApp, org: OrgWithGroup, clientId: string) {
  return t.app.inject({ method: 'GET', url: authorUrl(org.groupId, clientId), headers: org.headers });
}
