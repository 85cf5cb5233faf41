// The application factory: returns a ready Fastify instance and never listens. The entry point
// (`refmatch serve`) listens and owns signals; tests talk to it with `app.inject`.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './infra/config.ts';
import type { Database } from './infra/db/index.ts';
import { frameworkError, registerErrorHandling, sendError } from './infra/errors.ts';
import { loggerOptions } from './infra/logger.ts';
import {
  clientErrorHandler,
  httpServerOptions,
  registerMalformedRequestHandling,
} from './infra/client-errors.ts';
import { registerValidation } from './http/validation.ts';
import { Authentication, registerApiKeyAuth } from './http/auth.ts';
import { RateLimits, registerRateLimits } from './http/rate-limits.ts';
import { MAX_JSON_MEMBERS, registerStorableTextCheck, registerUtf8JsonParser } from './http/storable-text.ts';
import { ApiKeyVerifier } from './organizations/api-keys.ts';
import type { AppContext } from './app-context.ts';
import { ParserPool } from './parsing/parser-pool.ts';
import { registerSystemRoutes } from './system/routes.ts';
import { registerExternalApi } from './external-api.ts';
import { createWorkIndex } from './retrieval/create-work-index.ts';
import { Readiness } from './system/readiness.ts';
import { AppMetrics, registerMetricsRoute } from './system/metrics.ts';
import { registerCorpusPages } from './corpus/pages.ts';
import { isDashboardPath, registerDashboard, sendFrameworkErrorPage } from './dashboard/index.ts';
import { WebhookWorker } from './webhooks/delivery.ts';
import { JournalResultCache } from './journals/result-cache.ts';
import { setDeploymentLimits } from './organizations/limits.ts';
import { InFlightGate } from './infra/in-flight-gate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The services behind the routes, for the entry point and tests. */
    refmatch: AppContext;
  }
}

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /** Route logs somewhere other than stdout (tests pass a stream to inspect what was logged). */
  logStream?: NodeJS.WritableStream;
  /**
   * Return before the search index has read the corpus (the serving process: it listens, answers
   * /healthz, and says it is not ready until the index is loaded). Otherwise buildApp waits for it.
   */
  loadIndexInBackground?: boolean;
}

const INDEX_RETRY_MS = 5_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  setDeploymentLimits(config.limits);
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Trailing slashes are part of the contract's paths; accept both forms.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1024 },
    ajv: { customOptions: { removeAdditional: true } },
    forceCloseConnections: 'idle',
    // Refused before a route is found: a page under /dashboard/, the one JSON shape elsewhere.
    frameworkErrors: (error, request, reply) => {
      const appError = frameworkError(error);
      if (isDashboardPath(request.url)) sendFrameworkErrorPage(reply, appError);
      else sendError(reply, appError);
    },
    // Behind a TLS-terminating proxy, X-Forwarded-Proto says the request was https (dashboard cookies
    // are then Secure) and X-Forwarded-For who the client is. Only the proxy, the connection's own
    // peer, is believed: the client's address is the last entry, the one the proxy appended. With every
    // hop believed (`true`) the first entry was the address, which the client writes itself: a new one
    // per request evaded every limit counted by address.
    trustProxy: config.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    clientErrorHandler,
    http: httpServerOptions(config.requestTimeoutMs),
  });

  app.server.maxConnections = config.maxConnections;

  const index = createWorkIndex(db, config.search, {
    pollMs: config.indexPollMs,
    onError: (error) => app.log.warn({ err: error }, 'work index refresh failed'),
    snapshotDir: config.indexSnapshotDir,
    log: app.log,
  });
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
    await index.close();
  });
  const readiness = new Readiness();
  if (options.loadIndexInBackground) {
    // A failed first load (the database out of reach) is retried; until one succeeds, not ready.
    const load = async () => {
      for (;;) {
        try {
          await index.start();
          return;
        } catch (error) {
          if (closing) return;
          app.log.error({ err: error }, 'loading the search index failed; retrying');
          await new Promise((resolve) => setTimeout(resolve, INDEX_RETRY_MS).unref());
        }
      }
    };
    readiness.track('index', 'the search index is loading', load());
  } else {
    await index.start();
  }
  const parser = new ParserPool(config.parsing, { maxFileBytes: config.fileLimitBytes });
  app.addHook('onClose', async () => {
    await parser.close();
  });
  const keys = new ApiKeyVerifier(db, config.authCacheTtlMs);
  const limits = new RateLimits(config.rateLimits);
  const webhooks = new WebhookWorker(db, config.webhooks, app.log);
  if (config.webhooks.worker) webhooks.start();
  app.addHook('onClose', async () => {
    await webhooks.stop();
  });
  const services = {
    config,
    db,
    keys,
    auth: new Authentication(keys, limits),
    limits,
    index,
    parser,
    readiness,
    webhooks,
  };
  const metrics = new AppMetrics(services);
  const ctx: AppContext = {
    ...services,
    metrics,
    journalResults: new JournalResultCache((hit) => metrics.countJournalRecommendation(hit)),
    inFlight: {
      uploads: new InFlightGate('uploads', config.uploadsInFlight, config.uploadsInFlightPerOrg, (n) =>
        metrics.uploadsInFlight.set(n),
      ),
      exports: new InFlightGate('exports', config.exportsInFlight, config.exportsInFlightPerOrg),
    },
  };
  ctx.metrics.register(app);
  app.decorate('refmatch', ctx);

  registerMalformedRequestHandling(app);
  registerRateLimits(app, limits);
  registerValidation(app);
  registerStorableTextCheck(app);
  registerUtf8JsonParser(app, {
    countBody: (request, bytes) => ctx.auth.countBody(request, bytes),
    maxObjectMembers: MAX_JSON_MEMBERS + config.limits.custom_fields,
  });
  registerErrorHandling(app);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'refmatch API',
        version: '7',
        description:
          'Referee and journal recommendation. Authenticate every /api/external route with the X-ApiKey header.',
      },
      servers: [{ url: config.publicBaseUrl }],
      components: {
        securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-ApiKey' } },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  registerSystemRoutes(app, ctx);
  registerMetricsRoute(app, ctx);
  registerCorpusPages(app, ctx);
  await registerDashboard(app, ctx);
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(
    async (external) => {
      registerApiKeyAuth(external, ctx.auth);
      external.addHook('onRoute', (route) => {
        route.schema = { ...route.schema, security: [{ apiKey: [] }] };
      });
      registerExternalApi(external, ctx);
    },
    { prefix: '/api/external' },
  );

  return app;
}
