// The configuration of an app a bench builds in its own process: quiet logs, no demo corpus, and no
// rate limits (a bench measures the routes at the load it sends, which the limits would refuse).
import { parseConfig, type Config } from '../../src/infra/config.ts';

/** The bench's app configuration: the defaults above, then the bench's own settings (`env`). */
export function benchAppConfig(env: Record<string, string> = {}): Config {
  return parseConfig({
    LOG_LEVEL: 'silent',
    REFMATCH_DEMO: 'false',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
    ...env,
  });
}
