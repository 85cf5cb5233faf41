// API keys (integrations admin): create (the secret shown once, never stored), list with last use, revoke.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { createApiKey, listApiKeys, revokeApiKeyById } from '../../organizations/api-keys.ts';
import { actionButton, csrfField, dashboardRoute, orgOf, redirectTo, renderPage } from '../framework.ts';
import { dashboardPath, html } from '../html.ts';

const KeyParams = Type.Object({ keyId: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const CsrfOnly = Type.Object({ _csrf: Type.String() });

async function keysPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  created: string | null,
): Promise<string> {
  const keys = await listApiKeys(ctx.db, orgOf(request));
  return renderPage(ctx, request, reply, {
    title: 'API keys',
    body: html`${
        created
          ? html`<section aria-labelledby="new-key">
              <h2 id="new-key">Your new API key</h2>
              <p>Copy it now: it is shown only this once (refmatch keeps only a hash of it).</p>
              <p class="secret" data-testid="new-key">${created}</p>
            </section>`
          : null
      }
      <form method="post" action="/dashboard/api-keys/">
        ${csrfField(request)}
        <button type="submit">Create an API key</button>
      </form>
      <table>
        <caption>
          Keys of this organization
        </caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          ${keys.map(
            (key) =>
              html`<tr>
                <td><code>rm_${key.key_id}_…</code></td>
                <td>${key.created_at}</td>
                <td>${key.last_used_at ?? 'never'}</td>
                <td>
                  ${
                    key.revoked_at
                      ? html`Revoked ${key.revoked_at}`
                      : actionButton(request, {
                          action: dashboardPath('api-keys', key.id, 'revoke'),
                          label: 'Revoke',
                          accessibleName: `Revoke key rm_${key.key_id}`,
                          kind: 'danger',
                        })
                  }
                </td>
              </tr>`,
          )}
        </tbody>
      </table>`,
  });
}

export function registerApiKeyPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/api-keys/',
    action: 'api_keys_manage',
    handler: async (request, reply) => keysPage(ctx, request, reply, null),
  });

  // Answered with the page itself (not a redirect) so the secret never rests anywhere, not even in the session.
  dashboardRoute(scope, {
    method: 'POST',
    url: '/api-keys/',
    action: 'api_keys_manage',
    schema: { body: CsrfOnly },
    handler: async (request, reply) =>
      keysPage(ctx, request, reply, await createApiKey(ctx.db, orgOf(request))),
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/api-keys/:keyId/revoke/',
    action: 'api_keys_manage',
    schema: { params: KeyParams, body: CsrfOnly },
    back: () => '/dashboard/api-keys/',
    handler: async (request, reply) => {
      const { keyId } = request.params as { keyId: number };
      await revokeApiKeyById(ctx.db, orgOf(request), keyId);
      // Forget cached verifications here at once (other instances within AUTH_CACHE_TTL_MS).
      ctx.keys.invalidate();
      return redirectTo(ctx, request, reply, '/dashboard/api-keys/', {
        kind: 'ok',
        message: 'The key was revoked.',
      });
    },
  });
}
