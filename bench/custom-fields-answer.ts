// npx tsx bench/custom-fields-answer.ts: the size and CPU cost of one 4.7 answer
// (GET /api/external/custom-fields/all/, every option of every field) for the shapes the option caps
// allow (docs/operations.md, "Organization limits"). The options are written with SQL, past any
// cap, so the same run measures what the caps before (200 fields x 1,000 options x 500 characters)
// and after (20,000 options and 500,000 characters in all) let an organization store.
// Options (environment): BENCH_SHAPES (names below, comma-separated; default all but "before-cap"),
// BENCH_ROUNDS (default 5), BENCH_DRIVERS (default "pglite,postgres").
import type { Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import { parseConfig } from '../src/infra/config.ts';
import { buildApp } from '../src/app.ts';

interface Shape {
  fields: number;
  options: number;
  /** One character of each option, repeated `length` times (with the option's number first). */
  char: string;
  length: number;
}

const SHAPES: Record<string, Shape> = {
  // What the hostile round measured, and what the two older caps allowed at most.
  'before-measured': { fields: 40, options: 1_000, char: 'x', length: 500 },
  'before-cap': { fields: 200, options: 1_000, char: 'x', length: 500 },
  // At both new caps (20,000 options, 500,000 characters): the most bytes an answer can hold.
  'after-ascii': { fields: 200, options: 100, char: 'x', length: 25 },
  'after-cjk': { fields: 200, options: 100, char: '語', length: 25 },
  'after-escaped': { fields: 200, options: 100, char: '\u0001', length: 25 },
  // A real organization: 30 fields, one of them the countries (250), the others 20 options of 20.
  real: { fields: 30, options: 20, char: 'x', length: 20 },
};

const NAMES = (
  process.env.BENCH_SHAPES ??
  Object.keys(SHAPES)
    .filter((s) => s !== 'before-cap')
    .join(',')
)
  .split(',')
  .filter(Boolean);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function fill(db: Database, organizationId: number, shape: Shape): Promise<void> {
  await db.query(
    `INSERT INTO custom_fields (api_id, organization_id, owner, data_kind, name)
     SELECT gen_random_uuid(), $1, 'author_from_group', 'single_option', 'Field ' || i
       FROM generate_series(1, $2::integer) i`,
    [organizationId, shape.fields],
  );
  // The option's number keeps options of one field apart; the rest repeats the character.
  await db.query(
    `INSERT INTO custom_field_options (api_id, field, option, "order")
     SELECT gen_random_uuid(), f.api_id,
            left(i::text || repeat($3::text, $4::integer), $4::integer), i
       FROM custom_fields f, generate_series(1, $2::integer) i WHERE f.organization_id = $1`,
    [organizationId, shape.options, shape.char, shape.length],
  );
}

async function measure(db: Database, label: string): Promise<void> {
  await migrate(db);
  const app = await buildApp({
    config: parseConfig({
      LOG_LEVEL: 'silent',
      PUBLIC_BASE_URL: 'http://bench.test',
      REFMATCH_DEMO: 'false',
    }),
    db,
  });
  await app.ready();
  try {
    for (const name of NAMES) {
      const shape = SHAPES[name];
      if (!shape) throw new Error(`Unknown shape ${name}: ${Object.keys(SHAPES).join(', ')}`);
      const org = await createOrganization(db, { name: `Bench ${name}`, features: [] });
      await fill(db, org.id, shape);
      if (name === 'real') {
        await db.query(
          `INSERT INTO custom_field_options (api_id, field, option, "order")
           SELECT gen_random_uuid(), (SELECT api_id FROM custom_fields WHERE organization_id = $1 LIMIT 1),
                  'Country number ' || i, 1000 + i FROM generate_series(1, 230) i`,
          [org.id],
        );
      }
      const cpu: number[] = [];
      const wall: number[] = [];
      let bytes = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const cpuStart = processCpuMs();
        const start = performance.now();
        const res = await app.inject({
          method: 'GET',
          url: '/api/external/custom-fields/all/',
          headers: { 'x-apikey': org.api_key },
        });
        wall.push(performance.now() - start);
        cpu.push(processCpuMs() - cpuStart);
        if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        bytes = res.rawPayload.length;
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const { rows } = await db.query<{ n: number; c: number }>(
        `SELECT count(*)::integer AS n, coalesce(sum(char_length(o.option)), 0)::integer AS c
           FROM custom_field_options o JOIN custom_fields f ON f.api_id = o.field WHERE f.organization_id = $1`,
        [org.id],
      );
      console.log(
        `${label} ${name}: ${shape.fields} fields, ${rows[0]!.n} options, ${rows[0]!.c} characters: ` +
          `${(bytes / 1e6).toFixed(2)} MB, CPU median ${median(cpu).toFixed(0)} ms, wall median ` +
          `${median(wall).toFixed(0)} ms (n=${ROUNDS})`,
      );
      await db.query('DELETE FROM custom_fields WHERE organization_id = $1', [org.id]);
    }
  } finally {
    await app.close();
  }
}

await onEachBenchDatabase('bench_cf_answer', measure);
