import { defineCommand } from '../cli/command.ts';
import { errors } from '../infra/errors.ts';
import { requireOrganization } from '../organizations/organizations.ts';
import { ensureFolder, folderGroupsSettings, isGroupsEffect, saveFolderSettings } from './folders.ts';
import { findOrganizationGroups } from './groups.ts';

export interface FolderSettingsArgs {
  org: number;
  folder: string;
  /** Comma-separated group ids; empty names no groups (authors_groups_settings becomes null). */
  groups: string;
  effect: string;
  boost?: string;
}

function parseGroupIds(list: string): number[] {
  const parts = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = parts.filter((p) => !/^\d+$/.test(p));
  if (bad.length > 0) throw errors.validation(`--groups must be group ids, got: ${bad.join(', ')}`);
  return [...new Set(parts.map(Number))];
}

function parseBoost(effect: string, boost: string | undefined): number | null {
  if (effect !== 'boost') {
    if (boost !== undefined) throw errors.validation('--boost applies only with --effect boost');
    return null;
  }
  if (boost === undefined) throw errors.validation('--effect boost needs --boost MULTIPLIER');
  const value = Number(boost);
  if (!/^\d+(\.\d+)?$/.test(boost.trim()) || !(value > 0) || value > 1000) {
    throw errors.validation('--boost must be a number greater than 0 and at most 1000');
  }
  return value;
}

export const folderSettings = defineCommand({
  name: 'folder settings',
  async run(ctx, args: FolderSettingsArgs) {
    await requireOrganization(ctx.db, args.org);
    const name = args.folder.trim();
    if (!name || name.length > 256) throw errors.validation('--folder must have 1 to 256 characters');
    if (!isGroupsEffect(args.effect)) {
      throw errors.validation('--effect must be highlight, limit_to or boost');
    }
    const groupIds = parseGroupIds(args.groups);
    const boostMultiplier = parseBoost(args.effect, args.boost);
    // Only the organization's own groups: another organization's id is refused like a missing one.
    const own = await findOrganizationGroups(ctx.db, args.org, groupIds);
    const missing = groupIds.filter((id) => !own.some((g) => g.id === id));
    if (missing.length > 0)
      throw errors.notFound(`Authors group ${missing.join(', ')} of organization ${args.org}`);
    const effect = args.effect;
    const folderId = await ctx.db.transaction(async (tx) => {
      const id = await ensureFolder(tx, args.org, name);
      await saveFolderSettings(tx, id, { groupIds, effect, boostMultiplier });
      return id;
    });
    const settings = await folderGroupsSettings(ctx.db, args.org, folderId);
    return {
      folder_id: folderId,
      folder: name,
      authors_groups: settings?.groups ?? [],
      effect: args.effect,
      ...(boostMultiplier !== null ? { boost_multiplier: boostMultiplier } : {}),
    };
  },
});

export const folderCommands = [folderSettings];
