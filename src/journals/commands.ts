// `refmatch journal ...`. Handlers load the stores when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { intOption } from '../infra/cli/options.ts';
import { orgOption } from '../organizations/commands.ts';

const SOURCE = {
  flags: '--source <id>',
  description: 'journal (source) id',
  required: true,
  parse: intOption,
};

export const journalLink = defineCommand({
  name: 'journal link',
  description: 'Link a journal (corpus source id) to a folder; the folder is created when missing',
  options: [
    orgOption,
    { flags: '--folder <name>', description: 'folder name, as given at manuscript upload', required: true },
    SOURCE,
  ],
  async run(ctx, args: { org: number; folder: string; source: number }) {
    const { linkJournal } = await import('./links.ts');
    return linkJournal(ctx.db, args.org, args.folder, args.source);
  },
});

export const journalUnlink = defineCommand({
  name: 'journal unlink',
  description: "Remove a journal's link",
  options: [orgOption, SOURCE, { flags: '--folder <name>', description: 'only when linked to this folder' }],
  async run(ctx, args: { org: number; source: number; folder?: string }) {
    const { unlinkJournal } = await import('./links.ts');
    return unlinkJournal(ctx.db, args.org, args.source, args.folder);
  },
});

export const journalLinks = defineCommand({
  name: 'journal links',
  description: "List the organization's linked journals",
  options: [orgOption],
  async run(ctx, args: { org: number }) {
    const { listLinks } = await import('./links.ts');
    return listLinks(ctx.db, args.org);
  },
});

export const journalCommands = [
  defineGroup('journal', "Journals linked to an organization's folders (what org_journals recommends from)"),
  journalLink,
  journalUnlink,
  journalLinks,
];
