// `refmatch coi import`. The handler loads the stores when it runs (see src/cli/registry.ts).
import { readFile } from 'node:fs/promises';
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { pathArgument } from '../infra/cli/options.ts';
import { errors } from '../infra/app-error.ts';
import { orgOption } from '../organizations/commands.ts';

export const coiImport = defineCommand({
  name: 'coi import',
  description: 'CSV rows: manuscript origin_id (or * for every manuscript), then ORCID, email or author id',
  arguments: [{ syntax: '<file>', parse: pathArgument }],
  options: [
    orgOption,
    { flags: '--replace', description: "drop the organization's earlier declarations first" },
  ],
  async run(ctx, args: { org: number; file: string; replace?: boolean }) {
    const [{ requireOrganization }, { importCoi, parseCoiCsv }] = await Promise.all([
      import('../organizations/organizations.ts'),
      import('./external-coi.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    let text: string;
    try {
      text = await readFile(args.file, 'utf8');
    } catch {
      throw errors.validation(`Cannot read ${args.file}`);
    }
    const { rows, rejected } = parseCoiCsv(text);
    const { inserted } = await importCoi(ctx.db, args.org, rows, args.replace ?? false);
    return { organization_id: args.org, rows: rows.length, inserted, rejected };
  },
});

export const refereeFinderCommands = [
  defineGroup('coi', 'Conflicts of interest declared by an organization'),
  coiImport,
];
