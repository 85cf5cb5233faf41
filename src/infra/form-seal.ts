// A secret a dashboard form makes and shows once (an API key, a one-time password), kept for a few
// minutes sealed with the form's one-time value, so that the same form sent again (a double click,
// whose first answer the browser drops; a reload of the answer) shows the secret its first send
// made rather than losing it. The value is random in each page shown and never stored: the database
// keeps its digest (to find the row) and the sealed secret (AES-256-GCM, its key derived apart from
// the value), which the database alone cannot open.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** How long a sealed secret is kept; past it, it is erased and the form sent again shows none. */
export const SEALED_SECRET_MINUTES = 10;

/** A form's one-time value, for its hidden field. */
export function newFormValue(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a form's one-time value: its SHA-256 (hex), to find what it made. */
export function formDigest(formValue: string): string {
  return createHash('sha256').update(`refmatch form\n${formValue}`).digest('hex');
}

function sealKey(formValue: string): Buffer {
  return createHash('sha256').update(`refmatch form seal\n${formValue}`).digest();
}

/** The secret sealed with the form's value: iv (12 bytes), tag (16), ciphertext. */
export function sealWithForm(secret: string, formValue: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(formValue), iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

/**
 * What a store keeps of a secret made by a form with `formValue`: the value's digest (to find the
 * row again) and the sealed secret; both null for a secret no form made (a CLI command, an API call).
 */
export function formRecord(
  secret: string,
  formValue: string | null | undefined,
): { digest: string | null; sealed: Buffer | null } {
  return formValue == null
    ? { digest: null, sealed: null }
    : { digest: formDigest(formValue), sealed: sealWithForm(secret, formValue) };
}

/** The secret, or null when the value is not the one it was sealed with. */
export function openWithForm(sealed: Uint8Array, formValue: string): string | null {
  const bytes = Buffer.from(sealed);
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(formValue), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
