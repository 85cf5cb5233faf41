// A secret a form makes (an API key, a one-time password) shown once, on a page of its own reached by
// a redirect (post, redirect, get): the post answers 303 and hands the browser the form's one-time
// value in a cookie; the page opens the secret sealed with that value (`form-seal.ts`), erasing the
// sealed copy as it reads it, and clears the cookie. Back, a reload or the page's address again find
// nothing to open, and say the secret was shown already: never the secret again, and never the
// browser's "Confirm Form Resubmission", which the post's answer, a page of its own, met before. The
// secret is in no address, no log and no session: the database holds it sealed, the browser the key.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { SEALED_SECRET_MINUTES } from '../infra/form-seal.ts';
import type { Flash } from '../users/sessions.ts';
import { clearCookie, readCookie, setCookie } from './cookies.ts';
import { redirectTo } from './framework.ts';

/** 303 to `location`, the page that shows what the form with `formValue` made, once. */
export async function toShownOnce(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  target: { cookie: string; formValue: string; location: string; flash?: Flash },
): Promise<FastifyReply> {
  setCookie(request, reply, target.cookie, target.formValue, SEALED_SECRET_MINUTES * 60);
  return redirectTo(ctx, request, reply, target.location, target.flash);
}

/**
 * The form's value the cookie holds, for the page to open its secret with; the cookie cleared. Null
 * when there is none: the page was reached without a form's answer (reloaded or reached by Back after
 * it showed the secret, by its address, a bookmark, or past the cookie's minutes), and cannot tell
 * which form, or whether any, made a secret: it says so plainly (`NO_SECRET_HERE`), not "shown once"
 * of a key or a password it cannot name.
 */
export function takeShownOnce(request: FastifyRequest, reply: FastifyReply, cookie: string): string | null {
  const value = readCookie(request, cookie);
  if (value === undefined) return null;
  clearCookie(request, reply, cookie);
  return value === '' ? null : value;
}

/** How the page that shows a secret once says it was reached without one to show. */
export const NO_SECRET_HERE =
  'and this page was opened again since (reloaded, by Back or Forward, or by its address)';
