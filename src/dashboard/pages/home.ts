// The landing page after sign-in: what this user's role lets them do, as links.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import { can, ROLE_LABELS } from '../../users/roles.ts';
import { dashboardRoute, renderPage, sessionOf } from '../framework.ts';
import { html, isolate } from '../html.ts';
import { NAV } from '../nav.ts';

export function registerHomePage(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/',
    action: 'read',
    handler: async (request, reply) => {
      const { user } = sessionOf(request);
      const entries = NAV.filter((e) => e.href !== '/dashboard/' && can(user.role, e.action));
      return renderPage(ctx, request, reply, {
        title: user.organizationName,
        body: html`<p>
            You are signed in as ${isolate(user.email)}, ${ROLE_LABELS[user.role].toLowerCase()}.
          </p>
          <ul class="cards">
            ${entries.map((e, i) => {
              const id = `summary-${i}`;
              return html`<li>
                <a href="${e.href}" aria-describedby="${id}">${e.label}</a>
                <p id="${id}">${e.summary}</p>
              </li>`;
            })}
          </ul>`,
      });
    },
  });
}
