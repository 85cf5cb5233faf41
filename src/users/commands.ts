// `refmatch user ...`. Handlers load the stores when they run (see src/cli/registry.ts).
import { defineCommand, defineGroup } from '../infra/cli/command.ts';
import { intOption } from '../infra/cli/options.ts';
import { orgOption } from '../organizations/commands.ts';
import type { User } from './users.ts';

const USER = { flags: '--user <id>', description: 'user id', required: true, parse: intOption };
const ROLE = {
  flags: '--role <role>',
  description: 'integrations_admin | account_manager | editor | viewer',
  required: true,
};

/** A user as the CLI prints it (org_id, as `user create --org` names it). */
function shown(user: User) {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    org_id: user.organization_id,
    must_change_password: user.must_change_password,
    disabled: user.disabled,
    created_at: user.created_at,
  };
}

/** A user with the one-time password just set, printed once (create, password). */
function withPassword(user: User & { password: string }) {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    org_id: user.organization_id,
    password: user.password,
  };
}

export const userCreate = defineCommand({
  name: 'user create',
  description: 'Create a user; prints a one-time password, to be changed at first sign-in',
  options: [
    orgOption,
    { flags: '--email <email>', description: 'the address the user signs in with', required: true },
    ROLE,
  ],
  async run(ctx, args: { org: number; email: string; role: string }) {
    const { createUser } = await import('./users.ts');
    return withPassword(
      await createUser(ctx.db, { organizationId: args.org, email: args.email, role: args.role }),
    );
  },
});

export const userList = defineCommand({
  name: 'user list',
  options: [orgOption],
  async run(ctx, args: { org: number }) {
    const { listUsers } = await import('./users.ts');
    return (await listUsers(ctx.db, args.org)).map(shown);
  },
});

export const userRole = defineCommand({
  name: 'user role',
  options: [USER, ROLE],
  async run(ctx, args: { user: number; role: string }) {
    const { setUserRole } = await import('./users.ts');
    return shown(await setUserRole(ctx.db, args.user, args.role));
  },
});

export const userDisable = defineCommand({
  name: 'user disable',
  description: 'Disable a user and end their sessions',
  options: [USER],
  async run(ctx, args: { user: number }) {
    const { disableUser } = await import('./users.ts');
    return shown(await disableUser(ctx.db, args.user));
  },
});

export const userEnable = defineCommand({
  name: 'user enable',
  description: 'Enable a disabled user again, with a new one-time password (to be changed at next sign-in)',
  options: [USER],
  async run(ctx, args: { user: number }) {
    const { enableUser } = await import('./users.ts');
    return withPassword(await enableUser(ctx.db, args.user));
  },
});

export const userPassword = defineCommand({
  name: 'user password',
  description: 'Give a user a new one-time password (to be changed at next sign-in) and end their sessions',
  options: [USER],
  async run(ctx, args: { user: number }) {
    const { resetPassword } = await import('./users.ts');
    return withPassword(await resetPassword(ctx.db, args.user));
  },
});

export const userCommands = [
  defineGroup('user', 'Dashboard users: create, list, role, disable, enable'),
  userCreate,
  userList,
  userRole,
  userDisable,
  userEnable,
  userPassword,
];
