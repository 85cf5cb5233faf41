// `refmatch org ...` and `refmatch key ...`. Handlers load the stores when they run (see registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { boolOption, intOption } from '../infra/cli/options.ts';
import { errors } from '../infra/app-error.ts';
import type { Prefer } from './organizations.ts';
import { LIMIT_NAMES, type LimitName } from './limits.ts';

/** `--org <id>`, the option of every command that acts within one organization. */
export const orgOption = {
  flags: '--org <id>',
  description: 'organization id',
  required: true,
  parse: intOption,
};

export const orgCreate = defineCommand({
  name: 'org create',
  options: [
    { flags: '--name <name>', description: 'organization name', required: true },
    {
      flags: '--features <list>',
      description: 'comma-separated: referee_finder,recommend_journals',
      default: 'referee_finder,recommend_journals',
    },
  ],
  async run(ctx, args: { name: string; features?: string }) {
    const { createOrganization, parseFeatures } = await import('./organizations.ts');
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
    const { listOrganizations } = await import('./organizations.ts');
    return listOrganizations(ctx.db);
  },
});

export const orgSettings = defineCommand({
  name: 'org settings',
  options: [
    orgOption,
    { flags: '--prefer <source>', description: 'parsed | supplied' },
    { flags: '--include-conflicts <bool>', description: 'true | false', parse: boolOption },
    { flags: '--include-without-email <bool>', description: 'true | false', parse: boolOption },
    { flags: '--max-candidates <n>', description: 'candidates returned per upload, 1-500', parse: intOption },
    { flags: '--features <list>', description: 'replace the plan: comma-separated features' },
  ],
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
    const { parseFeatures, updateSettings } = await import('./organizations.ts');
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

/**
 * A cap as typed: a whole number, or `default` to go back to the deployment's value (kept as the
 * word: commander turns a parser's null into an empty string).
 */
function limitOption(value: string): number | 'default' {
  return value === 'default' ? value : intOption(value);
}

// One option per cap, named after it (`--records-per-group` for records_per_group).
const LIMIT_OPTIONS = LIMIT_NAMES.map((name) => ({
  name,
  arg: name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  spec: {
    flags: `--${name.replaceAll('_', '-')} <n>`,
    description: `cap on ${name.replaceAll('_', ' ')} for this organization, or "default"`,
    parse: limitOption,
  },
}));

export const orgLimits = defineCommand({
  name: 'org limits',
  description:
    "Show an organization's caps on what it stores; with options, override them for it alone " +
    '(a number, or "default" for the deployment\'s value)',
  options: [orgOption, ...LIMIT_OPTIONS.map((o) => o.spec)],
  async run(ctx, args: { org: number } & Record<string, number | 'default' | undefined>) {
    const { readOrganizationLimits, setLimitOverrides } = await import('./limits.ts');
    const changes: Partial<Record<LimitName, number | null>> = {};
    for (const option of LIMIT_OPTIONS) {
      const value = args[option.arg];
      if (value !== undefined) changes[option.name] = value === 'default' ? null : value;
    }
    if (Object.keys(changes).length === 0) return readOrganizationLimits(ctx.db, args.org);
    return setLimitOverrides(ctx.db, args.org, changes);
  },
});

export const keyCreate = defineCommand({
  name: 'key create',
  options: [orgOption],
  async run(ctx, args: { org: number }) {
    const [{ requireOrganization }, { createApiKey }] = await Promise.all([
      import('./organizations.ts'),
      import('./api-keys.ts'),
    ]);
    await requireOrganization(ctx.db, args.org);
    return { organization_id: args.org, api_key: await createApiKey(ctx.db, args.org) };
  },
});

export const keyRevoke = defineCommand({
  name: 'key revoke',
  options: [{ flags: '--key <key>', description: 'the full API key', required: true }],
  async run(ctx, args: { key: string }) {
    const { revokeApiKey } = await import('./api-keys.ts');
    if (!(await revokeApiKey(ctx.db, args.key))) throw errors.notFound('An active API key with that value');
    return { revoked: true };
  },
});

export const organizationCommands = [
  defineGroup('org', 'Organizations: create, list, settings, limits'),
  orgCreate,
  orgList,
  orgSettings,
  orgLimits,
  defineGroup('key', 'API keys'),
  keyCreate,
  keyRevoke,
];
