// Requests for every /api/external endpoint, generated with fast-check from the app's own OpenAPI
// document (app.swagger(), built from the routes' TypeBox schemas): valid-shaped values drawn from
// each schema, and hostile ones (wrong types, NUL, lone surrogates, huge strings, deep and long
// arrays, odd path bytes, missing and extra fields, wrong content types, bad JSON, broken multipart,
// random files). Each request has its own seed, so any one can be rebuilt from its endpoint and seed.
// Responses are checked against the same document: every 2xx against the route's response schema,
// every error against ErrorBody, and no 5xx.
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { multipartBody, smallManuscriptFiles, type Scenario } from './scenario.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- JSON schemas and OpenAPI documents are untyped JSON */
type Schema = Record<string, any>;

export interface Endpoint {
  /** "METHOD /path/{param}/" as in the OpenAPI document. */
  key: string;
  method: string;
  path: string;
  operation: Schema;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

export interface FuzzContext {
  scenario: Scenario;
  /** origin_ids of manuscripts uploaded before the fuzz, for 4.6. */
  originIds: string[];
  /** client_ids of group authors written before the fuzz, for 4.2-4.4. */
  clientIds: string[];
}

/** The document's /api/external operations; DELETE last, so the records it removes were there for the others. */
export function externalEndpoints(doc: Schema): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [path, ops] of Object.entries<Schema>(doc.paths)) {
    if (!path.startsWith('/api/external/')) continue;
    for (const [method, operation] of Object.entries<Schema>(ops)) {
      out.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation });
    }
  }
  return out.sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
}

// ---- values --------------------------------------------------------------------------------

const HUGE = 'x'.repeat(200_000);
function deepArray(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
const DEEP = deepArray(500);
const LONG = Array.from({ length: 50_000 }, (_, i) => `item ${i}`);

/** Text PostgreSQL cannot store, or that tends to break parsers, encoders and SQL. */
const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\ud800',
    'x\udfffy',
    '\udc00\ud800',
    '',
    ' ',
    '\t\r\n',
    "'; DROP TABLE authors; --",
    '%00',
    '\\u0000',
    '../../etc/passwd',
    '\u202eevil',
    '\ufeff',
    '😀'.repeat(3_000),
    'Ünïcödé naïve café 東京 مرحبا',
    '0000-0002-1825-0097',
    'null',
    '1e309',
    HUGE,
  ),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({ unit: 'binary', minLength: 1000, maxLength: 3000 }),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  fc.integer(),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, 0.5, -0.0),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(DEEP, LONG, [], {}, [null], [[]], { $ref: '#' }, { __proto__: { polluted: true } }),
  fc.array(hostileString, { maxLength: 20 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 5 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A value that fits the schema (the document only uses these keywords). */
export function validValue(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map(validValue));
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  switch (schema.type) {
    case 'string':
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern as string));
      return fc.string({
        unit: 'grapheme',
        minLength: schema.minLength ?? 0,
        maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 40)),
      });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 100_000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
    case 'object': {
      const props = Object.entries<Schema>(schema.properties ?? {}).filter(
        ([, s]) => !s.description?.startsWith('Read-only'),
      );
      const model = Object.fromEntries(props.map(([k, s]) => [k, validValue(s)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] }) as fc.Arbitrary<unknown>;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Valid-shaped, then each key kept, dropped, retyped or joined by strangers. */
function mutatedObject(base: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      base,
      fc.array(fc.constantFrom('keep', 'drop', 'hostile'), { minLength: 12, maxLength: 12 }),
      fc.array(hostileValue, { minLength: 12, maxLength: 12 }),
      fc.dictionary(
        fc.oneof(hostileString, fc.constantFrom('author', '__proto__', 'constructor', 'id')),
        hostileValue,
        {
          maxKeys: 3,
        },
      ),
    )
    .map(([obj, fates, values, extra]) => {
      const out: Record<string, unknown> = {};
      Object.keys(obj).forEach((k, i) => {
        const fate = fates[i % fates.length];
        if (fate === 'keep') out[k] = obj[k];
        else if (fate === 'hostile') out[k] = values[i % values.length];
      });
      return { ...out, ...extra };
    });
}

/** A path segment: the real one, a plausible one, or odd bytes (percent-encoded so the URL parses). */
function segment(real: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: real, weight: 6 },
    { arbitrary: fc.stringMatching(/^[A-Za-z0-9_.-]{1,40}$/), weight: 2 },
    { arbitrary: hostileString.filter((s) => s.length < 3000).map(encodeSegment), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '%00',
        'a%00b',
        '%ff',
        '%ED%A0%80',
        '%C0%80',
        '%',
        '%zz',
        '..',
        '.',
        '%2F',
        '+',
        'x'.repeat(5000),
      ),
      weight: 2,
    },
  );
}

function encodeSegment(s: string): string {
  // encodeURIComponent refuses lone surrogates: write their UTF-16 units as the CESU-like bytes a careless client sends.
  return Array.from(s, (ch) => {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    }
    return encodeURIComponent(ch);
  }).join('');
}

function apiKeyHeader(scenario: Scenario): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    { arbitrary: fc.constant({ 'x-apikey': scenario.apiKey }), weight: 17 },
    { arbitrary: fc.constant({}), weight: 1 },
    { arbitrary: fc.stringMatching(/^[A-Za-z0-9_-]{0,80}$/).map((k) => ({ 'x-apikey': k })), weight: 1 },
    {
      arbitrary: fc
        .constantFrom(scenario.apiKey.slice(0, -1), `${scenario.apiKey} `, 'x'.repeat(4000))
        .map((k) => ({ 'x-apikey': k })),
      weight: 1,
    },
  );
}

const JSON_TYPES = fc.oneof(
  { arbitrary: fc.constant('application/json'), weight: 12 },
  {
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/json-patch+json',
      '',
    ),
    weight: 2,
  },
);

const BAD_JSON = fc.oneof(
  fc.constantFrom(
    `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
    `{"name":"a","emails":${'['.repeat(20_000)}`,
    '{',
    '{"name":',
    '[1,2',
    '{"name":"a"}}',
    'nul',
    '{"name":"\\ud800"}',
    '{"name":"\\u0000"}',
    '\u0000',
    '{"a":1,"a":2}',
    '',
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

// ---- custom fields (4.2-4.4 bodies carry them by api_id) ------------------------------------

function customFieldValues(scenario: Scenario, valid: boolean): fc.Arbitrary<Record<string, unknown>> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const f of scenario.fields) {
    const ids = (f.options ?? []).map((o) => o.api_id);
    const plausible =
      f.data_kind === 'number'
        ? fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null))
        : f.data_kind === 'str'
          ? fc.oneof(fc.string({ maxLength: 50 }), fc.constant(null))
          : f.data_kind === 'date'
            ? fc.oneof(
                fc
                  .date({ noInvalidDate: true, min: new Date('0001-01-01'), max: new Date('9999-12-31') })
                  .map((d) => d.toISOString().slice(0, 10)),
                ...(valid
                  ? []
                  : [fc.constantFrom('2024-02-30', '2024-13-01', '0000-00-00', '99999-01-01', '2024-1-1')]),
              )
            : f.data_kind === 'single_option'
              ? valid
                ? fc.constantFrom(...ids)
                : fc.oneof(fc.constantFrom(...ids), fc.uuid())
              : valid
                ? fc.uniqueArray(fc.constantFrom(...ids), { maxLength: ids.length })
                : fc.array(fc.oneof(fc.constantFrom(...ids), fc.uuid()), { maxLength: 4 });
    model[f.api_id] = valid
      ? plausible
      : fc.oneof({ arbitrary: plausible, weight: 4 }, { arbitrary: hostileValue, weight: 1 });
  }
  return fc.record(model, { requiredKeys: [] });
}

// ---- requests per endpoint ---------------------------------------------------------------------

function jsonBody(
  endpoint: Endpoint,
  ctx: FuzzContext,
  strict: boolean,
): fc.Arbitrary<{ payload: string; type: string }> {
  const schema = endpoint.operation.requestBody.content['application/json'].schema as Schema;
  const valid = fc
    .tuple(
      validValue(schema) as fc.Arbitrary<Record<string, unknown>>,
      customFieldValues(ctx.scenario, strict),
    )
    .map(([body, custom]) => ({ ...body, ...custom }));
  if (strict)
    return fc.record({ payload: valid.map((v) => JSON.stringify(v)), type: fc.constant('application/json') });
  const body = fc.oneof(
    { arbitrary: valid.map((v) => JSON.stringify(v)), weight: 4 },
    { arbitrary: mutatedObject(valid).map((v) => JSON.stringify(v) ?? 'null'), weight: 4 },
    { arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null'), weight: 1 },
    { arbitrary: BAD_JSON, weight: 1 },
  );
  return fc.record({ payload: body, type: JSON_TYPES });
}

const FILE_NAMES = fc.oneof(
  fc.constantFrom('manuscript.pdf', 'manuscript.docx', 'paper.PDF', 'noext', '.pdf', 'a.txt'),
  hostileString.filter((s) => s.length < 20_000 && !/["\r\n]/.test(s)).map((s) => `${s}.pdf`),
  fc.constant(`${'n'.repeat(10_000)}.docx`),
);

function randomFile(
  strict: boolean,
): fc.Arbitrary<{ name: string; type: string; bytes: Uint8Array } | undefined> {
  const { pdf, docx } = smallManuscriptFiles();
  const bytes = fc.oneof(
    { arbitrary: fc.constant(new Uint8Array(0)), weight: 2 },
    { arbitrary: fc.uint8Array({ maxLength: 4096 }), weight: 3 },
    { arbitrary: fc.uint8Array({ minLength: 20_000, maxLength: 200_000 }), weight: 1 },
    {
      arbitrary: fc.integer({ min: 0, max: pdf.length }).map((n) => pdf.subarray(0, n)),
      weight: 2,
    },
    {
      arbitrary: fc.integer({ min: 0, max: docx.length }).map((n) => docx.subarray(0, n)),
      weight: 2,
    },
    {
      arbitrary: fc
        .uint8Array({ maxLength: 2048 })
        .map((b) => Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog'), b])),
      weight: 2,
    },
    {
      arbitrary: fc
        .uint8Array({ maxLength: 2048 })
        .map((b) => Buffer.concat([Buffer.from('PK\u0003\u0004\u0014\u0000'), b])),
      weight: 2,
    },
    { arbitrary: fc.constantFrom(pdf, docx), weight: 1 },
  );
  if (strict) {
    return fc.option(
      fc.constantFrom(
        { name: 'manuscript.pdf', type: 'application/pdf', bytes: pdf },
        {
          name: 'manuscript.docx',
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          bytes: docx,
        },
      ),
      { freq: 2 },
    );
  }
  return fc.option(
    fc.record({
      name: FILE_NAMES,
      type: fc.constantFrom(
        'application/pdf',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'application/octet-stream',
        'text/plain',
      ),
      bytes,
    }),
    { freq: 4 },
  );
}

function uploadRequest(endpoint: Endpoint, ctx: FuzzContext, strict: boolean): fc.Arbitrary<FuzzRequest> {
  const schema = endpoint.operation.requestBody.content['multipart/form-data'].schema as Schema;
  const documented = Object.entries<Schema>(schema.properties).filter(
    ([k]) => k !== 'source_file' && k !== 'api_key',
  );
  const fieldModel = Object.fromEntries(
    documented.map(([k, s]) => [
      k,
      strict
        ? s.pattern
          ? fc.integer({ min: 0, max: 60 }).map(String)
          : validValue(s)
              .map(String)
              .filter((v) => v.trim().length > 0)
        : fc.oneof(
            { arbitrary: validValue(s).map(String), weight: 5 },
            { arbitrary: hostileString, weight: 1 },
          ),
    ]),
  );
  const fields = fc
    .record(fieldModel, { requiredKeys: schema.required as string[] })
    .map((r) => Object.entries(r as Record<string, string>));
  // Valid-shaped: authors 1..N each with a name and an affiliation, N = authors_count, bounds min <= max.
  const authorFields: fc.Arbitrary<Array<[number, string, string]>> = strict
    ? fc
        .array(fc.tuple(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 40 })), {
          maxLength: 3,
        })
        .map((authors) =>
          authors.flatMap(([name, aff], i): Array<[number, string, string]> => [
            [i + 1, 'name', name.trim() ? name : 'A. Author'],
            [i + 1, 'aff', aff],
          ]),
        )
    : fc.array(
        fc.tuple(
          fc.integer({ min: 0, max: 12 }),
          fc.constantFrom('name', 'aff', 'orcid', 'email', 'other'),
          fc.oneof(
            { arbitrary: fc.string({ maxLength: 40 }), weight: 4 },
            { arbitrary: hostileString, weight: 1 },
          ),
        ),
        { maxLength: 10 },
      );
  const strangers = strict
    ? fc.constant([])
    : fc.array(
        fc.tuple(
          hostileString.filter((s) => !/["\r\n]/.test(s)),
          hostileString,
        ),
        { maxLength: 2 },
      );
  return fc
    .record({
      fields,
      authorFields,
      strangers,
      keyInForm: fc.boolean(),
      headers: strict ? fc.constant({ 'x-apikey': ctx.scenario.apiKey }) : apiKeyHeader(ctx.scenario),
      file: randomFile(strict),
      framing: strict
        ? fc.constant('ok')
        : fc.constantFrom('ok', 'ok', 'ok', 'truncated', 'wrong-boundary', 'json-type', 'no-type'),
    })
    .map((r) => {
      if (strict) {
        const fields = Object.fromEntries(r.fields);
        fields.authors_count = String(r.authorFields.length / 2);
        for (const bound of ['h_index', 'academic_age', 'articles_count']) {
          const [lo, hi] = [fields[`min_${bound}`], fields[`max_${bound}`]];
          if (lo !== undefined && hi !== undefined && Number(lo) > Number(hi)) {
            [fields[`min_${bound}`], fields[`max_${bound}`]] = [hi, lo];
          }
        }
        r.fields = Object.entries(fields);
      }
      const form: Array<[string, string]> = [];
      if (r.keyInForm && !strict) form.push(['api_key', ctx.scenario.apiKey]);
      form.push(
        ...r.fields,
        ...r.authorFields.map(([k, f, v]): [string, string] => [`author${k}_${f}`, v]),
        ...r.strangers,
      );
      const { body, contentType } = multipartBody(form, r.file, 'fuzzboundary');
      const headers: Record<string, string> = { ...r.headers };
      let payload: Buffer = body;
      if (r.framing === 'truncated') payload = body.subarray(0, Math.floor(body.length / 2));
      if (r.framing === 'wrong-boundary') headers['content-type'] = 'multipart/form-data; boundary=other';
      else if (r.framing === 'json-type') headers['content-type'] = 'application/json';
      else if (r.framing !== 'no-type') headers['content-type'] = contentType;
      return { method: 'POST', url: endpoint.path, headers, payload };
    });
}

/** A third of the requests are valid-shaped from end to end (key, path, body); the rest mix in hostile parts. */
export function requestArbitrary(endpoint: Endpoint, ctx: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { arbitrary: requestOf(endpoint, ctx, true), weight: 1 },
    { arbitrary: requestOf(endpoint, ctx, false), weight: 2 },
  );
}

function requestOf(endpoint: Endpoint, ctx: FuzzContext, strict: boolean): fc.Arbitrary<FuzzRequest> {
  if (endpoint.operation.requestBody?.content?.['multipart/form-data'])
    return uploadRequest(endpoint, ctx, strict);
  const params = (endpoint.operation.parameters ?? []) as Schema[];
  const pathValues: Record<string, fc.Arbitrary<string>> = {};
  const queryValues: Record<string, fc.Arbitrary<string>> = {};
  for (const p of params) {
    if (p.in === 'path') {
      const real =
        p.name === 'group_id'
          ? strict
            ? fc.constant(String(ctx.scenario.groupId))
            : fc.oneof(
                fc.constant(String(ctx.scenario.groupId)),
                fc.integer({ min: -5, max: 2 ** 40 }).map(String),
              )
          : p.name === 'origin_id'
            ? fc.constantFrom(...ctx.originIds)
            : fc.oneof(fc.constantFrom(...ctx.clientIds), fc.stringMatching(/^[a-z0-9-]{1,12}$/));
      pathValues[p.name] = strict ? real : segment(real);
    } else if (p.in === 'query') {
      queryValues[p.name] = strict
        ? validValue(p.schema).map(String)
        : fc.oneof(
            { arbitrary: validValue(p.schema).map(String), weight: 4 },
            { arbitrary: hostileString.filter((s) => s.length < 3000).map(encodeSegment), weight: 1 },
          );
    }
  }
  const body = endpoint.operation.requestBody ? jsonBody(endpoint, ctx, strict) : fc.constant(undefined);
  return fc
    .record({
      path: fc.record(pathValues),
      query: fc.record(queryValues, { requiredKeys: [] }),
      extraQuery: strict
        ? fc.constant('')
        : fc.constantFrom('', '', '', '&limit=1&limit=2', '&x=%00', '&journals_corpus[]=a'),
      headers: strict ? fc.constant({ 'x-apikey': ctx.scenario.apiKey }) : apiKeyHeader(ctx.scenario),
      body,
    })
    .map((r) => {
      let url = endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => r.path[name] ?? 'x');
      const query = Object.entries(r.query as Record<string, string>).map(([k, v]) => `${k}=${v}`);
      if (query.length > 0 || r.extraQuery) url += `?${query.join('&')}${r.extraQuery}`;
      const headers: Record<string, string> = { ...r.headers };
      if (!r.body) return { method: endpoint.method, url, headers };
      if (r.body.type) headers['content-type'] = r.body.type;
      return { method: endpoint.method, url, headers, payload: r.body.payload };
    });
}

/** The request of one seed (fast-check's generation is deterministic per seed). */
export function requestFor(arbitrary: fc.Arbitrary<FuzzRequest>, seed: number): FuzzRequest {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;
}

// ---- responses ------------------------------------------------------------------------------

export class ResponseChecker {
  private readonly ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly errorBody: ValidateFunction;

  constructor(private readonly doc: Schema) {
    addFormats.default(this.ajv);
    const anyError = Object.values<Schema>(doc.paths['/api/external/custom-fields/all/'].get.responses).find(
      (r) => r.content?.['application/json']?.schema?.properties?.error,
    );
    this.errorBody = this.ajv.compile(anyError!.content['application/json'].schema as Schema);
  }

  /** A description of what is wrong with the answer, or null when it keeps the contract. */
  check(endpoint: Endpoint, status: number, contentType: string | undefined, body: string): string | null {
    if (status >= 500) return `status ${status}`;
    if (!contentType?.startsWith('application/json'))
      return `status ${status} with content-type ${contentType}`;
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return `status ${status}: the body is not JSON`;
    }
    let validate: ValidateFunction | undefined;
    if (status >= 400) validate = this.errorBody;
    else {
      const id = `${endpoint.key} ${status}`;
      validate = this.cache.get(id);
      if (!validate) {
        const schema = endpoint.operation.responses?.[String(status)]?.content?.['application/json']
          ?.schema as Schema;
        if (!schema) return `status ${status} is not documented for ${endpoint.key}`;
        validate = this.ajv.compile(schema);
        this.cache.set(id, validate);
      }
    }
    if (validate(json)) return null;
    return `status ${status}: body does not match its schema: ${this.ajv.errorsText(validate.errors)}`;
  }
}

export interface FuzzOutcome {
  endpoint: string;
  seed: number;
  status: number;
  request: FuzzRequest;
  problem: string | null;
}

/**
 * Sends `count` requests to one endpoint (seeds firstSeed, firstSeed+1, ...) through inject,
 * `concurrency` at a time, and reports each outcome.
 */
export async function fuzzEndpoint(
  app: FastifyInstance,
  checker: ResponseChecker,
  endpoint: Endpoint,
  ctx: FuzzContext,
  options: { firstSeed: number; count: number; concurrency: number },
  onOutcome: (outcome: FuzzOutcome) => void,
): Promise<void> {
  const arbitrary = requestArbitrary(endpoint, ctx);
  let next = 0;
  const worker = async () => {
    while (next < options.count) {
      const seed = options.firstSeed + next++;
      const request = requestFor(arbitrary, seed);
      const res = await app.inject(request as InjectOptions);
      const contentType = res.headers['content-type'];
      onOutcome({
        endpoint: endpoint.key,
        seed,
        status: res.statusCode,
        request,
        problem: checker.check(
          endpoint,
          res.statusCode,
          typeof contentType === 'string' ? contentType : undefined,
          res.body,
        ),
      });
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
}
