import { defineCommand } from '../infra/cli/command.ts';
import { requireOrganization } from '../organizations/organizations.ts';
import { createGroup, listGroups } from './store.ts';

export const groupCreate = defineCommand({
  name: 'group create',
  async run(ctx, args: { org: number; name: string }) {
    return createGroup(ctx.db, args.org, args.name);
  },
});

export const groupList = defineCommand({
  name: 'group list',
  async run(ctx, args: { org: number }) {
    await requireOrganization(ctx.db, args.org);
    return listGroups(ctx.db, args.org);
  },
});

export const authorsGroupCommands = [groupCreate, groupList];
