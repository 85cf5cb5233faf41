// `refmatch mark`. The handler loads the stores when it runs (see src/cli/registry.ts).
import { defineCommand } from '../infra/cli/command.ts';
import { intOption } from '../infra/cli/options.ts';
import { errors } from '../infra/app-error.ts';
import { orgOption } from '../organizations/commands.ts';

export interface MarkArgs {
  org: number;
  originId: string;
  author: number;
  by?: string;
  unmark?: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const mark = defineCommand({
  name: 'mark',
  description: 'Mark a candidate as a referee of a manuscript (or --unmark)',
  options: [
    orgOption,
    { flags: '--origin-id <id>', description: "the manuscript's origin_id", required: true },
    { flags: '--author <id>', description: 'author id of the candidate', required: true, parse: intOption },
    { flags: '--by <email>', description: 'email of the user who marks (required unless --unmark)' },
    { flags: '--unmark', description: 'remove the mark' },
  ],
  async run(ctx, args: MarkArgs) {
    const [{ requireOrganization }, { findManuscriptId }, { changeMark }] = await Promise.all([
      import('../organizations/organizations.ts'),
      import('./manuscripts-store.ts'),
      import('./marks.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    const manuscriptId = await findManuscriptId(ctx.db, args.org, args.originId);
    if (manuscriptId === null) {
      throw errors.notFound(`Manuscript with origin_id ${args.originId} in organization ${args.org}`);
    }
    const base = { manuscript_id: manuscriptId, origin_id: args.originId, author_id: args.author };
    if (args.unmark) {
      const by = args.by?.trim().toLowerCase() || null;
      await changeMark(ctx.db, {
        organizationId: args.org,
        manuscriptId,
        authorId: args.author,
        marked: false,
        by,
      });
      return { ...base, marked: false, marked_by: null };
    }
    const by = args.by?.trim().toLowerCase();
    if (!by || !EMAIL.test(by)) throw errors.validation('--by must be the email of the user who marks');
    const { rows } = await ctx.db.query('SELECT 1 FROM authors WHERE id = $1', [args.author]);
    if (rows.length === 0) throw errors.notFound(`Author ${args.author}`);
    await changeMark(ctx.db, {
      organizationId: args.org,
      manuscriptId,
      authorId: args.author,
      marked: true,
      by,
    });
    return { ...base, marked: true, marked_by: by };
  },
});

export const manuscriptCommands = [mark];
