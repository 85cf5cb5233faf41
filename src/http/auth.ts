// Authentication of /api/external/*: the X-ApiKey header, checked before the body is read so an
// unauthenticated caller never costs a parse. A route that also takes the key from elsewhere (the
// multipart upload's api_key field) sets `config: { auth: 'manual' }` and calls `authenticate` itself.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Organization } from '../organizations/organizations.ts';
import { keyIdOf, type ApiKeyVerifier } from '../organizations/api-keys.ts';
import { AppError } from '../infra/errors.ts';
import type { RateLimits } from './rate-limits.ts';
import { clientAddress } from './client-address.ts';

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

/** Verifies keys under the rate limits: failed attempts per address, requests per key. */
export class Authentication {
  constructor(
    private readonly keys: ApiKeyVerifier,
    private readonly limits: RateLimits,
  ) {}

  async authenticate(request: FastifyRequest, key: string | undefined): Promise<Organization> {
    if (key) await this.limits.checkAuthFailures(clientAddress(request));
    let organization: Organization;
    try {
      organization = await this.keys.verify(key);
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_api_key') {
        await this.limits.countAuthFailure(clientAddress(request));
      }
      throw error;
    }
    await this.limits.countKey(keyIdOf(key!)!);
    return organization;
  }

  /**
   * Counts a body's bytes against its address and, once authenticated, its key (the limits'
   * `countBody`): a JSON body before it is parsed, on a route authenticated by the header; an upload's
   * text fields and what is read from its file, with the key it came with (`key`, header or form).
   */
  countBody(request: FastifyRequest, bytes: number, key = authenticatedHeaderKey(request)): Promise<void> {
    return this.limits.countBody(clientAddress(request), (key && keyIdOf(key)) || null, bytes);
  }

  /** Counts an answer's size against its address and its key (the limits' `countAnswer`). */
  countAnswer(request: FastifyRequest, bytes: number): Promise<void> {
    const key = authenticatedHeaderKey(request);
    return this.limits.countAnswer(clientAddress(request), (key && keyIdOf(key)) || null, bytes);
  }
}

/** The header's key of a request it authenticated; undefined before (or without) authentication. */
function authenticatedHeaderKey(request: FastifyRequest): string | undefined {
  return request.organization ? headerKey(request) : undefined;
}

/**
 * Counts the answer of an authenticated route by its size (`RateLimits.countAnswer`), once it is
 * serialized: for routes whose answer grows with what the organization stores.
 */
export function answerCounter(auth: Authentication) {
  return async (request: FastifyRequest, _reply: unknown, payload: unknown): Promise<unknown> => {
    if (typeof payload === 'string') await auth.countAnswer(request, Buffer.byteLength(payload));
    return payload;
  };
}

export function registerApiKeyAuth(app: FastifyInstance, auth: Authentication): void {
  app.decorateRequest('organization', null);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config.auth === 'manual') return;
    request.organization = await auth.authenticate(request, headerKey(request));
  });
}
