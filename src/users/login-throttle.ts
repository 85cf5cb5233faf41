// Repeated failed sign-ins first slow down, then are refused: counted per account (the email tried)
// and per client address over a sliding window, so that neither guessing one account's password from
// many addresses nor trying many accounts from one address gets far.
import type { LoginThrottleConfig } from '../infra/config.ts';
import type { Queryable } from '../infra/db/index.ts';

export type ThrottleVerdict = { refused: true } | { refused: false; delayMs: number };

/** The verdict for an attempt, given the failures already counted in the window. */
export function throttleVerdict(
  config: LoginThrottleConfig,
  failures: { account: number; address: number },
): ThrottleVerdict {
  if (failures.account >= config.accountLimit || failures.address >= config.addressLimit) {
    return { refused: true };
  }
  const over = Math.max(failures.account, Math.floor(failures.address / 5)) - config.freeFailures;
  if (over < 0) return { refused: false, delayMs: 0 };
  return { refused: false, delayMs: Math.min(config.maxDelayMs, config.baseDelayMs * 2 ** over) };
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

export async function recordFailure(
  db: Queryable,
  config: LoginThrottleConfig,
  account: string,
  address: string,
): Promise<void> {
  await db.query(`INSERT INTO login_failures (scope, key) VALUES ('account', $1), ('address', $2)`, [
    account.trim().toLowerCase(),
    address,
  ]);
  await db.query(`DELETE FROM login_failures WHERE failed_at < now() - $1 * interval '1 millisecond'`, [
    config.windowMs,
  ]);
}

/** A successful sign-in forgets the account's failures (not the address's: one success from an address guessing many accounts proves nothing). */
export async function clearAccountFailures(db: Queryable, account: string): Promise<void> {
  await db.query(`DELETE FROM login_failures WHERE scope = 'account' AND key = $1`, [
    account.trim().toLowerCase(),
  ]);
}
