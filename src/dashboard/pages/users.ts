// Users of the organization (integrations admin): list, create (a one-time password shown once),
// change role, disable.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { AppError, errors } from '../../infra/errors.ts';
import { newFormValue, SEALED_SECRET_MINUTES } from '../../infra/form-seal.ts';
import { NEW_PASSWORD_COOKIE } from '../cookies.ts';
import { NO_SECRET_HERE, takeShownOnce, toShownOnce } from '../shown-once.ts';
import { ROLE_LABELS, ROLES } from '../../users/roles.ts';
import {
  createUser,
  disableUser,
  enableUser,
  findUserByEmail,
  forgetSealedPasswords,
  listUsers,
  oneTimePasswordOfForm,
  requireUser,
  setUserRole,
  takeOneTimePassword,
} from '../../users/users.ts';
import {
  actionButton,
  concerning,
  fieldInvalid,
  fieldState,
  csrfField,
  dashboardRoute,
  orgOf,
  postedForm,
  redirectTo,
  refuseChangedMeanwhile,
  renderPage,
  seenField,
  sessionOf,
  CsrfOnly,
} from '../framework.ts';
import { FormValue, text, type FormBody } from '../form-values.ts';
import { dashboardPath, html, isolate, isolateText, wrappableAddress } from '../html.ts';
import { dataTable } from '../table.ts';

const UserParams = Type.Object({ userId: RowId() });
const CreateBody = Type.Object({
  _csrf: Type.String(),
  // The form's one-time value (form-seal.ts): sent again, the form shows the password it made.
  once: Type.Optional(FormValue),
  email: Type.String({ maxLength: 320 }),
  role: Type.String(),
});
const EnableBody = Type.Object({
  _csrf: Type.String(),
  // The button's one-time value (form-seal.ts): pressed again, it shows the password it made.
  once: Type.Optional(FormValue),
});
const RoleBody = Type.Object({
  _csrf: Type.String(),
  role: Type.String(),
  // What the form was filled from (seenField): a role changed since the page was shown is not undone.
  seen: Type.Optional(Type.String({ maxLength: 100 })),
});

/** What a user's role form is filled from and replaces: the role. */
function editedRole(role: string): unknown {
  return { role };
}

function roleOptions(selected: string) {
  return ROLES.map(
    (role) =>
      html`<option value="${role}" ${role === selected ? html`selected` : null}>
        ${ROLE_LABELS[role]}
      </option>`,
  );
}

async function usersPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  created: { email: string; password: string } | 'shown' | 'none' | null,
): Promise<string> {
  const users = await listUsers(ctx.db, orgOf(request));
  const me = sessionOf(request).user.id;
  // After a refused add (an address taken or mistyped), what was typed, to correct.
  const posted = postedForm(request);
  const email = fieldState(request, 'email', { id: 'new-email', hints: ['new-email-hint'] });
  const role = fieldState(request, 'role', { id: 'new-role' });
  return renderPage(ctx, request, reply, {
    title: 'Users',
    body: html`${
        created === 'shown'
          ? html`<p role="status" class="flash ok" tabindex="-1" autofocus>
              The one-time password was shown once, on this page, when it was made: it is not shown again
              (refmatch keeps only a hash of it; one not seen within ${SEALED_SECRET_MINUTES} minutes is not
              shown either). If it was not noted, disable the user below, then enable them for a new one.
            </p>`
          : created === 'none'
            ? html`<p role="status" class="flash ok" tabindex="-1" autofocus>
                There is no one-time password to show here. This page shows one once, right after “Add user”
                or “Enable” makes it, ${NO_SECRET_HERE}. A password not noted cannot be shown again: disable
                that user in the list below, then enable them for a new one.
              </p>`
            : created
              ? html`<section aria-labelledby="new-user">
                  <h2 id="new-user" tabindex="-1" autofocus>${isolate(created.email)} can now sign in</h2>
                  <p>
                    Give them this one-time password; they choose their own at first sign-in. It is shown only
                    this once: this page reloaded, or reached again by Back, will not show it.
                  </p>
                  <p class="secret" data-testid="one-time-password">${created.password}</p>
                </section>`
              : null
      }
      <h2>Add a user</h2>
      <form method="post" action="/dashboard/users/" class="row">
        ${csrfField(request)}
        <input type="hidden" name="once" value="${newFormValue()}" />
        <div>
          <label for="new-email">Email</label>
          ${email.message}
          <input
            id="new-email"
            name="email"
            type="email"
            required
            value="${posted ? text(posted, 'email') : ''}"
            ${email.attrs}
          />
          <p id="new-email-hint" class="hint">
            Kept in lower case: an address is one account whatever its letter case, and signs in typed in any.
          </p>
        </div>
        <div>
          <label for="new-role">Role</label>
          ${role.message}
          <select id="new-role" name="role" ${role.attrs}>
            ${roleOptions(posted ? text(posted, 'role') : 'viewer')}
          </select>
        </div>
        <button type="submit">Add user</button>
      </form>
      ${dataTable({
        caption: 'People who can sign in to this organization',
        columns: ['Email', 'Role', 'Status', 'Disable or enable'],
        rows: users.map(
          (user) =>
            html`<tr>
              <td class="address">${wrappableAddress(user.email)}</td>
              <td>
                ${
                  user.disabled || user.id === me
                    ? ROLE_LABELS[user.role]
                    : html`<form
                        method="post"
                        action="${dashboardPath('users', user.id, 'role')}"
                        class="row"
                      >
                        ${csrfField(request)} ${seenField(editedRole(user.role))}
                        <label for="role-${user.id}" class="visually-hidden"
                          >Role of ${isolate(user.email)}</label
                        >
                        <select id="role-${user.id}" name="role">
                          ${roleOptions(user.role)}
                        </select>
                        <button type="submit" class="secondary">
                          Change role<span class="visually-hidden"> of ${isolate(user.email)}</span>
                        </button>
                      </form>`
                }
              </td>
              <td>
                ${
                  user.disabled
                    ? 'Disabled'
                    : user.must_change_password
                      ? // Also true of a user enabled again, who may have signed in for years.
                        'One-time password not yet replaced'
                      : 'Active'
                }
              </td>
              <td>
                ${
                  user.id === me
                    ? null
                    : user.disabled
                      ? actionButton(request, {
                          action: dashboardPath('users', user.id, 'enable'),
                          label: 'Enable',
                          accessibleName: `Enable ${isolateText(user.email)} with a new one-time password`,
                          kind: 'secondary',
                          // Pressed twice, the button shows the password its first press made.
                          hidden: { once: newFormValue() },
                        })
                      : actionButton(request, {
                          action: dashboardPath('users', user.id, 'disable'),
                          label: 'Disable',
                          accessibleName: `Disable ${isolateText(user.email)}`,
                          kind: 'danger',
                        })
                }
              </td>
            </tr>`,
        ),
      })}`,
  });
}

/** The page that shows a one-time password just made, once. */
const NEW_PASSWORD_PAGE = '/dashboard/users/new/';

/** 303 to the page that shows, once, the one-time password the form with `once` made. */
function toNewPassword(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  once: string,
  repeated: boolean,
): Promise<FastifyReply> {
  return toShownOnce(ctx, request, reply, {
    cookie: NEW_PASSWORD_COOKIE,
    formValue: once,
    location: NEW_PASSWORD_PAGE,
    ...(repeated
      ? {
          flash: {
            kind: 'ok',
            message:
              'This form was sent more than once (a double click): the one-time password below is the one its first send made, no other.',
          },
        }
      : {}),
  });
}

/** An admin changing their own role or disabling themselves could leave the organization with no admin. */
function notSelf(request: FastifyRequest, userId: number): void {
  if (userId === sessionOf(request).user.id) {
    throw errors.validation('You cannot change your own role or disable yourself; ask another admin.');
  }
}

export function registerUserPages(scope: FastifyInstance, ctx: AppContext): void {
  dashboardRoute(scope, {
    method: 'GET',
    url: '/users/',
    action: 'users_manage',
    handler: async (request, reply) => {
      await forgetSealedPasswords(ctx.db, orgOf(request));
      return usersPage(ctx, request, reply, null);
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/users/',
    action: 'users_manage',
    schema: { body: CreateBody },
    back: () => '/dashboard/users/',
    keepsForm: { without: ['once'] },
    handler: async (request, reply) => {
      const body = request.body as { email: string; role: string; once?: string };
      // A form without its one-time value (a script's) gets one here: the password is shown the same way.
      const once = body.once ?? newFormValue();
      // The same form sent again (a double click, whose first answer the browser dropped): said as
      // what happened, not "already exists", which read as if the user had not been added; within
      // minutes, and while not yet shown, it leads to the password it made.
      const existing = await findUserByEmail(ctx.db, orgOf(request), body.email);
      const again = existing
        ? await oneTimePasswordOfForm(ctx.db, orgOf(request), { email: body.email }, once)
        : null;
      if (existing && again !== null) return toNewPassword(ctx, request, reply, once, true);
      if (existing) {
        throw fieldInvalid(
          'email',
          `${isolateText(existing.email)} is already a user of this organization (listed below); no one-time password was made again. If theirs was lost, disable them, then enable them for a new one.`,
          409,
        );
      }
      const repeated = await concerning(
        (message) => (/role/i.test(message) ? 'role' : 'email'),
        () =>
          createUser(ctx.db, {
            organizationId: orgOf(request),
            email: body.email,
            role: body.role,
            formValue: once,
          }),
      ).then(
        () => false,
        async (error: unknown) => {
          // Two sends at once (a double click): the second finds the first's user as it adds its own.
          const first =
            error instanceof AppError && error.status === 409
              ? await oneTimePasswordOfForm(ctx.db, orgOf(request), { email: body.email }, once)
              : null;
          if (first === null) throw error;
          return true;
        },
      );
      return toNewPassword(ctx, request, reply, once, repeated);
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/users/new/',
    action: 'users_manage',
    handler: async (request, reply) => {
      const once = takeShownOnce(request, reply, NEW_PASSWORD_COOKIE);
      if (once === null) return usersPage(ctx, request, reply, 'none');
      const made = await takeOneTimePassword(ctx.db, orgOf(request), once);
      return usersPage(ctx, request, reply, made ?? 'shown');
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/users/:userId/role/',
    action: 'users_manage',
    schema: { params: UserParams, body: RoleBody },
    back: () => '/dashboard/users/',
    handler: async (request, reply) => {
      const { userId } = request.params as { userId: number };
      notSelf(request, userId);
      const role = (request.body as { role: string }).role;
      const stored = await requireUser(ctx.db, userId, orgOf(request));
      refuseChangedMeanwhile(
        request.body as FormBody,
        `The role of ${isolateText(stored.email)} was`,
        editedRole(stored.role),
        editedRole(role),
        'stored',
      );
      const user = await setUserRole(ctx.db, userId, role, orgOf(request));
      return redirectTo(ctx, request, reply, '/dashboard/users/', {
        kind: 'ok',
        message: `${isolateText(user.email)} is now ${ROLE_LABELS[user.role].toLowerCase()}.`,
      });
    },
  });

  // Leads to the page that shows the new one-time password once, as a new user's is (`shown-once.ts`).
  dashboardRoute(scope, {
    method: 'POST',
    url: '/users/:userId/enable/',
    action: 'users_manage',
    schema: { params: UserParams, body: EnableBody },
    back: () => '/dashboard/users/',
    handler: async (request, reply) => {
      const { userId } = request.params as { userId: number };
      notSelf(request, userId);
      const once = (request.body as { once?: string }).once ?? newFormValue();
      const repeated = await enableUser(ctx.db, userId, orgOf(request), once).then(
        () => false,
        async (error: unknown) => {
          // Enabled already: by this button's first click (a double click, whose answer the browser
          // dropped): its password, within minutes and while not yet shown; or in another tab, or
          // later. Said with the way to a password.
          if (!(error instanceof AppError) || error.status !== 409) throw error;
          const first = await oneTimePasswordOfForm(ctx.db, orgOf(request), { id: userId }, once);
          if (first !== null) return true;
          throw errors
            .conflict(
              `${error.message}: no new one-time password was made. If the one shown when they were enabled was not seen (the button pressed twice), disable them, then enable them for a new one.`,
            )
            .naming(...error.values);
        },
      );
      return toNewPassword(ctx, request, reply, once, repeated);
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/users/:userId/disable/',
    action: 'users_manage',
    schema: { params: UserParams, body: CsrfOnly },
    back: () => '/dashboard/users/',
    handler: async (request, reply) => {
      const { userId } = request.params as { userId: number };
      notSelf(request, userId);
      const user = await disableUser(ctx.db, userId, orgOf(request));
      return redirectTo(ctx, request, reply, '/dashboard/users/', {
        kind: 'ok',
        message: `${isolateText(user.email)} is disabled and signed out.`,
      });
    },
  });
}
