// Does a failed sign-in's time tell how many organizations hold an account of the email? In process
// (PGlite, `buildApp`): emails with 0 (unknown), 1, 3 and 5 enabled accounts, each tried with a
// wrong password BENCH_RUNS times (default 40), the emails taken in turn so that the machine's load
// falls on all alike. Each attempt from an address of its own, and the failures forgotten between
// attempts, so that the throttle's delays and refusals (which have their own tests) stay out of it.
// Prints per count the median and mean wall time of the POST and the process's CPU (argon2 runs in
// libuv's pool: every thread counted), and their ratios to the unknown email's.
//
//   npx tsx bench/sign-in-timing.ts
//   BENCH_ROOT=<another checkout> npx tsx bench/sign-in-timing.ts   (its src, the same probes)
import { checkoutApp, fromCheckout, startCheckoutApp } from './lib/checkout.ts';

const { createOrganization } = await checkoutApp();
const { createUser } = await fromCheckout<typeof import('../src/users/users.ts')>('src/users/users.ts');

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const COUNTS = [0, 1, 3, 5];

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function cookie(setCookie: string | string[] | undefined, name: string): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`)) ?? '';
}

async function main(): Promise<void> {
  const { db, app } = await startCheckoutApp();
  const emails = new Map<number, string>();
  for (const count of COUNTS) {
    const email = `accounts-${count}@example.org`;
    emails.set(count, email);
    for (let k = 0; k < count; k++) {
      const org = await createOrganization(db, { name: `Org ${count}.${k}`, features: ['referee_finder'] });
      await createUser(db, { organizationId: org.id, email, role: 'viewer' });
    }
  }

  let address = 0;
  /** One failed sign-in of `email`, as a browser sends it, from an address never seen: wall and CPU of the POST. */
  async function failedSignIn(email: string): Promise<{ wall: number; cpu: number; status: number }> {
    await db.query('DELETE FROM login_failures');
    const from = `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
    const form = await app.inject({ url: '/dashboard/sign-in/', remoteAddress: from });
    const token = cookie(form.headers['set-cookie'], 'rm_login_csrf');
    const cpu0 = cpuMs();
    const t0 = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      remoteAddress: from,
      headers: { cookie: token },
      payload: { _csrf: token.split('=')[1] ?? '', email, password: 'not the password of anyone' },
    });
    return { wall: performance.now() - t0, cpu: cpuMs() - cpu0, status: res.statusCode };
  }

  // Warm-up: the decoy hash made, the routes compiled.
  for (const count of COUNTS) await failedSignIn(emails.get(count)!);
  const walls = new Map<number, number[]>(COUNTS.map((c) => [c, []]));
  const cpus = new Map<number, number[]>(COUNTS.map((c) => [c, []]));
  const statuses = new Set<number>();
  for (let run = 0; run < RUNS; run++) {
    // Rotated each run: no count always first after the previous one's work.
    for (let k = 0; k < COUNTS.length; k++) {
      const count = COUNTS[(k + run) % COUNTS.length]!;
      const { wall, cpu, status } = await failedSignIn(emails.get(count)!);
      walls.get(count)!.push(wall);
      cpus.get(count)!.push(cpu);
      statuses.add(status);
    }
  }
  const base = { wall: median(walls.get(0)!), cpu: median(cpus.get(0)!) };
  console.log(`${RUNS} failed sign-ins per count, statuses ${[...statuses].join(', ')}`);
  for (const count of COUNTS) {
    const w = walls.get(count)!;
    const c = cpus.get(count)!;
    console.log(
      `${count} accounts: wall median ${median(w).toFixed(1)} ms (mean ${mean(w).toFixed(1)}), ` +
        `CPU median ${median(c).toFixed(1)} ms (mean ${mean(c).toFixed(1)}); ` +
        `ratio to 0 accounts: wall ${(median(w) / base.wall).toFixed(2)}, CPU ${(median(c) / base.cpu).toFixed(2)}`,
    );
  }
  await app.close();
  await db.close();
}

await main();
