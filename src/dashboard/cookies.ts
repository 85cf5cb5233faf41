// Reading and writing the dashboard's cookies: the session, the sign-in form's CSRF token, the
// ended session that holds a form sent after it ended (framework.ts), and the one-time value of a
// form that made a secret, for the page that shows it once (shown-once.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'rm_session';
export const LOGIN_CSRF_COOKIE = 'rm_login_csrf';
/** The CSRF token of an ended session that keeps a form sent after it ended, for the next sign-in. */
export const UNSENT_FORM_COOKIE = 'rm_unsent_form';
/** As long as the ended session is kept (src/users/sessions.ts). */
export const UNSENT_FORM_COOKIE_SECONDS = 24 * 3600;

/**
 * The one-time value of the form whose post made a secret (an API key; a one-time password), held by
 * the browser alone for the page the post leads to, which opens the secret sealed with it, once
 * (`shown-once.ts`). One a page, so that a key and a user made in two tabs keep apart.
 */
export const NEW_KEY_COOKIE = 'rm_new_key';
export const NEW_PASSWORD_COOKIE = 'rm_new_password';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site form posts), Path=/dashboard,
 * and Secure when the request came over TLS (directly, or through a proxy trusted by TRUST_PROXY).
 */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number,
): void {
  const attributes = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/dashboard',
    `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (request.protocol === 'https') attributes.push('Secure');
  const previous = reply.getHeader('set-cookie');
  const list =
    previous === undefined ? [] : Array.isArray(previous) ? previous.map(String) : [String(previous)];
  void reply.header('set-cookie', [...list, attributes.join('; ')]);
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  setCookie(request, reply, name, '', 0);
}
