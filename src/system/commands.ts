// `refmatch migrate`.
import { defineCommand } from '../infra/cli/command.ts';

export const migrateCommand = defineCommand({
  name: 'migrate',
  description: 'Apply database migrations',
  async run(ctx) {
    const { migrate } = await import('../infra/db/migrate.ts');
    const applied = await migrate(ctx.db);
    return { applied };
  },
});
