// The application factory: returns a ready Fastify instance and never listens. The entry point
// (`refmatch serve`) listens and owns signals; tests talk to it with `app.inject`.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Config } from './infra/config.ts';
import type { Database } from './infra/db/index.ts';
import { frameworkErrors, registerErrorHandling } from './infra/errors.ts';
import { loggerOptions } from './infra/logger.ts';
import {
  HTTP_SERVER_OPTIONS,
  clientErrorHandler,
  registerMalformedRequestHandling,
} from './infra/client-errors.ts';
import { registerValidation } from './http/validation.ts';
import { Authentication, registerApiKeyAuth } from './http/auth.ts';
import { RateLimits, registerRateLimits } from './http/rate-limits.ts';
import { registerStorableTextCheck } from './http/storable-text.ts';
import { ApiKeyVerifier } from './organizations/api-keys.ts';
import type { AppContext } from './app-context.ts';
import { ParserPool } from './parsing/parser-pool.ts';
import { registerSystemRoutes } from './system/routes.ts';
import { registerExternalApi } from './external-api.ts';
import { openWorkIndex } from './retrieval/db-work-index.ts';
import { registerCorpusPages } from './corpus/pages.ts';
import { registerDashboard } from './dashboard/index.ts';

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
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    bodyLimit: config.bodyLimitBytes,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    // Trailing slashes are part of the contract's paths; accept both forms.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 1024 },
    ajv: { customOptions: { removeAdditional: true } },
    forceCloseConnections: 'idle',
    frameworkErrors,
    // Behind a TLS-terminating proxy, X-Forwarded-Proto says the request was https (dashboard cookies are then Secure).
    trustProxy: config.trustProxy,
    clientErrorHandler,
    http: HTTP_SERVER_OPTIONS,
  });

  const index = await openWorkIndex(db, {
    onError: (error) => app.log.warn({ err: error }, 'work index refresh failed'),
  });
  app.addHook('onClose', async () => {
    await index.close();
  });
  const parser = new ParserPool(config.parsing, { maxFileBytes: config.fileLimitBytes });
  app.addHook('onClose', async () => {
    await parser.close();
  });
  const keys = new ApiKeyVerifier(db, config.authCacheTtlMs);
  const limits = new RateLimits(config.rateLimits);
  const ctx: AppContext = { config, db, keys, auth: new Authentication(keys, limits), index, parser };
  app.decorate('refmatch', ctx);

  registerMalformedRequestHandling(app);
  registerRateLimits(app, limits);
  registerValidation(app);
  registerStorableTextCheck(app);
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
