import { defineCommand } from '../infra/cli/command.ts';
import { requireOrganization } from '../organizations/organizations.ts';
import { createCustomField, deleteCustomField, listCustomFields, updateCustomField } from './store.ts';
import type { DataKind, Owner } from './kinds.ts';

export const customFieldCreate = defineCommand({
  name: 'custom-field create',
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
  async run(ctx, args: { field: string }) {
    await deleteCustomField(ctx.db, args.field);
    return { deleted: true, api_id: args.field };
  },
});

export const customFieldList = defineCommand({
  name: 'custom-field list',
  async run(ctx, args: { org: number }) {
    await requireOrganization(ctx.db, args.org);
    return listCustomFields(ctx.db, args.org);
  },
});

export const customFieldCommands = [customFieldCreate, customFieldUpdate, customFieldDelete, customFieldList];
