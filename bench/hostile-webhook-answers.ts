// What a webhook receiver's answer costs the process delivering to it (src/webhooks/delivery.ts): an
// organization's integrations admin names the receiver, so its answer is as hostile as they like. The
// receiver, in a child process (its CPU is not ours), answers every delivery with a status and a body
// without end, written as fast as the socket takes it; the checkout's app (PGlite in memory, its
// webhook worker polling every 20 ms, private addresses allowed) delivers one event of each of
// BENCH_ORGS organizations at once. Prints the attempts recorded, what the receiver wrote, the
// process's CPU and the longest the event loop was held until every event's first attempt is over.
//
//   npx tsx bench/hostile-webhook-answers.ts
//   BENCH_ROOT=<another checkout>; BENCH_ORGS (default 1,20); BENCH_TIMEOUT_MS (default 10000, the default WEBHOOK_TIMEOUT_MS)
import { spawn } from 'node:child_process';
import path from 'node:path';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';

const ORGS = (process.env.BENCH_ORGS ?? '1,20').split(',').map(Number);
const TIMEOUT_MS = process.env.BENCH_TIMEOUT_MS ?? '10000';
const { buildApp, parseConfig, openPglite, migrate, createOrganization } = await checkoutApp();
const { saveWebhook, enqueueEvent } =
  await fromCheckout<typeof import('../src/webhooks/store.ts')>('src/webhooks/store.ts');

const RECEIVER = `
const http = require('node:http');
const chunk = Buffer.alloc(64 * 1024, 'x');
let written = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const pump = () => { while (!res.destroyed && res.write(chunk)) written += chunk.length; };
    res.on('drain', () => { written += chunk.length; pump(); });
    pump();
  });
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
process.on('message', () => process.send({ written }));
`;

let receiverProcess: import('node:child_process').ChildProcess | undefined;
process.on('exit', () => receiverProcess?.kill());

async function main(): Promise<void> {
  const child = (receiverProcess = spawn(process.execPath, ['-e', RECEIVER], {
    stdio: ['ignore', 'pipe', 'ignore', 'ipc'],
  }));
  const port = await new Promise<number>((resolve) =>
    child.stdout!.on('data', (d: Buffer) => resolve(Number(/port (\d+)/.exec(String(d))![1]))),
  );
  const written = () =>
    new Promise<number>((resolve) => {
      child.once('message', (m: { written: number }) => resolve(m.written));
      child.send('?');
    });
  const db = await openPglite();
  await migrate(db, path.join(CHECKOUT, 'migrations'));
  const config = {
    ...parseConfig({
      LOG_LEVEL: 'silent',
      REFMATCH_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_POLL_MS: '20',
      WEBHOOK_TIMEOUT_MS: TIMEOUT_MS,
      WEBHOOK_RETRY_BASE_MS: '3600000',
    }),
    indexSnapshotDir: null,
  };
  const app = await buildApp({ config, db });
  await app.ready();
  console.log(`${CHECKOUT}: receiver answers 200 and a body without end; WEBHOOK_TIMEOUT_MS ${TIMEOUT_MS}`);
  for (const n of ORGS) {
    const orgs = [];
    for (let i = 0; i < n; i++) {
      const org = await createOrganization(db, { name: `Hooked ${n}-${i}`, features: [] });
      await saveWebhook(
        db,
        org.id,
        { url: `http://127.0.0.1:${port}/hook`, secret: 'a-secret-of-some-length', enabled: true },
        { allowPrivateAddresses: true },
      );
      orgs.push(org.id);
    }
    const bytes0 = await written();
    let last = performance.now();
    let held = 0;
    const timer = setInterval(() => {
      const now = performance.now();
      held = Math.max(held, now - last);
      last = now;
    }, 1);
    const cpu0 = processCpuMs();
    const t0 = performance.now();
    for (const id of orgs) await enqueueEvent(db, id, 'proposal_uploaded', { manuscript_id: 1 });
    let rows: { status: string; attempts: number; last_error: string | null }[] = [];
    for (;;) {
      rows = (
        await db.query<{ status: string; attempts: number; last_error: string | null }>(
          'SELECT status, attempts, last_error FROM webhook_outbox WHERE organization_id = ANY($1)',
          [orgs],
        )
      ).rows;
      if (rows.length === n && rows.every((r) => r.status === 'delivered' || r.last_error !== null)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const wall = performance.now() - t0;
    const cpu = processCpuMs() - cpu0;
    clearInterval(timer);
    const outcomes = new Map<string, number>();
    for (const r of rows) {
      const k = `${r.status}${r.last_error ? `: ${r.last_error}` : ''}`;
      outcomes.set(k, (outcomes.get(k) ?? 0) + 1);
    }
    console.log(
      `  ${n} organizations: ${[...outcomes].map(([k, c]) => `${c} ${k}`).join('; ')}; receiver wrote ` +
        `${(((await written()) - bytes0) / 1024 / 1024) | 0} MiB; wall ${wall.toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms, loop held ${held.toFixed(0)} ms`,
    );
  }
  await app.close();
  await db.close();
  child.kill();
}

await main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
