// The organization's settings (integrations admin): what the next upload's response is built with.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import { requireOrganization, updateSettings, type Prefer } from '../../organizations/organizations.ts';
import {
  concerning,
  dashboardRoute,
  fieldInvalid,
  fieldState,
  orgOf,
  postedForm,
  redirectTo,
  refuseChangedMeanwhile,
  renderPage,
  seenField,
  settingsForm,
} from '../framework.ts';
import { checked, text, type FormBody } from '../form-values.ts';
import { html, labelledChoice } from '../html.ts';

const SettingsBody = Type.Object({
  _csrf: Type.String(),
  prefer: Type.String(),
  include_conflicts: Type.Optional(Type.String()),
  include_without_email: Type.Optional(Type.String()),
  max_candidates: Type.String(),
  // What the form was filled from (seenField): a save over a change made since is refused.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});

const PREFER_LEGEND = 'When the parsed file and the supplied fields disagree, prefer';
const PREFER_LABELS: Record<Prefer, string> = {
  supplied: 'the supplied fields',
  parsed: 'what was parsed from the file',
};
const INCLUDE_CONFLICTS = 'Include candidates with conflicts of interest';
const INCLUDE_WITHOUT_EMAIL = 'Include candidates without an email';

/** What the settings form is filled from and replaces. */
function editedSettings(s: {
  prefer: string;
  include_conflicts: boolean;
  include_without_email: boolean;
  max_candidates: number;
}): unknown {
  return [s.prefer, s.include_conflicts, s.include_without_email, s.max_candidates];
}

export function registerSettingsPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/settings/',
    action: 'read',
    handler: async (request, reply) => {
      const org = await requireOrganization(ctx.db, orgOf(request));
      // After a refusal the form shows what was chosen, not what is stored.
      const posted = postedForm(request);
      const shown = posted
        ? {
            prefer: text(posted, 'prefer'),
            include_conflicts: checked(posted, 'include_conflicts'),
            include_without_email: checked(posted, 'include_without_email'),
            max_candidates: text(posted, 'max_candidates'),
          }
        : org;
      const max = fieldState(request, 'max_candidates', { hints: ['max-hint'] });
      const prefer = fieldState(request, 'prefer');
      return renderPage(ctx, request, reply, {
        title: 'Settings',
        body: html`<p>
            How the candidates of every upload are chosen. A change applies from the next upload.
          </p>
          ${settingsForm(
            request,
            {
              action: 'settings_write',
              url: '/dashboard/settings/',
              before: seenField(editedSettings(org)),
              submit: 'Save settings',
            },
            html`<fieldset ${prefer.attrs}>
                <legend>${PREFER_LEGEND}</legend>
                ${prefer.message}
                ${(['supplied', 'parsed'] as const).map((value) =>
                  labelledChoice(
                    {
                      type: 'radio',
                      name: 'prefer',
                      value,
                      checked: shown.prefer === value,
                    },
                    PREFER_LABELS[value],
                  ),
                )}
              </fieldset>
              ${labelledChoice(
                {
                  type: 'checkbox',
                  name: 'include_conflicts',
                  checked: shown.include_conflicts,
                },
                INCLUDE_CONFLICTS,
              )}
              ${labelledChoice(
                {
                  type: 'checkbox',
                  name: 'include_without_email',
                  checked: shown.include_without_email,
                },
                INCLUDE_WITHOUT_EMAIL,
              )}
              <label for="max_candidates">Maximum number of candidates</label>
              ${max.message}
              <input
                id="max_candidates"
                name="max_candidates"
                type="number"
                min="1"
                max="500"
                required
                value="${shown.max_candidates}"
                ${max.attrs}
              />
              <p id="max-hint" class="hint">From 1 to 500.</p>`,
            html`<dl>
              <dt>${PREFER_LEGEND}</dt>
              <dd>${PREFER_LABELS[org.prefer]}</dd>
              <dt>${INCLUDE_CONFLICTS}</dt>
              <dd>${org.include_conflicts ? 'Yes' : 'No'}</dd>
              <dt>${INCLUDE_WITHOUT_EMAIL}</dt>
              <dd>${org.include_without_email ? 'Yes' : 'No'}</dd>
              <dt>Maximum number of candidates</dt>
              <dd>${org.max_candidates}</dd>
            </dl>`,
          )}`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/settings/',
    action: 'settings_write',
    schema: { body: SettingsBody },
    back: () => '/dashboard/settings/',
    keepsForm: true,
    handler: async (request, reply) => {
      const body = request.body as FormBody;
      const prefer = text(body, 'prefer');
      if (prefer !== 'parsed' && prefer !== 'supplied')
        throw fieldInvalid('prefer', 'Prefer parsed or supplied');
      const max = text(body, 'max_candidates').trim();
      if (!/^\d+$/.test(max))
        throw fieldInvalid('max_candidates', 'The maximum number of candidates must be a whole number');
      const settings = {
        prefer: prefer as Prefer,
        include_conflicts: checked(body, 'include_conflicts'),
        include_without_email: checked(body, 'include_without_email'),
        max_candidates: Number(max),
      };
      refuseChangedMeanwhile(
        body,
        "The organization's settings were",
        editedSettings(await requireOrganization(ctx.db, orgOf(request))),
        editedSettings(settings),
      );
      await concerning('max_candidates', () => updateSettings(ctx.db, orgOf(request), settings));
      // API keys remember their organization's settings for a few seconds; the next upload must see these.
      ctx.keys.invalidate();
      return redirectTo(ctx, request, reply, '/dashboard/settings/', {
        kind: 'ok',
        message: 'Settings saved.',
      });
    },
  });
}
