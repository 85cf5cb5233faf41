// Every /api/external route, registered by name so a reader can follow where a URL comes from.
// Runs inside the authenticated scope: each route here has the caller's organization on the request.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './app-context.ts';

export function registerExternalApi(_external: FastifyInstance, _ctx: AppContext): void {
  // Route modules are added here as capabilities land (authors groups, custom fields, upload, journals).
}
