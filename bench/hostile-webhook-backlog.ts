// What claiming the next webhook events costs while an organization's backlog grows
// (src/webhooks/store.ts, claimDueEvents): its receiver slow or failing, events keep coming (each mark
// and upload writes one, and each pokes the worker to claim). On PGlite each claim is one statement
// on the event loop, held while it runs. Prints, per backlog of pending events of one organization
// (BENCH_ORGS - 1 others with one event each), the claim's CPU (median of BENCH_ROUNDS, the lease released
// between claims) and the events it claims.
//
//   npx tsx bench/hostile-webhook-backlog.ts
//   BENCH_ROOT=<another checkout> (its store and migrations); BENCH_BACKLOGS (default 1000,10000,100000,250000);
//   BENCH_ROUNDS (default 7); BENCH_ORGS (default 50: organizations with a webhook)
//   BENCH_WRITES=<n>: instead, n events written one by one through the checkout's enqueueEvent for one
//   organization whose receiver is down (nothing delivered): the pending events they leave, the CPU
//   of a write (mean over each 5,000) and the claim's CPU after (what an outbox without a cap grows to)
import path from 'node:path';
import { CHECKOUT, checkoutApp, fromCheckout } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';

const BACKLOGS = (process.env.BENCH_BACKLOGS ?? '1000,10000,100000,250000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const ORGS = Number(process.env.BENCH_ORGS ?? 50);
const { openPglite, migrate, createOrganization } = await checkoutApp();
const { saveWebhook, claimDueEvents, enqueueEvent } =
  await fromCheckout<typeof import('../src/webhooks/store.ts')>('src/webhooks/store.ts');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const db = await openPglite();
await migrate(db, path.join(CHECKOUT, 'migrations'));
const orgs: number[] = [];
for (let i = 0; i < ORGS; i++) {
  const org = await createOrganization(db, { name: `Org ${i}`, features: [] });
  await saveWebhook(
    db,
    org.id,
    { url: 'https://receiver.example/hook', secret: null, enabled: true },
    { allowPrivateAddresses: false },
  );
  orgs.push(org.id);
}
const insert = (org: number, from: number, to: number) =>
  db.query(
    `INSERT INTO webhook_outbox (organization_id, "order", event, data)
     SELECT $1, g, 'mark_as_proposal_referee', jsonb_build_object('manuscript_id', g, 'author_id', g)
       FROM generate_series($2::int, $3::int) g`,
    [org, from, to],
  );
for (const org of orgs.slice(1)) await insert(org, 1, 1);
const WRITES = Number(process.env.BENCH_WRITES ?? 0);
if (WRITES > 0) {
  console.log(`${CHECKOUT}: PGlite in memory, ${WRITES} events written for one organization of ${ORGS}`);
  const step = 5_000;
  for (let done = 0; done < WRITES; done += step) {
    const cpu0 = processCpuMs();
    for (let i = done; i < done + step; i++) {
      await enqueueEvent(db, orgs[0]!, 'mark_as_proposal_referee', { manuscript_id: i, author_id: i });
    }
    const perWrite = ((processCpuMs() - cpu0) / step) * 1000;
    const { rows } = await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM webhook_outbox WHERE organization_id = $1 GROUP BY status ORDER BY status`,
      [orgs[0]],
    );
    const cpu1 = processCpuMs();
    await claimDueEvents(db, 20, 15_000, []);
    const claim = processCpuMs() - cpu1;
    await db.query(
      'UPDATE webhook_outbox SET locked_until = NULL, attempts = 0 WHERE locked_until IS NOT NULL',
    );
    console.log(
      `  ${String(done + step).padStart(7)} written: ${rows.map((r) => `${r.n} ${r.status}`).join(', ')}; a write ${perWrite.toFixed(0)} µs CPU; claim ${claim.toFixed(1)} ms`,
    );
  }
  await db.close();
  process.exit(0);
}
console.log(
  `${CHECKOUT}: PGlite in memory, ${ORGS} organizations with a webhook; medians of ${ROUNDS}, CPU ms`,
);
let written = 0;
for (const backlog of BACKLOGS) {
  await insert(orgs[0]!, written + 1, backlog);
  written = backlog;
  await db.query('ANALYZE webhook_outbox');
  const cpu: number[] = [];
  let claimed = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = processCpuMs();
    claimed = (await claimDueEvents(db, 20, 15_000, [])).length;
    cpu.push(processCpuMs() - cpu0);
    await db.query(
      'UPDATE webhook_outbox SET locked_until = NULL, attempts = 0 WHERE locked_until IS NOT NULL',
    );
  }
  console.log(
    `  ${String(backlog).padStart(7)} pending of one organization: claim ${median(cpu).toFixed(1).padStart(6)} ms (${claimed} claimed)`,
  );
}
await db.close();
