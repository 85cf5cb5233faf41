// Password hashing with argon2id (@node-rs/argon2: native, runs off the event loop in libuv's pool).
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { errors } from '../infra/errors.ts';

export const MIN_PASSWORD_LENGTH = 12;
const MAX_PASSWORD_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of nothing anyone knows: verified against when the email is unknown, so timing reveals nothing. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hash(randomBytes(16).toString('hex'));
  return decoy;
}

/**
 * Passwords checked at every sign-in, whatever the accounts of the email: one for each enabled
 * account (or the chosen organization's), then the decoy hash until there are this many. Checked
 * only against the accounts there were, a sign-in's time (one argon2 check each, some 20 ms) told
 * anyone how many organizations hold an account of an address: 0 and 1 looked alike (the decoy),
 * 3 took three times as long. An address with more enabled accounts than this is checked against
 * each of them (at most `MAX_ACCOUNTS_PER_EMAIL`, users.ts), so that none is left out of a sign-in: its time
 * tells only that it has more than this many. Padding to that bound (20) would cost every sign-in
 * twenty checks for the few addresses in more than three organizations.
 */
export const SIGN_IN_PASSWORD_CHECKS = 3;

/** The hashes a sign-in checks a password against: the accounts' own, then the decoy up to the count. */
export function hashesChecked(accountHashes: readonly string[], decoy: string): string[] {
  const padding = Math.max(0, SIGN_IN_PASSWORD_CHECKS - accountHashes.length);
  return [...accountHashes, ...Array.from({ length: padding }, () => decoy)];
}

/** A one-time password: 18 random bytes, 24 URL-safe characters. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}

export function checkNewPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw errors.validation(`The new password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  if (password.length > MAX_PASSWORD_LENGTH) {
    throw errors.validation(`The new password must be at most ${MAX_PASSWORD_LENGTH} characters long`);
  }
}
