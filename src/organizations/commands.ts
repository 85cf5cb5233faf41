import { defineCommand } from '../infra/cli/command.ts';
import { errors } from '../infra/errors.ts';
import { createApiKey, revokeApiKey } from './api-keys.ts';
import {
  createOrganization,
  listOrganizations,
  parseFeatures,
  requireOrganization,
  updateSettings,
  type Prefer,
} from './organizations.ts';

export const orgCreate = defineCommand({
  name: 'org create',
  async run(ctx, args: { name: string; features?: string }) {
    const org = await createOrganization(ctx.db, {
      name: args.name,
      features: parseFeatures(args.features ?? 'referee_finder,recommend_journals'),
    });
    return { id: org.id, name: org.name, features: org.features, api_key: org.api_key };
  },
});

export const orgList = defineCommand({
  name: 'org list',
  async run(ctx) {
    return listOrganizations(ctx.db);
  },
});

export const orgSettings = defineCommand({
  name: 'org settings',
  async run(
    ctx,
    args: {
      org: number;
      prefer?: Prefer;
      includeConflicts?: boolean;
      includeWithoutEmail?: boolean;
      maxCandidates?: number;
      features?: string;
    },
  ) {
    if (args.prefer !== undefined && args.prefer !== 'parsed' && args.prefer !== 'supplied') {
      throw errors.validation('--prefer must be parsed or supplied');
    }
    const org = await updateSettings(ctx.db, args.org, {
      ...(args.prefer !== undefined ? { prefer: args.prefer } : {}),
      ...(args.includeConflicts !== undefined ? { include_conflicts: args.includeConflicts } : {}),
      ...(args.includeWithoutEmail !== undefined ? { include_without_email: args.includeWithoutEmail } : {}),
      ...(args.maxCandidates !== undefined ? { max_candidates: args.maxCandidates } : {}),
      ...(args.features !== undefined ? { features: parseFeatures(args.features) } : {}),
    });
    return org;
  },
});

export const keyCreate = defineCommand({
  name: 'key create',
  async run(ctx, args: { org: number }) {
    await requireOrganization(ctx.db, args.org);
    return { organization_id: args.org, api_key: await createApiKey(ctx.db, args.org) };
  },
});

export const keyRevoke = defineCommand({
  name: 'key revoke',
  async run(ctx, args: { key: string }) {
    if (!(await revokeApiKey(ctx.db, args.key))) throw errors.notFound('An active API key with that value');
    return { revoked: true };
  },
});

export const organizationCommands = [orgCreate, orgList, orgSettings, keyCreate, keyRevoke];
