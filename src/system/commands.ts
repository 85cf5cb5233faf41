import { defineCommand } from '../infra/cli/command.ts';
import { migrate } from '../infra/db/migrate.ts';

export const migrateCommand = defineCommand({
  name: 'migrate',
  async run(ctx) {
    const applied = await migrate(ctx.db);
    return { applied };
  },
});
