// One client's hostile traffic at the dashboard and the API's front door, in process (PGlite,
// `buildApp`, default limits): sign-ins and password changes in a loop, list pages of an organization
// at its folder and group caps, unknown API keys, many headers. Prints wall and CPU (every thread of
// the process: argon2 runs in libuv's pool) per probe, and the answers' statuses.
//
//   npx tsx bench/hostile-dashboard.ts                       (every part)
//   BENCH_PARTS=signin,password,pages,keys,headers,fields npx tsx bench/hostile-dashboard.ts
//   (fields: one key asking 4.7 in a loop for BENCH_SECONDS, default 30, at the option caps)
//   BENCH_ROOT=<another checkout> npx tsx bench/hostile-dashboard.ts   (its src, the same probes)
import { randomBytes } from 'node:crypto';
import { checkoutApp, fromCheckout, startCheckoutApp } from './lib/checkout.ts';

const { createOrganization } = await checkoutApp();
const { createUser, changePassword } =
  await fromCheckout<typeof import('../src/users/users.ts')>('src/users/users.ts');

const PARTS = (process.env.BENCH_PARTS ?? 'signin,password,pages,keys,headers,fields').split(',');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PASSWORD = 'correct horse battery staple';
const FOLDERS = 10_000;
const GROUPS = 2_000;

function cpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** `n` calls of `send`, `concurrency` at a time: wall, CPU and the statuses answered. */
async function measure(name: string, n: number, send: (i: number) => Promise<number>, concurrency = 4) {
  const cpu0 = cpuMs();
  const t0 = performance.now();
  const statuses = new Map<number, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const status = await send(next++);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  const wall = performance.now() - t0;
  const cpu = cpuMs() - cpu0;
  const answers = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
  console.log(
    `${name}: ${n} requests, wall ${wall.toFixed(0)} ms, CPU ${cpu.toFixed(0)} ms (${(cpu / n).toFixed(1)} ms each); ${answers}`,
  );
}

function cookie(setCookie: string | string[] | undefined, name: string): string {
  const list = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  return list.map((c) => c.split(';')[0]!).find((c) => c.startsWith(`${name}=`)) ?? '';
}

async function main(): Promise<void> {
  const { db, app } = await startCheckoutApp();
  const org = await createOrganization(db, { name: 'Hostile', features: ['referee_finder'] });
  const created = await createUser(db, { organizationId: org.id, email: 'a@example.org', role: 'editor' });
  await changePassword(db, {
    userId: created.id,
    current: created.password,
    next: PASSWORD,
    keepSession: Buffer.alloc(0),
  });

  /** The sign-in form's page, then the form, as a browser sends them, from `address`. */
  async function signIn(email: string, password: string, address: string) {
    const form = await app.inject({ url: '/dashboard/sign-in/', remoteAddress: address });
    const token = cookie(form.headers['set-cookie'], 'rm_login_csrf');
    return app.inject({
      method: 'POST',
      url: '/dashboard/sign-in/',
      remoteAddress: address,
      headers: { cookie: token },
      payload: { _csrf: token.split('=')[1] ?? '', email, password },
    });
  }
  /** A session of the editor, signed in from an address of its own. */
  async function session(address: string): Promise<string> {
    return cookie((await signIn('a@example.org', PASSWORD, address)).headers['set-cookie'], 'rm_session');
  }

  if (PARTS.includes('signin')) {
    await measure(
      'sign-in, right password, one address',
      200,
      async () => (await signIn('a@example.org', PASSWORD, '10.0.0.1')).statusCode,
    );
    const { rows } = await db.query<{ n: number }>('SELECT count(*)::integer AS n FROM dashboard_sessions');
    console.log(`  sessions stored: ${rows[0]!.n}`);
    await measure(
      'sign-in, wrong 1,024-character password, one address',
      80,
      async () => (await signIn('b@example.org', 'x'.repeat(1024), '10.0.0.2')).statusCode,
    );
  }
  if (PARTS.includes('password')) {
    const address = '10.0.1.1';
    const sessionCookie = await session(address);
    const page = await app.inject({ url: '/dashboard/password/', headers: { cookie: sessionCookie } });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const body = new URLSearchParams({
      _csrf: csrf,
      current: 'z'.repeat(1024),
      password: 'a new password 1',
      confirm: 'a new password 1',
    }).toString();
    await measure(
      'password change, wrong 1,024-character current password, one session',
      200,
      async () =>
        (
          await app.inject({
            method: 'POST',
            url: '/dashboard/password/',
            remoteAddress: address,
            headers: { cookie: sessionCookie, 'content-type': 'application/x-www-form-urlencoded' },
            payload: body,
          })
        ).statusCode,
    );
  }
  if (PARTS.includes('pages')) {
    const sessionCookie = await session('10.0.2.1');
    await db.query(
      `INSERT INTO folders (organization_id, name)
       SELECT $1, 'folder ' || g || ' ' || repeat('x', 200) FROM generate_series(1, $2::int) g`,
      [org.id, FOLDERS],
    );
    await db.query(
      `INSERT INTO authors_groups (organization_id, name)
       SELECT $1, 'group ' || g || ' ' || repeat('x', 100) FROM generate_series(1, $2::int) g`,
      [org.id, GROUPS],
    );
    for (const url of ['/dashboard/folders/', '/dashboard/manuscripts/', '/dashboard/groups/']) {
      let bytes = 0;
      await measure(
        `GET ${url} (${FOLDERS} folders, ${GROUPS} groups)`,
        5,
        async () => {
          const answer = await app.inject({
            url,
            remoteAddress: '10.0.2.1',
            headers: { cookie: sessionCookie },
          });
          bytes = answer.body.length;
          return answer.statusCode;
        },
        1,
      );
      console.log(`  ${bytes} bytes`);
    }
  }
  const fieldsUrl = '/api/external/custom-fields/all/';
  if (PARTS.includes('keys')) {
    const badKey = () => ({ 'x-apikey': `rk_${randomBytes(20).toString('hex')}` });
    await measure(
      'unknown API keys, one address',
      500,
      async () =>
        (await app.inject({ url: fieldsUrl, remoteAddress: '10.0.3.1', headers: badKey() })).statusCode,
    );
    await measure(
      'unknown API keys, a new address each',
      500,
      async (i) =>
        (await app.inject({ url: fieldsUrl, remoteAddress: `10.1.${i >> 8}.${i & 255}`, headers: badKey() }))
          .statusCode,
    );
  }
  if (PARTS.includes('headers')) {
    const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-h${i}`, 'v']));
    await measure(
      'a valid key with 1,000 other headers',
      200,
      async (i) =>
        (
          await app.inject({
            url: fieldsUrl,
            remoteAddress: `10.2.${i >> 8}.${i & 255}`,
            headers: { ...many, 'x-apikey': org.api_key },
          })
        ).statusCode,
    );
    await measure(
      'a valid key alone',
      200,
      async (i) =>
        (
          await app.inject({
            url: fieldsUrl,
            remoteAddress: `10.3.${i >> 8}.${i & 255}`,
            headers: { 'x-apikey': org.api_key },
          })
        ).statusCode,
    );
  }
  if (PARTS.includes('fields')) {
    // At both option caps: 200 fields of 100 options of 25 characters (20,000 options, 500,000
    // characters), written in SQL. A new address per request, so that only the key's limit holds.
    const fieldsOrg = await createOrganization(db, { name: 'Fields', features: [] });
    await db.query(
      `INSERT INTO custom_fields (api_id, organization_id, owner, data_kind, name)
       SELECT gen_random_uuid(), $1, 'author_from_group', 'single_option', 'Field ' || i
         FROM generate_series(1, 200) i`,
      [fieldsOrg.id],
    );
    await db.query(
      `INSERT INTO custom_field_options (api_id, field, option, "order")
       SELECT gen_random_uuid(), f.api_id, left(i::text || repeat('x', 25), 25), i
         FROM custom_fields f, generate_series(1, 100) i WHERE f.organization_id = $1`,
      [fieldsOrg.id],
    );
    const statuses = new Map<number, number>();
    let sent = 0;
    const cpu0 = cpuMs();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (performance.now() - t0 < SECONDS * 1000) {
          const i = sent++;
          const answer = await app.inject({
            url: fieldsUrl,
            remoteAddress: `10.4.${(i >> 8) & 255}.${i & 255}`,
            headers: { 'x-apikey': fieldsOrg.api_key },
          });
          statuses.set(answer.statusCode, (statuses.get(answer.statusCode) ?? 0) + 1);
        }
      }),
    );
    const answers = [...statuses].map(([status, count]) => `${count} × ${status}`).join(', ');
    console.log(
      `one key asking 4.7 at the option caps, 4 at once, ${SECONDS} s: ${answers}; CPU ${(cpuMs() - cpu0).toFixed(0)} ms (the client's loop on the 429s included)`,
    );
  }
  await app.close();
  await db.close();
}

await main();
