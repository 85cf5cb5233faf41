// `refmatch folder settings`. The handler loads the stores when it runs (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { errors } from '../infra/app-error.ts';
import { orgOption } from '../organizations/commands.ts';

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

/** The multiplier as typed; the rules it must meet are checkFolderSettings's. */
function parseBoost(boost: string | undefined): number | null {
  if (boost === undefined) return null;
  if (!/^\d+(\.\d+)?$/.test(boost.trim())) throw errors.validation('--boost must be a number');
  return Number(boost);
}

export const folderSettings = defineCommand({
  name: 'folder settings',
  description: 'Name the authors groups of a folder and their effect (creates the folder if missing)',
  options: [
    orgOption,
    { flags: '--folder <name>', description: 'folder name, as the upload sends it', required: true },
    {
      flags: '--groups <ids>',
      description: 'comma-separated authors group ids of the organization ("" for none)',
      required: true,
    },
    { flags: '--effect <effect>', description: 'highlight | limit_to | boost', required: true },
    {
      flags: '--boost <multiplier>',
      description: 'score multiplier for group members (with --effect boost)',
    },
  ],
  async run(ctx, args: FolderSettingsArgs) {
    const [
      { requireOrganization },
      { checkFolderSettings, ensureFolder, folderGroupsSettings, saveFolderSettings },
    ] = await Promise.all([import('../organizations/organizations.ts'), import('./folders.ts')]);
    await requireOrganization(ctx.db, args.org);
    const name = args.folder.trim();
    if (!name || name.length > 256) throw errors.validation('--folder must have 1 to 256 characters');
    const settings = await checkFolderSettings(ctx.db, args.org, {
      groupIds: parseGroupIds(args.groups),
      effect: args.effect,
      boostMultiplier: parseBoost(args.boost),
    });
    const folderId = await ctx.db.transaction(async (tx) => {
      const id = await ensureFolder(tx, args.org, name);
      await saveFolderSettings(tx, id, settings);
      return id;
    });
    const saved = await folderGroupsSettings(ctx.db, args.org, folderId);
    return {
      folder_id: folderId,
      folder: name,
      authors_groups: saved?.groups ?? [],
      effect: settings.effect,
      ...(settings.boostMultiplier !== null ? { boost_multiplier: settings.boostMultiplier } : {}),
    };
  },
});

export const folderCommands = [defineGroup('folder', 'Folders: referee finder settings'), folderSettings];
