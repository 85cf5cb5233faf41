// npx tsx bench/group-import.ts: what the dashboard's import of a group's records costs
// (src/dashboard/pages/group-import.ts, the store's importGroupAuthors), on PGlite and on server
// PostgreSQL (DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test, a fresh database dropped
// afterwards), over the demo corpus (the records are linked to it as they are written).
// Each run: a 3,000-row CSV posted to the import page by a signed-in editor through app.inject (a
// first import, then the same CSV again: every record replaced), then the rows of a 1 MiB CSV
// (new client ids) the same way. The import's transaction holds the group's row locked (the count
// kept on it by triggers) from its first write to its end, where the API's writes into the group
// wait: the longest transaction during each post is reported. Options (environment): BENCH_ROWS (default 3000),
// BENCH_FILE_BYTES (default 1048576), BENCH_FILE ("0": the 1 MiB CSV posted URL-encoded under a
// larger body limit, for the page before it took files), BENCH_DRIVERS (default "pglite,postgres"), BENCH_CORPUS
// ("demo", default, or "none").
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import type { Database } from '../src/infra/db/index.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import { ensureDemoCorpus } from '../src/corpus/ingest/demo-corpus.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import { setLimitOverrides } from '../src/organizations/limits.ts';
import { createGroup } from '../src/authors-groups/store.ts';
import { createCustomField } from '../src/custom-fields/store.ts';
import { createUserWithPassword, injectSignIn } from '../test/helpers/dashboard-sign-in.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { benchAppConfig } from './lib/bench-config.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 3000);
const FILE_BYTES = Number(process.env.BENCH_FILE_BYTES ?? 1024 * 1024);
const CORPUS = process.env.BENCH_CORPUS ?? 'demo';

/** A record of the kind a journal keeps: a name, an email, an ORCID, two articles, an affiliation. */
function csvRow(prefix: string, i: number, names: readonly string[]): string {
  const name = names[i % names.length]!;
  const orcid = `0000-0002-${String(1000 + (i % 9000)).padStart(4, '0')}-${String(i % 10000).padStart(4, '0')}`;
  return [
    `${prefix}${i}`,
    `"${name.replace(/"/g, '""')}"`,
    `${prefix}${i}@example.org`,
    orcid,
    `"10.9999/bench.${i}; A study of item ${i} in context"`,
    `"University ${i % 400}, Department of Things"`,
    String(i % 50),
  ].join(',');
}

const HEADER = 'client_id,name,emails,orcids,articles,affiliations,Reviews done';

function csvOf(prefix: string, rows: number, names: readonly string[]): string {
  const lines = [HEADER];
  for (let i = 1; i <= rows; i++) lines.push(csvRow(prefix, i, names));
  return `${lines.join('\n')}\n`;
}

/** As many rows as make a CSV of `bytes` (the last row fitting). */
function csvOfSize(prefix: string, bytes: number, names: readonly string[]): { csv: string; rows: number } {
  const lines = [HEADER];
  let size = HEADER.length + 1;
  for (let i = 1; ; i++) {
    const line = csvRow(prefix, i, names);
    if (size + line.length + 1 > bytes) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { csv: `${lines.join('\n')}\n`, rows: lines.length - 1 };
}

interface Sent {
  ms: number;
  status: number;
  message: string;
}

/** Posts the CSV as the import form sends it (URL-encoded), or as a file when `file` is set. */
async function post(
  app: FastifyInstance,
  session: { cookie: string; csrf: string },
  url: string,
  csv: string,
  file: boolean,
): Promise<Sent> {
  let payload: string | Buffer;
  let type: string;
  if (file) {
    const boundary = '----bench-group-import';
    payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${session.csrf}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="records.csv"\r\n` +
          `Content-Type: text/csv\r\n\r\n`,
      ),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    type = `multipart/form-data; boundary=${boundary}`;
  } else {
    payload = new URLSearchParams({ _csrf: session.csrf, csv }).toString();
    type = 'application/x-www-form-urlencoded';
  }
  const start = performance.now();
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { cookie: session.cookie, 'content-type': type },
    payload,
  });
  const ms = performance.now() - start;
  let message = '';
  if (response.statusCode === 303) {
    const page = await app.inject({
      url: String(response.headers.location),
      headers: { cookie: session.cookie },
    });
    message = /Imported: [^<.]*/.exec(page.body)?.[0] ?? '(no message)';
  } else {
    message = response.body
      .replace(/<[^>]*>/g, ' ')
      .replace(/\s+/g, ' ')
      .slice(0, 300);
  }
  return { ms, status: response.statusCode, message };
}

async function measure(db: Database, label: string): Promise<void> {
  await migrate(db);
  // The import's transaction holds the group's row (its count) locked from its first write to its
  // end: every transaction's length is noted, and the longest during a post reported.
  const transactions: number[] = [];
  const transaction = db.transaction.bind(db);
  db.transaction = (async (fn: Parameters<Database['transaction']>[0]) => {
    const start = performance.now();
    try {
      return await transaction(fn);
    } finally {
      transactions.push(performance.now() - start);
    }
  }) as Database['transaction'];
  if (CORPUS === 'demo') await ensureDemoCorpus(db, () => {});
  const { rows: names } = await db.query<{ display_name: string }>(
    'SELECT display_name FROM authors ORDER BY id LIMIT 5000',
  );
  const nameList = names.length > 0 ? names.map((r) => r.display_name) : ['Ada Lovelace', 'Alan Turing'];
  const config = benchAppConfig({ WEBHOOK_WORKER: 'false', REFMATCH_DATA_DIR: os.tmpdir() });
  const app = await buildApp({ config, db });
  await app.ready();
  try {
    const org = await createOrganization(db, { name: 'Bench', features: [] });
    await setLimitOverrides(db, org.id, { records_per_group: 100_000 });
    await createCustomField(db, org.id, {
      owner: 'author_from_group',
      dataKind: 'number',
      name: 'Reviews done',
      options: [],
    });
    const group = await createGroup(db, org.id, 'Pool');
    const email = 'editor@bench.example';
    await createUserWithPassword(db, { organizationId: org.id, email, role: 'editor' });
    const session = await injectSignIn(app, email);
    const url = `/dashboard/groups/${group.group_id}/import/`;
    const multipart = process.env.BENCH_FILE !== '0';
    const line = (what: string, sent: Sent) => {
      const longest = Math.max(0, ...transactions.splice(0));
      const held = `${(longest / 1000).toFixed(2)} s in its longest transaction`;
      console.log(
        `${label} | ${what} | ${(sent.ms / 1000).toFixed(2)} s | ${held} | ${sent.status} | ${sent.message}`,
      );
    };

    const csv = csvOf('r', ROWS, nameList);
    console.log(
      `${label}: ${ROWS} rows, ${(Buffer.byteLength(csv) / 1024).toFixed(0)} KiB; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    line(`${ROWS} rows, first import`, await post(app, session, url, csv, false));
    line(`${ROWS} rows, again (replacing)`, await post(app, session, url, csv, false));

    const big = csvOfSize('f', FILE_BYTES, nameList);
    console.log(`${label}: a ${FILE_BYTES}-byte CSV holds ${big.rows} rows`);
    // The form's body limit (1 MiB) refuses a 1 MiB CSV URL-encoded: sent as a file when the page
    // takes one, else under a larger body limit for this one measure.
    let bigApp = app;
    if (!multipart) {
      bigApp = await buildApp({ config: { ...config, bodyLimitBytes: 4 * FILE_BYTES }, db });
      await bigApp.ready();
    }
    try {
      const bigSession = multipart ? session : await injectSignIn(bigApp, email);
      const sent = await post(bigApp, bigSession, url, big.csv, multipart);
      line(`1 MiB (${big.rows} rows)${multipart ? ' as a file' : ''}`, sent);
    } finally {
      if (bigApp !== app) await bigApp.close();
    }
  } finally {
    await app.close();
  }
}

await onEachBenchDatabase('bench_group_import', measure);
