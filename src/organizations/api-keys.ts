// API keys: shown once at creation, stored only as a SHA-256 hash. The public key_id part finds the
// row; the hashes are compared in constant time so timing never reveals how much of a key matched.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { formDigest, formRecord, openWithForm, SEALED_SECRET_MINUTES } from '../infra/form-seal.ts';
import { inTransaction, type Queryable } from '../infra/db/index.ts';
import { errors } from '../infra/errors.ts';
import type { Feature } from './features.ts';
import type { Organization } from './organizations.ts';
import { checkLimit } from './limits.ts';
import { checkOneLine } from '../infra/one-line-text.ts';

const KEY_PATTERN = /^rm_([a-f0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** The public part of a key in our format (what rate limits count by), or null for anything else. */
export function keyIdOf(key: string): string | null {
  return KEY_PATTERN.exec(key)?.[1] ?? null;
}

function hashKey(key: string): Buffer {
  return createHash('sha256').update(key).digest();
}

export async function createApiKey(db: Queryable, organizationId: number): Promise<string> {
  return (await insertKey(db, organizationId, null, null))!;
}

/** What a dashboard form's post made: the key (null once it can no longer be shown), and whether an earlier send of the same form made it. */
export type FormKey = { key: string; repeated: boolean } | { key: null; repeated: true };

/**
 * A key made by a dashboard form: `formNonce` is the form's one-time value (random, only in the page
 * that showed the form), and the same form posted again, after or while the first send is answered,
 * makes no second key: it is answered with the key the first send made, for
 * SEALED_SECRET_MINUTES. The key is never stored in plain text: its sealed copy is opened only
 * with the form's value, of which the database keeps a digest (`formDigest`), never the value.
 */
export async function createApiKeyFromForm(
  db: Queryable,
  organizationId: number,
  formNonce: string,
  label: string | null,
): Promise<FormKey> {
  await forgetSealedKeys(db, organizationId);
  const named = label?.trim() || null;
  if (named !== null) checkOneLine(named, 'A key label');
  const key = await insertKey(db, organizationId, named, formNonce);
  if (key !== null) return { key, repeated: false };
  const { rows } = await db.query<{ form_sealed: Uint8Array | null; revoked: boolean }>(
    `SELECT form_sealed, revoked_at IS NOT NULL AS revoked FROM api_keys
      WHERE organization_id = $1 AND form_nonce = $2`,
    [organizationId, formDigest(formNonce)],
  );
  const row = rows[0];
  // Revoked meanwhile (the list's button, in another tab): its secret is of no use, never shown.
  const shown = row?.form_sealed && !row.revoked ? openWithForm(row.form_sealed, formNonce) : null;
  return shown === null ? { key: null, repeated: true } : { key: shown, repeated: true };
}

/**
 * The key a dashboard form made with `formNonce`, opened once: its sealed copy is erased as it is
 * read, so the page that shows it (reached by a redirect after the form's post) shows it once, and
 * Back, a reload or that page's address again find nothing. Null when there is nothing to show: shown
 * already, past SEALED_SECRET_MINUTES, revoked meanwhile, or no key of this organization's form.
 */
export async function takeFormKey(
  db: Queryable,
  organizationId: number,
  formNonce: string,
): Promise<string | null> {
  await forgetSealedKeys(db, organizationId);
  // Locked as it is read: two views at once (two tabs restored) open it once between them.
  const { rows } = await db.query<{ form_sealed: Uint8Array }>(
    `WITH taken AS (
       SELECT id, form_sealed FROM api_keys
        WHERE organization_id = $1 AND form_nonce = $2 AND form_sealed IS NOT NULL AND revoked_at IS NULL
          FOR UPDATE)
     UPDATE api_keys SET form_sealed = NULL FROM taken WHERE api_keys.id = taken.id
     RETURNING taken.form_sealed`,
    [organizationId, formDigest(formNonce)],
  );
  return rows[0] ? openWithForm(rows[0].form_sealed, formNonce) : null;
}

/** Erases the sealed copies of the organization's keys past SEALED_SECRET_MINUTES (form-seal.ts). */
export async function forgetSealedKeys(db: Queryable, organizationId: number): Promise<void> {
  await db.query(
    `UPDATE api_keys SET form_sealed = NULL WHERE organization_id = $1 AND form_sealed IS NOT NULL
        AND created_at < now() - $2 * interval '1 minute'`,
    [organizationId, SEALED_SECRET_MINUTES],
  );
}

async function insertKey(
  db: Queryable,
  organizationId: number,
  label: string | null,
  formNonce: string | null,
): Promise<string | null> {
  const keyId = randomBytes(8).toString('hex');
  const key = `rm_${keyId}_${randomBytes(32).toString('base64url')}`;
  const { digest, sealed } = formRecord(key, formNonce);
  const { rowCount } = await inTransaction(db, async (tx) => {
    // A form posted again makes no key (below), at the cap too: said as such, not as the cap.
    if (digest !== null) {
      const posted = await tx.query('SELECT 1 FROM api_keys WHERE organization_id = $1 AND form_nonce = $2', [
        organizationId,
        digest,
      ]);
      if (posted.rows.length > 0) return { rowCount: 0 };
    }
    // Active keys only: revoking one frees its place, so an organization at the cap is never stuck.
    await checkLimit(
      tx,
      organizationId,
      'api_keys',
      'SELECT count(*)::integer AS n FROM api_keys WHERE organization_id = $1 AND revoked_at IS NULL',
      [organizationId],
    );
    // Two sends at once: the second waits on the first's row (the unique index) and adds none.
    return tx.query(
      `INSERT INTO api_keys (organization_id, key_id, key_hash, label, form_nonce, form_sealed)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, form_nonce) WHERE form_nonce IS NOT NULL DO NOTHING`,
      [organizationId, keyId, hashKey(key), label, digest, sealed],
    );
  });
  return rowCount > 0 ? key : null;
}

/**
 * Revoked keys an organization's list keeps, newest first. Only active keys count against the cap
 * (a revoke frees a place), so without this a create-and-revoke loop grew the table and the keys
 * page without bound; a revoked key authenticates nothing, and the newest hundred say enough of
 * what was revoked when.
 */
export const REVOKED_KEYS_KEPT = 100;

async function pruneRevokedKeys(db: Queryable, organizationId: number): Promise<void> {
  await db.query(
    `DELETE FROM api_keys WHERE organization_id = $1 AND revoked_at IS NOT NULL AND id NOT IN (
       SELECT id FROM api_keys WHERE organization_id = $1 AND revoked_at IS NOT NULL
        ORDER BY revoked_at DESC, id DESC LIMIT $2)`,
    [organizationId, REVOKED_KEYS_KEPT],
  );
}

/** Revokes a key given in full; returns false when no such active key exists. */
export async function revokeApiKey(db: Queryable, key: string): Promise<boolean> {
  const found = await findKey(db, key);
  if (!found) return false;
  await db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL', [found.id]);
  await pruneRevokedKeys(db, found.organization_id);
  return true;
}

interface KeyRow {
  id: number;
  key_hash: Buffer | Uint8Array;
  organization_id: number;
}

async function findKey(db: Queryable, key: string): Promise<KeyRow | null> {
  const match = KEY_PATTERN.exec(key);
  if (!match) return null;
  const { rows } = await db.query<KeyRow>(
    'SELECT id, key_hash, organization_id FROM api_keys WHERE key_id = $1 AND revoked_at IS NULL',
    [match[1]],
  );
  const row = rows[0];
  if (!row) return null;
  const stored = Buffer.from(row.key_hash);
  const given = hashKey(key);
  return stored.length === given.length && timingSafeEqual(stored, given) ? row : null;
}

export interface ApiKeySummary {
  id: number;
  /** The public part that starts the key (rm_<key_id>_…): enough to tell keys apart, useless alone. */
  key_id: string;
  /** What it is for, when it was made in the dashboard with one. */
  label: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const UTC = `'YYYY-MM-DD HH24:MI "UTC"'`;

/** The organization's keys, newest first, without anything that could authenticate. */
export async function listApiKeys(db: Queryable, organizationId: number): Promise<ApiKeySummary[]> {
  const { rows } = await db.query<ApiKeySummary>(
    `SELECT id, key_id, label, to_char(created_at AT TIME ZONE 'UTC', ${UTC}) AS created_at,
            to_char(last_used_at AT TIME ZONE 'UTC', ${UTC}) AS last_used_at,
            to_char(revoked_at AT TIME ZONE 'UTC', ${UTC}) AS revoked_at
       FROM api_keys WHERE organization_id = $1 ORDER BY revoked_at IS NOT NULL, id DESC`,
    [organizationId],
  );
  return rows;
}

/** Revokes one of the organization's keys by its row id (the dashboard never holds the secret). */
export async function revokeApiKeyById(db: Queryable, organizationId: number, id: number): Promise<void> {
  const { rowCount } = await db.query(
    'UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 AND organization_id = $2',
    [id, organizationId],
  );
  if (rowCount === 0) throw errors.notFound(`API key ${id}`);
  await pruneRevokedKeys(db, organizationId);
}

export interface Tenant {
  organization: Organization;
}

/**
 * Resolves API keys to their organization. Verified keys are remembered for `ttlMs` so that a hot
 * endpoint costs no extra query per request; a revocation through this process takes effect at
 * once, one made by another process within `ttlMs`.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, { organization: Organization; expires: number }>();

  constructor(
    private readonly db: Queryable,
    private readonly ttlMs: number,
  ) {}

  async verify(key: string | undefined): Promise<Organization> {
    if (key === undefined || key === '') throw errors.missingApiKey();
    const cacheKey = hashKey(key).toString('base64');
    const now = Date.now();
    const hit = this.cache.get(cacheKey);
    if (hit && hit.expires > now) return hit.organization;
    const found = await findKey(this.db, key);
    if (!found) {
      this.cache.delete(cacheKey);
      throw errors.invalidApiKey();
    }
    const { rows } = await this.db.query<Organization>(
      `SELECT id, name, features, prefer, include_conflicts, include_without_email, max_candidates
         FROM organizations WHERE id = $1`,
      [found.organization_id],
    );
    const organization = rows[0];
    if (!organization) throw errors.invalidApiKey();
    // Here, on a cache miss, so that a busy key costs this write at most once a minute.
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [found.id],
    );
    if (this.ttlMs > 0) {
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(cacheKey, { organization, expires: now + this.ttlMs });
    }
    return organization;
  }

  /** Revokes a key and forgets it here at once: the next request with it in this process is a 401. */
  async revoke(key: string): Promise<boolean> {
    const revoked = await revokeApiKey(this.db, key);
    this.cache.delete(hashKey(key).toString('base64'));
    return revoked;
  }

  /** Forget every cached verification (after a revocation or a settings change in this process). */
  invalidate(): void {
    this.cache.clear();
  }
}

export function requireFeature(organization: Organization, feature: Feature): void {
  if (!organization.features.includes(feature)) throw errors.featureNotInPlan(feature);
}
