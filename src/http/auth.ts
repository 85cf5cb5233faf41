// Authentication of /api/external/*: the X-ApiKey header, checked before the body is read so an
// unauthenticated caller never costs a parse. A route that also takes the key from elsewhere (the
// multipart upload's api_key field) sets `config: { auth: 'manual' }` and calls `authenticate` itself.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Organization } from '../organizations/organizations.ts';
import type { ApiKeyVerifier } from '../organizations/api-keys.ts';

declare module 'fastify' {
  interface FastifyRequest {
    organization: Organization | null;
  }
  interface FastifyContextConfig {
    auth?: 'header' | 'manual';
  }
}

export function headerKey(request: FastifyRequest): string | undefined {
  const value = request.headers['x-apikey'];
  return Array.isArray(value) ? value[0] : value;
}

/** The authenticated organization of a request; only valid inside an authenticated route. */
export function tenantOf(request: FastifyRequest): Organization {
  if (!request.organization) throw new Error('route reached without authentication');
  return request.organization;
}

export function registerApiKeyAuth(app: FastifyInstance, verifier: ApiKeyVerifier): void {
  app.decorateRequest('organization', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === 'manual') return;
    request.organization = await verifier.verify(headerKey(request));
  });
}
