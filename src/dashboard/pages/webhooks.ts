// Webhooks (integrations admin): the organization's endpoint and signing secret, and the delivery log
// with each event's status, attempts and last error, and a button to send one again
// (docs/webhooks.md).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import {
  findWebhook,
  listDeliveries,
  retryDelivery,
  rotateSecret,
  saveWebhook,
} from '../../webhooks/store.ts';
import {
  actionButton,
  concerning,
  fieldState,
  csrfField,
  dashboardRoute,
  orgOf,
  postedForm,
  redirectTo,
  refuseChangedMeanwhile,
  renderPage,
  seenField,
  askFirst,
  Confirmable,
  versionOf,
} from '../framework.ts';
import { checked, text, type FormBody } from '../form-values.ts';
import { AppError } from '../../infra/app-error.ts';
import { dashboardPath, formatCount, html, isolate, labelledChoice } from '../html.ts';
import { dataTable } from '../table.ts';

const Id = RowId();
const LOG_PAGE = 50;
const PAGE = '/dashboard/webhooks/';
/** The new secret's question confirmed: with the secret it was asked about (`seen`). */
const SecretConfirmable = Type.Object({
  ...Confirmable.properties,
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});

const SaveBody = Type.Object({
  _csrf: Type.String(),
  url: Type.String({ maxLength: 2100 }),
  secret: Type.Optional(Type.String({ maxLength: 300 })),
  enabled: Type.Optional(Type.String()),
  // What the form was filled from (seenField): a save over a change made since is refused.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});

/**
 * What the webhook form is filled from and replaces: its URL and whether it sends (none before the
 * first save). Never the secret, which the form does not show: one typed replaces it knowingly.
 */
function editedWebhook(hook: { url: string; enabled: boolean } | null): unknown {
  return hook ? [hook.url.trim(), hook.enabled] : null;
}

const RetryBody = Type.Object({
  _csrf: Type.String(),
  // The attempts the log showed (retryDelivery): a double click sends the event again once.
  attempts: Type.Optional(Type.String({ maxLength: 20 })),
});

const dateTime = (d: Date | null) =>
  d ? new Date(d).toISOString().slice(0, 19).replace('T', ' ') + ' UTC' : '—';

/**
 * A save refused for another field (the URL) with a secret typed: the form comes back without the
 * secret, as it never shows one (`keepsForm`), and said nothing of it, so that the URL corrected and
 * saved kept the old secret, or had one generated, where the admin had typed the receiver's own.
 * Said beside the emptied field now.
 */
function secretNotKept(error: unknown, typed: string): unknown {
  if (typed === '' || !(error instanceof AppError) || ![400, 409].includes(error.status)) return error;
  const details = error.details ?? [];
  if (details.some((d) => d.path === 'body.secret')) return error;
  const note =
    'The secret you typed is not shown again (no secret is): type it again before saving, or leave it empty to keep the current one.';
  // In the page's message too: a detail the message does not say is listed there by its input's name.
  const message = `${error.message}${/[.!?]$/.test(error.message) ? '' : '.'} ${note}`;
  return new AppError(error.status, error.code, message, [
    ...details,
    { path: 'body.secret', message: note },
  ]).naming(...error.values);
}

export function registerWebhookPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/webhooks/',
    action: 'webhooks_manage',
    schema: { querystring: Type.Object({ before: Type.Optional(Id) }) },
    handler: async (request, reply) => {
      const organizationId = orgOf(request);
      const { before } = request.query as { before?: number };
      const [hook, log] = await Promise.all([
        findWebhook(ctx.db, organizationId),
        listDeliveries(ctx.db, organizationId, LOG_PAGE + 1, before ?? null),
      ]);
      const rows = log.slice(0, LOG_PAGE);
      const last = rows[rows.length - 1];
      // After a refusal, the URL and the checkbox as posted (`keepsForm`; never the secret).
      const posted = postedForm(request);
      const shown = posted
        ? { url: text(posted, 'url'), enabled: checked(posted, 'enabled') }
        : { url: hook?.url ?? '', enabled: !hook || hook.enabled };
      const urlState = fieldState(request, 'url');
      const secretState = fieldState(request, 'secret', { hints: ['secret-hint'] });
      return renderPage(ctx, request, reply, {
        title: 'Webhooks',
        body: html`<p>
            refmatch POSTs a signed JSON event to this URL when a candidate is marked or unmarked as referee
            (<code>mark_as_proposal_referee</code>) and when a manuscript is uploaded
            (<code>proposal_uploaded</code>). Each body is signed with the secret: the
            <code>X-Refmatch-Signature</code> header is <code>sha256=</code> and the hex HMAC-SHA256 of the
            body. A delivery that fails is tried again, waiting longer each time.
          </p>
          <form method="post" action="${PAGE}" class="stack">
            ${csrfField(request)} ${seenField(editedWebhook(hook))}
            <label for="url">Endpoint URL</label>
            ${urlState.message}
            <input
              id="url"
              name="url"
              type="text"
              inputmode="url"
              required
              value="${shown.url}"
              ${urlState.attrs}
            />
            <label for="secret">New signing secret</label>
            ${secretState.message}
            <input id="secret" name="secret" type="text" autocomplete="off" value="" ${secretState.attrs} />
            <p id="secret-hint" class="hint">
              16 to 200 characters. Leave empty to keep the current one (or, for a new webhook, to have one
              generated).
            </p>
            ${labelledChoice({ type: 'checkbox', name: 'enabled', checked: shown.enabled }, 'Send events')}
            <button type="submit">Save webhook</button>
          </form>
          ${
            hook
              ? html`<h2>Current signing secret</h2>
                  <p class="secret">${hook.secret}</p>
                  <form method="post" action="${PAGE}secret/">
                    ${csrfField(request)}
                    <button type="submit" class="secondary">Generate a new secret</button>
                  </form>`
              : null
          }
          <h2>Deliveries</h2>
          ${dataTable({
            caption: 'Events, newest first',
            columns: ['Order', 'Event', 'Created', 'Status', 'Attempts', 'Last answer', 'Action'],
            empty: 'No events yet.',
            rows: rows.map(
              (d) =>
                html`<tr>
                  <td>${d.order}</td>
                  <td class="given">
                    <code>${d.event}</code>
                    <div class="hint">
                      ${isolate(String(d.data.origin_id ?? ''))}${
                        d.event === 'mark_as_proposal_referee'
                          ? ` · author ${String(d.data.author_id)} ${d.data.marked ? 'marked' : 'unmarked'}`
                          : ''
                      }
                    </div>
                  </td>
                  <td>${dateTime(d.created_at)}</td>
                  <td>
                    ${d.status}${
                      d.status === 'delivered'
                        ? html`<div class="hint">${dateTime(d.delivered_at)}</div>`
                        : d.status === 'pending' && d.attempts > 0
                          ? html`<div class="hint">next try ${dateTime(d.next_attempt_at)}</div>`
                          : null
                    }
                  </td>
                  <td>${formatCount(d.attempts)}</td>
                  <td>
                    ${d.last_status !== null ? html`HTTP ${d.last_status}` : null}
                    ${d.last_error ? html`<div>${d.last_error}</div>` : null}
                    ${d.last_status === null && !d.last_error ? '—' : null}
                  </td>
                  <td>
                    ${actionButton(request, {
                      action: `${PAGE}deliveries/${d.id}/retry/`,
                      label: html`${d.status === 'delivered' ? 'Send again' : 'Retry now'}<span
                          class="visually-hidden"
                        >
                          event ${d.order}</span
                        >`,
                      kind: 'secondary',
                      // The attempts shown: a second click finds the first's, and sends nothing more.
                      hidden: { attempts: d.attempts },
                    })}
                  </td>
                </tr>`,
            ),
          })}
          ${
            (log.length > LOG_PAGE && last) || before !== undefined
              ? html`<nav class="pager" aria-label="Pages of deliveries">
                  ${before !== undefined ? html`<a href="${PAGE}">Newest</a>` : null}
                  ${log.length > LOG_PAGE && last ? html`<a href="${PAGE}?before=${last.id}" rel="next">Older</a>` : null}
                </nav>`
              : null
          }`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/webhooks/',
    action: 'webhooks_manage',
    schema: { body: SaveBody },
    back: () => PAGE,
    keepsForm: { without: ['secret'] },
    handler: async (request, reply) => {
      const body = request.body as FormBody;
      try {
        refuseChangedMeanwhile(
          body,
          'The webhook was',
          editedWebhook(await findWebhook(ctx.db, orgOf(request))),
          editedWebhook({ url: text(body, 'url'), enabled: checked(body, 'enabled') }),
        );
        await concerning(
          (message) => (/secret/i.test(message) ? 'secret' : /URL|address/.test(message) ? 'url' : null),
          () =>
            saveWebhook(
              ctx.db,
              orgOf(request),
              {
                url: text(body, 'url'),
                secret: text(body, 'secret') || null,
                enabled: checked(body, 'enabled'),
              },
              { allowPrivateAddresses: ctx.config.webhooks.allowPrivateAddresses },
            ),
        );
      } catch (error) {
        throw secretNotKept(error, text(body, 'secret'));
      }
      return redirectTo(ctx, request, reply, PAGE, { kind: 'ok', message: 'Webhook saved.' });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/webhooks/secret/',
    action: 'webhooks_manage',
    asksFirst: true,
    schema: { body: SecretConfirmable },
    back: () => PAGE,
    handler: async (request, reply) => {
      // The question carries the secret it was asked about (its hash): confirmed from a question
      // shown before another tab, another admin or the first of two clicks replaced it, a second
      // secret replaced the one just given to the receiver, which then refused every event.
      const secret = (await findWebhook(ctx.db, orgOf(request)))?.secret ?? null;
      const seen = text((request.body as FormBody | undefined) ?? {}, 'seen');
      if (seen !== '' && seen !== versionOf(secret)) {
        return redirectTo(ctx, request, reply, PAGE, {
          kind: 'error',
          message:
            'The secret was replaced since this question was shown (a second click, another tab or another admin): no new one was made. The current one is below; give the receiver that one.',
        });
      }
      const asking = await askFirst(ctx, request, reply, {
        title: 'Generate a new signing secret?',
        consequence:
          'Every event from now on is signed with the new secret, and the old one is gone: until the receiver is given the new one, it refuses the events as unsigned.',
        label: 'Generate a new secret',
        cancel: PAGE,
        hidden: { seen: versionOf(secret) },
      });
      if (asking !== null) return asking;
      await rotateSecret(ctx.db, orgOf(request));
      return redirectTo(ctx, request, reply, PAGE, {
        kind: 'ok',
        message: 'A new secret signs every event from now on; give it to the receiver.',
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/webhooks/deliveries/:deliveryId/retry/',
    action: 'webhooks_manage',
    schema: { params: Type.Object({ deliveryId: Id }), body: RetryBody },
    back: () => PAGE,
    handler: async (request, reply) => {
      const { deliveryId } = request.params as { deliveryId: number };
      const shown = text(request.body as FormBody, 'attempts');
      const outcome = await retryDelivery(
        ctx.db,
        orgOf(request),
        deliveryId,
        /^\d{1,9}$/.test(shown) ? Number(shown) : null,
      );
      if (outcome === 'already') {
        return redirectTo(ctx, request, reply, dashboardPath('webhooks'), {
          kind: 'ok',
          message:
            'The event was tried again since the log was shown (the button was pressed twice, or in another tab): it is not sent once more. Its row says how it went.',
        });
      }
      ctx.webhooks.poke();
      return redirectTo(ctx, request, reply, dashboardPath('webhooks'), {
        kind: 'ok',
        message: 'The event is due again; it is sent within seconds.',
      });
    },
  });
}
