// `refmatch group ...`. Handlers load the stores when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { intOption } from '../infra/cli/options.ts';
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

export const groupDelete = defineCommand({
  name: 'group delete',
  options: [
    orgOption,
    { flags: '--group <id>', description: "group id (the API's group_id)", required: true, parse: intOption },
  ],
  async run(ctx, args: { org: number; group: number }) {
    const { deleteGroup } = await import('./store.ts');
    // What went with it: the number of records and the folders whose settings named it.
    return { deleted: true, ...(await deleteGroup(ctx.db, args.org, args.group)) };
  },
});

export const authorsGroupCommands = [
  defineGroup('group', 'Authors groups: create, list, delete'),
  groupCreate,
  groupList,
  groupDelete,
];
