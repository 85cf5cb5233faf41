// `refmatch coi import`. The handler loads the stores when it runs (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { pathArgument } from '../infra/cli/options.ts';
import { AppError, errors } from '../infra/app-error.ts';
import { filePiecesOf, FileTooLargeError } from '../infra/csv-read.ts';
import { formatCount } from '../infra/counts.ts';
import { MAX_MARKS_IN_A_ROW } from '../infra/storable-text.ts';
import { orgOption } from '../organizations/commands.ts';
import {
  COI_FILE_MAX_BYTES,
  COI_LINE_MAX_CHARS,
  COI_QUOTED_CHARS,
  COI_REJECTED_LISTED,
} from './coi-limits.ts';

const MIB = 1024 * 1024;

export const coiImport = defineCommand({
  name: 'coi import',
  description: 'CSV rows: manuscript origin_id (or * for every manuscript), then ORCID, email or author id',
  arguments: [
    {
      syntax: '<file>',
      description:
        `the CSV: at most ${COI_FILE_MAX_BYTES / MIB} MiB; a line, and a row's fields, at most ` +
        `${formatCount(COI_LINE_MAX_CHARS)} characters (past either the file is refused, nothing imported); rejected rows ` +
        `are counted (rejected_count), the first ${COI_REJECTED_LISTED} listed (rejected), a value quoted to ${COI_QUOTED_CHARS} characters; ` +
        `a rejected row's line is the line it starts on, counted as a refusal counts them (a quoted field may span lines, ` +
        `empty lines count), its row the row's place among the rows (the header the first); a row with a value the API ` +
        `would refuse (a NUL, more than ${MAX_MARKS_IN_A_ROW} combining marks in a row) is rejected`,
      parse: pathArgument,
    },
  ],
  options: [
    orgOption,
    { flags: '--replace', description: "drop the organization's earlier declarations first" },
  ],
  async run(ctx, args: { org: number; file: string; replace?: boolean }) {
    const [{ requireOrganization }, { importCoi, readCoiCsv }] = await Promise.all([
      import('../organizations/organizations.ts'),
      import('./external-coi.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    let read: Awaited<ReturnType<typeof readCoiCsv>>;
    try {
      read = await readCoiCsv(filePiecesOf(args.file, COI_FILE_MAX_BYTES));
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof FileTooLargeError) {
        throw errors.validation(`${args.file} is larger than ${COI_FILE_MAX_BYTES / MIB} MiB`);
      }
      throw errors.validation(`Cannot read ${args.file}`);
    }
    const { rows, rejected, rejectedCount } = read;
    const { inserted } = await importCoi(ctx.db, args.org, rows, args.replace ?? false);
    return {
      organization_id: args.org,
      rows: rows.length,
      inserted,
      rejected,
      rejected_count: rejectedCount,
    };
  },
});

export const refereeFinderCommands = [
  defineGroup('coi', 'Conflicts of interest declared by an organization'),
  coiImport,
];
