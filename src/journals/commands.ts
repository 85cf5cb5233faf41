import { defineCommand } from '../infra/cli/command.ts';
import { linkJournal, listLinks, unlinkJournal } from './links.ts';

export const journalLink = defineCommand({
  name: 'journal link',
  async run(ctx, args: { org: number; folder: string; source: number }) {
    return linkJournal(ctx.db, args.org, args.folder, args.source);
  },
});

export const journalUnlink = defineCommand({
  name: 'journal unlink',
  async run(ctx, args: { org: number; source: number; folder?: string }) {
    return unlinkJournal(ctx.db, args.org, args.source, args.folder);
  },
});

export const journalLinks = defineCommand({
  name: 'journal links',
  async run(ctx, args: { org: number }) {
    return listLinks(ctx.db, args.org);
  },
});

export const journalCommands = [journalLink, journalUnlink, journalLinks];
