// npx tsx bench/group-export.ts: a group's records exported as CSV from the dashboard
// (/dashboard/groups/<id>/export/, src/dashboard/pages/group-export.ts) over real HTTP, the app
// listening on 127.0.0.1 and the file read by a client in this process that keeps only its length:
// a group of 200,000 records (bench/lib/large-group.ts: names, one or two emails each), on PGlite in
// memory and on server PostgreSQL (bench/lib/bench-databases.ts). Prints per database the time to
// the last byte, the bytes and lines, the process's resident memory before the export and its peak
// during it (sampled every 5 ms, and the kernel's high-water mark), and the event loop's longest
// stall (the longest gap a 1 ms timer saw while the export ran): how long every other request of
// the process waited at worst. Exported twice: the group just written, then again (after the store's
// reads alone, timed).
//
//   BENCH_RECORDS (default 200000), BENCH_DRIVERS (default "pglite,postgres")
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.ts';
import { migrate } from '../src/infra/db/migrate.ts';
import type { Database } from '../src/infra/db/index.ts';
import { createOrganization } from '../src/organizations/organizations.ts';
import { setLimitOverrides } from '../src/organizations/limits.ts';
import { createGroup, groupAuthorsInBatches } from '../src/authors-groups/store.ts';
import { onEachBenchDatabase } from './lib/bench-databases.ts';
import { signedInUser } from './lib/dashboard-session.ts';
import { fillLargeGroup } from './lib/large-group.ts';
import { benchAppConfig } from './lib/bench-config.ts';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** The file at `url`, read to its end and dropped as it comes: its bytes and lines. */
function download(url: string, cookie: string): Promise<{ status: number; bytes: number; lines: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { cookie } }, (res) => {
        let bytes = 0;
        let lines = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, lines }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function measure(db: Database, label: string): Promise<void> {
  await migrate(db);
  const config = benchAppConfig({ WEBHOOK_WORKER: 'false', REFMATCH_DATA_DIR: os.tmpdir() });
  const app = await buildApp({ config, db });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const org = await createOrganization(db, { name: 'Bench', features: [] });
    await setLimitOverrides(db, org.id, { records_per_group: RECORDS });
    const group = await createGroup(db, org.id, 'Pool');
    await fillLargeGroup(db, org.id, group.group_id, RECORDS);
    const session = await signedInUser(app, db, org.id, 'editor');
    const { port } = app.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/dashboard/groups/${group.group_id}/export/`;

    /** One export over HTTP: its time, size, the process's memory and the event loop's longest stall. */
    const exportOnce = async (run: string) => {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      let longestStall = 0;
      let last = performance.now();
      let running = true;
      const tick = () => {
        const now = performance.now();
        longestStall = Math.max(longestStall, now - last);
        last = now;
        rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
        if (running) setTimeout(tick, 1);
      };
      setTimeout(tick, 1);
      const start = performance.now();
      const got = await download(url, session.cookie);
      const ms = performance.now() - start;
      running = false;
      console.log(
        `${label}, ${run}: ${RECORDS.toLocaleString('en')} records: status ${got.status}, ${mib(got.bytes)} (${got.bytes.toLocaleString('en')} bytes), ` +
          `${got.lines.toLocaleString('en')} lines, ${(ms / 1000).toFixed(1)} s to the last byte; ` +
          `RSS ${mib(rssBefore)} before, peak ${mib(rssPeak)} (+${mib(rssPeak - rssBefore)}), ` +
          `high-water mark ${mib(process.resourceUsage().maxRSS * 1024)}; event loop's longest stall ${longestStall.toFixed(0)} ms`,
      );
    };

    // First the group just written (what an admin does after an import), then the store's reads
    // alone (its batches, nothing written: their share of the time), then the export again.
    await exportOnce('run 1, the group just written');
    const readStart = performance.now();
    let read = 0;
    for await (const batch of groupAuthorsInBatches(db, { organizationId: org.id, groupId: group.group_id }))
      read += batch.length;
    console.log(
      `${label}: the store's reads alone: ${read.toLocaleString('en')} records in ${((performance.now() - readStart) / 1000).toFixed(1)} s`,
    );
    await exportOnce('run 2');
  } finally {
    await app.close();
  }
}

console.log(
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}, ${os.cpus().length} cores`,
);
await onEachBenchDatabase('bench_group_export', measure);
console.log(
  `load ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
