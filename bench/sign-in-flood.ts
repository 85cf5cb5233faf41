// A sign-in flood from many addresses: what it costs the machine, and whether the real user still
// signs in. In process (PGlite, `buildApp` with the default limits): BENCH_WORKERS (default 16)
// senders, each failed sign-in from an address never seen and for an email never seen (so that no
// address's or account's throttle stops it: only a budget across addresses can), for
// BENCH_SECONDS (default 15). Meanwhile a user who signed in before from her own address signs in
// again every second. Prints the sign-ins answered by status, the process's CPU over the flood
// (argon2 runs in libuv's pool: every thread counted) as cores used, the CPU a quiet second costs
// (no flood) for comparison, and the user's sign-ins and their slowest wall time.
//
//   npx tsx bench/sign-in-flood.ts
//   BENCH_ENV='{"PASSWORD_CHECKS_TOTAL":"3"}' npx tsx bench/sign-in-flood.ts   (other settings)
//   BENCH_ROOT=<another checkout> npx tsx bench/sign-in-flood.ts   (its src, the same probes)
import os from 'node:os';
import { checkoutApp, fromCheckout, startCheckoutApp } from './lib/checkout.ts';

const { createOrganization } = await checkoutApp();
const { createUser } = await fromCheckout<typeof import('../src/users/users.ts')>('src/users/users.ts');

const WORKERS = Number(process.env.BENCH_WORKERS ?? 16);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

function cookie(setCookie: string | string[] | undefined, name: string): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`)) ?? '';
}

async function main(): Promise<void> {
  const env = JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>;
  const { db, app } = await startCheckoutApp(undefined, undefined, env);
  const org = await createOrganization(db, { name: 'Press', features: ['referee_finder'] });
  const made = await createUser(db, {
    organizationId: org.id,
    email: 'editor@press.example',
    role: 'viewer',
  });
  const password = made.password;

  async function signIn(email: string, pass: string, from: string): Promise<number> {
    const form = await app.inject({ url: '/dashboard/sign-in/', remoteAddress: from });
    const token = cookie(form.headers['set-cookie'], 'rm_login_csrf');
    const res = await app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      remoteAddress: from,
      headers: { cookie: token },
      payload: { _csrf: token.split('=')[1] ?? '', email, password: pass },
    });
    return res.statusCode;
  }
  const own = '192.0.2.10';
  // The user's sign-in before: her address is known from then on. The rest warms the routes up.
  const first = await signIn('editor@press.example', password, own);
  for (let k = 0; k < 3; k++)
    await signIn(`warm-${k}@example.org`, 'not the password of anyone', `198.51.100.${k}`);

  // A quiet machine: the same second with no flood (the app idle, the timers running).
  const quiet0 = cpuMs();
  await new Promise((r) => setTimeout(r, 2000));
  const quietCoresUsed = (cpuMs() - quiet0) / 2000;

  let address = 0;
  const statuses = new Map<number, number>();
  const userStatuses = new Map<number, number>();
  let userSlowest = 0;
  const end = Date.now() + SECONDS * 1000;
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const flood = Array.from({ length: WORKERS }, async () => {
    while (Date.now() < end) {
      const n = ++address;
      const from = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
      const status = await signIn(`guess-${n}@example.org`, 'not the password of anyone', from);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  const user = (async () => {
    while (Date.now() < end) {
      const started = performance.now();
      const status = await signIn('editor@press.example', password, own);
      userSlowest = Math.max(userSlowest, performance.now() - started);
      userStatuses.set(status, (userStatuses.get(status) ?? 0) + 1);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  await Promise.all([...flood, user]);
  const wall = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  const show = (m: Map<number, number>) =>
    [...m]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
  console.log(
    `${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; first sign-in ${first}`,
  );
  console.log(`flood: ${WORKERS} senders, ${(wall / 1000).toFixed(1)} s, sign-ins ${show(statuses)}`);
  console.log(
    `CPU ${(cpu / 1000).toFixed(1)} s over ${(wall / 1000).toFixed(1)} s: ${(cpu / wall).toFixed(2)} cores ` +
      `(quiet: ${quietCoresUsed.toFixed(2)} cores); ${(((statuses.get(401) ?? 0) * 1000) / wall).toFixed(1)} ` +
      `sign-ins/s checked (each 3 argon2 checks), ${(cpu / Math.max(statuses.get(401) ?? 0, 1)).toFixed(0)} ms CPU each`,
  );
  console.log(`the user (known address): ${show(userStatuses)}; slowest ${userSlowest.toFixed(0)} ms`);
  await app.close();
  await db.close();
}

await main();
