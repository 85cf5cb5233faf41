// `refmatch group ...`. Handlers load the stores when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { orgOption } from '../organizations/commands.ts';

export const groupCreate = defineCommand({
  name: 'group create',
  options: [orgOption, { flags: '--name <name>', description: 'group name', required: true }],
  async run(ctx, args: { org: number; name: string }) {
    const { createGroup } = await import('./store.ts');
    return createGroup(ctx.db, args.org, args.name);
  },
});

export const groupList = defineCommand({
  name: 'group list',
  options: [orgOption],
  async run(ctx, args: { org: number }) {
    const [{ requireOrganization }, { listGroups }] = await Promise.all([
      import('../organizations/organizations.ts'),
      import('./store.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    return listGroups(ctx.db, args.org);
  },
});

export const authorsGroupCommands = [
  defineGroup('group', 'Authors groups: create, list'),
  groupCreate,
  groupList,
];
