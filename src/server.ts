// The serving process: opens the database, applies migrations, builds the app, listens, and owns
// signals. Shutdown is bounded and safe to call twice; the database is closed last.
import v8 from 'node:v8';
import type { FastifyInstance } from 'fastify';
import type { Config } from './infra/config.ts';
import { openDatabase, type Database } from './infra/db/index.ts';
import { migrate } from './infra/db/migrate.ts';
import { buildApp } from './app.ts';
import { startAdminChannel } from './cli/admin-channel.ts';
import type { ServerHooks } from './infra/cli/command.ts';
import { ensureDemo } from './system/demo.ts';
import { JobWorker } from './jobs/worker.ts';
import { findCommand } from './cli/registry.ts';

export interface RunningServer {
  app: FastifyInstance;
  db: Database;
  url: string;
  shutdown(reason?: string): Promise<void>;
}

/**
 * Bounds how far every V8 heap of this process grows between full collections (HEAP_GROWING_PERCENT).
 * V8's own factor follows the allocation rate (up to 4x what a collection kept), so the heaps, and
 * the process's RSS with them, rose and fell with the traffic by a third or more while what they
 * kept did not move (docs/benchmarks/fuzz-soak.md). 30% is the factor V8 itself uses when it is
 * told to favor memory. Set before the workers start; V8 reads it at each collection.
 */
function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function startServer(
  config: Config,
  out: (line: string) => void = console.log,
): Promise<RunningServer> {
  applyHeapGrowth(config.heapGrowingPercent);
  const db = await openDatabase(config);
  let app: FastifyInstance | undefined;
  try {
    await migrate(db);
    app = await buildApp({ config, db, loadIndexInBackground: true });
    const { readiness, index } = app.refmatch;
    // Pending from before the port opens: an upload must not meet the empty corpus the demo fills.
    if (config.demo) readiness.begin('demo', 'the demo corpus is loading');
    const hooks: ServerHooks = { invalidateAuth: () => app?.refmatch.keys.invalidate(), afterCommand: [] };
    // Works a command ingested become searchable at once rather than at the next poll.
    hooks.afterCommand.push(async () => {
      await app?.refmatch.index.refresh();
    });
    // The serving process runs the queued jobs (src/jobs); a job queued through its admin channel is
    // looked for at once.
    const worker = config.jobs.worker
      ? new JobWorker({ config, db, find: findCommand, hooks, log: app.log })
      : null;
    hooks.afterCommand.push(async (name) => {
      if (name === 'job enqueue') worker?.wake();
    });
    const admin = config.databaseUrl ? null : await startAdminChannel(config, db, hooks);
    await app.listen({ port: config.port, host: config.host });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    const demo = config.demo ? await ensureDemo(db, config, url, out) : null;
    // Ready once the loaded works are in the index too, not at the next poll.
    void demo?.done
      .then(() => index.refresh())
      .catch((error: unknown) =>
        app?.log.warn({ err: error }, 'refreshing the index after the demo corpus failed'),
      )
      .finally(() => readiness.end('demo'));
    if (!config.demo) out(`refmatch is listening on ${url} (docs: ${url}/docs)`);
    worker?.start();

    let shuttingDown: Promise<void> | undefined;
    const running: RunningServer = {
      app,
      db,
      url,
      shutdown(reason = 'shutdown') {
        shuttingDown ??= (async () => {
          app!.log.info({ reason }, 'shutting down');
          // Stop accepting, let in-flight requests finish (bounded), then close the database.
          const closed = await withTimeout(app!.close(), config.shutdownTimeoutMs);
          if (closed === 'timeout') {
            app!.log.warn('in-flight requests did not finish in time; closing connections');
            app!.server.closeAllConnections();
          }
          await demo?.stop();
          // The running job (if any) stops between its steps and goes back on the queue.
          const stopped = await withTimeout(worker?.stop() ?? Promise.resolve(), config.shutdownTimeoutMs);
          if (stopped === 'timeout') app!.log.warn('the running job did not stop in time');
          await admin?.close();
          await db.close();
        })();
        return shuttingDown;
      },
    };
    return running;
  } catch (error) {
    await app?.close().catch(() => {});
    await db.close();
    throw error;
  }
}

/** Installs SIGTERM/SIGINT handling: the first signal shuts down gracefully, a second forces exit. */
export function handleSignals(server: RunningServer): void {
  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) {
      process.exit(1);
    }
    signalled = true;
    server.shutdown(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
