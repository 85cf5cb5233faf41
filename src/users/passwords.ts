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
