import { defineCommand } from '../infra/cli/command.ts';
import { createUser, disableUser, listUsers, resetPassword, setUserRole, type User } from './users.ts';

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

export const userCreate = defineCommand({
  name: 'user create',
  async run(ctx, args: { org: number; email: string; role: string }) {
    const user = await createUser(ctx.db, { organizationId: args.org, email: args.email, role: args.role });
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      org_id: user.organization_id,
      password: user.password,
    };
  },
});

export const userList = defineCommand({
  name: 'user list',
  async run(ctx, args: { org: number }) {
    return (await listUsers(ctx.db, args.org)).map(shown);
  },
});

export const userRole = defineCommand({
  name: 'user role',
  async run(ctx, args: { user: number; role: string }) {
    return shown(await setUserRole(ctx.db, args.user, args.role));
  },
});

export const userDisable = defineCommand({
  name: 'user disable',
  async run(ctx, args: { user: number }) {
    return shown(await disableUser(ctx.db, args.user));
  },
});

export const userPassword = defineCommand({
  name: 'user password',
  async run(ctx, args: { user: number }) {
    const user = await resetPassword(ctx.db, args.user);
    return {
      id: user.id,
      email: user.email,
      role: user.role,
      org_id: user.organization_id,
      password: user.password,
    };
  },
});

export const userCommands = [userCreate, userList, userRole, userDisable, userPassword];
