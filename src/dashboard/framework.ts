// The dashboard's request pipeline, shared by every page (docs/dashboard.md):
//   session from the cookie (onRequest) -> after the body is parsed, before it is validated: signed in? -> password change pending? -> role may do the route's
//   action (the one table in src/users/roles.ts)? -> CSRF token of a form post -> handler.
// Pages declare a route with `dashboardRoute`, write HTML with `html`, and answer with `renderPage`
// or `redirectTo`. Errors become an HTML page with the real status, or, for a form post that names
// where its form lives (`back`), the message shown on that page.
import { isUtf8 } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { AppError, errors, toAppError } from '../infra/errors.ts';
import { htmlSecurityHeaders } from '../http/html.ts';
import { can, ROLE_LABELS, ROLES, type Action } from '../users/roles.ts';
import {
  findSession,
  isEndedSession,
  keepUnsentForm,
  setFlash,
  type Flash,
  type Session,
} from '../users/sessions.ts';
import {
  LOGIN_CSRF_COOKIE,
  SESSION_COOKIE,
  UNSENT_FORM_COOKIE,
  UNSENT_FORM_COOKIE_SECONDS,
  readCookie,
  setCookie,
} from './cookies.ts';
import { text, type FormBody } from './form-values.ts';
import {
  countOf,
  formatCount,
  html,
  isolatedHtml,
  isolateText,
  mebibytes,
  quotedBack,
  withoutIsolates,
  type Html,
} from './html.ts';
import { layout, type FieldErrors, type FormFlash } from './layout.ts';
import { NAV } from './nav.ts';

declare module 'fastify' {
  interface FastifyRequest {
    dashboardSession: Session | null;
  }
  interface FastifyContextConfig {
    dashboard?: RouteRule;
  }
  interface FastifyInstance {
    /** Every dashboard route with the action it needs: what the permission-matrix test walks. */
    dashboardRoutes: DashboardRouteInfo[];
  }
}

interface RouteRule {
  action: Action | 'public';
  asksFirst?: boolean;
  back?: (request: FastifyRequest) => string;
  keepsForm?: KeepsForm;
  whilePasswordExpired?: boolean;
  multipart?: boolean;
}

/** Which of a refused form's values go back to it: all, or all but some (a secret). */
export type KeepsForm = boolean | { without: readonly string[] };

export interface DashboardRouteInfo {
  method: 'GET' | 'POST';
  url: string;
  action: Action | 'public';
}

export interface DashboardRoute {
  method: 'GET' | 'POST';
  /** Under /dashboard, e.g. '/groups/:groupId/'. */
  url: string;
  /** What the route does, checked against the role's permissions; 'public' only for signing in. */
  action: Action | 'public';
  schema?: Pick<FastifySchema, 'params' | 'querystring' | 'body'>;
  /** For a form post: the page its form is on, where a rejected value's message is shown. */
  back?: (request: FastifyRequest) => string;
  /**
   * A refused post's values go back with the message, for that page to show again (`postedForm`),
   * so that nothing typed is lost. Kept in the session until the page is shown: never a password
   * or a secret (`{ without: [their names] }`).
   */
  keepsForm?: KeepsForm;
  /** Reachable while the user must still replace a generated password (the password page, sign-out). */
  whilePasswordExpired?: boolean;
  /**
   * A POST whose handler asks first (`askFirst`) before anything it does: the question is also
   * served by GET at the same URL, where the unconfirmed post is sent (303), so that the question is
   * a page of the history like any other (see askFirst).
   */
  asksFirst?: boolean;
  /**
   * The route also takes multipart/form-data (a file), read by its handler, which checks the form's
   * token itself (`checkFormToken`) before it reads any file: the body is not read before then.
   * The route must be registered in a scope that has @fastify/multipart. `bodyBytes`: the most a
   * post of it may send (its file and fields); one answered before it was read through (its session
   * ended, a stale page) is read to its end within that, so that the browser sees the answer.
   */
  multipart?: { bodyBytes: number };
  handler(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/**
 * The longest text a search box takes. Editors paste a manuscript's whole title (or a journal's) to
 * find it: at 200 characters a long title was an error page. The searches read its first words.
 */
export const SEARCH_MAX = 1000;

/** The body of a form that posts nothing but its CSRF token (a row's button). */
export const CsrfOnly = Type.Object({ _csrf: Type.String() });

/** The body of a button whose action cannot be undone: asked first (`askFirst`), then confirmed. */
export const Confirmable = Type.Object({ _csrf: Type.String(), confirm: Type.Optional(Type.Literal('yes')) });

const HtmlPage = Type.String({ description: 'An HTML page' });
const Redirect = Type.Null({ description: 'See Other: the Location header names the next page' });

export function dashboardRoute(scope: FastifyInstance, route: DashboardRoute): void {
  if (route.asksFirst && route.method === 'POST') {
    // The question only: a GET has no body, so `askFirst` never finds it confirmed.
    const { body: _body, ...schema } = route.schema ?? {};
    dashboardRoute(scope, { ...route, method: 'GET', schema, asksFirst: false, back: undefined });
  }
  scope.route({
    method: route.method,
    url: route.url,
    schema: {
      ...route.schema,
      hide: true,
      response: { 200: HtmlPage, 303: Redirect, '4xx': HtmlPage },
    },
    config: {
      dashboard: {
        action: route.action,
        ...(route.back ? { back: route.back } : {}),
        ...(route.keepsForm ? { keepsForm: route.keepsForm } : {}),
        ...(route.whilePasswordExpired ? { whilePasswordExpired: true } : {}),
        ...(route.asksFirst ? { asksFirst: true } : {}),
        ...(route.multipart ? { multipart: true } : {}),
      },
      ...(route.multipart ? { readsUnreadBodyUpTo: route.multipart.bodyBytes } : {}),
    },
    handler: route.handler,
  });
}

/** The signed-in session of a request to a route that is not public. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.dashboardSession) throw new Error('dashboard route reached without a session');
  return request.dashboardSession;
}

/** The organization every query of the request is scoped to. */
export function orgOf(request: FastifyRequest): number {
  return sessionOf(request).user.organizationId;
}

export function mayDo(request: FastifyRequest, action: Action): boolean {
  const session = request.dashboardSession;
  return session !== null && can(session.user.role, action);
}

/**
 * What a page says where it leaves out a form the signed-in role may not use: the roles that may (the
 * one permission table's), and, to one who manages the organization's users, where to give a user
 * that role. The custom fields and authors groups pages left their forms out without a word: an
 * admin's first day found no way to add a field or a group, and nothing saying why.
 */
export function onlyRolesMay(request: FastifyRequest, action: Action, what: string): Html {
  const roles = ROLES.filter((role) => can(role, action)).map((role) => {
    const label = ROLE_LABELS[role].toLowerCase();
    return `${/^[aeiou]/.test(label) ? 'an' : 'a'} ${label}`;
  });
  return html`<p class="muted">
    Only ${roles.join(' or ')} can
    ${what}.${
      mayDo(request, 'users_manage')
        ? html` Add one, or give a user that role, on the <a href="/dashboard/users/">users page</a>.`
        : null
    }
  </p>`;
}

/**
 * Settings every role reads and some roles change (the organization's, a folder's referee finder):
 * for a role that may do `action`, the form posting it to `url`, with its token, `before` (a field
 * the form posts unseen, such as `seenField`), its `fields` and the submit button; for any other,
 * `onlyRolesMay` saying who can change them, then `readOnly`, the settings as text (a `<dl>`, as a
 * folder's custom values are shown to a role that may not set them). Every role got the form, with
 * its fields disabled and no button: a form of an action the role is refused, which a screen
 * reader's list of forms offered a viewer (round 31); then the same controls, disabled, outside a
 * form: radio buttons and a text box a viewer could not use, a "Highlight" chosen in a folder with
 * no group to highlight (round 32).
 */
export function settingsForm(
  request: FastifyRequest,
  input: { action: Action; url: string; before?: Html; submit: string },
  fields: Html,
  readOnly: Html,
): Html {
  if (!mayDo(request, input.action)) {
    return html`${onlyRolesMay(request, input.action, 'change these')} ${readOnly}`;
  }
  return html`<form method="post" action="${input.url}" class="stack">
    ${csrfField(request)} ${input.before ?? null} ${fields}
    <button type="submit">${input.submit}</button>
  </form>`;
}

/** The hidden field every form posts: the session's CSRF token. */
export function csrfField(request: FastifyRequest): Html {
  return html`<input type="hidden" name="_csrf" value="${sessionOf(request).csrfToken}" />`;
}

/**
 * A one-button form posting to `action` (a row's revoke, disable, retry, link...), with the CSRF
 * field. `label` is what the button shows; `accessibleName`, when the label alone would be ambiguous
 * in a table of such buttons, is what a screen reader announces instead (beginning with the label,
 * which speech input users say); `hidden` fields go along.
 *
 * The name is the button's own text, hidden from sight, the label beside it hidden from assistive
 * technology: its names isolated (`isolateText`) become `<bdi>`, as the mark button's are. Given as
 * `aria-label`, the isolate controls U+2068/U+2069 were part of the accessible name Chromium hands a
 * screen reader ("Disable ⁨ada@…⁩"), where `<bdi>` isolates the direction and adds no character.
 */
export function actionButton(
  request: FastifyRequest,
  input: {
    action: string;
    label: Html | string;
    accessibleName?: string;
    kind?: 'danger' | 'secondary';
    hidden?: Record<string, string | number>;
    /** The button's id, for a post to come back to it (an address's fragment focuses it). */
    id?: string;
  },
): Html {
  const fields = Object.entries(input.hidden ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}" />`,
  );
  return html`<form method="post" action="${input.action}" class="inline">
    ${csrfField(request)} ${fields}
    <button
      type="submit"
      ${input.id ? html`id="${input.id}"` : null}
      ${input.kind ? html`class="${input.kind}"` : null}
    >
      ${
        input.accessibleName === undefined
          ? input.label
          : html`<span aria-hidden="true">${input.label}</span
              ><span class="visually-hidden">${isolatedHtml(input.accessibleName)}</span>`
      }
    </button>
  </form>`;
}

/**
 * An action that loses data for good (a field's every value, a record, a key integrations use) asks
 * first: its button posts without `confirm`, and the answer is a page saying what will be lost, whose
 * button posts again with `confirm=yes`; Cancel leads back. No script runs on these pages, so this
 * is their confirm(). Null when the post is the confirmed one: the action goes ahead.
 */
export async function askFirst(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  question: {
    title: string;
    consequence: Html | string;
    label: string;
    cancel: string;
    /** Sent with the confirmation: what the question was asked about (`seenField`'s `seen`). */
    hidden?: Record<string, string>;
  },
): Promise<string | FastifyReply | null> {
  if ((request.body as { confirm?: string } | undefined)?.confirm === 'yes') return null;
  const action = request.url.split('?')[0]!;
  // The unconfirmed post is answered by the question's own page (the route's GET, `asksFirst`):
  // answered in place, the question was the result of a post, and Back from the page after the
  // action led to the browser's "Confirm Form Resubmission" instead.
  if (request.method === 'POST' && request.routeOptions.config.dashboard?.asksFirst) {
    return reply.status(303).header('location', action).send();
  }
  return renderPage(ctx, request, reply, {
    title: question.title,
    body: html`<p>
        ${typeof question.consequence === 'string' ? isolatedHtml(question.consequence) : question.consequence}
      </p>
      <div class="row">
        ${actionButton(request, {
          action,
          label: question.label,
          kind: 'danger',
          hidden: { ...question.hidden, confirm: 'yes' },
        })}
        <a href="${question.cancel}">Cancel</a>
      </div>`,
  });
}

/**
 * A delete (`askFirst`'s, confirmed or not) whose row is not there: deleted already by the same
 * button clicked twice, in another tab, or by another user, or Back to the question after it. The
 * second click of a double click showed a bare "Authors group 12 was not found" in place of the
 * first one's success, as if nothing had been deleted. Still a 404 (another organization's id reads
 * the same: no name is said, only the id the address holds), in the page's layout with the first
 * click's message if it is there, saying so and leading back to the listing (`to`).
 */
export async function deletedAlready(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  gone: { what: string; to: string; toLabel: string },
): Promise<string> {
  return renderPage(ctx, request, reply, {
    title: 'Not there any more',
    status: 404,
    body: html`<p role="alert">
        ${isolatedHtml(gone.what)} is not there any more: it was deleted already (a second click, another tab
        or another user), or never was. Nothing more was deleted.
      </p>
      <p><a href="${gone.to}">Back to ${gone.toLabel}</a></p>`,
  });
}

/** Runs `act`, or answers `deletedAlready` when it finds no such row (a 404). */
export async function unlessDeletedAlready<T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  gone: { what: string; to: string; toLabel: string },
  act: () => Promise<T>,
): Promise<T | string> {
  try {
    return await act();
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return deletedAlready(ctx, request, reply, gone);
    throw error;
  }
}

export interface PageInput {
  title: string;
  body: Html;
  status?: number;
  /** The outcome of the form this page answers itself (not through a redirect); else the session's. */
  flash?: FormFlash;
}

/** Answers with the page in the layout; shows (and clears) the outcome of the last form. */
export async function renderPage(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  page: PageInput,
): Promise<string> {
  const session = request.dashboardSession;
  const kept = session?.flash ?? null;
  if (session && kept) await setFlash(ctx.db, session.tokenHash, null);
  const flash = page.flash ?? kept;
  void reply.status(page.status ?? 200).type('text/html; charset=utf-8');
  return layout({
    title: page.title,
    body: page.body,
    session,
    path: request.url.split('?')[0]!,
    flash,
    flashShownBeside: !page.flash && shownBeside.has(request),
  });
}

/** The requests whose page shows the session's flash beside its element (`messageBeside`). */
const shownBeside = new WeakSet<FastifyRequest>();

/** The id of the message said beside the element `id` (`messageBeside`). */
function besideMessageId(id: string): string {
  return `${id}-message`;
}

/**
 * The message of the last form, when it is said beside the element `id` (its flash's `beside`), to
 * show there rather than at the page's top: the post comes back to it (`redirectTo`), which
 * Chromium focuses (tabindex -1) and scrolls to, so that the editor reads it where they are and the
 * next Tab goes on from there. At the top, a message about a row 40 rows down, or about a form below
 * the manuscript's summary, was out of view of the place the page came back to.
 */
export function messageBeside(request: FastifyRequest, id: string): Html | null {
  const flash = request.dashboardSession?.flash;
  if (!flash || flash.beside !== id) return null;
  shownBeside.add(request);
  return html`<p
    id="${besideMessageId(id)}"
    class="flash ${flash.kind} beside"
    role="${flash.kind === 'error' ? 'alert' : 'status'}"
    tabindex="-1"
  >
    ${isolatedHtml(flash.message)}
  </p>`;
}

/** What a form keeps to show again after a refusal: its values but the CSRF token, when small. */
const MAX_KEPT_FORM_CHARS = 64 * 1024;

export function keptForm(body: unknown, keeps: KeepsForm): Record<string, string | string[]> | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const dropped = new Set(['_csrf', ...(typeof keeps === 'object' ? keeps.without : [])]);
  const values = Object.fromEntries(
    Object.entries(body as Record<string, unknown>).filter(
      (entry): entry is [string, string | string[]] =>
        !dropped.has(entry[0]) && (typeof entry[1] === 'string' || Array.isArray(entry[1])),
    ),
  );
  return JSON.stringify(values).length <= MAX_KEPT_FORM_CHARS ? values : undefined;
}

/**
 * The values of this page's form as they were posted and refused (a route with `keepsForm`), to
 * show again; null when the page is shown otherwise.
 */
export function postedForm(request: FastifyRequest): Record<string, string | string[]> | null {
  return request.dashboardSession?.flash?.form ?? null;
}

/**
 * A refusal (400, or 409 for a value taken) about one field of the form (its posted name), shown
 * beside it when the form comes back.
 */
export function fieldInvalid(field: string, message: string, status: 400 | 409 = 400): AppError {
  const details = [{ path: `body.${field}`, message }];
  return status === 409
    ? new AppError(409, 'conflict', message, details)
    : errors.validation(message, details);
}

/**
 * Runs `work` (a store's call); a 400 or 409 it throws without details is said to concern the
 * field `field` names (a string, or a function of the error's message for a call whose
 * refusals concern different fields), so that the page shows it beside that field.
 */
export async function concerning<T>(
  field: string | ((message: string) => string | null),
  work: () => Promise<T> | T,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A refusal that already says what it concerns (a field, or an organization's limit, which no
    // field of the form could lift) goes on as it is.
    if (!(error instanceof AppError) || ![400, 409].includes(error.status) || error.details?.length) {
      throw error;
    }
    const name = typeof field === 'string' ? field : field(error.message);
    if (name === null) throw error;
    throw new AppError(error.status, error.code, error.message, [
      { path: `body.${name}`, message: error.message },
    ]).naming(...error.values);
  }
}

/**
 * What an edit form was filled from (a group's record, a folder's settings), as a digest: posted back
 * with the form (`seenField`), for `refuseChangedMeanwhile`. Equal for equal contents: an object's
 * keys in any order, a key holding null or nothing (a custom field without a value).
 */
export function versionOf(filledFrom: unknown): string {
  const canonical = JSON.stringify(filledFrom, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== null && v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : value,
  );
  return createHash('sha256').update(canonical).digest('base64url');
}

/**
 * The hidden field of an edit form saying what it was filled from: what is stored now, also when the
 * form comes back refused, so that sending it again replaces what is stored knowingly.
 */
export function seenField(filledFrom: unknown): Html {
  return html`<input type="hidden" name="seen" value="${versionOf(filledFrom)}" />`;
}

/**
 * Refuses (409, nothing saved) a form filled from what was changed since it was opened (in another
 * tab, by another editor) to other than what it sends now, where saving it silently undid that
 * change; a second click of Save, which finds its own save stored, goes through. `stored` and `sent`
 * are written as the form's `seenField` was. A form without `seen` is not checked. A form that comes
 * back showing what is stored rather than what was sent (a user's role, one choice in a row of a
 * list, `keepsForm` off) says so (`comesBack: 'stored'`).
 */
export function refuseChangedMeanwhile(
  body: FormBody,
  what: string,
  stored: unknown,
  sent: unknown,
  comesBack: 'as sent' | 'stored' = 'as sent',
): void {
  const seen = text(body, 'seen');
  const now = versionOf(stored);
  if (seen === '' || seen === now || versionOf(sent) === now) return;
  const next =
    comesBack === 'as sent'
      ? 'The form is as you sent it: save again to replace what is stored with it, or open the page again to see it as it is now.'
      : 'The form shows what is stored now: choose again and save to change it.';
  throw errors.conflict(
    `${what} changed since this form was opened (in another tab, or by another editor): nothing was saved, so as not to undo that change. ${next}`,
  );
}

/**
 * Runs every check of a form (each a store's check or a page's); the refusals that name a field of
 * the form are joined into one, so that the form comes back with every wrong field marked at once,
 * where the editor used to correct one, send, and be told of the next. Other errors go on as they are.
 */
export async function checkAll(checks: ReadonlyArray<() => unknown>): Promise<void> {
  const refused: AppError[] = [];
  for (const check of checks) {
    try {
      await check();
    } catch (error) {
      const named =
        error instanceof AppError &&
        [400, 409].includes(error.status) &&
        (error.details ?? []).some((d) => d.path.startsWith('body.'));
      if (!named) throw error;
      refused.push(error as AppError);
    }
  }
  if (refused.length === 0) return;
  if (refused.length === 1) throw refused[0]!;
  const conflict = refused.every((e) => e.status === 409);
  throw new AppError(
    conflict ? 409 : 400,
    conflict ? 'conflict' : 'validation_failed',
    refused.map((e) => e.message).join('; '),
    refused.flatMap((e) => e.details ?? []),
  ).naming(...refused.flatMap((e) => e.values));
}

/** The message of each field of a refused post: its details that name a field of the body. */
function fieldErrorsOf(error: AppError): FieldErrors | undefined {
  const fields: FieldErrors = {};
  for (const detail of error.details ?? []) {
    const match = /^body\.([^.]+)/.exec(detail.path);
    if (!match) continue;
    const name = match[1]!;
    const message = asSentence(refusalText(error, detail.message));
    fields[name] = fields[name] ? `${fields[name]}; ${message}` : message;
  }
  return Object.keys(fields).length > 0 ? fields : undefined;
}

/**
 * A schema's words for one field ("must NOT have more than 100 characters"), said under the field's
 * label, read as a sentence of their own: "Must not have more than 100 characters".
 */
function asSentence(message: string): string {
  if (!/^must /.test(message)) return message;
  return `M${message.slice(1).replace(/\bNOT\b/g, 'not')}`;
}

/**
 * What a form's input needs to say it was refused: `attrs` for the input (`aria-invalid`, and
 * `aria-describedby` naming the message first, then the input's own hints), and `message`, the
 * paragraph to place beside it (null when the field was not refused). `id` is the input's id.
 *
 * A refused input is also `autofocus`: the page comes back with the focus in the first wrong field
 * (the browser takes the first such element in the page and ignores the rest), so the keyboard is
 * there and a screen reader says its label and message at once, where the focus was at the page's
 * top, below which a keyboard went through the skip link, the header and the navigation (ten Tabs
 * and more) to reach it. No script: the attribute does it on the page's load.
 */
export function fieldState(
  request: FastifyRequest,
  name: string,
  input: { id?: string; hints?: readonly string[]; problem?: string } = {},
): { attrs: Html; message: Html | null; invalid: boolean } {
  const id = input.id ?? name;
  // `problem`: a refusal the page answers itself rather than through the kept form (a form too
  // large to keep in the session: the CSV of a group's import).
  const problem =
    input.problem ?? (request.dashboardSession?.flash as FormFlash | null | undefined)?.fields?.[name];
  const describedBy = [...(problem ? [`${id}-error`] : []), ...(input.hints ?? [])];
  return {
    attrs: html`${describedBy.length > 0 ? html`aria-describedby="${describedBy.join(' ')}"` : null}${
      problem ? html` aria-invalid="true" autofocus` : null
    }`,
    message: problem ? html`<p id="${id}-error" class="field-error">${isolatedHtml(problem)}</p>` : null,
    invalid: problem !== undefined,
  };
}

/** 303 See Other to a dashboard page, with a message for it. */
export async function redirectTo(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  location: string,
  flash?: Flash,
): Promise<FastifyReply> {
  if (flash && request.dashboardSession) await setFlash(ctx.db, request.dashboardSession.tokenHash, flash);
  // A message said beside an element is where the page comes back to (`messageBeside`).
  const at = flash?.beside ? `${location.split('#')[0]}#${besideMessageId(flash.beside)}` : location;
  return reply.status(303).header('location', at).send();
}

// No script runs on any page; styles and images come only from this process; forms post only here.
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

function securityHeaders(reply: FastifyReply): void {
  // A page of an organization's data is not kept by a browser's or a proxy's cache.
  void htmlSecurityHeaders(reply, CSP).header('cache-control', 'no-store');
}

function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form sent with a token that is not the one its page was given (or with none). */
function formExpired(): AppError {
  return new AppError(403, 'csrf_failed', 'The form has expired. Load the page again and resubmit.');
}

/**
 * A form's token against the session's: 403 unless they are the same. The framework checks every
 * URL-encoded post's; a multipart form's is read by its handler (a route's `multipart`), which calls this.
 */
export function checkFormToken(request: FastifyRequest, token: string | undefined): void {
  if (!sameToken(token, sessionOf(request).csrfToken)) throw formExpired();
}

/** A multipart form's file: its name as chosen, its bytes (none kept past the size limit: `tooLarge`). */
export interface SentFile {
  name: string;
  bytes: Buffer;
  tooLarge: boolean;
}

/**
 * Reads a dashboard form sent as multipart/form-data (a route's `multipart`): its token first, checked
 * before anything else is read (the form sends it first), then its text fields (each with whether it
 * was cut at the field limit) and its one file, read to a buffer unless past the file limit. A part
 * the form does not have is refused (400, naming `form`).
 */
export async function readMultipartForm(
  request: FastifyRequest,
  form: { name: string; fields: readonly string[]; file: string },
): Promise<{ fields: Map<string, { value: string; truncated: boolean }>; file: SentFile | null }> {
  const fields = new Map<string, { value: string; truncated: boolean }>();
  let file: SentFile | null = null;
  let checked = false;
  for await (const part of request.parts()) {
    if (part.type === 'field' && part.fieldname === '_csrf') {
      checkFormToken(request, typeof part.value === 'string' ? part.value : undefined);
      checked = true;
      continue;
    }
    if (!checked) checkFormToken(request, undefined);
    if (part.type === 'field' && form.fields.includes(part.fieldname)) {
      const value = typeof part.value === 'string' ? part.value : '';
      fields.set(part.fieldname, { value, truncated: part.valueTruncated });
    } else if (part.type === 'file' && part.fieldname === form.file) {
      let bytes: Buffer = Buffer.alloc(0);
      let tooLarge = false;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
        tooLarge = true;
      }
      // A form sent without a file chosen has an empty part without a name.
      if (part.filename !== '' || bytes.length > 0) file = { name: part.filename, bytes, tooLarge };
      // The parser ends the parts with its own error (413) after a file past the limit: the file is
      // the form's last part, read to its end.
      if (tooLarge) break;
    } else {
      throw errors.validation(`The ${form.name} form has no part named ${part.fieldname}`);
    }
  }
  if (!checked) checkFormToken(request, undefined);
  return { fields, file };
}

function isMultipartPost(request: FastifyRequest): boolean {
  return /^multipart\/form-data\b/i.test(request.headers['content-type'] ?? '');
}

function formToken(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const token = body?._csrf;
  return typeof token === 'string' ? token : undefined;
}

/**
 * More fields than any dashboard form has (the longest: a group's checkboxes, a field's options). The
 * form is read before the session or the CSRF token is checked, by anyone: its cost must stay small.
 */
export const MAX_FORM_FIELDS = 2000;

/**
 * Form posts arrive URL-encoded: read in time linear in their length; a name given several times
 * (checkboxes, multi-selects) becomes a list.
 */
function parseForm(text: string): Record<string, string | string[]> {
  const byName = new Map<string, string[]>();
  let fields = 0;
  for (const [name, value] of new URLSearchParams(text)) {
    if (++fields > MAX_FORM_FIELDS)
      throw errors.validation(`The form has more than ${countOf(MAX_FORM_FIELDS, 'field', 'fields')}`);
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  // fromEntries makes own properties, "__proto__" too.
  return Object.fromEntries(
    [...byName].map(([name, values]) => [name, values.length === 1 ? values[0]! : values]),
  );
}

export function registerDashboardFramework(scope: FastifyInstance, ctx: AppContext): void {
  scope.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseForm(body as string));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  scope.decorateRequest('dashboardSession', null);

  scope.addHook('onRoute', (route) => {
    const rule = route.config?.dashboard;
    if (!rule) return;
    const methods: string[] = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'GET' || method === 'POST') {
        scope.dashboardRoutes.push({ method, url: route.url, action: rule.action });
      }
    }
  });

  scope.addHook('onRequest', async (request, reply) => {
    securityHeaders(reply);
    const token = readCookie(request, SESSION_COOKIE);
    request.dashboardSession = token ? await findSession(ctx.db, token) : null;
  });

  scope.addHook('preValidation', async (request, reply) => {
    const rule = request.routeOptions.config.dashboard;
    if (!rule) return;
    if (rule.action === 'public') {
      if (
        request.method === 'POST' &&
        !sameToken(formToken(request), readCookie(request, LOGIN_CSRF_COOKIE))
      ) {
        throw formExpired();
      }
      return;
    }
    const session = request.dashboardSession;
    if (!session) {
      // Signing out when already signed out is done, not lost.
      if (request.routeOptions.url === '/dashboard/sign-out/') {
        return reply.status(303).header('location', '/dashboard/sign-in/').send();
      }
      if (request.method === 'GET') {
        return reply
          .status(303)
          .header('location', `/dashboard/sign-in/?next=${encodeURIComponent(request.url)}`)
          .send();
      }
      // A form sent after the session ended (its 8 hours, a sign-out in another tab) changed
      // nothing: the sign-in page says so and leads back to the form's page, where it led home
      // without a word and the editor could believe it saved.
      const page = formPage(request, rule);
      if (rule.multipart && isMultipartPost(request)) {
        await keepUploadSentAfterSessionEnded(ctx, request, reply, rule, page);
      } else {
        await keepFormSentAfterSessionEnded(ctx, request, reply, rule, page);
      }
      const params = new URLSearchParams({ next: page, unsaved: '1' });
      return reply.status(303).header('location', `/dashboard/sign-in/?${params.toString()}`).send();
    }
    if (session.user.mustChangePassword && !rule.whilePasswordExpired) {
      return reply.status(303).header('location', '/dashboard/password/').send();
    }
    if (!can(session.user.role, rule.action)) {
      // Names the role (it may have changed since the page was shown, by an admin in another
      // session) and, for a form, that nothing was saved and who can change it.
      const role = ROLE_LABELS[session.user.role];
      throw new AppError(
        403,
        'forbidden',
        request.method === 'POST'
          ? `Your role, ${role}, does not allow this: nothing was saved. An integrations admin of your organization can change your role.`
          : `Your role, ${role}, does not allow this page.`,
      );
    }
    // A multipart post's token is in its body, read by the handler, which checks it (checkFormToken).
    if (rule.multipart && isMultipartPost(request)) return;
    if (request.method === 'POST') checkFormToken(request, formToken(request));
  });

  scope.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error);
    // A request refused before the dashboard's own hooks ran (the address's rate limit) has neither
    // the security headers nor, for a 429, its Retry-After: both go with every error page.
    securityHeaders(reply);
    for (const [name, value] of Object.entries(appError.headers ?? {})) void reply.header(name, value);
    if (appError.status >= 500) request.log.error({ err: error }, 'dashboard request failed');
    const back = request.routeOptions.config?.dashboard?.back;
    if (
      back &&
      request.method === 'POST' &&
      request.dashboardSession &&
      [400, 409].includes(appError.status)
    ) {
      const keeps = request.routeOptions.config?.dashboard?.keepsForm;
      const form = keeps ? keptForm(request.body, keeps) : undefined;
      // The messages, never the values: also for a form that keeps none (a password's).
      const fields = fieldErrorsOf(appError);
      const flash: FormFlash = {
        kind: 'error',
        message: flashMessage(appError),
        ...(form ? { form } : {}),
        ...(fields ? { fields } : {}),
      };
      // Without the address's fragment (a form's section, `#custom-fields`; `#candidates`): Chromium
      // lets a fragment win over `autofocus`, so the first wrong field, or the message, took no focus,
      // which stayed at the page's top, and a message at the top was scrolled out of view. The
      // autofocused element brings itself into view.
      return redirectTo(ctx, request, reply, back(request).split('#')[0]!, flash);
    }
    if (appError.status === 413 && request.dashboardSession) {
      return renderPage(ctx, request, reply, {
        title: 'Too large to save',
        status: 413,
        body: tooLargePage(ctx, request),
      });
    }
    return renderPage(ctx, request, reply, {
      title: errorTitle(appError.status),
      status: appError.status,
      body: errorPageBody(appError, request),
    });
  });

  scope.setNotFoundHandler(async (request, reply) =>
    renderPage(ctx, request, reply, {
      title: 'Not found',
      status: 404,
      body: html`<p role="alert" tabindex="-1" autofocus>There is no page at ${request.url.split('?')[0]}.</p>
        <p><a href="/dashboard/">Back to the dashboard</a></p>`,
    }),
  );
}

/**
 * What was typed in a form sent after its session expired, kept for the same user's next sign-in
 * (docs/dashboard.md, "A form sent after the session ended"): only a form that keeps what was typed
 * (`keepsForm`, so never a password or a secret), only with the ended session whose CSRF token it
 * carries (another site cannot know it), and only in this browser (the cookie names that session).
 */
async function keepFormSentAfterSessionEnded(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: RouteRule,
  page: string,
): Promise<void> {
  const token = formToken(request);
  const form = rule.keepsForm ? keptForm(request.body, rule.keepsForm) : undefined;
  if (!token || !form) return;
  await keepForNextSignIn(ctx, request, reply, token, {
    kind: 'error',
    message: UNSENT_FORM_MESSAGE,
    form,
    page,
  });
}

/** Keeps a form sent after its session ended with that session, and names it in this browser's cookie. */
async function keepForNextSignIn(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  flash: Flash,
): Promise<void> {
  if (await keepUnsentForm(ctx.db, token, flash)) {
    setCookie(request, reply, UNSENT_FORM_COOKIE, token, UNSENT_FORM_COOKIE_SECONDS);
  }
}

/**
 * A multipart form (a group's import: a pasted CSV or a file) sent after its session expired, kept as
 * `keepFormSentAfterSessionEnded` keeps a typed one, for the same user's next sign-in: its body is
 * not read before then, so it was lost, and the CSV with it. Its token comes first and is checked
 * against an ended session of this browser before anything else is read; then its fields, and a file
 * that is UTF-8 text as its text under the file's field name (the page puts it back in its text
 * field: a file input cannot be filled again), as long as the whole post is within the body limit (a
 * form's size): past it, or not text, the file is named and not kept, and the person chooses it again.
 */
async function keepUploadSentAfterSessionEnded(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  rule: RouteRule,
  page: string,
): Promise<void> {
  if (!rule.keepsForm) return;
  const dropped = new Set(typeof rule.keepsForm === 'object' ? rule.keepsForm.without : []);
  const limit = ctx.config.bodyLimitBytes;
  const sent = Number(request.headers['content-length']);
  const tooLarge = !Number.isFinite(sent) || sent > limit;
  const form: Record<string, string> = {};
  const notes: string[] = [];
  let token: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (token === undefined) {
        // The form sends its token first: of a post no ended session of ours sent, nothing is kept
        // (the rest of its body is read to its end and dropped: unread-body.ts).
        if (part.type !== 'field' || part.fieldname !== '_csrf' || typeof part.value !== 'string') return;
        if (!(await isEndedSession(ctx.db, part.value))) return;
        token = part.value;
        if (tooLarge) break;
        continue;
      }
      if (dropped.has(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        continue;
      }
      if (part.type === 'field') {
        if (typeof part.value === 'string') form[part.fieldname] = part.value;
        continue;
      }
      const bytes = await part.toBuffer();
      if (part.filename === '' && bytes.length === 0) continue;
      const name = isolateText(part.filename);
      if (bytes.length > limit) {
        notes.push(`The file ${name} was not kept (larger than ${mebibytes(limit)}): choose it again.`);
      } else if (!isUtf8(bytes) || bytes.includes(0)) {
        notes.push(`The file ${name} was not kept (it is not UTF-8 text): choose it again.`);
      } else {
        form[part.fieldname] = bytes.toString('utf8');
        notes.push(`The file ${name} is kept as text, in the form's text field.`);
      }
    }
  } catch {
    // A body cut short or malformed: what was read before is kept, if its token was.
  }
  if (token === undefined) return;
  if (tooLarge) {
    notes.push(
      `It was too large to keep (over ${mebibytes(limit)}): choose the file again, or paste it again.`,
    );
  }
  // Only a field with something in it is worth showing again (a file's text is kept in its field):
  // a post too large to read, or a file not kept beside an empty field, keeps only what was not kept,
  // where it said "What you typed is below" over an empty form, and the sign-in page that it was kept.
  const keptSome = Object.values(form).some((value) => value.trim() !== '');
  const message = [keptSome ? UNSENT_FORM_MESSAGE : UNSENT_FORM_NOT_KEPT_MESSAGE, ...notes].join(' ');
  await keepForNextSignIn(ctx, request, reply, token, {
    kind: 'error',
    message,
    ...(keptSome ? { form } : {}),
    page,
  });
}

/** What the page says when it shows again a form that was sent after its session ended. */
export const UNSENT_FORM_MESSAGE =
  'Not saved yet: you were signed out before this was sent. What you typed is below (never a password or a secret); check it and send it again.';

/** What the page says of a form sent after its session ended of which nothing could be kept. */
export const UNSENT_FORM_NOT_KEPT_MESSAGE =
  'Not saved: you were signed out before this was sent, and nothing of it could be kept to show again.';

/** The page a form was sent from: the route's `back`, else the page the browser says it was on. */
function formPage(request: FastifyRequest, rule: RouteRule): string {
  if (rule.back) return rule.back(request);
  const referer = request.headers.referer;
  if (!referer) return '/dashboard/';
  try {
    const url = new URL(referer);
    // Only this dashboard's own pages: the sign-in page checks `next` again before following it.
    return url.hostname === request.hostname && url.pathname.startsWith('/dashboard/')
      ? url.pathname + url.search
      : '/dashboard/';
  } catch {
    return '/dashboard/';
  }
}

/**
 * A form past the body limit is refused before it is read, so nothing of it can be kept: the page says
 * what happened, how large a form may be, how to get back what was typed (the browser's Back keeps
 * it) and what to shorten, and leads back to the form's page. The session stays as it was.
 */
function tooLargePage(ctx: AppContext, request: FastifyRequest): Html {
  const rule = request.routeOptions.config?.dashboard;
  const sent = Number(request.headers['content-length']);
  const page = rule && request.method === 'POST' ? formPage(request, rule) : '/dashboard/';
  const size = Number.isFinite(sent) && sent > 0 ? ` was ${mebibytes(sent)},` : ' is';
  return html`<p role="alert">
      Nothing was saved: the form you sent${size} more than the ${mebibytes(ctx.config.bodyLimitBytes)} a form
      may send.
    </p>
    <p>
      What you typed is not lost yet: go back with your browser's Back button, where the form usually still
      holds it, then shorten the longest field (a long list of articles or affiliations: keep what identifies
      the person; each save sends the whole form again, so it cannot be split over saves) and send it again.
    </p>
    <p><a href="${page}">Back to the form's page</a> (the form as it is saved, without what you typed)</p>`;
}

/** A field's name as a validation detail gives it (`body.url` -> `url`). */
function partName(path: string): string {
  return path.replace(/^(querystring|params|body)\.?/, '') || path;
}

/**
 * A refused form's message on its page: a schema's refusal ("The request is not valid") says which
 * field and why, as the error page lists them, where it said nothing a person could act on.
 */
function flashMessage(error: AppError): string {
  // A detail the message already says (a field's message, also shown beside the field) is not
  // repeated, its names isolated or not: a custom value's refusal said "Pages must be a finite
  // number: cf_<its id> Pages must be a finite number", the input's name and all.
  const said = withoutIsolates(error.message);
  const details = (error.details ?? []).filter((d) => !said.includes(withoutIsolates(d.message)));
  if (error.status !== 400 || details.length === 0) return refusalText(error);
  const parts = details.slice(0, 5).map((d) => `${partName(d.path)} ${refusalText(error, d.message)}`);
  return `${refusalText(error)}: ${parts.join('; ')}.`;
}

/**
 * What a refused link or form held that the page does not take (an edited address, a stale
 * bookmark): "The request is not valid" alone left the reader guessing. Names come from the
 * route's schema, never from stored data.
 */
/**
 * A refusal's message (or one of its details') as the dashboard says it: the user-written values it
 * names (`AppError.values`: a group's name, an email, from the stores the API shares) isolated for
 * direction (`isolateText`), as the dashboard's own sentences isolate theirs.
 */
export function refusalText(error: AppError, message = error.message): string {
  const values = [...new Set(error.values)].filter((v) => v !== '').sort((a, b) => b.length - a.length);
  if (values.length === 0) return message;
  // Left to right, the longest value where several begin: each occurrence isolated once.
  let said = '';
  for (let at = 0; at < message.length;) {
    const value = values.find((v) => message.startsWith(v, at));
    said += value === undefined ? message[at] : isolateText(value);
    at += value === undefined ? 1 : value.length;
  }
  return said;
}

/** An error page's body: the message, the parts of the form it names, the way back. */
function errorPageBody(error: AppError, request?: FastifyRequest): Html {
  const address = request ? addressRefusal(error, request) : null;
  if (address) return address;
  // Focused, as the address's refusal is (`addressRefusal`): a page asked for that is refused (a link
  // to a page the role does not allow, one deleted since) had the focus at its top, the message unheard.
  return html`<p role="alert" tabindex="-1" autofocus>${isolatedHtml(refusalText(error))}</p>
    ${invalidParts(error)}
    <p><a href="/dashboard/">Back to the dashboard</a></p>`;
}

/** What each path parameter of a dashboard address stands for, as a sentence names it. */
const ADDRESS_PARAMS: Readonly<Record<string, string>> = {
  authorId: 'author number',
  clientId: "record's client id",
  deliveryId: 'delivery number',
  fieldId: "custom field's id",
  folderId: 'folder number',
  groupId: 'group number',
  keyId: 'API key number',
  manuscriptId: 'manuscript number',
  sourceId: 'journal number',
  userId: 'user number',
};

/** A schema's bound as the dashboard writes a number: a whole one thousands separated, as every count. */
function boundInWords(bound: string): string {
  return /^-?\d+$/.test(bound) ? formatCount(Number(bound)) : bound;
}

/** A schema's rule as a sentence of the dashboard says it ("must be >= 1": "must be 1 or more"). */
function ruleInWords(message: string): string {
  return message
    .replace(/^must be >= (\S+)$/, (_, n: string) => `must be ${boundInWords(n)} or more`)
    .replace(/^must be <= (\S+)$/, (_, n: string) => `must be ${boundInWords(n)} or less`)
    .replace(
      /^must NOT have more than (\d+) characters$/,
      (_, n: string) => `must be at most ${countOf(Number(n), 'character', 'characters')} long`,
    )
    .replace(
      /^must NOT have fewer than (\d+) characters?$/,
      (_, n: string) => `must be at least ${countOf(Number(n), 'character', 'characters')} long`,
    )
    .replace(/^must be (?:integer|a whole number in decimal digits)$/, 'must be a whole number, in digits')
    .replace(
      /^must be one of (.+)$/,
      (_, list: string) => `must be one of: ${list.replace(/"([^"]*)"/g, '$1')}`,
    );
}

/**
 * A page's address refused by its route's schema (edited by hand, cut short, an old bookmark), said
 * in words: which part of the address, as it was written, and what the dashboard's links put there
 * ("The manuscript number in the address, “abc”, must be a whole number, in digits"; "The option
 * page in the address, “0”, must be 1 or more"), with a link to the page without the wrong options, or to the
 * section's list when the wrong part is in the path. It said "The request is not valid" over the
 * schema's own names and symbols ("before must be >= 1", "manuscriptId must be a whole number in
 * decimal digits"), for options the editor never typed. Null when the refusal is not of the address.
 */
function addressRefusal(error: AppError, request: FastifyRequest): Html | null {
  const details = error.status === 400 ? (error.details ?? []) : [];
  const parts = details.map((d) => /^(params|querystring)\.([^.]+)$/.exec(d.path));
  if (details.length === 0 || parts.some((p) => p === null)) return null;
  const [path, query = ''] = request.url.split('?') as [string, string?];
  const written = new URLSearchParams(query);
  const params = (request.params ?? {}) as Record<string, unknown>;
  const sentences = details.slice(0, 5).map((d, i) => {
    const [, where, name] = parts[i]!;
    const rule = ruleInWords(d.message);
    if (where === 'params') {
      const what = ADDRESS_PARAMS[name!] ?? name!;
      return `The ${what} in the address, ${quotedBack(String(params[name!] ?? ''))}, ${rule}.`;
    }
    return `The option ${name} in the address, ${quotedBack(written.get(name!) ?? '')}, ${rule}.`;
  });
  const wrongOptions = new Set(parts.filter((p) => p![1] === 'querystring').map((p) => p![2]!));
  let way: Html;
  if (wrongOptions.size === parts.length) {
    const kept = new URLSearchParams([...written].filter(([name]) => !wrongOptions.has(name))).toString();
    way = html`<a href="${path}${kept ? `?${kept}` : ''}"
        >Open the page without ${[...wrongOptions].join(', ')}</a
      >
      · `;
  } else {
    // The section's list (its navigation entry), the nearest page the address names for sure.
    const section = NAV.filter((n) => n.href !== '/dashboard/' && path.startsWith(n.href)).sort(
      (a, b) => b.href.length - a.href.length,
    )[0];
    way = section ? html`<a href="${section.href}">Go to ${section.label}</a> · ` : html``;
  }
  // Focused, as a refused form's message is: a page asked for by an address, not a form's answer,
  // left the focus at the page's top, the skip link and the navigation before the words.
  return html`<p role="alert" tabindex="-1" autofocus>
      This address is not one the dashboard's links make: it was changed by hand, or cut short.
    </p>
    <ul>
      ${sentences.map((s) => html`<li>${isolatedHtml(s)}</li>`)}
    </ul>
    <p>${way}<a href="/dashboard/">Back to the dashboard</a></p>`;
}

function invalidParts(error: AppError): Html | null {
  if (error.status !== 400 || !error.details?.length) return null;
  return html`<ul>
    ${error.details.slice(0, 5).map((d) => html`<li><code>${partName(d.path)}</code> ${d.message}</li>`)}
  </ul>`;
}

/**
 * A dashboard address refused before any route or hook ran (`frameworkError`: a malformed
 * percent-encoding, an over-long path segment): a page, as the browser that followed a mangled link
 * should see, not the API's JSON. No session is read at that point, so the page has no header.
 */
export function sendFrameworkErrorPage(reply: FastifyReply, appError: AppError): void {
  securityHeaders(reply);
  void reply
    .status(appError.status)
    .type('text/html; charset=utf-8')
    .send(
      layout({
        title: errorTitle(appError.status),
        body: errorPageBody(appError),
        session: null,
        path: '/dashboard/',
        flash: null,
      }),
    );
}

function errorTitle(status: number): string {
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Not found';
  if (status === 429) return 'Too many attempts';
  if (status >= 500) return 'Something went wrong';
  return 'That did not work';
}
