// Dashboard users: one organization each, one role each; one email may hold an account in several
// organizations (never two in one). The CLI and the dashboard's Users page both go through these
// functions.
import { inTransaction, type Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import { isEmailAddress } from '../infra/email-address.ts';
import { formDigest, formRecord, openWithForm, SEALED_SECRET_MINUTES } from '../infra/form-seal.ts';
import { requireOrganization } from '../organizations/organizations.ts';
import { checkNewPassword, generatePassword, hashPassword, verifyPassword } from './passwords.ts';
import { isRole, type Role } from './roles.ts';
import { checkLimit } from '../organizations/limits.ts';

export interface User {
  id: number;
  organization_id: number;
  email: string;
  role: Role;
  must_change_password: boolean;
  disabled: boolean;
  created_at: string;
}

const COLUMNS = `id, organization_id, email, role, must_change_password, disabled_at IS NOT NULL AS disabled,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at`;

/**
 * A user's email as it is kept and shown: trimmed and lower-cased. Sign-in, the add form's check and
 * the unique index (migration 0099) take an address in any letter case as one account, so keeping it
 * as typed showed "Editor.One@Walk.example" in the list, the header and `marked_by` (the editorial
 * system's copy), a spelling the product otherwise ignores; one spelling everywhere (migration 0114
 * lowered those kept before).
 */
export function normalizeEmail(email: string): string {
  const trimmed = email.trim();
  if (!isEmailAddress(trimmed) || trimmed.length > 320)
    throw errors.validation(`Not an email address: ${email}`).naming(email);
  return trimmed.toLowerCase();
}

function checkRole(role: string): Role {
  if (!isRole(role)) {
    throw errors.validation(`Unknown role ${role}: integrations_admin, account_manager, editor or viewer`);
  }
  return role;
}

/** Creates a user with a generated one-time password, returned only here; it must be changed at first sign-in. */
export async function createUser(
  db: Queryable,
  input: { organizationId: number; email: string; role: string; formValue?: string },
): Promise<User & { password: string }> {
  const role = checkRole(input.role);
  const email = normalizeEmail(input.email);
  await requireOrganization(db, input.organizationId);
  const password = generatePassword();
  // Hashed before the transaction: the organization's row stays locked for the insert alone.
  const passwordHash = await hashPassword(password);
  // Made by a dashboard form: sealed with its one-time value, for that form sent again.
  const form = formRecord(password, input.formValue);
  const { rows } = await inTransaction(db, async (tx) => {
    await checkLimit(
      tx,
      input.organizationId,
      'users',
      'SELECT count(*)::integer AS n FROM users WHERE organization_id = $1',
      [input.organizationId],
    );
    return tx.query<User>(
      `INSERT INTO users (organization_id, email, role, password_hash, form_nonce, form_sealed, form_sealed_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $6::bytea IS NULL THEN NULL ELSE now() END)
       ON CONFLICT DO NOTHING RETURNING ${COLUMNS}`,
      [input.organizationId, email, role, passwordHash, form.digest, form.sealed],
    );
  });
  // Only this organization's users are compared (migration 0099): saying that another organization
  // has the address would tell one organization about another's people.
  if (!rows[0])
    throw errors.conflict(`A user with the email ${email} already exists in this organization`).naming(email);
  return { ...rows[0], password };
}

/**
 * The one-time password a dashboard form (the add form, a user's Enable button) made with `formValue`
 * for the organization's user (by email or id), for that form sent again (form-seal.ts): null once
 * its minutes have passed, or the user has signed in (and chosen a password), or was disabled, or
 * the password was made by another form.
 */
export async function oneTimePasswordOfForm(
  db: Queryable,
  organizationId: number,
  user: { email: string } | { id: number },
  formValue: string,
): Promise<string | null> {
  await forgetSealedPasswords(db, organizationId);
  const { rows } = await db.query<{ form_sealed: Uint8Array }>(
    `SELECT form_sealed FROM users
      WHERE organization_id = $1 AND form_nonce = $2 AND form_sealed IS NOT NULL
        AND ${'email' in user ? 'lower(email) = lower($3)' : 'id = $3'}`,
    [organizationId, formDigest(formValue), 'email' in user ? normalizeEmail(user.email) : user.id],
  );
  return rows[0] ? openWithForm(rows[0].form_sealed, formValue) : null;
}

/**
 * The one-time password a dashboard form (the add form, an Enable button) made with `formValue`, with
 * its user's email, opened once: its sealed copy is erased as it is read (as `takeFormKey` does for a
 * key), so the page that shows it shows it once. Null when shown already, past its minutes, of no
 * use any more (the user chose a password, or was disabled), or of no form of this organization.
 */
export async function takeOneTimePassword(
  db: Queryable,
  organizationId: number,
  formValue: string,
): Promise<{ email: string; password: string } | null> {
  await forgetSealedPasswords(db, organizationId);
  const { rows } = await db.query<{ email: string; form_sealed: Uint8Array }>(
    `WITH taken AS (
       SELECT id, email, form_sealed FROM users
        WHERE organization_id = $1 AND form_nonce = $2 AND form_sealed IS NOT NULL
          FOR UPDATE)
     UPDATE users SET form_sealed = NULL FROM taken WHERE users.id = taken.id
     RETURNING taken.email, taken.form_sealed`,
    [organizationId, formDigest(formValue)],
  );
  const password = rows[0] ? openWithForm(rows[0].form_sealed, formValue) : null;
  return password === null ? null : { email: rows[0]!.email, password };
}

/** Erases the organization's sealed one-time passwords past their minutes, or no longer of use. */
export async function forgetSealedPasswords(db: Queryable, organizationId: number): Promise<void> {
  await db.query(
    `UPDATE users SET form_sealed = NULL WHERE organization_id = $1 AND form_sealed IS NOT NULL
        AND (form_sealed_at < now() - $2 * interval '1 minute' OR NOT must_change_password OR disabled_at IS NOT NULL)`,
    [organizationId, SEALED_SECRET_MINUTES],
  );
}

export async function listUsers(db: Queryable, organizationId: number): Promise<User[]> {
  await requireOrganization(db, organizationId);
  const { rows } = await db.query<User>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 ORDER BY lower(email)`,
    [organizationId],
  );
  return rows;
}

/** A user by id; with `organizationId`, only one of that organization (another's is "not found"). */
export async function requireUser(db: Queryable, id: number, organizationId?: number): Promise<User> {
  const { rows } = await db.query<User>(
    `SELECT ${COLUMNS} FROM users WHERE id = $1 AND ($2::integer IS NULL OR organization_id = $2)`,
    [id, organizationId ?? null],
  );
  if (!rows[0]) throw errors.notFound(`User ${id}`);
  return rows[0];
}

export async function setUserRole(
  db: Queryable,
  id: number,
  role: string,
  organizationId?: number,
): Promise<User> {
  const checked = checkRole(role);
  const user = await requireUser(db, id, organizationId);
  // A disabled user is enabled first (with a new password), then given a role: the page offers no
  // role to change for them, and a post that names one would change an account nobody can use.
  if (user.disabled) throw errors.conflict(`${user.email} is disabled: enable them first`).naming(user.email);
  const { rows } = await db.query<User>(`UPDATE users SET role = $2 WHERE id = $1 RETURNING ${COLUMNS}`, [
    id,
    checked,
  ]);
  return rows[0]!;
}

/** Disables a user and ends their sessions at once. */
export async function disableUser(db: Queryable, id: number, organizationId?: number): Promise<User> {
  await requireUser(db, id, organizationId);
  const { rows } = await db.query<User>(
    `UPDATE users SET disabled_at = coalesce(disabled_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [id]);
  return rows[0]!;
}

/**
 * Enables a disabled user again, with a new generated one-time password (to be changed at the next
 * sign-in): whoever held the old one when the user was disabled does not get in with it.
 */
/**
 * Enables a disabled user with a new one-time password. A user who is not disabled is refused
 * (409): an Enable button in a stale tab, a second admin, or a reload of the page that showed the
 * password would otherwise reset an active user's password and end their sessions. Flipped first
 * and atomically, so that of two concurrent enables one gets the password and the other the 409.
 */
export async function enableUser(
  db: Queryable,
  id: number,
  organizationId?: number,
  formValue?: string,
): Promise<User & { password: string }> {
  const { rows } = await db.query<{ id: number }>(
    `UPDATE users SET disabled_at = NULL
      WHERE id = $1 AND ($2::integer IS NULL OR organization_id = $2) AND disabled_at IS NOT NULL
      RETURNING id`,
    [id, organizationId ?? null],
  );
  if (!rows[0]) {
    const user = await requireUser(db, id, organizationId);
    throw errors.conflict(`${user.email} is already enabled`).naming(user.email);
  }
  return resetPassword(db, id, organizationId, formValue);
}

/** One account an email signs in with: its organization named, so that a person can choose. */
export interface Credentials {
  id: number;
  organization_id: number;
  organization_name: string;
  password_hash: string;
  disabled: boolean;
}

/**
 * An email holds an account in each organization that added it; sign-in checks the password against
 * each. Bounded: an organization holds one account of an email, and only the first of so many are
 * read (each check costs an Argon2 hash).
 */
export const MAX_ACCOUNTS_PER_EMAIL = 20;

export async function findCredentials(db: Queryable, email: string): Promise<Credentials[]> {
  const { rows } = await db.query<Credentials>(
    `SELECT u.id, u.organization_id, o.name AS organization_name, u.password_hash,
            u.disabled_at IS NOT NULL AS disabled
       FROM users u JOIN organizations o ON o.id = u.organization_id
      WHERE lower(u.email) = lower($1)
      ORDER BY u.id
      LIMIT ${MAX_ACCOUNTS_PER_EMAIL}`,
    [email.trim()],
  );
  return rows;
}

/**
 * Replaces a user's password after checking the current one, clears "must change", and ends every
 * other session of the user (someone who knew the old password is signed out).
 */
export async function changePassword(
  db: Queryable,
  input: { userId: number; current: string; next: string; keepSession: Buffer },
): Promise<void> {
  const { rows } = await db.query<{ password_hash: string }>(
    'SELECT password_hash FROM users WHERE id = $1',
    [input.userId],
  );
  const row = rows[0];
  if (!row || !(await verifyPassword(row.password_hash, input.current))) {
    throw errors.validation('The current password is not right');
  }
  checkNewPassword(input.next);
  if (input.next === input.current)
    throw errors.validation('The new password must differ from the current one');
  await db.query(
    'UPDATE users SET password_hash = $2, must_change_password = false, form_sealed = NULL WHERE id = $1',
    [input.userId, await hashPassword(input.next)],
  );
  await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1 AND token_hash <> $2', [
    input.userId,
    input.keepSession,
  ]);
}

/** Gives a user a new generated one-time password (to be changed at next sign-in) and ends their sessions. */
export async function resetPassword(
  db: Queryable,
  id: number,
  organizationId?: number,
  formValue?: string,
): Promise<User & { password: string }> {
  await requireUser(db, id, organizationId);
  const password = generatePassword();
  // Made by a dashboard form: sealed with its one-time value, for that form sent again.
  const form = formRecord(password, formValue);
  const { rows } = await db.query<User>(
    `UPDATE users SET password_hash = $2, must_change_password = true, form_nonce = $3, form_sealed = $4,
            form_sealed_at = CASE WHEN $4::bytea IS NULL THEN NULL ELSE now() END
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, await hashPassword(password), form.digest, form.sealed],
  );
  await db.query('DELETE FROM dashboard_sessions WHERE user_id = $1', [id]);
  return { ...rows[0]!, password };
}

export async function findUserByEmail(
  db: Queryable,
  organizationId: number,
  email: string,
): Promise<User | null> {
  const { rows } = await db.query<User>(
    `SELECT ${COLUMNS} FROM users WHERE organization_id = $1 AND lower(email) = lower($2)`,
    [organizationId, email.trim()],
  );
  return rows[0] ?? null;
}
