// Rate limits (spec 8 leaves them open): requests per client address on every route, requests per
// API key, and failed authentications per address, so that keys cannot be guessed at speed. Counted
// in this process's memory (rate-limiter-flexible), not in the database: a shared store would cost a
// write per request; with several instances each counts its own traffic (docs/api.md#rate-limits).
import type { FastifyInstance } from 'fastify';
import {
  RateLimiterMemory,
  RateLimiterQueue,
  RateLimiterQueueError,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RateLimitSettings } from '../infra/config.ts';
import { errors } from '../infra/errors.ts';
import { clientAddress } from './client-address.ts';
import { limitConnectionsPerAddress } from './connection-limits.ts';

function limiter(points: number, seconds: number): RateLimiterMemory | null {
  return points > 0 ? new RateLimiterMemory({ points, duration: seconds }) : null;
}

function retryAfterSeconds(res: RateLimiterRes): number {
  return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
}

async function consume(
  counter: RateLimiterMemory | null,
  key: string,
  what: string,
  points = 1,
): Promise<void> {
  if (!counter) return;
  try {
    await counter.consume(key, points);
  } catch (refused) {
    // The library rejects with its result object when the limit is passed, with an Error otherwise.
    if (refused instanceof RateLimiterRes) throw errors.rateLimited(what, retryAfterSeconds(refused));
    throw refused;
  }
}

/**
 * Bytes of a JSON body that count as one request more. Reading a body costs the event loop in
 * proportion to its bytes (a 1 MB body of 80,000 keys: ~150 ms of CPU to parse and validate, on
 * these machines), so counted as one request a key could make its whole allowance of them, 1,200 a
 * minute, three cores' worth; counted by size its worst case is about a fifth of a core. An editorial
 * system's record or manuscript is a few KB, well under one share.
 */
export const BODY_BYTES_PER_REQUEST = 64 * 1024;

/** The requests a body of `bytes` counts as beyond its own request, leaving at least one in `limit`. */
function bodyShares(bytes: number, limit: number): number {
  return Math.min(Math.floor(bytes / BODY_BYTES_PER_REQUEST), Math.max(0, limit - 1));
}

/** The one key of the budget every address shares. */
const ALL_ADDRESSES = 'all';

export class RateLimits {
  private readonly perAddress: RateLimiterMemory | null;
  private readonly perKey: RateLimiterMemory | null;
  private readonly authFailures: RateLimiterMemory | null;
  private readonly passwordChecks: RateLimiterMemory | null;
  private readonly passwordChecksTotal: RateLimiterMemory | null;
  private readonly passwordChecksQueue: RateLimiterQueue | null;

  constructor(private readonly settings: RateLimitSettings) {
    this.perAddress = limiter(settings.perAddress, settings.windowSeconds);
    this.perKey = limiter(settings.perKey, settings.windowSeconds);
    this.authFailures = limiter(settings.authFailuresPerAddress, settings.authFailureWindowSeconds);
    this.passwordChecks = limiter(settings.passwordChecksPerAddress, settings.windowSeconds);
    this.passwordChecksTotal = limiter(settings.passwordChecksTotal, settings.passwordChecksTotalSeconds);
    this.passwordChecksQueue = this.passwordChecksTotal
      ? new RateLimiterQueue(this.passwordChecksTotal, { maxQueueSize: settings.passwordChecksQueued })
      : null;
  }

  /** Counts a request from a client address; 429 over the limit. */
  countRequest(address: string): Promise<void> {
    return consume(this.perAddress, address, 'requests from this address');
  }

  /** Counts a request made with an API key (by its public id); 429 over the limit. */
  countKey(keyId: string): Promise<void> {
    return consume(this.perKey, keyId, 'requests with this API key');
  }

  /**
   * Counts a JSON body's size against the address and the key it came with (null: no key), as one
   * request more for every `BODY_BYTES_PER_REQUEST` bytes; 429 over either limit, before the body
   * is parsed. Never more than a limit less one, so that a body the size limit admits can pass.
   */
  async countBody(address: string, keyId: string | null, bytes: number): Promise<void> {
    const byAddress = bodyShares(bytes, this.settings.perAddress);
    if (byAddress > 0)
      await consume(this.perAddress, address, 'request body bytes from this address', byAddress);
    const byKey = bodyShares(bytes, this.settings.perKey);
    if (keyId !== null && byKey > 0) {
      await consume(this.perKey, keyId, 'request body bytes with this API key', byKey);
    }
  }

  /**
   * Counts an answer's size once it is made, as `countBody` counts a body (one request more for
   * every `BODY_BYTES_PER_REQUEST` bytes, against the address and the key), without refusing it:
   * the next requests are. For an answer whose cost grows with what the organization stores (4.7 at
   * the option caps: 1.8 MB, ~0.19 s of CPU), which a key asking in a loop had 1,200 times a minute.
   */
  async countAnswer(address: string, keyId: string | null, bytes: number): Promise<void> {
    const byAddress = bodyShares(bytes, this.settings.perAddress);
    if (byAddress > 0) await this.perAddress?.penalty(address, byAddress);
    const byKey = bodyShares(bytes, this.settings.perKey);
    if (keyId !== null && byKey > 0) await this.perKey?.penalty(keyId, byKey);
  }

  /**
   * 429 while the address has used up its failed authentications. Checked before a key is verified,
   * so that once refused, a right key answers exactly as a wrong one does.
   */
  async checkAuthFailures(address: string): Promise<void> {
    const spent = await this.authFailures?.get(address);
    if (spent && spent.consumedPoints >= this.settings.authFailuresPerAddress) {
      throw errors.rateLimited('failed authentications from this address', retryAfterSeconds(spent));
    }
  }

  async countAuthFailure(address: string): Promise<void> {
    await this.authFailures?.penalty(address);
  }

  /**
   * Counts a password about to be checked from an address (a dashboard sign-in, right or wrong, or
   * a password change); 429 over the limit, before anything is hashed. The sign-in throttle
   * (src/users/login-throttle.ts) counts failures only: a right password signed in again and again,
   * or a signed-in user's wrong current password sent in a loop, was an argon2 hash (some 20 ms of
   * CPU) each time within the requests an address may make, 2,400 a minute (0.8 of a core).
   */
  countPasswordCheck(address: string): Promise<void> {
    return consume(this.passwordChecks, address, 'password checks from this address');
  }

  /**
   * Takes `checks` password checks from the budget all addresses share (`PASSWORD_CHECKS_TOTAL` a
   * `PASSWORD_CHECKS_TOTAL_S`), for a sign-in from an address its account has not signed in from
   * before. Each address's share (`countPasswordCheck`) left a flood from many addresses free: 16
   * senders, each sign-in from a new address, kept about two cores hashing. Past the budget a
   * sign-in waits its turn for the next window (at most `PASSWORD_CHECKS_QUEUED` wait, in order);
   * past the queue, 429 with when to try again. More checks than a window holds are taken as all of
   * one window's.
   */
  async takePasswordChecks(checks: number): Promise<void> {
    const queue = this.passwordChecksQueue;
    const total = this.passwordChecksTotal;
    if (!queue || !total) return;
    try {
      await queue.removeTokens(Math.min(checks, this.settings.passwordChecksTotal), ALL_ADDRESSES);
    } catch (refused) {
      if (!(refused instanceof RateLimiterQueueError)) throw refused;
      const spent = await total.get(ALL_ADDRESSES);
      throw errors.rateLimited(
        'password checks on this service',
        spent ? retryAfterSeconds(spent) : this.settings.passwordChecksTotalSeconds,
      );
    }
  }

  /** Connections one address may hold open at once; 0: no cap. */
  get connectionsPerAddress(): number {
    return this.settings.connectionsPerAddress;
  }
}

/**
 * The one registration: every connection counts against its address as it is accepted, and every
 * request before anything else is done.
 */
export function registerRateLimits(app: FastifyInstance, limits: RateLimits): void {
  if (limits.connectionsPerAddress > 0) limitConnectionsPerAddress(app.server, limits.connectionsPerAddress);
  app.addHook('onRequest', async (request) => {
    await limits.countRequest(clientAddress(request));
  });
}
