// Repeated failed sign-ins first slow down, then are refused: counted per account (the email tried)
// and per client address over a sliding window, so that neither guessing one account's password from
// many addresses nor trying many accounts from one address gets far.
import type { LoginThrottleConfig } from '../infra/config.ts';
import type { Queryable } from '../infra/db/index.ts';

export type ThrottleVerdict = { refused: true } | { refused: false; delayMs: number };

/**
 * The verdict for an attempt, given the failures already counted in the window. From an address
 * the account has signed in from before, the account's own limit does not refuse (its delays and
 * the address's limit still hold): a stranger's ten wrong passwords would otherwise lock its owner
 * out.
 */
export function throttleVerdict(
  config: LoginThrottleConfig,
  failures: { account: number; address: number },
  knownAddress = false,
): ThrottleVerdict {
  if ((failures.account >= config.accountLimit && !knownAddress) || failures.address >= config.addressLimit) {
    return { refused: true };
  }
  const over = Math.max(failures.account, Math.floor(failures.address / 5)) - config.freeFailures;
  if (over < 0) return { refused: false, delayMs: 0 };
  return { refused: false, delayMs: Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** over) };
}

export interface Attempt {
  /** The account tried (its email, lower-cased) and the client's address. */
  account: string;
  address: string;
  /** Failures counted before this attempt, in the window. */
  failures: { account: number; address: number };
  /** Whether the account has signed in from this address before. */
  knownAddress: boolean;
  /** This attempt's own rows, written as a failure before the password is checked. */
  rowIds: string[];
}

/**
 * Starts a sign-in attempt: written as a failure first, then counted. Read first and written after
 * the password check, attempts sent at once all saw the same count: 60 at once had 15 passwords
 * checked against a limit of 10. Written first, each sees those before it.
 */
export async function beginAttempt(
  db: Queryable,
  config: LoginThrottleConfig,
  account: string,
  address: string,
): Promise<Attempt> {
  const key = account.trim().toLowerCase();
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO login_failures (scope, key) VALUES ('account', $1), ('address', $2) RETURNING id::text AS id`,
    [key, address],
  );
  const counted = await countFailures(db, config, key, address);
  const known = await db.query('SELECT 1 FROM login_known_addresses WHERE account = $1 AND address = $2', [
    key,
    address,
  ]);
  return {
    account: key,
    address,
    failures: { account: counted.account - 1, address: counted.address - 1 },
    knownAddress: known.rows.length > 0,
    rowIds: rows.map((r) => r.id),
  };
}

export async function countFailures(
  db: Queryable,
  config: LoginThrottleConfig,
  account: string,
  address: string,
): Promise<{ account: number; address: number }> {
  const { rows } = await db.query<{ account: number; address: number }>(
    `SELECT count(*) FILTER (WHERE scope = 'account' AND key = $1)::integer AS account,
            count(*) FILTER (WHERE scope = 'address' AND key = $2)::integer AS address
       FROM login_failures
      WHERE ((scope = 'account' AND key = $1) OR (scope = 'address' AND key = $2))
        AND failed_at > now() - $3 * interval '1 millisecond'`,
    [account.trim().toLowerCase(), address, config.windowMs],
  );
  return rows[0] ?? { account: 0, address: 0 };
}

/**
 * Ends an attempt. Refused before its password was checked, it is not counted; failed, it stays
 * counted; signed in, it is not counted, the account's failures are forgotten (not the address's:
 * one success from an address guessing many accounts proves nothing), and the address is known.
 */
export async function endAttempt(
  db: Queryable,
  config: LoginThrottleConfig,
  attempt: Attempt,
  outcome: 'refused' | 'failed' | 'signed_in',
): Promise<void> {
  const { account: key, address } = attempt;
  if (outcome !== 'failed') {
    await db.query('DELETE FROM login_failures WHERE id = ANY($1::bigint[])', [attempt.rowIds]);
  }
  if (outcome === 'signed_in') {
    await db.query(`DELETE FROM login_failures WHERE scope = 'account' AND key = $1`, [key]);
    await db.query(
      `INSERT INTO login_known_addresses (account, address) VALUES ($1, $2)
         ON CONFLICT (account, address) DO UPDATE SET signed_in_at = now()`,
      [key, address],
    );
  }
  if (outcome === 'failed') {
    await db.query(`DELETE FROM login_failures WHERE failed_at < now() - $1 * interval '1 millisecond'`, [
      config.windowMs,
    ]);
  }
}
