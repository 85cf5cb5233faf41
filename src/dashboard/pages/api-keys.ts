// API keys (integrations admin): create (the secret shown once, never stored), list with last use, revoke.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { errors } from '../../infra/errors.ts';
import { newFormValue, SEALED_SECRET_MINUTES } from '../../infra/form-seal.ts';
import {
  createApiKeyFromForm,
  forgetSealedKeys,
  listApiKeys,
  revokeApiKeyById,
  takeFormKey,
} from '../../organizations/api-keys.ts';
import { NEW_KEY_COOKIE } from '../cookies.ts';
import { NO_SECRET_HERE, takeShownOnce, toShownOnce } from '../shown-once.ts';
import { FormValue, text } from '../form-values.ts';
import {
  actionButton,
  csrfField,
  fieldState,
  postedForm,
  dashboardRoute,
  orgOf,
  redirectTo,
  renderPage,
  askFirst,
  Confirmable,
} from '../framework.ts';
import { dashboardPath, html, isolateText } from '../html.ts';
import { dataTable } from '../table.ts';

/** The page that shows a key just made, once. */
const NEW_KEY_PAGE = '/dashboard/api-keys/new/';

const KeyParams = Type.Object({ keyId: RowId() });
const CreateBody = Type.Object({
  _csrf: Type.String(),
  // The form's one-time value (createApiKeyFromForm): posted again (a double click, a reload), it
  // makes no second key and shows the first.
  once: FormValue,
  label: Type.Optional(Type.String({ maxLength: 100 })),
});

/**
 * What the page shows of a key just made: the key, once; that its form's key was shown already; that
 * the page, reached without its form's cookie, has none to show (`NO_SECRET_HERE`); or nothing.
 */
type Created = { key: string } | 'shown' | 'none' | null;

async function keysPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  created: Created,
): Promise<string> {
  const keys = await listApiKeys(ctx.db, orgOf(request));
  const label = fieldState(request, 'label');
  return renderPage(ctx, request, reply, {
    title: 'API keys',
    body: html`${
        created === 'shown'
          ? html`<p role="status" class="flash ok" tabindex="-1" autofocus>
              The new key was shown once, on this page, when it was made: it is not shown again (refmatch
              keeps only a hash of it; a key not seen within ${SEALED_SECRET_MINUTES} minutes, or revoked, is
              not shown either). If it was not copied, revoke it below and create another.
            </p>`
          : created === 'none'
            ? html`<p role="status" class="flash ok" tabindex="-1" autofocus>
                There is no new key to show here. This page shows a key once, right after “Create an API key”
                makes it, ${NO_SECRET_HERE}. A key not copied cannot be shown again: revoke it in the list
                below and create another.
              </p>`
            : created
              ? html`<section aria-labelledby="new-key">
                  <h2 id="new-key" tabindex="-1" autofocus>Your new API key</h2>
                  <p>
                    Copy it now: it is shown only this once (refmatch keeps only a hash of it); this page
                    reloaded, or reached again by Back, will not show it.
                  </p>
                  <p class="secret" data-testid="new-key">${created.key}</p>
                </section>`
              : null
      }
      <form method="post" action="/dashboard/api-keys/" class="row">
        ${csrfField(request)}
        <input type="hidden" name="once" value="${newFormValue()}" />
        <div>
          <label for="label">Label (optional, up to 100 characters: what the key is for)</label>
          ${label.message}
          <input
            id="label"
            name="label"
            type="text"
            maxlength="100"
            placeholder="ScholarOne production"
            value="${text(postedForm(request) ?? {}, 'label')}"
            ${label.attrs}
          />
        </div>
        <button type="submit">Create an API key</button>
      </form>
      ${dataTable({
        caption: 'Keys of this organization',
        columns: ['Key', 'Label', 'Created', 'Last used', 'Status'],
        rows: keys.map(
          (key) =>
            html`<tr>
              <td><code>rm_${key.key_id}_…</code></td>
              <td class="given">${key.label ?? html`<span class="muted">—</span>`}</td>
              <td>${key.created_at}</td>
              <td>${key.last_used_at ?? 'never'}</td>
              <td>
                ${
                  key.revoked_at
                    ? html`Revoked ${key.revoked_at}`
                    : actionButton(request, {
                        action: dashboardPath('api-keys', key.id, 'revoke'),
                        label: 'Revoke',
                        // What the key is for first (a listener tells "ScholarOne production" from
                        // "Staging", not one hex string from another); its id keeps the name unique.
                        accessibleName: key.label
                          ? `Revoke key ${isolateText(key.label)}, rm_${key.key_id}`
                          : `Revoke key rm_${key.key_id}`,
                        kind: 'danger',
                      })
                }
              </td>
            </tr>`,
        ),
      })}`,
  });
}

export function registerApiKeyPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/api-keys/',
    action: 'api_keys_manage',
    handler: async (request, reply) => {
      await forgetSealedKeys(ctx.db, orgOf(request));
      return keysPage(ctx, request, reply, null);
    },
  });

  // The key is shown by a page of its own, once (`shown-once.ts`): the post leads there, so Back and
  // a reload send nothing again and show no secret. The form's one-time value keeps a second send (a
  // double click, whose first answer the browser drops) from making another key: it leads to the
  // key the first made, while not yet shown.
  dashboardRoute(scope, {
    method: 'POST',
    url: '/api-keys/',
    action: 'api_keys_manage',
    schema: { body: CreateBody },
    back: () => '/dashboard/api-keys/',
    // A refused label comes back as typed, its message beside it (the one-time value is made anew).
    keepsForm: { without: ['once'] },
    handler: async (request, reply) => {
      const body = request.body as { once: string; label?: string };
      const made = await createApiKeyFromForm(ctx.db, orgOf(request), body.once, body.label ?? null);
      if (made.key === null) {
        return redirectTo(ctx, request, reply, '/dashboard/api-keys/', {
          kind: 'ok',
          message: `This form already created a key, and its secret can no longer be shown (shown once already, made more than ${SEALED_SECRET_MINUTES} minutes ago, or revoked since). No other key was made. If it was not copied, revoke it below and create another.`,
        });
      }
      return toShownOnce(ctx, request, reply, {
        cookie: NEW_KEY_COOKIE,
        formValue: body.once,
        location: NEW_KEY_PAGE,
        ...(made.repeated
          ? {
              flash: {
                kind: 'ok',
                message:
                  'This form was sent more than once (a double click): it made one key, shown below, no other.',
              },
            }
          : {}),
      });
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/api-keys/new/',
    action: 'api_keys_manage',
    handler: async (request, reply) => {
      const once = takeShownOnce(request, reply, NEW_KEY_COOKIE);
      if (once === null) return keysPage(ctx, request, reply, 'none');
      const key = await takeFormKey(ctx.db, orgOf(request), once);
      return keysPage(ctx, request, reply, key === null ? 'shown' : { key });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/api-keys/:keyId/revoke/',
    action: 'api_keys_manage',
    asksFirst: true,
    schema: { params: KeyParams, body: Confirmable },
    back: () => '/dashboard/api-keys/',
    handler: async (request, reply) => {
      const { keyId } = request.params as { keyId: number };
      // Asked only of a key of the organization: another's id is a 404, as a missing one.
      const key = (await listApiKeys(ctx.db, orgOf(request))).find((k) => k.id === keyId);
      if (!key) throw errors.notFound(`API key ${keyId}`);
      const name = `rm_${key.key_id}_…${key.label ? ` (${isolateText(key.label)})` : ''}`;
      if (key.revoked_at) {
        // Back to the question after the revoke, or a second tab: it was done, nothing to ask.
        return redirectTo(ctx, request, reply, '/dashboard/api-keys/', {
          kind: 'ok',
          message: `The key ${name} was already revoked (${key.revoked_at}).`,
        });
      }
      // The question names the key (and its last use): "this API key" alone let an admin revoke
      // the one every editorial system uses, thinking of another.
      const asking = await askFirst(ctx, request, reply, {
        title: `Revoke the API key ${name}?`,
        consequence: `Every editorial system that calls the API with it is refused from now on (401), and a revoked key cannot be restored: a new key must be made and set in those systems. It was created ${key.created_at} and ${key.last_used_at ? `last used ${key.last_used_at}` : 'never used'}.`,
        label: 'Revoke key',
        cancel: '/dashboard/api-keys/',
      });
      if (asking !== null) return asking;
      await revokeApiKeyById(ctx.db, orgOf(request), keyId);
      // Forget cached verifications here at once (other instances within AUTH_CACHE_TTL_MS).
      ctx.keys.invalidate();
      return redirectTo(ctx, request, reply, '/dashboard/api-keys/', {
        kind: 'ok',
        message: `The key ${name} was revoked.`,
      });
    },
  });
}
