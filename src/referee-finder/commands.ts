import { readFile } from 'node:fs/promises';
import { defineCommand } from '../infra/cli/command.ts';
import { errors } from '../infra/errors.ts';
import { requireOrganization } from '../organizations/organizations.ts';
import { importCoi, parseCoiCsv } from './external-coi.ts';

export const coiImport = defineCommand({
  name: 'coi import',
  async run(ctx, args: { org: number; file: string; replace?: boolean }) {
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

export const refereeFinderCommands = [coiImport];
