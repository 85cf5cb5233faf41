import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';

const Health = Type.Object({ status: Type.String() });

export function registerSystemRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/healthz',
    { schema: { summary: 'The process is alive', tags: ['system'], response: { 200: Health } } },
    async () => ({ status: 'ok' }),
  );

  // Browsers ask for /favicon.ico on every site they open (the docs page, a bare URL); the dashboard's
  // pages name no icon. 204, cached for a day: not a 404 in every log, and not asked again at once.
  app.get(
    '/favicon.ico',
    {
      schema: {
        summary: 'No icon (204): answered so that browsers stop asking',
        tags: ['system'],
        response: { 204: Type.Null() },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').code(204).send(),
  );

  app.get(
    '/readyz',
    {
      schema: {
        summary: 'The database answers and the corpus is loaded (503 with the reason while loading)',
        tags: ['system'],
        response: { 200: Health, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.db.query('SELECT 1');
      } catch {
        throw errors.unavailable('The database does not answer');
      }
      ctx.readiness.assertReady(reply);
      return { status: 'ready' };
    },
  );
}
