// `refmatch custom-field ...`. Handlers load the stores when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { collect } from '../infra/cli/options.ts';
import { orgOption } from '../organizations/commands.ts';
import { DATA_KINDS, OWNERS, type DataKind, type Owner } from './kinds.ts';

const FIELD = { flags: '--field <api_id>', description: 'the field api_id', required: true };

export const customFieldCreate = defineCommand({
  name: 'custom-field create',
  options: [
    orgOption,
    { flags: '--owner <owner>', description: 'what the field belongs to', choices: OWNERS, required: true },
    { flags: '--kind <kind>', description: 'data kind', choices: DATA_KINDS, required: true },
    { flags: '--name <name>', description: 'field name', required: true },
    { flags: '--description <text>', description: 'field description' },
    {
      flags: '--option <text>',
      description: 'an option (single_option, multi_option); repeat for more',
      parse: collect,
    },
  ],
  async run(
    ctx,
    args: {
      org: number;
      owner: Owner;
      kind: DataKind;
      name: string;
      description?: string;
      option?: string[];
    },
  ) {
    const { createCustomField } = await import('./store.ts');
    return createCustomField(ctx.db, args.org, {
      owner: args.owner,
      dataKind: args.kind,
      name: args.name,
      description: args.description ?? null,
      options: args.option ?? [],
    });
  },
});

export const customFieldUpdate = defineCommand({
  name: 'custom-field update',
  options: [
    FIELD,
    { flags: '--name <name>', description: 'new name' },
    { flags: '--description <text>', description: 'new description; an empty string clears it' },
    { flags: '--add-option <text>', description: 'add an option; repeat for more', parse: collect },
    {
      flags: '--remove-option <api_id>',
      description: 'remove an option by api_id; repeat for more',
      parse: collect,
    },
  ],
  async run(
    ctx,
    args: {
      field: string;
      name?: string;
      description?: string;
      addOption?: string[];
      removeOption?: string[];
    },
  ) {
    const { updateCustomField } = await import('./store.ts');
    return updateCustomField(ctx.db, args.field, {
      ...(args.name !== undefined ? { name: args.name } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
      addOptions: args.addOption ?? [],
      removeOptions: args.removeOption ?? [],
    });
  },
});

export const customFieldDelete = defineCommand({
  name: 'custom-field delete',
  options: [FIELD],
  async run(ctx, args: { field: string }) {
    const { deleteCustomField } = await import('./store.ts');
    await deleteCustomField(ctx.db, args.field);
    return { deleted: true, api_id: args.field };
  },
});

export const customFieldList = defineCommand({
  name: 'custom-field list',
  options: [orgOption],
  async run(ctx, args: { org: number }) {
    const [{ requireOrganization }, { listCustomFields }] = await Promise.all([
      import('../organizations/organizations.ts'),
      import('./store.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    return listCustomFields(ctx.db, args.org);
  },
});

export const customFieldCommands = [
  defineGroup(
    'custom-field',
    'Custom fields (the spec\'s "user interface" for them): create, update, delete, list',
  ),
  customFieldCreate,
  customFieldUpdate,
  customFieldDelete,
  customFieldList,
];
