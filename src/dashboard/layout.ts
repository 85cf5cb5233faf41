// The page around every dashboard view: a skip link, the header with the organization and the
// signed-in user, the navigation for their role, the outcome of the last form, then the view.
import { html, isolatedHtml, wrappableAddress, type Html } from './html.ts';
import { NAV } from './nav.ts';
import { can, ROLE_LABELS } from '../users/roles.ts';
import type { Flash, Session } from '../users/sessions.ts';

/**
 * The message beside each field of a refused form, by the field's posted name (`name`, `cf_<api_id>`):
 * an editor sees which field is wrong next to it, where one message at the page's top left them to
 * find it. Carried with the form's values in the session's flash until the page is shown once.
 */
export type FieldErrors = Record<string, string>;

/** A refused form's flash, with the message of each field it concerns (`fields`). */
export interface FormFlash extends Flash {
  fields?: FieldErrors;
  /**
   * The message already says that nothing was saved and what to do beside the fields (the upload's
   * "The manuscript was not uploaded: its file could not be used …"): the layout's line saying so
   * would repeat it, and spoke of "each field" where one file was refused (round 29).
   */
  saysWhatToChange?: boolean;
}

export interface LayoutInput {
  /** Plain text; a name in it is isolated with `isolateText`, shown in the heading in `<bdi>`. */
  title: string;
  body: Html;
  session: Session | null;
  /** The path being shown, to mark the current navigation entry. */
  path: string;
  flash: FormFlash | null;
  /** Whether the body shows the flash beside its element (`messageBeside`): not again at the top. */
  flashShownBeside?: boolean;
}

export function layout(input: LayoutInput): string {
  const { session } = input;
  const header = session
    ? html`<header class="top">
          <span class="brand">refmatch</span>
          <span class="org" dir="auto">${session.user.organizationName}</span>
          <span class="who"
            ><bdi class="address">${wrappableAddress(session.user.email)}</bdi> ·
            ${ROLE_LABELS[session.user.role]}</span
          >
          <form method="post" action="/dashboard/sign-out/" class="inline">
            <input type="hidden" name="_csrf" value="${session.csrfToken}" />
            <button type="submit" class="link">Sign out</button>
          </form>
        </header>
        ${
          session.user.mustChangePassword
            ? null
            : html`<nav aria-label="Dashboard">
                <ul>
                  ${NAV.filter((entry) => can(session.user.role, entry.action)).map(
                    (entry) =>
                      html`<li>
                        <a
                          href="${entry.href}"
                          ${isCurrent(entry.href, input.path) ? html`aria-current="page"` : null}
                          >${entry.label}</a
                        >
                      </li>`,
                  )}
                  <li><a href="/dashboard/password/">Password</a></li>
                </ul>
              </nav>`
        }`
    : html`<header class="top"><span class="brand">refmatch</span></header>`;
  // The message of the last form takes the focus, so the keyboard and a screen reader start from what
  // happened: a status present as the page loads is not announced by itself, and a page loaded after
  // a post that added a group, a field or a record had the focus on itself, the next Tab the skip
  // link, the message unheard. The next Tab goes on into the page from the message. A refusal that
  // marks fields leaves the focus to the first of them (`fieldState`).
  const focusHere = input.flash !== null && !input.flash.fields;
  // The title is what a screen reader says first as a page loads, and what a tab shows: a refused
  // form's page says it there too (every error message is of something not saved).
  const notSaved = input.flash?.kind === 'error' ? 'Not saved: ' : null;
  const flash =
    input.flash && !input.flashShownBeside
      ? html`<p
          class="flash ${input.flash.kind}"
          role="${input.flash.kind === 'error' ? 'alert' : 'status'}"
          ${focusHere ? html`tabindex="-1" autofocus` : null}
        >
          ${isolatedHtml(input.flash.message)}
          ${input.flash.fields && !input.flash.saysWhatToChange ? fieldsNote(input.flash.fields) : null}
        </p>`
      : null;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${notSaved}${input.title} · refmatch dashboard</title>
        <link rel="stylesheet" href="/dashboard/assets/dashboard.css" />
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        ${header}
        <main id="main">
          <h1>${isolatedHtml(input.title)}</h1>
          ${flash} ${input.body}
        </main>
      </body>
    </html>`.value;
}

/** The line under a refusal's message pointing to the fields' own messages, one or several. */
function fieldsNote(fields: FieldErrors): Html {
  const where =
    Object.keys(fields).length === 1 ? 'the message beside the field' : 'the message beside each field';
  return html`<span class="fields-note">Nothing was saved: ${where} says what to change.</span>`;
}

function isCurrent(href: string, path: string): boolean {
  return href === '/dashboard/' ? path === '/dashboard/' || path === '/dashboard' : path.startsWith(href);
}
