// /metrics in the Prometheus text format (prom-client): HTTP requests by route and status with their
// latency, the upload's parse and ranking time, the search index (size, and how far it lags the
// database), the parser pool's use and queue, readiness, and the process (event loop, memory, GC).
// Each app has its own registry: two apps in one process (tests) count apart.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AppContext } from '../app-context.ts';
import { errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import type { CandidateFinder } from '../manuscripts/upload.ts';
import type { ManuscriptParser } from '../manuscripts/parsed-document.ts';
import { countJobs, JOB_STATES } from '../jobs/queue.ts';

const SECONDS = (ms: number) => ms / 1000;

export class AppMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: 'refmatch_http_requests_total',
    help: 'HTTP requests answered, by method, route (its pattern) and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: 'refmatch_http_request_duration_seconds',
    help: 'Time from request to response, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly parseTime = new Histogram({
    name: 'refmatch_parse_duration_seconds',
    help: "Time to parse an uploaded manuscript file, by outcome ('ok' or the parse error's code)",
    labelNames: ['outcome'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60],
    registers: [this.registry],
  });
  /** Set by the upload route's gate (UPLOADS_IN_FLIGHT): how near the process is to refusing. */
  readonly uploadsInFlight = new Gauge({
    name: 'refmatch_uploads_in_flight',
    help: 'Uploads being read, parsed or ranked now; past UPLOADS_IN_FLIGHT more are answered 503',
    registers: [this.registry],
  });
  /** Set by the upload route (manuscripts/parse-shares.ts): files held back so others' files are parsed. */
  readonly parsesWaitingForShare = new Gauge({
    name: 'refmatch_parses_waiting_for_share',
    help: 'Uploaded files waiting because their organization has its share of the parser workers',
    registers: [this.registry],
  });
  private readonly rankingTime = new Histogram({
    name: 'refmatch_ranking_duration_seconds',
    help: 'Time to find and rank the referee candidates of an upload',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly journalRecommendations = new Counter({
    name: 'refmatch_journal_recommendations_total',
    help: "Journal recommendations answered (4.6 and the dashboard), by how: 'computed' or 'cached' (unchanged since computed)",
    labelNames: ['answer'] as const,
    registers: [this.registry],
  });

  constructor(ctx: Omit<AppContext, 'metrics' | 'journalResults' | 'inFlight'>) {
    // The process's own (CPU, memory, event-loop lag, GC) under their usual names.
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    new Gauge({
      name: 'refmatch_ready',
      help: '1 when the corpus is loaded and uploads are answered, 0 while something loads',
      registers,
      collect() {
        this.set(ctx.readiness.ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'refmatch_index_works',
      help: 'Works the search index can return',
      registers,
      collect() {
        this.set(ctx.index.stats().works);
      },
    });
    new Gauge({
      name: 'refmatch_index_postings',
      help: 'Postings held by the search index',
      registers,
      collect() {
        this.set(ctx.index.stats().postings);
      },
    });
    new Gauge({
      name: 'refmatch_index_array_bytes',
      help: "Bytes in the search index's typed arrays",
      registers,
      collect() {
        this.set(ctx.index.stats().arrayBytes);
      },
    });
    new Gauge({
      name: 'refmatch_index_change_seq',
      help: 'Highest works.change_seq the search index has applied',
      registers,
      collect() {
        this.set(ctx.index.stats().changeSeq);
      },
    });
    new Gauge({
      name: 'refmatch_index_lag_changes',
      help: 'Work changes in the database the search index has not applied yet (max change_seq minus its own)',
      registers,
      async collect() {
        const { rows } = await ctx.db.query<{ seq: number | null }>(
          'SELECT max(change_seq) AS seq FROM works',
        );
        this.set(Math.max(0, Number(rows[0]?.seq ?? 0) - ctx.index.stats().changeSeq));
      },
    });
    new Gauge({
      name: 'refmatch_index_refresh_age_seconds',
      help: 'Seconds since the search index last read the database',
      registers,
      collect() {
        const at = ctx.index.stats().lastRefreshAt;
        if (at) this.set(SECONDS(Date.now() - Date.parse(at)));
      },
    });
    new Gauge({
      name: 'refmatch_parser_workers',
      help: 'Parser worker threads, by state (busy parsing, or idle)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const { workers, busy } = ctx.parser.stats();
        this.set({ state: 'busy' }, busy);
        this.set({ state: 'idle' }, workers - busy);
      },
    });
    new Gauge({
      name: 'refmatch_job_queue_depth',
      help: 'Jobs queued and not yet claimed by a worker (src/jobs)',
      registers,
      async collect() {
        this.set((await countJobs(ctx.db)).queued);
      },
    });
    new Gauge({
      name: 'refmatch_jobs',
      help: 'Jobs on the queue, by state (queued, running, completed, failed, cancelled)',
      labelNames: ['state'] as const,
      registers,
      async collect() {
        const counts = await countJobs(ctx.db);
        for (const state of JOB_STATES) this.set({ state }, counts[state]);
      },
    });
    new Gauge({
      name: 'refmatch_parser_workers_retained_bytes',
      help: "The parser workers' V8 heaps and external memory after their last files, summed (each is replaced above PARSE_WORKER_RECYCLE_MB)",
      registers,
      collect() {
        this.set(ctx.parser.stats().retainedMb * 2 ** 20);
      },
    });
    new Gauge({
      name: 'refmatch_process_array_buffers_bytes',
      help: "Bytes of the main thread's ArrayBuffers and Buffers (process.memoryUsage().arrayBuffers, part of nodejs_external_memory_bytes)",
      registers,
      collect() {
        this.set(process.memoryUsage().arrayBuffers);
      },
    });
    if (ctx.db.memoryBytes) {
      const memoryBytes = ctx.db.memoryBytes.bind(ctx.db);
      new Gauge({
        name: 'refmatch_database_memory_bytes',
        help: 'Bytes the embedded database (PGlite) holds in this process: its WebAssembly memory, never given back',
        registers,
        collect() {
          this.set(memoryBytes());
        },
      });
    }
    new Gauge({
      name: 'refmatch_parser_queue_depth',
      help: 'Uploaded files waiting for a parser worker',
      registers,
      collect() {
        this.set(ctx.parser.stats().queued);
      },
    });
  }

  /** Counts every response under its route's pattern (not its URL: ids would make labels unbounded). */
  /** One journal recommendation answered: computed, or served from the results kept. */
  countJournalRecommendation(cached: boolean): void {
    this.journalRecommendations.inc({ answer: cached ? 'cached' : 'computed' });
  }

  register(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      };
      this.requests.inc(labels);
      this.latency.observe(labels, SECONDS(reply.elapsedTime));
    });
  }

  timedParser(parser: ManuscriptParser): ManuscriptParser {
    return {
      parse: async (bytes, fileName) => {
        const started = performance.now();
        const result = await parser.parse(bytes, fileName);
        this.parseTime.observe({ outcome: result.error?.code ?? 'ok' }, SECONDS(performance.now() - started));
        return result;
      },
    };
  }

  timedFinder(find: CandidateFinder): CandidateFinder {
    return async (ctx, manuscript, options) => {
      const started = performance.now();
      try {
        return await find(ctx, manuscript, options);
      } finally {
        this.rankingTime.observe(SECONDS(performance.now() - started));
      }
    };
  }
}

/**
 * GET /metrics, answered only to the addresses in METRICS_ALLOW (default: loopback): the figures
 * name no tenant, but they tell traffic, corpus size and timings to whoever can read them.
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext): void {
  const allowed = ctx.config.metricsAllow;
  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics (text exposition format), to the addresses in METRICS_ALLOW',
        tags: ['system'],
        response: { 200: Type.String(), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      if (allowed !== 'all' && !allowed.includes(request.ip.replace(/^::ffff:/, ''))) {
        throw errors.forbidden(`/metrics is not served to ${request.ip} (METRICS_ALLOW)`);
      }
      void reply.type(ctx.metrics.registry.contentType);
      return ctx.metrics.registry.metrics();
    },
  );
}
