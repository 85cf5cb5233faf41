// Every /api/external route, registered by name so a reader can follow where a URL comes from.
// Runs inside the authenticated scope: each route here has the caller's organization on the request.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';
import { registerUploadRoute } from './manuscripts/upload-route.ts';
import { registerAuthorsGroupApi } from './authors-groups/index.ts';
import { registerCustomFieldRoutes } from './custom-fields/routes.ts';
import { registerJournalRoutes } from './journals/routes.ts';

export function registerExternalApi(external: FastifyInstance, ctx: AppContext): void {
  registerAuthorsGroupApi(external, ctx);
  registerCustomFieldRoutes(external, ctx);
  registerJournalRoutes(external, ctx);
  registerUploadRoute(external, ctx);
}
