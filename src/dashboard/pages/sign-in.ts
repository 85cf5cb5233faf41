// Signing in and out, and changing one's password (forced after a generated one).
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../app-context.ts';
import {
  decoyHash,
  hashesChecked,
  MIN_PASSWORD_LENGTH,
  SIGN_IN_PASSWORD_CHECKS,
  verifyPassword,
} from '../../users/passwords.ts';
import { changePassword, findCredentials, type Credentials } from '../../users/users.ts';
import {
  closeSession,
  hashToken,
  openSession,
  setFlash,
  takeUnsentForm,
  unsentFormKept,
  unsentFormOwner,
  type Flash,
} from '../../users/sessions.ts';
import { beginAttempt, endAttempt, throttleVerdict } from '../../users/login-throttle.ts';
import { clientAddress } from '../../http/client-address.ts';
import {
  clearCookie,
  LOGIN_CSRF_COOKIE,
  readCookie,
  SESSION_COOKIE,
  setCookie,
  UNSENT_FORM_COOKIE,
} from '../cookies.ts';
import {
  concerning,
  csrfField,
  dashboardRoute,
  fieldInvalid,
  fieldState,
  redirectTo,
  renderPage,
  sessionOf,
} from '../framework.ts';
import { formatCount, html, isolate, isolateText } from '../html.ts';
import { NAV } from '../nav.ts';
import { AppError } from '../../infra/errors.ts';

// An email or a password past what any account can have (320, 1,024 characters) is answered on the
// sign-in form (the schema's refusal was a page with no form, "Back to the dashboard", and lost
// `next`); the schema bounds only what is read at all.
const EMAIL_MAX = 320;
const PASSWORD_MAX = 1024;
const SignInBody = Type.Object({
  _csrf: Type.String(),
  email: Type.String({ maxLength: 100_000 }),
  password: Type.String({ maxLength: 100_000 }),
  next: Type.Optional(Type.String({ maxLength: 2048 })),
  // Sent only from the choice of organization, when the email's password opens accounts in several.
  organization: Type.Optional(Type.String({ maxLength: 12 })),
});

const PasswordBody = Type.Object({
  _csrf: Type.String(),
  current: Type.String({ maxLength: PASSWORD_MAX }),
  password: Type.String({ maxLength: PASSWORD_MAX }),
  confirm: Type.String({ maxLength: PASSWORD_MAX }),
});

/**
 * Why a page asked for shows the sign-in form, and where signing in goes on to: "Your sign-in has
 * ended" when the browser still sends a session the dashboard no longer has (ended by its hours, a
 * password change, the user disabled), else, for a page past the home page, that it needs one. The
 * bare form came back as if nothing had happened: an editor whose sign-in ended, clicking "Authors
 * groups", met it with no word of why, nor of where it would lead.
 */
function whySignIn(request: FastifyRequest, next: string | undefined): string | null {
  const path = safeNext(next).split('?')[0]!;
  const entry = NAV.filter((n) => path.startsWith(n.href)).sort((a, b) => b.href.length - a.href.length)[0];
  const page =
    path === '/dashboard/'
      ? 'the home page'
      : entry?.href === path
        ? entry.label
        : entry && entry.href !== '/dashboard/'
          ? `a page of ${entry.label}`
          : null;
  if (readCookie(request, SESSION_COOKIE) !== undefined) {
    return `Your sign-in has ended: sign in again to go on to ${page ?? 'the dashboard'}.`;
  }
  return path === '/dashboard/' ? null : `Sign in to go on to ${page ?? 'the page you opened'}.`;
}

/**
 * Only a dashboard path may follow sign-in: `next` must not send anyone to another site, nor out of
 * the dashboard by dot segments ("/dashboard/../api/x", "%2e%2e"), which the browser resolves. The
 * path is resolved as the browser would, and kept only when it still lies under /dashboard/.
 */
function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/dashboard/') || next.includes('\\')) return '/dashboard/';
  const base = 'http://dashboard.invalid';
  const resolved = new URL(next, base);
  if (resolved.origin !== base || !resolved.pathname.startsWith('/dashboard/')) return '/dashboard/';
  return resolved.pathname + resolved.search + resolved.hash;
}

async function signInPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: {
    email?: string;
    next?: string;
    error?: string;
    /** The inputs the error concerns: marked invalid and described by it, read when reached. */
    invalid?: ReadonlyArray<'email' | 'password'>;
    status?: number;
    unsaved?: boolean;
    /** Reached by a sign-out: said, and focused, as a form's message is (layout.ts). */
    signedOut?: boolean;
    /**
     * Reached by a page asked for without a session (a link, a bookmark, the navigation once the
     * sign-in ended): said, and focused, with the page it goes on to (`whySignIn`).
     */
    asked?: boolean;
    /** The organizations the email and password opened, when more than one: the person chooses. */
    organizations?: Array<{ id: number; name: string }>;
  },
): Promise<string> {
  // One token per browser, not per page shown: a new one each time made every sign-in page open
  // in another tab before (a session that ended with two tabs open) answer "The form has expired".
  const held = readCookie(request, LOGIN_CSRF_COOKIE);
  const token = held && /^[\w-]{32}$/.test(held) ? held : randomBytes(24).toString('base64url');
  setCookie(request, reply, LOGIN_CSRF_COOKIE, token, 3600);
  const ended = options.unsaved ? readCookie(request, UNSENT_FORM_COOKIE) : undefined;
  const kept = ended ? await unsentFormKept(ctx.db, ended) : null;
  // Choosing among the email's organizations: the one a form kept in this browser waits for is
  // chosen first, and said, where the first listed was, and signing into it left the form waiting.
  const heldForm = options.organizations ? readCookie(request, UNSENT_FORM_COOKIE) : undefined;
  const owner = heldForm ? await unsentFormOwner(ctx.db, heldForm) : null;
  const waitsIn =
    owner &&
    owner.email.toLowerCase() === options.email?.toLowerCase() &&
    options.organizations?.some((o) => o.id === owner.organizationId)
      ? owner.organizationId
      : null;
  // A refused sign-in marks the inputs it concerns, so a screen reader says why on reaching them
  // (the message at the top was read once, if at all, before the form); the first of them takes the
  // focus, so the person types again without going back through the page.
  const invalid = (input: 'email' | 'password') =>
    options.error && options.invalid?.includes(input)
      ? html`aria-invalid="true" aria-describedby="sign-in-error" autofocus`
      : null;
  return renderPage(ctx, request, reply, {
    title: 'Sign in',
    status: options.status ?? 200,
    body: html`${options.error ? html`<p id="sign-in-error" class="flash error" role="alert">${options.error}</p>` : null}
      ${
        options.unsaved && !options.error
          ? html`<p class="flash error" role="alert">
              You were signed out, so what you sent was not saved.
              ${
                kept === 'values'
                  ? 'Sign in to go back to the page, where what you typed is kept for you to check and send again.'
                  : kept === 'message'
                    ? // Too large to keep, or a file that is not text: said as such, where it said kept.
                      'It could not be kept either: sign in to go back to the page, which says what to send again.'
                    : // A session closed (a sign-out, in another tab too) keeps nothing typed: said, where
                      // "send it again" led the editor back to an empty form expecting what they typed.
                      'Sign in to go back to the page and do it again: anything typed in the form was not kept.'
              }
            </p>`
          : null
      }
      ${
        options.signedOut && !options.error && !options.unsaved
          ? html`<p class="flash ok" role="status" tabindex="-1" autofocus>You are signed out.</p>`
          : null
      }
      ${(() => {
        const why = options.asked && !options.error && !options.unsaved && !options.signedOut;
        const said = why ? whySignIn(request, options.next) : null;
        return said ? html`<p class="flash ok" role="status" tabindex="-1" autofocus>${said}</p>` : null;
      })()}
      <form method="post" action="/dashboard/sign-in/" class="stack narrow">
        <input type="hidden" name="_csrf" value="${token}" />
        <input type="hidden" name="next" value="${safeNext(options.next)}" />
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          value="${options.email ?? ''}"
          ${invalid('email')}
        />
        <label for="password">Password</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete="current-password"
          required
          ${invalid('password')}
        />
        ${
          options.organizations
            ? html`<fieldset>
                <legend>Organization</legend>
                <p class="hint">
                  Your email has an account in each of these. Choose one, and give your password again.
                </p>
                ${options.organizations.map(
                  (o, k) =>
                    html`<label
                      ><input
                        type="radio"
                        name="organization"
                        value="${String(o.id)}"
                        required
                        ${(waitsIn === null ? k === 0 : o.id === waitsIn) ? 'checked' : ''}
                      />
                      ${isolate(o.name)}${
                        o.id === waitsIn ? ' (what you sent after you were signed out waits here)' : null
                      }</label
                    >`,
                )}
              </fieldset>`
            : null
        }
        <button type="submit">Sign in</button>
      </form>`,
  });
}

/**
 * The account an email and password open: one account, or the accounts to choose from when the
 * password opens several and no organization was chosen (or null: none). The password is checked
 * against each enabled account of the email, or only the chosen organization's, then against the
 * decoy hash (`hashesChecked`), so that the answer takes as long whatever the count.
 */
async function accountSignedInto(
  accounts: Credentials[],
  body: { password: string; organization?: string },
): Promise<Credentials | Credentials[] | null> {
  const chosen = body.organization === undefined ? null : Number(body.organization);
  const tried = accounts.filter((a) => !a.disabled && (chosen === null || a.organization_id === chosen));
  const hashes = hashesChecked(
    tried.map((a) => a.password_hash),
    await decoyHash(),
  );
  const opened: Credentials[] = [];
  for (const [k, hash] of hashes.entries()) {
    if ((await verifyPassword(hash, body.password)) && k < tried.length) opened.push(tried[k]!);
  }
  if (opened.length === 0) return null;
  return opened.length === 1 ? opened[0]! : opened;
}

/**
 * Takes what a password check is about to cost from a limit (`take`: the address's share, or the
 * budget all addresses share): null while within it, else how long until the window that refused it
 * ends.
 */
async function limitRefused(take: () => Promise<void>): Promise<{ retryAfterSeconds: number } | null> {
  try {
    await take();
    return null;
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'rate_limited') throw error;
    return { retryAfterSeconds: Number(error.headers?.['retry-after'] ?? 1) };
  }
}

export function registerSignInPages(scope: FastifyInstance, ctx: AppContext): void {
  /**
   * A form this browser sent after its session ended, kept with that session (framework.ts): when
   * the same user signs in, it becomes the new session's message with what was typed, and sign-in
   * leads to its page. Someone else signing in gets nothing of it, and it stays kept for its own
   * account (the cookie too), where the cookie was cleared and the form lost: the same email signed
   * into another organization (an editor of two journals) is told it waits for the other one, and
   * is not led to the form's page, which is the other organization's.
   */
  async function unsentForm(
    request: FastifyRequest,
    reply: FastifyReply,
    user: { id: number; email: string },
    sessionHash: Buffer,
  ): Promise<{ flash: Flash } | { keptElsewhere: string | null } | null> {
    const ended = readCookie(request, UNSENT_FORM_COOKIE);
    if (!ended) return null;
    const owner = await unsentFormOwner(ctx.db, ended);
    if (owner && owner.userId !== user.id) {
      if (owner.email.toLowerCase() === user.email.toLowerCase()) {
        await setFlash(ctx.db, sessionHash, {
          kind: 'ok',
          message: `What you sent in ${isolateText(owner.organizationName)} after you were signed out is kept for that organization, not used here: sign in to ${isolateText(owner.organizationName)} within a day to see it again.`,
        });
      }
      return { keptElsewhere: owner.page };
    }
    clearCookie(request, reply, UNSENT_FORM_COOKIE);
    const flash = await takeUnsentForm(ctx.db, ended, user.id);
    if (!flash) return null;
    // Without its values when none could be kept: the message says what to send again.
    await setFlash(ctx.db, sessionHash, {
      kind: flash.kind,
      message: flash.message,
      ...(flash.form ? { form: flash.form } : {}),
    });
    return { flash };
  }

  const { login, sessionTtlMs } = ctx.config.dashboard;

  dashboardRoute(scope, {
    method: 'GET',
    url: '/sign-in/',
    action: 'public',
    schema: {
      querystring: Type.Object({
        next: Type.Optional(Type.String({ maxLength: 2048 })),
        // Set when a form was sent without a session: the page says it was not saved.
        unsaved: Type.Optional(Type.Literal('1')),
        // Set by a sign-out: the page says it was done.
        out: Type.Optional(Type.Literal('1')),
      }),
    },
    handler: async (request, reply) => {
      if (request.dashboardSession) return redirectTo(ctx, request, reply, '/dashboard/');
      const { next, unsaved, out } = request.query as { next?: string; unsaved?: '1'; out?: '1' };
      return signInPage(ctx, request, reply, {
        ...(next ? { next } : {}),
        unsaved: unsaved === '1',
        signedOut: out === '1',
        asked: next !== undefined,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/sign-in/',
    action: 'public',
    schema: { body: SignInBody },
    handler: async (request, reply) => {
      const body = request.body as { email: string; password: string; next?: string; organization?: string };
      const again = { email: body.email, ...(body.next ? { next: body.next } : {}) };
      if (body.email.length > EMAIL_MAX || body.password.length > PASSWORD_MAX) {
        // No account has such an email or password: nothing is looked up, hashed or counted.
        return signInPage(ctx, request, reply, {
          ...again,
          status: 401,
          ...(body.email.length > EMAIL_MAX
            ? {
                error: `An email address has at most ${EMAIL_MAX} characters: this one has ${formatCount(body.email.length)}.`,
                invalid: ['email'],
              }
            : { error: 'The email or the password is not right.', invalid: ['email', 'password'] }),
        });
      }
      // Before anything is looked up or counted: refused here, the attempt is no failure.
      const refused = await limitRefused(() => ctx.limits.countPasswordCheck(clientAddress(request)));
      if (refused) {
        reply.header('retry-after', String(refused.retryAfterSeconds));
        return signInPage(ctx, request, reply, {
          ...again,
          status: 429,
          error: `Too many sign-ins from this address. Wait ${refused.retryAfterSeconds} seconds, then try again.`,
        });
      }
      const attempt = await beginAttempt(ctx.db, login, body.email, clientAddress(request));
      const verdict = throttleVerdict(login, attempt.failures, attempt.knownAddress);
      if (verdict.refused) {
        await endAttempt(ctx.db, login, attempt, 'refused');
        return signInPage(ctx, request, reply, {
          ...again,
          status: 429,
          error: 'Too many failed sign-ins. Wait a quarter of an hour, then try again.',
        });
      }
      if (verdict.delayMs > 0) await sleep(verdict.delayMs);
      const credentials = await findCredentials(ctx.db, body.email);
      // A flood from many addresses passes each address's share: the hashing they may cause together
      // is bounded too. Not for an address the account signed in from before, so that the user is
      // not locked out by strangers' sign-ins (each address's share still applies).
      const overBudget = attempt.knownAddress
        ? null
        : await limitRefused(() =>
            ctx.limits.takePasswordChecks(Math.max(SIGN_IN_PASSWORD_CHECKS, credentials.length)),
          );
      if (overBudget) {
        await endAttempt(ctx.db, login, attempt, 'refused');
        reply.header('retry-after', String(overBudget.retryAfterSeconds));
        return signInPage(ctx, request, reply, {
          ...again,
          status: 429,
          error: `Too many sign-ins at once on this service. Wait ${overBudget.retryAfterSeconds} seconds, then try again.`,
        });
      }
      const user = await accountSignedInto(credentials, body);
      if (user === null) {
        await endAttempt(ctx.db, login, attempt, 'failed');
        return signInPage(ctx, request, reply, {
          ...again,
          status: 401,
          error: 'The email or the password is not right.',
          invalid: ['email', 'password'],
        });
      }
      if (Array.isArray(user)) {
        // The password is right for several accounts: proven, so the attempt is no failure.
        await endAttempt(ctx.db, login, attempt, 'signed_in');
        return signInPage(ctx, request, reply, {
          ...again,
          organizations: user.map((a) => ({ id: a.organization_id, name: a.organization_name })),
        });
      }
      await endAttempt(ctx.db, login, attempt, 'signed_in');
      const token = await openSession(ctx.db, user.id, sessionTtlMs);
      // The sign-in token is kept (its hour): the sign-in page of another tab, sent after this one
      // signed in, signs in there too rather than answering "The form has expired".
      setCookie(request, reply, SESSION_COOKIE, token, sessionTtlMs / 1000);
      const unsent = await unsentForm(request, reply, { id: user.id, email: body.email }, hashToken(token));
      const next = safeNext(body.next);
      let location = next;
      if (unsent && 'flash' in unsent) location = safeNext(unsent.flash.page ?? body.next);
      // The kept form's page is the other organization's: home, where the message says where it waits.
      else if (unsent && unsent.keptElsewhere === next) location = '/dashboard/';
      return reply.status(303).header('location', location).send();
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/sign-out/',
    action: 'own_password',
    whilePasswordExpired: true,
    handler: async (request, reply) => {
      await closeSession(ctx.db, sessionOf(request).tokenHash);
      clearCookie(request, reply, SESSION_COOKIE);
      // The sign-in page says so (`out=1`): it came back as if nothing had happened.
      return reply.status(303).header('location', '/dashboard/sign-in/?out=1').send();
    },
  });

  dashboardRoute(scope, {
    method: 'GET',
    url: '/password/',
    action: 'own_password',
    whilePasswordExpired: true,
    handler: async (request, reply) => {
      const forced = sessionOf(request).user.mustChangePassword;
      // A refused change says which field, beside it; what was typed is never kept (passwords).
      const current = fieldState(request, 'current');
      const password = fieldState(request, 'password', { hints: ['password-rule'] });
      const confirm = fieldState(request, 'confirm');
      // Forced, the form is the page's one task: its first field takes the focus (a refused field
      // takes it instead, by its own autofocus), where the page itself had it, the next Tab on the
      // skip link and the header's controls before "Current password".
      const first =
        forced && !current.invalid && !password.invalid && !confirm.invalid ? html`autofocus` : null;
      return renderPage(ctx, request, reply, {
        title: 'Change your password',
        body: html`${
            forced
              ? html`<p class="flash" role="status">
                  You signed in with a one-time password. Choose your own to continue.
                </p>`
              : null
          }
          <form method="post" action="/dashboard/password/" class="stack narrow">
            ${csrfField(request)}
            <label for="current">Current password</label>
            ${current.message}
            <input
              id="current"
              name="current"
              type="password"
              autocomplete="current-password"
              required
              ${current.attrs}
              ${first}
            />
            <label for="password">New password</label>
            ${password.message}
            <input
              id="password"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              ${password.attrs}
              required
            />
            <p id="password-rule" class="hint">At least ${MIN_PASSWORD_LENGTH} characters.</p>
            <label for="confirm">New password again</label>
            ${confirm.message}
            <input
              id="confirm"
              name="confirm"
              type="password"
              autocomplete="new-password"
              required
              ${confirm.attrs}
            />
            <button type="submit">Change password</button>
          </form>`,
      });
    },
  });

  dashboardRoute(scope, {
    method: 'POST',
    url: '/password/',
    action: 'own_password',
    whilePasswordExpired: true,
    back: () => '/dashboard/password/',
    schema: { body: PasswordBody },
    handler: async (request, reply) => {
      const body = request.body as { current: string; password: string; confirm: string };
      const session = sessionOf(request);
      // Counted as a sign-in is: a wrong current password sent in a loop was a hash each time.
      await ctx.limits.countPasswordCheck(clientAddress(request));
      if (body.password !== body.confirm) {
        throw fieldInvalid('confirm', 'The two new passwords differ: type the new password again.');
      }
      await concerning(
        (message) => (/current password is not right/.test(message) ? 'current' : 'password'),
        () =>
          changePassword(ctx.db, {
            userId: session.user.id,
            current: body.current,
            next: body.password,
            keepSession: session.tokenHash,
          }),
      );
      return redirectTo(ctx, request, reply, '/dashboard/', {
        kind: 'ok',
        message: 'Your password was changed.',
      });
    },
  });
}
