import type { Command as Program } from 'commander';
import { intOption, type RunCommand } from '../infra/cli/options.ts';

export function registerUserCli(program: Program, run: RunCommand): void {
  const user = program.command('user').description('Dashboard users: create, list, role, disable');
  user
    .command('create')
    .description('Create a user; prints a one-time password, to be changed at first sign-in')
    .requiredOption('--org <id>', 'organization id', intOption)
    .requiredOption('--email <email>', 'the address the user signs in with')
    .requiredOption('--role <role>', 'integrations_admin | account_manager | editor | viewer')
    .action((o: { org: number; email: string; role: string }) => run('user create', o));
  user
    .command('list')
    .requiredOption('--org <id>', 'organization id', intOption)
    .action((o: { org: number }) => run('user list', o));
  user
    .command('role')
    .requiredOption('--user <id>', 'user id', intOption)
    .requiredOption('--role <role>', 'integrations_admin | account_manager | editor | viewer')
    .action((o: { user: number; role: string }) => run('user role', o));
  user
    .command('disable')
    .description('Disable a user and end their sessions')
    .requiredOption('--user <id>', 'user id', intOption)
    .action((o: { user: number }) => run('user disable', o));
  user
    .command('password')
    .description('Give a user a new one-time password (to be changed at next sign-in) and end their sessions')
    .requiredOption('--user <id>', 'user id', intOption)
    .action((o: { user: number }) => run('user password', o));
}
