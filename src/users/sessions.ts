// Dashboard sessions, kept in the database so that every instance sees them and a sign-out, a
// disabled user or a changed password ends them everywhere at once.
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../infra/db/index.ts';
import type { Role } from './roles.ts';

export interface Flash {
  kind: 'ok' | 'error';
  message: string;
  /** A refused form's values, for the page to show again with the message (dashboard `keepsForm`). */
  form?: Record<string, string | string[]>;
  /** For a form sent after its session ended (keepUnsentForm): the page the form is on. */
  page?: string;
  /**
   * The id of the element the message is said beside (dashboard `messageBeside`), where the page
   * comes back to; shown at the page's top when the page has no such element.
   */
  beside?: string;
}

export interface Session {
  tokenHash: Buffer;
  csrfToken: string;
  flash: Flash | null;
  user: {
    id: number;
    email: string;
    role: Role;
    organizationId: number;
    organizationName: string;
    mustChangePassword: boolean;
  };
}

/** How long an expired session's row is kept, for a form sent after it ended (keepUnsentForm). */
const ENDED_SESSION_KEPT = "interval '1 day'";

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/**
 * Sessions one user holds (live, or ended and kept for an unsent form): past it, a sign-in closes
 * the oldest. A person has a few browsers; signed in again and again, one user stored a session
 * at each sign-in, kept 8 hours.
 */
export const MAX_SESSIONS_PER_USER = 50;

/** Opens a session; returns the token for the cookie (only its hash is stored). */
export async function openSession(db: Queryable, userId: number, ttlMs: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const tokenHash = hashToken(token);
  await db.query(
    `INSERT INTO dashboard_sessions (token_hash, user_id, csrf_token, expires_at)
     VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')`,
    [tokenHash, userId, randomBytes(32).toString('base64url'), ttlMs],
  );
  await db.query(
    `DELETE FROM dashboard_sessions WHERE token_hash IN (
       SELECT token_hash FROM dashboard_sessions WHERE user_id = $1 AND token_hash <> $2
        ORDER BY created_at DESC, token_hash OFFSET $3)`,
    [userId, tokenHash, MAX_SESSIONS_PER_USER - 1],
  );
  // Swept here, which keeps the table small without a timer; an ended session is kept a day, in case
  // a form of its pages was sent after it ended (keepUnsentForm).
  await db.query(`DELETE FROM dashboard_sessions WHERE expires_at < now() - ${ENDED_SESSION_KEPT}`);
  return token;
}

interface SessionRow {
  token_hash: Uint8Array;
  csrf_token: string;
  flash: Flash | null;
  user_id: number;
  email: string;
  role: Role;
  organization_id: number;
  organization_name: string;
  must_change_password: boolean;
}

/** The live session of a token: unexpired, of a user not disabled. */
export async function findSession(db: Queryable, token: string): Promise<Session | null> {
  const { rows } = await db.query<SessionRow>(
    `SELECT s.token_hash, s.csrf_token, s.flash, u.id AS user_id, u.email, u.role, u.organization_id,
            o.name AS organization_name, u.must_change_password
       FROM dashboard_sessions s
       JOIN users u ON u.id = s.user_id
       JOIN organizations o ON o.id = u.organization_id
      WHERE s.token_hash = $1 AND s.expires_at > now() AND u.disabled_at IS NULL`,
    [hashToken(token)],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    tokenHash: Buffer.from(row.token_hash),
    csrfToken: row.csrf_token,
    flash: row.flash,
    user: {
      id: row.user_id,
      email: row.email,
      role: row.role,
      organizationId: row.organization_id,
      organizationName: row.organization_name,
      mustChangePassword: row.must_change_password,
    },
  };
}

export async function closeSession(db: Queryable, tokenHash: Buffer): Promise<void> {
  await db.query('DELETE FROM dashboard_sessions WHERE token_hash = $1', [tokenHash]);
}

export async function setFlash(db: Queryable, tokenHash: Buffer, flash: Flash | null): Promise<void> {
  await db.query('UPDATE dashboard_sessions SET flash = $2 WHERE token_hash = $1', [
    tokenHash,
    flash === null ? null : JSON.stringify(flash),
  ]);
}

/**
 * A form sent after its session expired: kept with that ended session, found by the CSRF token the
 * form carries (a secret of that session's pages, so that no other site can leave values here), for
 * the same user's next sign-in to show again (takeUnsentForm). A session that was closed (sign-out,
 * a disabled user, a changed password) is gone and keeps nothing. Returns whether it was kept.
 */
export async function keepUnsentForm(db: Queryable, csrfToken: string, flash: Flash): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE dashboard_sessions SET flash = $2
      WHERE csrf_token = $1 AND expires_at <= now() AND expires_at > now() - ${ENDED_SESSION_KEPT}`,
    [csrfToken, JSON.stringify(flash)],
  );
  return rowCount > 0;
}

/**
 * Whether `csrfToken` is that of an ended session still kept (keepUnsentForm would keep a form with
 * it): asked before a file sent after the session ended is read, so that no one else's post is.
 */
export async function isEndedSession(db: Queryable, csrfToken: string): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM dashboard_sessions
      WHERE csrf_token = $1 AND expires_at <= now() AND expires_at > now() - ${ENDED_SESSION_KEPT}`,
    [csrfToken],
  );
  return rows.length > 0;
}

/**
 * What the ended session of `csrfToken` keeps for its user's next sign-in (keepUnsentForm): a form's
 * values to show again, only a message saying what could not be kept, or nothing. The sign-in page
 * says which, where it said "what you typed is kept" of a form too large to keep.
 */
export async function unsentFormKept(db: Queryable, csrfToken: string): Promise<'values' | 'message' | null> {
  const { rows } = await db.query<{ values: boolean }>(
    `SELECT flash -> 'form' IS NOT NULL AS values FROM dashboard_sessions
      WHERE csrf_token = $1 AND flash IS NOT NULL
        AND expires_at <= now() AND expires_at > now() - ${ENDED_SESSION_KEPT}`,
    [csrfToken],
  );
  if (rows.length === 0) return null;
  return rows[0]!.values ? 'values' : 'message';
}

/** The account an ended session's kept form (keepUnsentForm) belongs to, and the form's page. */
export interface UnsentFormOwner {
  userId: number;
  email: string;
  organizationId: number;
  organizationName: string;
  page: string | null;
}

/**
 * Whose is the form kept by keepUnsentForm for the ended session of `csrfToken`, if one is kept:
 * asked at a sign-in in that browser, which may be into another account (the same email in another
 * organization), for which the form is kept as it is rather than applied or lost.
 */
export async function unsentFormOwner(db: Queryable, csrfToken: string): Promise<UnsentFormOwner | null> {
  const { rows } = await db.query<{
    user_id: number;
    email: string;
    organization_id: number;
    organization_name: string;
    page: string | null;
  }>(
    `SELECT s.user_id, u.email, u.organization_id, o.name AS organization_name, s.flash ->> 'page' AS page
       FROM dashboard_sessions s
       JOIN users u ON u.id = s.user_id
       JOIN organizations o ON o.id = u.organization_id
      WHERE s.csrf_token = $1 AND s.flash IS NOT NULL
        AND s.expires_at <= now() AND s.expires_at > now() - ${ENDED_SESSION_KEPT}`,
    [csrfToken],
  );
  const row = rows[0];
  return row
    ? {
        userId: row.user_id,
        email: row.email,
        organizationId: row.organization_id,
        organizationName: row.organization_name,
        page: row.page,
      }
    : null;
}

/**
 * The form kept by keepUnsentForm for the ended session of `csrfToken`, if that session was
 * `userId`'s; the ended session goes either way once its user signed in again.
 */
export async function takeUnsentForm(
  db: Queryable,
  csrfToken: string,
  userId: number,
): Promise<Flash | null> {
  const { rows } = await db.query<{ flash: Flash | null }>(
    `DELETE FROM dashboard_sessions
      WHERE csrf_token = $1 AND user_id = $2 AND expires_at <= now() RETURNING flash`,
    [csrfToken, userId],
  );
  return rows[0]?.flash ?? null;
}
