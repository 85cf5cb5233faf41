// Configuration is read once, from an environment passed in as an argument, and fails loudly on any
// value it cannot use: a typo in a deployment should stop the process, not run it with a default.
import { isIP } from 'node:net';
import path from 'node:path';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  port: number;
  host: string;
  /** Server PostgreSQL; when null the embedded PGlite database under `dataDir` is used. */
  databaseUrl: string | null;
  dataDir: string;
  /**
   * Shared buffers of the embedded PGlite database, in MB. PGlite's memory lives in the process and
   * WebAssembly memory once grown is never given back, so this cache is RSS that only grows; the
   * data directory's files are cached by the operating system besides.
   */
  pgliteSharedBuffersMb: number;
  logLevel: LogLevel;
  /** Base of every profile and article link we hand out, without a trailing slash. */
  publicBaseUrl: string;
  /** Largest JSON body accepted, in bytes. */
  bodyLimitBytes: number;
  /** Largest uploaded manuscript file, in bytes. */
  fileLimitBytes: number;
  /**
   * How long a request may take to arrive whole (headers and body), in ms: a client that sends its
   * body a byte at a time otherwise held its connection and the body's buffer without end.
   */
  requestTimeoutMs: number;
  /** Connections held open at once; past it the server refuses new ones (each may buffer a body). */
  maxConnections: number;
  /**
   * Uploads read, parsed and ranked at once, in all and per organization; past them an upload is a
   * 503 with Retry-After. Each may hold a 50 MB file and its parse: 24 at once took the process
   * from 1.8 to 3.5 GB, nothing pushing back.
   */
  uploadsInFlight: number;
  uploadsInFlightPerOrg: number;
  exportsInFlight: number;
  exportsInFlightPerOrg: number;
  /** How long shutdown waits for in-flight requests before closing connections, in ms. */
  shutdownTimeoutMs: number;
  /** How long a verified API key is remembered in this process; revocations elsewhere take this long. */
  authCacheTtlMs: number;
  /**
   * How far V8 lets each heap (the main thread's and every worker's) grow past what its last full
   * collection kept, in percent (V8's --heap-growing-percent); 0 leaves V8's own factor, which moves
   * between 10% and 300% with the allocation rate, so that memory follows the traffic.
   */
  heapGrowingPercent: number;
  /** Create a demo organization (and load the demo corpus) on first start. */
  demo: boolean;
  parsing: ParsingLimits;
  /** Trust X-Forwarded-Proto and X-Forwarded-For from a reverse proxy (TLS ends there). */
  trustProxy: boolean;
  dashboard: DashboardConfig;
  rateLimits: RateLimitSettings;
  /** How often the search index reads the works other processes changed, in ms. */
  indexPollMs: number;
  search: SearchEngineConfig;
  /**
   * Where the search index keeps its snapshot, read at start instead of rebuilding the index from
   * the database (src/retrieval/index-snapshot.ts); null: none. By default under the data directory
   * on the embedded database, none on server PostgreSQL (no directory of ours is known there).
   */
  indexSnapshotDir: string | null;
  /** Client addresses /metrics answers (exact IPs), or 'all'; empty: nobody. */
  metricsAllow: string[] | 'all';
  webhooks: WebhookConfig;
  /** The job worker of a serving process (src/jobs). */
  jobs: { worker: boolean; pollMs: number; leaseMs: number };
  /** Caps on what one organization stores (src/organizations/limits.ts); the operator overrides per organization. */
  limits: OrganizationLimits;
}

/** Caps on what one organization stores, by limit name (src/organizations/limits.ts). */
export interface OrganizationLimits {
  authors_groups: number;
  records_per_group: number;
  custom_fields: number;
  options_per_field: number;
  /** Options of all the organization's fields together. */
  options: number;
  /** Characters (code points) of all the organization's options together. */
  option_characters: number;
  folders: number;
  api_keys: number;
  users: number;
}

/**
 * Each far above what a real organization stores (docs/operations.md gives the reasoning), low
 * enough that an organization filling every one costs a bounded amount of disk.
 */
export const DEFAULT_ORGANIZATION_LIMITS: Readonly<OrganizationLimits> = {
  authors_groups: 2_000,
  records_per_group: 250_000,
  custom_fields: 200,
  options_per_field: 1_000,
  // These two bound the 4.7 answer, which lists every option of every field: at both caps it is
  // about 2 MB (docs/operations.md), where the two caps above alone allowed ~110 MB.
  options: 20_000,
  option_characters: 500_000,
  folders: 10_000,
  api_keys: 50,
  users: 1_000,
};

/** The largest value a cap (LIMIT_* or an operator's override) may take. */
export const MAX_ORGANIZATION_LIMIT = 1_000_000_000;

function limitVar(env: Env, name: string, limit: keyof OrganizationLimits): number {
  return intVar(env, name, DEFAULT_ORGANIZATION_LIMITS[limit], 1, MAX_ORGANIZATION_LIMIT);
}

/** Which engine implements the search index (docs/scale.md). */
export type SearchEngineConfig =
  | { engine: 'local' }
  | {
      engine: 'opensearch';
      /** The cluster's URL (credentials, if any, in its user-info part). */
      url: string;
      /** The index holding the works. */
      index: string;
      /** Primary shards and replicas of the index when this process creates it. */
      shards: number;
      replicas: number;
    };

/** Delivery of webhook events (docs/webhooks.md). */
export interface WebhookConfig {
  /** Run the delivery worker in this process. */
  worker: boolean;
  /** How often the worker looks for due events, in ms. */
  pollMs: number;
  /** How long one delivery may take before it counts as failed, in ms. */
  timeoutMs: number;
  /** Delay before the first retry; each later one doubles it, up to retryMaxMs. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Attempts after which an event is marked failed (it stays in the log and can be retried). */
  maxAttempts: number;
  /** Deliver to loopback, private and link-local addresses too (off: public addresses only). */
  allowPrivateAddresses: boolean;
  /** Days a delivered or failed event stays in the outbox (and the delivery log) before it is deleted. */
  retentionDays: number;
}

/** Rate limits, counted by each process in its own memory (docs/api.md); 0 turns a limit off. */
export interface RateLimitSettings {
  windowSeconds: number;
  /** Requests per API key per window. */
  perKey: number;
  /** Requests per client address per window, on every route. */
  perAddress: number;
  /** Failed authentications (an unknown or revoked key) per client address per failure window. */
  authFailuresPerAddress: number;
  authFailureWindowSeconds: number;
  /**
   * Passwords checked per client address per window (dashboard sign-ins, right or wrong, and
   * password changes): each is an argon2 hash, some 20 ms of CPU.
   */
  passwordChecksPerAddress: number;
  /**
   * Password checks (argon2 hashes) per `passwordChecksTotalSeconds` across every address together,
   * for sign-ins from an address the account has not signed in from before; 0: no cap. A flood from
   * many addresses passes each address's share; this bounds the CPU it can take (src/http/rate-limits.ts).
   */
  passwordChecksTotal: number;
  passwordChecksTotalSeconds: number;
  /** Sign-ins waiting for the next window of `passwordChecksTotal` before the rest are answered 429. */
  passwordChecksQueued: number;
  /**
   * Connections one client address holds open at once (src/http/connection-limits.ts); 0: no cap
   * (the default behind a proxy, whose own address every connection comes from).
   */
  connectionsPerAddress: number;
}

export interface DashboardConfig {
  /** How long a dashboard session lasts after sign-in. */
  sessionTtlMs: number;
  login: LoginThrottleConfig;
}

/** How failed sign-ins slow down and then are refused (src/users/login-throttle.ts). */
export interface LoginThrottleConfig {
  /** Failures counted over this window. */
  windowMs: number;
  /** Failures of an account answered at full speed; each one past it doubles the delay. */
  freeFailures: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Failures in the window after which an account is refused until the window has passed. */
  accountLimit: number;
  /** Same for one client address (higher: several people may share an address). */
  addressLimit: number;
}

export interface ParsingLimits {
  maxPages: number;
  maxChars: number;
  /** Largest total uncompressed size of a DOCX's entries, checked before inflating anything. */
  maxDocxUncompressedBytes: number;
  /** Most bytes inflated from any one DOCX part; counted while inflating, whatever was declared. */
  maxDocxPartBytes: number;
  /** Most bytes inflated from one file: the DOCX parts read, or the compressed streams of a PDF. */
  maxInflatedBytes: number;
  /** Most content-operator bytes pdf.js interprets for one PDF page; a page past it is not read. */
  maxPageContentBytes: number;
  /** Most content-operator bytes pdf.js interprets for one PDF, its pages and forms together. */
  maxDocumentContentBytes: number;
  /** Most pieces of text (pdf.js text items) read of one PDF page; a page that shows more is not read. */
  maxPageTextItems: number;
  /** Most pieces of text read of one PDF; past half of it the last pages are read next. */
  maxDocumentTextItems: number;
  timeoutMs: number;
  workers: number;
  /** V8 heap (old generation) of each parser worker, in MB: a file that needs more fails alone. */
  workerHeapMb: number;
  /** A worker whose memory stays above this many MB after a file is replaced, to give it back. */
  workerRecycleMb: number;
  /**
   * How far, in MB, the process's resident memory may grow while files are parsed: past it the
   * files being parsed fail and their workers are replaced (parser-pool.ts: the bound for decoded
   * buffers, which no V8 heap limit counts).
   */
  maxRssGrowthMb: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function intVar(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolVar(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function urlVar(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw.trim();
}

function addressListVar(env: Env, name: string, fallback: string[]): string[] | 'all' {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'all') return 'all';
  if (raw === 'none') return [];
  const list = raw.split(',').map((a) => a.trim());
  const bad = list.find((a) => isIP(a) === 0);
  if (bad !== undefined) {
    throw new ConfigError(`${name} must be IP addresses separated by commas, 'all' or 'none', got "${bad}"`);
  }
  return list;
}

const SEARCH_ENGINES = ['local', 'opensearch'] as const;
// OpenSearch's own rule for index names, narrowed to what a deployment needs.
const INDEX_NAME_RE = /^[a-z0-9][a-z0-9_.-]{0,199}$/;

function searchEngineVar(env: Env): SearchEngineConfig {
  const engine = (env.SEARCH_ENGINE?.trim() || 'local').toLowerCase();
  if (!(SEARCH_ENGINES as readonly string[]).includes(engine)) {
    throw new ConfigError(
      `SEARCH_ENGINE must be one of ${SEARCH_ENGINES.join(', ')}, got "${env.SEARCH_ENGINE}"`,
    );
  }
  const url = urlVar(env, 'OPENSEARCH_URL', null, ['http:', 'https:']);
  if (engine === 'local') return { engine: 'local' };
  if (url === null) throw new ConfigError('SEARCH_ENGINE=opensearch needs OPENSEARCH_URL');
  const index = env.OPENSEARCH_INDEX?.trim() || 'refmatch-works';
  if (!INDEX_NAME_RE.test(index)) {
    throw new ConfigError(
      `OPENSEARCH_INDEX must be lower-case letters, digits, '_', '-' or '.', got "${env.OPENSEARCH_INDEX}"`,
    );
  }
  return {
    engine: 'opensearch',
    url,
    index,
    shards: intVar(env, 'OPENSEARCH_SHARDS', 1, 1, 1024),
    replicas: intVar(env, 'OPENSEARCH_REPLICAS', 0, 0, 16),
  };
}

/** INDEX_SNAPSHOT_DIR: a directory, or `none`; unset, `<dataDir>/index-snapshot` on PGlite only. */
function snapshotDirVar(env: Env, cwd: string, dataDir: string, databaseUrl: string | null): string | null {
  const raw = env.INDEX_SNAPSHOT_DIR?.trim();
  if (raw === undefined || raw === '') return databaseUrl ? null : path.join(dataDir, 'index-snapshot');
  if (raw.toLowerCase() === 'none') return null;
  return path.resolve(cwd, raw);
}

export function parseConfig(env: Env, cwd: string = process.cwd()): Config {
  const port = intVar(env, 'PORT', 8000, 0, 65535);
  const host = env.HOST?.trim() || '0.0.0.0';
  const logLevelRaw = (env.LOG_LEVEL?.trim() || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevelRaw as LogLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const publicBase =
    urlVar(env, 'PUBLIC_BASE_URL', null, ['http:', 'https:']) ??
    `http://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${port}`;
  const databaseUrl = urlVar(env, 'DATABASE_URL', null, ['postgres:', 'postgresql:']);
  const dataDir = path.resolve(cwd, env.REFMATCH_DATA_DIR?.trim() || 'data');
  return {
    port,
    host,
    databaseUrl,
    dataDir,
    pgliteSharedBuffersMb: intVar(env, 'PGLITE_SHARED_BUFFERS_MB', 32, 1, 16_384),
    logLevel: logLevelRaw as LogLevel,
    publicBaseUrl: publicBase.replace(/\/+$/, ''),
    bodyLimitBytes: intVar(env, 'BODY_LIMIT_BYTES', 1024 * 1024, 1024, 1024 ** 3),
    fileLimitBytes: intVar(env, 'FILE_LIMIT_BYTES', 50 * 1024 * 1024, 1024, 1024 ** 3),
    // A 50 MB file at 1 MB/s arrives in 50 s.
    requestTimeoutMs: intVar(env, 'REQUEST_TIMEOUT_MS', 120_000, 1_000, 3_600_000),
    maxConnections: intVar(env, 'MAX_CONNECTIONS', 1_000, 1, 1_000_000),
    uploadsInFlight: intVar(env, 'UPLOADS_IN_FLIGHT', 16, 1, 100_000),
    uploadsInFlightPerOrg: intVar(env, 'UPLOADS_IN_FLIGHT_PER_ORG', 8, 1, 100_000),
    // A group's export streams up to its 200,000 records: a few at once, so that exports started
    // again and again take the database from no one (docs/dashboard.md, Exports).
    exportsInFlight: intVar(env, 'EXPORTS_IN_FLIGHT', 4, 1, 100_000),
    exportsInFlightPerOrg: intVar(env, 'EXPORTS_IN_FLIGHT_PER_ORG', 2, 1, 100_000),
    shutdownTimeoutMs: intVar(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    authCacheTtlMs: intVar(env, 'AUTH_CACHE_TTL_MS', 5_000, 0, 3_600_000),
    heapGrowingPercent: intVar(env, 'HEAP_GROWING_PERCENT', 30, 0, 300),
    demo: boolVar(env, 'REFMATCH_DEMO', true),
    parsing: {
      maxPages: intVar(env, 'PARSE_MAX_PAGES', 300, 1, 100_000),
      maxChars: intVar(env, 'PARSE_MAX_CHARS', 2_000_000, 1000, 1_000_000_000),
      maxDocxUncompressedBytes: intVar(env, 'PARSE_MAX_DOCX_BYTES', 200 * 1024 * 1024, 1024, 1024 ** 3 * 4),
      maxDocxPartBytes: intVar(env, 'PARSE_MAX_DOCX_PART_BYTES', 16 * 1024 * 1024, 1024, 1024 ** 3 * 4),
      maxInflatedBytes: intVar(env, 'PARSE_MAX_INFLATED_BYTES', 64 * 1024 * 1024, 1024, 1024 ** 3 * 4),
      maxPageContentBytes: intVar(env, 'PARSE_MAX_PAGE_CONTENT_BYTES', 2 * 1024 * 1024, 1024, 1024 ** 3 * 4),
      maxDocumentContentBytes: intVar(
        env,
        'PARSE_MAX_DOCUMENT_CONTENT_BYTES',
        16 * 1024 * 1024,
        1024,
        1024 ** 3 * 4,
      ),
      maxPageTextItems: intVar(env, 'PARSE_MAX_PAGE_TEXT_ITEMS', 8_000, 100, 1_000_000_000),
      maxDocumentTextItems: intVar(env, 'PARSE_MAX_DOCUMENT_TEXT_ITEMS', 24_000, 100, 1_000_000_000),
      timeoutMs: intVar(env, 'PARSE_TIMEOUT_MS', 20_000, 100, 600_000),
      workers: intVar(env, 'PARSE_WORKERS', 2, 1, 64),
      workerHeapMb: intVar(env, 'PARSE_WORKER_HEAP_MB', 384, 64, 16_384),
      workerRecycleMb: intVar(env, 'PARSE_WORKER_RECYCLE_MB', 128, 16, 16_384),
      maxRssGrowthMb: intVar(env, 'PARSE_MAX_RSS_GROWTH_MB', 1536, 64, 65_536),
    },
    trustProxy: boolVar(env, 'TRUST_PROXY', false),
    dashboard: {
      sessionTtlMs: intVar(env, 'DASHBOARD_SESSION_TTL_MS', 8 * 3_600_000, 60_000, 30 * 24 * 3_600_000),
      login: {
        windowMs: 15 * 60_000,
        freeFailures: 3,
        baseDelayMs: 500,
        maxDelayMs: 8_000,
        accountLimit: 10,
        addressLimit: 50,
      },
    },
    rateLimits: {
      windowSeconds: intVar(env, 'RATE_LIMIT_WINDOW_S', 60, 1, 86_400),
      perKey: intVar(env, 'RATE_LIMIT_PER_KEY', 1200, 0, 100_000_000),
      perAddress: intVar(env, 'RATE_LIMIT_PER_ADDRESS', 2400, 0, 100_000_000),
      authFailuresPerAddress: intVar(env, 'AUTH_FAILURES_PER_ADDRESS', 30, 0, 100_000_000),
      authFailureWindowSeconds: intVar(env, 'AUTH_FAILURE_WINDOW_S', 900, 1, 86_400),
      passwordChecksPerAddress: intVar(env, 'PASSWORD_CHECKS_PER_ADDRESS', 60, 0, 100_000_000),
      passwordChecksTotal: intVar(env, 'PASSWORD_CHECKS_TOTAL', 15, 0, 100_000_000),
      passwordChecksTotalSeconds: intVar(env, 'PASSWORD_CHECKS_TOTAL_S', 1, 1, 86_400),
      passwordChecksQueued: intVar(env, 'PASSWORD_CHECKS_QUEUED', 5, 0, 100_000),
      connectionsPerAddress: intVar(
        env,
        'MAX_CONNECTIONS_PER_ADDRESS',
        boolVar(env, 'TRUST_PROXY', false) ? 0 : 100,
        0,
        1_000_000,
      ),
    },
    indexPollMs: intVar(env, 'INDEX_POLL_MS', 1000, 100, 600_000),
    search: searchEngineVar(env),
    indexSnapshotDir: snapshotDirVar(env, cwd, dataDir, databaseUrl),
    metricsAllow: addressListVar(env, 'METRICS_ALLOW', ['127.0.0.1', '::1']),
    webhooks: {
      worker: boolVar(env, 'WEBHOOK_WORKER', true),
      pollMs: intVar(env, 'WEBHOOK_POLL_MS', 1000, 10, 60_000),
      timeoutMs: intVar(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      retryBaseMs: intVar(env, 'WEBHOOK_RETRY_BASE_MS', 10_000, 10, 3_600_000),
      retryMaxMs: intVar(env, 'WEBHOOK_RETRY_MAX_MS', 3_600_000, 10, 86_400_000),
      maxAttempts: intVar(env, 'WEBHOOK_MAX_ATTEMPTS', 25, 1, 1000),
      allowPrivateAddresses: boolVar(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      retentionDays: intVar(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    },
    jobs: {
      worker: boolVar(env, 'JOB_WORKER', true),
      pollMs: intVar(env, 'JOB_POLL_MS', 1000, 50, 600_000),
      leaseMs: intVar(env, 'JOB_LEASE_MS', 60_000, 300, 86_400_000),
    },
    limits: {
      authors_groups: limitVar(env, 'LIMIT_AUTHORS_GROUPS', 'authors_groups'),
      records_per_group: limitVar(env, 'LIMIT_RECORDS_PER_GROUP', 'records_per_group'),
      custom_fields: limitVar(env, 'LIMIT_CUSTOM_FIELDS', 'custom_fields'),
      options_per_field: limitVar(env, 'LIMIT_OPTIONS_PER_FIELD', 'options_per_field'),
      options: limitVar(env, 'LIMIT_OPTIONS', 'options'),
      option_characters: limitVar(env, 'LIMIT_OPTION_CHARACTERS', 'option_characters'),
      folders: limitVar(env, 'LIMIT_FOLDERS', 'folders'),
      api_keys: limitVar(env, 'LIMIT_API_KEYS', 'api_keys'),
      users: limitVar(env, 'LIMIT_USERS', 'users'),
    },
  };
}
