// Request validation. Query strings and path parameters arrive as text, so they are coerced to the
// schema's types; JSON bodies are not: a client that sends `"name": 123` gets a 400, not a silent
// "123". Unknown properties are removed only where a schema forbids them.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifySchema, FastifySchemaValidationError } from 'fastify';

// ajv-formats is CommonJS; under NodeNext its default export arrives as the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    removeAdditional: true,
    useDefaults: true,
    strict: false,
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

/** Numbers as a path or a query writes them: decimal digits (a fraction where the schema allows one). */
const WRITTEN = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?$/ } as const;

interface ValidatorFn {
  (data: unknown): boolean;
  errors?: FastifySchemaValidationError[] | null;
}

/**
 * The schema's top-level properties of type integer or number. ajv coerces text to them as
 * JavaScript's Number does, which also reads "0x10", "1e3", " 1" and "1.0": group 16, 1000 and 1
 * each answered to ids the client never wrote.
 */
function numericProperties(schema: object): Array<[string, RegExp]> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, p]) =>
    p.type === 'integer' || p.type === 'number' ? [[name, WRITTEN[p.type]] as [string, RegExp]] : [],
  );
}

function withWrittenNumbers(validate: ValidateFunction, numeric: Array<[string, RegExp]>): ValidatorFn {
  const checked: ValidatorFn = (data) => {
    const values = (data ?? {}) as Record<string, unknown>;
    const wrong = numeric.filter(
      ([name, form]) => typeof values[name] === 'string' && !form.test(values[name]),
    );
    if (wrong.length > 0) {
      checked.errors = wrong.map(([name, form]) => ({
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}/type`,
        keyword: 'type',
        params: {},
        message:
          form === WRITTEN.integer ? 'must be a whole number in decimal digits' : 'must be a decimal number',
      }));
      return false;
    }
    const ok = validate(data);
    checked.errors = validate.errors as FastifySchemaValidationError[] | null | undefined;
    return ok;
  };
  return checked;
}

const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean']);

/** The schema's top-level properties that hold one value (a query option that is not a list). */
function scalarProperties(schema: object): string[] {
  type Property = { type?: unknown; anyOf?: Property[] };
  const scalar = (p: Property): boolean =>
    typeof p.type === 'string'
      ? SCALAR_TYPES.has(p.type)
      : Array.isArray(p.anyOf) && p.anyOf.length > 0 && p.anyOf.every(scalar);
  const properties = (schema as { properties?: Record<string, Property> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, p]) => (scalar(p) ? [name] : []));
}

/**
 * A query option of one value given more than once (`?limit=5&limit=5`) said so: it arrives as a
 * list, which ajv told as "must be integer" of a client that wrote integers.
 */
function withSingleOptions(validate: ValidatorFn, scalar: string[]): ValidatorFn {
  const checked: ValidatorFn = (data) => {
    const values = (data ?? {}) as Record<string, unknown>;
    const repeated = scalar.filter((name) => Array.isArray(values[name]) && values[name].length > 1);
    if (repeated.length > 0) {
      checked.errors = repeated.map((name) => ({
        instancePath: `/${name}`,
        schemaPath: `#/properties/${name}/type`,
        keyword: 'type',
        params: {},
        message: `must be given once (it was given ${(values[name] as unknown[]).length} times)`,
      }));
      return false;
    }
    const ok = validate(data);
    checked.errors = validate.errors;
    return ok;
  };
  return checked;
}

export function registerValidation(app: FastifyInstance): void {
  const coercing = makeAjv({ coerceTypes: 'array' });
  const strict = makeAjv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }: { schema: FastifySchema; httpPart?: string }) => {
    if (httpPart === 'body') return strict.compile(schema as object);
    const validate = coercing.compile(schema as object);
    const numeric = numericProperties(schema as object);
    const written: ValidatorFn = numeric.length > 0 ? withWrittenNumbers(validate, numeric) : validate;
    const scalar = httpPart === 'querystring' ? scalarProperties(schema as object) : [];
    return scalar.length > 0 ? withSingleOptions(written, scalar) : written;
  });
}
