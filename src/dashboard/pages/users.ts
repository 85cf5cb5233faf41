// Users of the organization (integrations admin): list, create (a one-time password shown once),
// change role, disable.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RowId } from '../../http/schemas.ts';
import type { AppContext } from '../../app-context.ts';
import { AppError, errors } from '../../infra/errors.ts';
import { newFormValue } from '../../infra/form-seal.ts';
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
import { dashboardPath, html, isolate, isolateText } from '../html.ts';
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
  created: { email: string; password: string; repeated?: boolean } | null,
): Promise<string> {
  const users = await listUsers(ctx.db, orgOf(request));
  const me = sessionOf(request).user.id;
  // After a refused add (an address taken or mistyped), what was typed, to correct.
  const posted = postedForm(request);
  const email = fieldState(request, 'email', { id: 'new-email' });
  const role = fieldState(request, 'role', { id: 'new-role' });
  return renderPage(ctx, request, reply, {
    title: 'Users',
    body: html`${
        created
          ? html`<section aria-labelledby="new-user">
              <h2 id="new-user">${isolate(created.email)} can now sign in</h2>
              ${
                created.repeated
                  ? html`<p role="status">
                      This form was sent more than once (a double click, or the page reloaded): this is the
                      one-time password its first send made, no other.
                    </p>`
                  : null
              }
              <p>
                Give them this one-time password; they choose their own at first sign-in. It is shown only
                now.
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
              <td>${user.email}</td>
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
      // The answer page reloaded posts the add again: said as what happened, not "already exists",
      // which read as if the user had not been added; within minutes, with the password it made.
      const existing = await findUserByEmail(ctx.db, orgOf(request), body.email);
      const again =
        existing && body.once
          ? await oneTimePasswordOfForm(ctx.db, orgOf(request), { email: body.email }, body.once)
          : null;
      if (existing && again !== null) {
        return usersPage(ctx, request, reply, { email: existing.email, password: again, repeated: true });
      }
      if (existing) {
        throw fieldInvalid(
          'email',
          `${isolateText(existing.email)} is already a user of this organization (listed below); no one-time password was made again. If theirs was lost, disable them, then enable them for a new one.`,
          409,
        );
      }
      const user = await concerning(
        (message) => (/role/i.test(message) ? 'role' : 'email'),
        () =>
          createUser(ctx.db, {
            organizationId: orgOf(request),
            email: body.email,
            role: body.role,
            ...(body.once ? { formValue: body.once } : {}),
          }),
      ).catch(async (error: unknown) => {
        // Two sends at once (a double click): the second finds the first's user as it adds its own.
        const first =
          error instanceof AppError && error.status === 409 && body.once
            ? await oneTimePasswordOfForm(ctx.db, orgOf(request), { email: body.email }, body.once)
            : null;
        if (first === null) throw error;
        return { email: body.email.trim(), password: first, repeated: true };
      });
      return usersPage(ctx, request, reply, user);
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

  // Answered with the page, as a new user is: the one-time password is shown once and rests nowhere.
  dashboardRoute(scope, {
    method: 'POST',
    url: '/users/:userId/enable/',
    action: 'users_manage',
    schema: { params: UserParams, body: EnableBody },
    back: () => '/dashboard/users/',
    handler: async (request, reply) => {
      const { userId } = request.params as { userId: number };
      notSelf(request, userId);
      const once = (request.body as { once?: string }).once;
      const enabled = await enableUser(ctx.db, userId, orgOf(request), once).catch(async (error: unknown) => {
        // Enabled already: by this button's first click (a double click, whose answer with the
        // one-time password the browser dropped): that password again, within minutes; or in another
        // tab, or later. Said with the way to a password.
        if (!(error instanceof AppError) || error.status !== 409) throw error;
        const first = once ? await oneTimePasswordOfForm(ctx.db, orgOf(request), { id: userId }, once) : null;
        if (first !== null) {
          const user = await requireUser(ctx.db, userId, orgOf(request));
          return { ...user, password: first, repeated: true };
        }
        throw errors
          .conflict(
            `${error.message}: no new one-time password was made. If the one shown when they were enabled was not seen (the button pressed twice), disable them, then enable them for a new one.`,
          )
          .naming(...error.values);
      });
      return usersPage(ctx, request, reply, enabled);
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
