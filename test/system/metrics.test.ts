// GET /metrics: the Prometheus text format, scraped before and after requests; the counts and
// timings move with what was served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/infra/config.ts';
import { createTestApp, createTestOrg, type TestApp, type TestOrg } from '../helpers/app.ts';
import { rankingFields, fixture, upload } from '../manuscripts/upload-helpers.ts';
import { buildCorpus, TOPIC } from '../referee-finder/fixtures.ts';

let t: TestApp;
let org: TestOrg;
beforeAll(async () => {
  t = await createTestApp();
  org = await createTestOrg(t);
  await buildCorpus(t.db, [{ authors: [{ name: 'Mia Metric' }] }]);
  await t.app.refmatch.index.refresh();
});
afterAll(async () => {
  await t.close();
});

type Samples = Map<string, number>;

/** Each sample line `name{labels} value` by its name and labels as written. */
function parseExposition(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

async function scrape(): Promise<Samples> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(res.body);
}

const value = (samples: Samples, key: string) => samples.get(key) ?? 0;

describe('GET /metrics', () => {
  it('counts requests by route and status, and times them, the parse and the ranking', async () => {
    const before = await scrape();
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({ method: 'GET', url: '/healthz' });
    await t.app.inject({
      method: 'GET',
      url: '/api/external/author-from-group/999999/x/',
      headers: org.headers,
    });
    const fields = rankingFields({ origin_id: 'ms-metrics', abstract: TOPIC });
    const res = await upload(t.app, {
      apiKey: org.apiKey,
      fields,
      files: [{ name: 'manuscript.docx', bytes: fixture('manuscripts/deep-rules/manuscript.docx') }],
    });
    expect(res.statusCode).toBe(200);
    const after = await scrape();

    const healthz = 'refmatch_http_requests_total{method="GET",route="/healthz",status="200"}';
    expect(value(after, healthz) - value(before, healthz)).toBe(2);
    const missing =
      'refmatch_http_requests_total{method="GET",route="/api/external/author-from-group/:group_id/:client_id/",status="404"}';
    expect(value(after, missing) - value(before, missing)).toBe(1);
    const uploadCount =
      'refmatch_http_request_duration_seconds_count{method="POST",route="/api/external/proposal/",status="200"}';
    expect(value(after, uploadCount) - value(before, uploadCount)).toBe(1);
    const uploadSum =
      'refmatch_http_request_duration_seconds_sum{method="POST",route="/api/external/proposal/",status="200"}';
    expect(value(after, uploadSum)).toBeGreaterThan(value(before, uploadSum));

    const parsed = 'refmatch_parse_duration_seconds_count{outcome="ok"}';
    expect(value(after, parsed) - value(before, parsed)).toBe(1);
    expect(value(after, 'refmatch_parse_duration_seconds_sum{outcome="ok"}')).toBeGreaterThan(0);
    const ranked = 'refmatch_ranking_duration_seconds_count';
    expect(value(after, ranked) - value(before, ranked)).toBe(1);
    // The pool started a worker for the file, which is idle again.
    expect(value(after, 'refmatch_parser_workers{state="idle"}')).toBeGreaterThanOrEqual(1);
    expect(value(after, 'refmatch_parser_workers{state="busy"}')).toBe(0);
    expect(after.get('refmatch_parser_queue_depth')).toBe(0);
    // What the worker kept after the file (its heap and buffers), beside the main thread's buffers.
    expect(value(after, 'refmatch_parser_workers_retained_bytes')).toBeGreaterThan(0);
    expect(value(after, 'refmatch_process_array_buffers_bytes')).toBeGreaterThan(0);
    // The embedded database's WebAssembly memory, which only PGlite holds in this process.
    if (t.db.driver === 'pglite')
      expect(value(after, 'refmatch_database_memory_bytes')).toBeGreaterThanOrEqual(2 ** 20);
    else expect(after.has('refmatch_database_memory_bytes')).toBe(false);
  });

  it('reports the index: its size, the change it reflects, and its lag behind the database', async () => {
    const before = await scrape();
    expect(value(before, 'refmatch_index_works')).toBeGreaterThanOrEqual(1);
    expect(value(before, 'refmatch_index_postings')).toBeGreaterThan(0);
    await buildCorpus(t.db, [{ authors: [{ name: 'Noor Newcomer' }] }]);
    await t.app.refmatch.index.refresh();
    const after = await scrape();
    expect(value(after, 'refmatch_index_works') - value(before, 'refmatch_index_works')).toBe(1);
    expect(value(after, 'refmatch_index_change_seq')).toBeGreaterThan(
      value(before, 'refmatch_index_change_seq'),
    );
    expect(after.get('refmatch_index_lag_changes')).toBe(0);
    expect(after.get('refmatch_ready')).toBe(1);
    expect(after.has('process_cpu_user_seconds_total')).toBe(true);
    expect(after.has('nodejs_eventloop_lag_p99_seconds')).toBe(true);
  });

  it('answers only the addresses in METRICS_ALLOW (default loopback)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: { code: 'forbidden', message: expect.stringContaining('METRICS_ALLOW') },
    });
    expect(parseConfig({}).metricsAllow).toEqual(['127.0.0.1', '::1']);
    expect(parseConfig({ METRICS_ALLOW: 'all' }).metricsAllow).toBe('all');
    expect(parseConfig({ METRICS_ALLOW: '10.1.2.3, ::1' }).metricsAllow).toEqual(['10.1.2.3', '::1']);
    expect(() => parseConfig({ METRICS_ALLOW: 'prometheus.internal' })).toThrow(/METRICS_ALLOW/);
  });
});
