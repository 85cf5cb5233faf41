// The surfaces the upload benches do not reach, at and past their caps, in process (PGlite without a
// corpus, `buildApp`, default limits): the dashboard's form posts (a group's CSV import as a file and
// pasted, a custom field's options, the settings and webhook forms with huge, malformed or
// many-field bodies, webhook URLs of extreme length and odd schemes), query strings at extreme
// lengths and counts on every GET of the interface (4.1, 4.6, 4.7), and JSON bodies of 4.2 nested
// deep or holding huge arrays. Prints per probe: status (and the dashboard's flash, for a form sent
// back to its page), wall and CPU, and the longest the event loop was held (the longest gap of a 1 ms
// timer, and the most CPU time the process spent between two of its runs, which a loaded machine
// does not inflate). Bodies are handed over in 64 KiB chunks, as a socket does.
//
//   npx tsx bench/hostile-surfaces.ts
//   BENCH_ONLY=<part of a label>: only those probes; BENCH_ROOT=<another checkout>: its src
//   BENCH_STALLS=1: when each probe's longest hold ended, on the clock of `node --cpu-prof` samples
import { Readable } from 'node:stream';
import { checkoutApp, CHECKOUT, fromCheckout, startCheckoutApp } from './lib/checkout.ts';
import { processCpuMs } from './lib/cpu-time.ts';
import { signedInUser } from './lib/dashboard-session.ts';

const ONLY = process.env.BENCH_ONLY ?? '';
const STALLS = process.env.BENCH_STALLS === '1';
const MB = 1024 * 1024;

const { createOrganization } = await checkoutApp();
const { createGroup } = await fromCheckout<typeof import('../src/authors-groups/store.ts')>(
  'src/authors-groups/store.ts',
);
const { createCustomField } = await fromCheckout<typeof import('../src/custom-fields/store.ts')>(
  'src/custom-fields/store.ts',
);
const { yieldToEventLoop } =
  await fromCheckout<typeof import('../src/infra/event-loop.ts')>('src/infra/event-loop.ts');

async function* chunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) {
    yield bytes.subarray(at, at + 64 * 1024);
    await yieldToEventLoop();
  }
}

/** The longest gap of a 1 ms timer while `send` runs, in wall and in the process's CPU time. */
async function holds<T>(send: () => Promise<T>) {
  let last = performance.now();
  let cpuLast = processCpuMs();
  let max = 0;
  let cpuMax = 0;
  let endedAt = 0n;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    const cpu = processCpuMs();
    if (now - last > max) {
      max = now - last;
      endedAt = process.hrtime.bigint() / 1000n;
    }
    cpuMax = Math.max(cpuMax, cpu - cpuLast);
    last = now;
    cpuLast = cpu;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  const cpu0 = processCpuMs();
  const t0 = performance.now();
  const result = await send();
  const wall = performance.now() - t0;
  await new Promise((resolve) => setTimeout(resolve, 5));
  clearTimeout(timer);
  return { result, wall, cpu: processCpuMs() - cpu0, max, cpuMax, endedAt };
}

const repeat = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

/** The status, and what the answer says: the error code, or a refused form's flash. */
async function said(app: import('fastify').FastifyInstance, cookie: string, res: Answer): Promise<string> {
  const location = res.headers.location;
  if (res.statusCode === 303 && typeof location === 'string') {
    const page = await app.inject({ url: location, headers: { cookie } });
    const flash = /class="flash[^"]*"[^>]*>([\s\S]*?)<\/(?:div|p)>/.exec(page.body)?.[1];
    const text = flash
      ?.replace(/<[^>]+>/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 110);
    return `303 → ${location.slice(0, 40)}${text ? `: ${text}` : ''}`;
  }
  if (/^application\/json/.test(String(res.headers['content-type']))) {
    const code = (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
    return `${res.statusCode}${code ? ` ${code}` : ''}`;
  }
  const title = /<title>([^<]*)<\/title>/.exec(res.body)?.[1];
  const problems = /Nothing was imported: ([^<.]*)/.exec(res.body)?.[1];
  return `${res.statusCode}${title ? ` "${title.slice(0, 50)}"` : ''}${problems ? `: ${problems}` : ''} (${(res.body.length / 1024).toFixed(0)} KB)`;
}

async function main(): Promise<void> {
  const { db, app, config } = await startCheckoutApp();
  const org = await createOrganization(db, {
    name: 'Hostile surfaces',
    features: ['referee_finder', 'recommend_journals'],
  });
  const headers = { 'x-apikey': org.api_key };
  const admin = await signedInUser(app, db, org.id, 'integrations_admin');
  const editor = await signedInUser(app, db, org.id, 'editor');
  const group = await createGroup(db, org.id, 'Hostile group');
  const groupId = group.group_id;

  async function probe(name: string, send: () => Promise<string>): Promise<void> {
    if (!name.includes(ONLY)) return;
    if (global.gc) global.gc();
    const measured = await holds(async () => {
      try {
        return await send();
      } catch (error) {
        return `threw ${(error as Error).message.slice(0, 100)}`;
      }
    });
    console.log(
      `${name}: ${measured.result}, wall ${measured.wall.toFixed(0)} ms, CPU ${measured.cpu.toFixed(0)} ms, loop held ${measured.max.toFixed(0)} ms (${measured.cpuMax.toFixed(0)} ms CPU)`,
    );
    if (STALLS) console.log(`  longest gap ended at ${measured.endedAt} µs`);
  }

  /** A form post of a signed-in user (the editor unless `as` says), URL-encoded (the text as given) or multipart. */
  const form =
    (url: string, body: string | Buffer, type = 'application/x-www-form-urlencoded', as = editor) =>
    async () => {
      const bytes = typeof body === 'string' ? Buffer.from(body) : body;
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { cookie: as.cookie, 'content-type': type, 'content-length': String(bytes.length) },
        payload: Readable.from(chunks(bytes)),
      });
      return said(app, as.cookie, res);
    };
  const formAsAdmin = (url: string, body: string | Buffer) => form(url, body, undefined, admin);
  const encoded = (fields: Record<string, string | string[]>, as = editor) => {
    const body = new URLSearchParams({ _csrf: as.csrf });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) body.append(k, one);
    return body.toString();
  };
  const boundary = '----hostile-surfaces';
  const multipart = (parts: Array<{ name: string; value: string | Buffer; file?: string }>) =>
    Buffer.concat([
      ...parts.flatMap((p) => [
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.file ? `; filename="${p.file}"\r\nContent-Type: text/csv` : ''}\r\n\r\n`,
        ),
        Buffer.from(p.value),
        Buffer.from('\r\n'),
      ]),
      Buffer.from(`--${boundary}--\r\n`),
    ]);
  const importUrl = `/dashboard/groups/${groupId}/import/`;
  const importFile = (csv: string | Buffer) =>
    form(
      importUrl,
      multipart([
        { name: '_csrf', value: editor.csrf },
        { name: 'file', value: csv, file: 'records.csv' },
      ]),
      `multipart/form-data; boundary=${boundary}`,
    );
  const importPasted = (csv: string) =>
    form(
      importUrl,
      multipart([
        { name: '_csrf', value: editor.csrf },
        { name: 'csv', value: csv },
      ]),
      `multipart/form-data; boundary=${boundary}`,
    );

  /** Rows `client_id,name` up to `bytes`, the header first; `cell(i)` writes row i's cells. */
  const rowsUpTo = (bytes: number, cell: (i: number) => string, header = 'client_id,name') => {
    const lines = [header];
    let size = header.length + 1;
    for (let i = 1; ; i++) {
      const line = cell(i);
      if (size + line.length + 1 > bytes) break;
      lines.push(line);
      size += line.length + 1;
    }
    return { csv: lines.join('\n') + '\n', rows: lines.length - 1 };
  };
  const fileLimit = config.fileLimitBytes;

  // The import: a file at the size cap of more rows than a group may hold; of rows each wrong; of
  // one cell; of one header of many columns; one byte over; a pasted CSV of the same size.
  const small = rowsUpTo(64 * 1024, (i) => `c${i},Writer Number ${i}`);
  await probe(`import, ${small.rows} rows (64 KiB, the baseline)`, importFile(small.csv));
  for (const size of [fileLimit / 16, fileLimit / 4, fileLimit]) {
    const over = rowsUpTo(size, (i) => `x${i},W ${i}`);
    await probe(
      `import, ${(size / MB).toFixed(1)} MiB file of ${over.rows} rows (records cap 250,000)`,
      importFile(over.csv),
    );
  }
  const wrong = rowsUpTo(fileLimit / 4, (i) => `w${i},`);
  await probe(
    `import, ${(fileLimit / 4 / MB).toFixed(1)} MiB of ${wrong.rows} rows without a name`,
    importFile(wrong.csv),
  );
  await probe(
    'import, 50 MiB of one quoted cell never closed',
    importFile(`client_id,name\nc1,"${repeat('a', fileLimit - 40)}`),
  );
  await probe('import, a header of 2 M columns', importFile(`${repeat('a,', 4 * MB)}\nc,d\n`));
  await probe('import, a file one byte over the cap', importFile(Buffer.alloc(fileLimit + 1, 'a')));
  const pasted = rowsUpTo(fileLimit / 4, (i) => `p${i},W ${i}`);
  await probe(
    `import, ${(fileLimit / 4 / MB).toFixed(1)} MiB pasted (${pasted.rows} rows)`,
    importPasted(pasted.csv),
  );
  await probe(
    'import, 1 MiB URL-encoded csv field (the body limit)',
    form(importUrl, encoded({ csv: rowsUpTo(MB - 1024, (i) => `u${i},W ${i}`).csv })),
  );

  // Custom fields: options at the textarea's cap (100,000 characters), distinct and repeated.
  const options = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`).join('\n');
  const manyOptions = options(16_000).slice(0, 100_000);
  await probe(
    'custom field with 16,000 distinct options (100,000 characters; cap 1,000 a field)',
    form(
      '/dashboard/custom-fields/',
      encoded({ owner: 'author_from_group', data_kind: 'single_option', name: 'Many', options: manyOptions }),
    ),
  );
  const field = await createCustomField(db, org.id, {
    owner: 'author_from_group',
    dataKind: 'multi_option',
    name: 'Options',
    options: options(1_000).split('\n'),
  });
  await probe(
    'custom field at 1,000 options, add 16,000 more (100,000 characters)',
    form(`/dashboard/custom-fields/${field.api_id}/`, encoded({ name: 'Options', add_options: manyOptions })),
  );
  await probe(
    'custom field at 1,000 options, remove 1,999 (as many as the form may carry)',
    form(
      `/dashboard/custom-fields/${field.api_id}/`,
      encoded({
        name: 'Options',
        remove_option: Array.from({ length: 1_997 }, (_, i) => field.options![i % 1000]!.api_id),
      }),
    ),
  );
  await probe(
    'custom field name of 1 MiB',
    form(
      '/dashboard/custom-fields/',
      encoded({ owner: 'folder', data_kind: 'string', name: repeat('n', MB - 200) }),
    ),
  );

  // Settings: many fields, one huge field, malformed encodings, the body limit.
  const settings = { prefer: 'parsed', max_candidates: '50' };
  await probe(
    'settings, 1,999 fields',
    formAsAdmin(
      '/dashboard/settings/',
      encoded({ ...settings, extra: Array.from({ length: 1_996 }, () => 'x') }, admin),
    ),
  );
  await probe(
    'settings, 2,001 fields',
    formAsAdmin(
      '/dashboard/settings/',
      encoded({ ...settings, extra: Array.from({ length: 1_998 }, () => 'x') }, admin),
    ),
  );
  await probe(
    'settings, 1 MiB of "a&" (500,000 fields)',
    formAsAdmin('/dashboard/settings/', repeat('a&', MB - 100)),
  );
  await probe(
    'settings, 1 MiB of "&" (no field)',
    formAsAdmin('/dashboard/settings/', repeat('&', MB - 100)),
  );
  await probe(
    'settings, max_candidates of 1 MiB of digits',
    formAsAdmin(
      '/dashboard/settings/',
      encoded({ ...settings, max_candidates: repeat('9', MB - 200) }, admin),
    ),
  );
  await probe(
    'settings, 1 MiB of "%zz%"',
    formAsAdmin('/dashboard/settings/', `${encoded(settings, admin)}&x=${repeat('%zz%', MB - 200)}`),
  );
  await probe(
    'settings, body of invalid UTF-8',
    formAsAdmin(
      '/dashboard/settings/',
      Buffer.concat([Buffer.from(`${encoded(settings, admin)}&x=`), Buffer.alloc(1000, 0xff)]),
    ),
  );
  await probe(
    'settings, body one byte over the limit',
    formAsAdmin('/dashboard/settings/', repeat('a', config.bodyLimitBytes + 1)),
  );
  await probe(
    'settings, max_candidates given 1,000 times',
    formAsAdmin(
      '/dashboard/settings/',
      encoded({ prefer: 'parsed', max_candidates: Array.from({ length: 1000 }, () => '5') }, admin),
    ),
  );

  // Webhooks: URLs at and past the field's cap, of odd schemes and hosts.
  const hook = (url: string) => formAsAdmin('/dashboard/webhooks/', encoded({ url, enabled: 'on' }, admin));
  const urls: Record<string, string> = {
    'https, 2,100 characters (the cap)': `https://hooks.example.org/${repeat('p', 2_100 - 26)}`,
    'https, 2,101 characters': `https://hooks.example.org/${repeat('p', 2_101 - 26)}`,
    'https, 1 MiB': `https://hooks.example.org/${repeat('p', MB - 200)}`,
    'a host of 2,000 characters': `https://${repeat('a.', 2_000)}org/`,
    'a label of 1,000 characters': `https://${repeat('a', 1_000)}.org/`,
    'javascript:': 'javascript:alert(1)',
    'file:': 'file:///etc/passwd',
    'data:': 'data:text/plain,hello',
    'ftp:': 'ftp://example.org/',
    'gopher:': 'gopher://example.org:70/',
    'http://localhost': 'http://localhost:8080/',
    'http://[::1]': 'http://[::1]/',
    'http://0x7f.1': 'http://0x7f.1/',
    'user and password': 'https://user:pass@example.org/',
    'IDN host': 'https://bücher.example/',
    '1,000 "%" escapes': `https://example.org/${repeat('%41', 2_000)}`,
    'spaces and a newline': 'https://example.org/a b\nc',
    empty: '',
  };
  for (const [label, url] of Object.entries(urls)) await probe(`webhook URL, ${label}`, hook(url));

  // Query strings on every GET of the interface, as long as a URL may be (8 KiB; over a socket
  // Node refuses a request line past 16 KiB itself): many parameters, one long value, malformed
  // escapes, one parameter repeated; and one byte over.
  const gets = {
    '4.1': `/api/external/author-from-group/${groupId}/c1/`,
    '4.6': '/api/external/recommend-journals/none/',
    '4.7': '/api/external/custom-fields/all/',
    'dashboard groups': '/dashboard/groups/',
  };
  const URL_CAP = 8 * 1024;
  for (const [route, path] of Object.entries(gets)) {
    const room = URL_CAP - path.length - 1;
    const queries: Record<string, string> = {
      'one value to the URL cap': `x=${repeat('q', room - 2)}`,
      'parameters to the URL cap': repeat('p=1&', room),
      'journals_corpus repeated to the URL cap': repeat('journals_corpus=org_journals&', room),
      '"&" to the URL cap': repeat('&', room),
      '"%zz" to the URL cap': `x=${repeat('%zz', room - 2)}`,
      '"[a]" to the URL cap': `a${repeat('[a]', room - 3)}=1`,
      'one byte over the URL cap': `x=${repeat('q', room - 1)}`,
    };
    for (const [label, query] of Object.entries(queries)) {
      await probe(`GET ${route}, query ${label}`, async () => {
        const as = route.startsWith('dashboard') ? { cookie: editor.cookie } : headers;
        const res = await app.inject({ url: `${path}?${query}`, headers: as });
        return said(app, editor.cookie, res);
      });
    }
  }

  // JSON bodies of 4.2 and 4.3: deep, wide, huge arrays, at and past the body limit.
  const json = (path: string, body: string) => async () => {
    const res = await app.inject({
      method: 'POST',
      url: path,
      headers: { ...headers, 'content-type': 'application/json' },
      payload: Readable.from(chunks(Buffer.from(body))),
    });
    return said(app, editor.cookie, res);
  };
  const record = `/api/external/author-from-group/${groupId}/j1/`;
  await probe(
    '4.2, emails of 200,000 items',
    json(record, JSON.stringify({ name: 'A', emails: Array.from({ length: 200_000 }, () => 'a@b.c') })),
  );
  await probe(
    '4.2, 1,000 emails of 1,000 characters',
    json(
      record,
      JSON.stringify({
        name: 'A',
        emails: Array.from({ length: 1_000 }, (_, i) => `${repeat('a', 990)}${i}@b.c`),
      }),
    ),
  );
  await probe('4.2, nested 64 deep', json(record, `{"name":"A","x":${'['.repeat(63)}${']'.repeat(63)}}`));
  await probe(
    '4.2, nested 500,000 deep',
    json(record, `{"name":"A","x":${'['.repeat(500_000)}${']'.repeat(500_000)}}`),
  );
  await probe('4.2, 1 MiB of nested objects {"a":', json(record, `${repeat('{"a":', MB - 10)}1`));
  await probe(
    '4.2, 80,000 keys',
    json(record, `{"name":"A",${Array.from({ length: 80_000 }, (_, i) => `"k${i}":1`).join(',')}}`),
  );
  await probe(
    '4.3, affiliations of 300,000 empty strings',
    json(`${record}partial/`, JSON.stringify({ affiliations: Array.from({ length: 300_000 }, () => '') })),
  );
  await probe('4.2, a number of 1 MiB digits as the name', json(record, `{"name":${repeat('9', MB - 20)}}`));
  await probe(
    '4.2, one string of 1 MiB of "\\u0041"',
    json(record, `{"name":"${repeat('\\u0041', MB - 30)}"}`),
  );

  await app.close();
  await db.close();
}

console.log(`# bench/hostile-surfaces.ts, ${new Date().toISOString()}, src of ${CHECKOUT}`);
await main();
process.exit(0);
