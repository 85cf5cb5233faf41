import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/infra/config.ts';

describe('parseConfig (one pure function over the environment)', () => {
  it('keeps the search index snapshot under the data directory on PGlite, nowhere by default on a server', () => {
    expect(parseConfig({}, '/srv/app').indexSnapshotDir).toBe('/srv/app/data/index-snapshot');
    expect(parseConfig({ REFMATCH_DATA_DIR: '/var/refmatch' }).indexSnapshotDir).toBe(
      '/var/refmatch/index-snapshot',
    );
    expect(parseConfig({ DATABASE_URL: 'postgres://db/refmatch' }).indexSnapshotDir).toBeNull();
    expect(
      parseConfig({ DATABASE_URL: 'postgres://db/refmatch', INDEX_SNAPSHOT_DIR: 'snap' }, '/srv/app')
        .indexSnapshotDir,
    ).toBe('/srv/app/snap');
    expect(parseConfig({ INDEX_SNAPSHOT_DIR: '/fast/disk' }).indexSnapshotDir).toBe('/fast/disk');
    expect(parseConfig({ INDEX_SNAPSHOT_DIR: 'none' }).indexSnapshotDir).toBeNull();
    expect(parseConfig({ INDEX_SNAPSHOT_DIR: ' NONE ' }).indexSnapshotDir).toBeNull();
  });

  it('has documented defaults for an empty environment', () => {
    const config = parseConfig({}, '/srv/app');
    expect(config).toMatchObject({
      port: 8000,
      host: '0.0.0.0',
      databaseUrl: null,
      dataDir: path.resolve('/srv/app', 'data'),
      logLevel: 'info',
      publicBaseUrl: 'http://localhost:8000',
      bodyLimitBytes: 1024 * 1024,
      fileLimitBytes: 50 * 1024 * 1024,
      authCacheTtlMs: 5000,
      heapGrowingPercent: 30,
      demo: true,
      rateLimits: {
        windowSeconds: 60,
        perKey: 1200,
        perAddress: 2400,
        authFailuresPerAddress: 30,
        authFailureWindowSeconds: 900,
        connectionsPerAddress: 100,
      },
    });
  });

  it('reads every variable it knows', () => {
    const config = parseConfig(
      {
        PORT: '9001',
        HOST: '127.0.0.1',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/refmatch',
        REFMATCH_DATA_DIR: 'var/db',
        LOG_LEVEL: 'DEBUG',
        PUBLIC_BASE_URL: 'https://refmatch.example.org/base/',
        BODY_LIMIT_BYTES: '2048',
        FILE_LIMIT_BYTES: '4096',
        SHUTDOWN_TIMEOUT_MS: '250',
        AUTH_CACHE_TTL_MS: '0',
        REFMATCH_DEMO: 'false',
        RATE_LIMIT_WINDOW_S: '10',
        RATE_LIMIT_PER_KEY: '0',
        RATE_LIMIT_PER_ADDRESS: '50',
        AUTH_FAILURES_PER_ADDRESS: '5',
        AUTH_FAILURE_WINDOW_S: '3600',
        MAX_CONNECTIONS_PER_ADDRESS: '7',
      },
      '/srv/app',
    );
    expect(config).toMatchObject({
      port: 9001,
      host: '127.0.0.1',
      databaseUrl: 'postgres://postgres@127.0.0.1:5432/refmatch',
      dataDir: '/srv/app/var/db',
      logLevel: 'debug',
      publicBaseUrl: 'https://refmatch.example.org/base',
      bodyLimitBytes: 2048,
      fileLimitBytes: 4096,
      shutdownTimeoutMs: 250,
      authCacheTtlMs: 0,
      demo: false,
      rateLimits: {
        windowSeconds: 10,
        perKey: 0,
        perAddress: 50,
        authFailuresPerAddress: 5,
        authFailureWindowSeconds: 3600,
        connectionsPerAddress: 7,
      },
    });
  });

  it('reads HEAP_GROWING_PERCENT (0 leaves V8 its own factor) and refuses values out of range', () => {
    expect(parseConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(parseConfig({ HEAP_GROWING_PERCENT: '50' }).heapGrowingPercent).toBe(50);
    expect(() => parseConfig({ HEAP_GROWING_PERCENT: '301' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => parseConfig({ HEAP_GROWING_PERCENT: '-1' })).toThrow(/HEAP_GROWING_PERCENT/);
  });

  it('derives the public base URL from HOST and PORT when not given', () => {
    expect(parseConfig({ HOST: '10.0.0.5', PORT: '81' }).publicBaseUrl).toBe('http://10.0.0.5:81');
  });

  describe('search engine (SEARCH_ENGINE, OPENSEARCH_URL, OPENSEARCH_INDEX)', () => {
    it('is the in-process index by default', () => {
      expect(parseConfig({}).search).toEqual({ engine: 'local' });
    });

    it('is the local index when asked, even with an OpenSearch URL set', () => {
      expect(parseConfig({ SEARCH_ENGINE: 'local', OPENSEARCH_URL: 'http://os:9200' }).search).toEqual({
        engine: 'local',
      });
    });

    it('is OpenSearch at the given URL, on the default index and layout or the ones named', () => {
      expect(
        parseConfig({ SEARCH_ENGINE: 'OpenSearch', OPENSEARCH_URL: 'https://os.example:9200' }).search,
      ).toEqual({
        engine: 'opensearch',
        url: 'https://os.example:9200',
        index: 'refmatch-works',
        shards: 1,
        replicas: 0,
      });
      expect(
        parseConfig({
          SEARCH_ENGINE: 'opensearch',
          OPENSEARCH_URL: 'http://os:9200',
          OPENSEARCH_INDEX: 'works-v2',
          OPENSEARCH_SHARDS: '16',
          OPENSEARCH_REPLICAS: '1',
        }).search,
      ).toEqual({ engine: 'opensearch', url: 'http://os:9200', index: 'works-v2', shards: 16, replicas: 1 });
    });
  });

  it('treats empty values as unset', () => {
    expect(parseConfig({ PORT: '', LOG_LEVEL: ' ', DATABASE_URL: '' })).toMatchObject({
      port: 8000,
      logLevel: 'info',
      databaseUrl: null,
    });
  });

  const bad: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be a whole number/],
    [{ PORT: '8000.5' }, /PORT/],
    [{ PORT: '-1' }, /PORT/],
    [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ DATABASE_URL: 'mysql://localhost/db' }, /DATABASE_URL must use postgres:/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL must be a URL/],
    [{ PUBLIC_BASE_URL: 'ftp://example.org' }, /PUBLIC_BASE_URL/],
    [{ BODY_LIMIT_BYTES: '10' }, /BODY_LIMIT_BYTES must be between/],
    [{ BODY_LIMIT_BYTES: '1MB' }, /BODY_LIMIT_BYTES must be a whole number/],
    [{ REFMATCH_DEMO: 'maybe' }, /REFMATCH_DEMO must be true or false/],
    [{ AUTH_CACHE_TTL_MS: '-5' }, /AUTH_CACHE_TTL_MS/],
    [{ RATE_LIMIT_PER_KEY: 'lots' }, /RATE_LIMIT_PER_KEY must be a whole number/],
    [{ RATE_LIMIT_WINDOW_S: '0' }, /RATE_LIMIT_WINDOW_S must be between/],
    [{ SEARCH_ENGINE: 'elastic' }, /SEARCH_ENGINE must be one of local, opensearch/],
    [{ SEARCH_ENGINE: 'opensearch' }, /SEARCH_ENGINE=opensearch needs OPENSEARCH_URL/],
    [{ OPENSEARCH_URL: 'postgres://x' }, /OPENSEARCH_URL must use http: or https:/],
    [
      { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: 'http://os:9200', OPENSEARCH_INDEX: 'Works' },
      /OPENSEARCH_INDEX must be lower-case/,
    ],
    [
      { SEARCH_ENGINE: 'opensearch', OPENSEARCH_URL: 'http://os:9200', OPENSEARCH_SHARDS: '0' },
      /OPENSEARCH_SHARDS must be between 1 and 1024/,
    ],
  ];
  for (const [env, message] of bad) {
    it(`fails loudly on ${JSON.stringify(env)}`, () => {
      expect(() => parseConfig(env)).toThrow(ConfigError);
      expect(() => parseConfig(env)).toThrow(message);
    });
  }

  it('does not read process.env by itself', () => {
    const before = process.env.PORT;
    process.env.PORT = 'not-a-port';
    try {
      expect(parseConfig({}).port).toBe(8000);
    } finally {
      if (before === undefined) delete process.env.PORT;
      else process.env.PORT = before;
    }
  });
});
