// Builds multipart upload requests for app.inject: the form fields of spec 4.5 and an optional file.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export function fixture(relative: string): Buffer {
  return readFileSync(path.join(FIXTURES, relative));
}

export interface FilePart {
  field?: string;
  name: string;
  bytes: Buffer;
  type?: string;
}

/** Fields as an object, or as pairs when a test needs one name twice. */
export function multipartBody(
  fields: Record<string, string | number> | Array<[string, string | number]>,
  files: FilePart[] = [],
): { body: Buffer; contentType: string } {
  const boundary = `----refmatch${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Array.isArray(fields) ? fields : Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'source_file'}"; ` +
          `filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The smallest valid form; tests override what they check. */
export function baseFields(overrides: Record<string, string | number> = {}): Record<string, string | number> {
  return {
    folder: 'JOUR',
    origin_id: 'ms-1',
    title: 'Graph neural networks for protein folding',
    abstract: 'We study graph neural networks applied to protein structure prediction.',
    authors_count: 1,
    author1_name: 'Ada Lovelace',
    exclude_candidates: '1',
    ...overrides,
  };
}

/**
 * The smallest valid form that asks for candidates: baseFields without `exclude_candidates`, for the
 * tests that rank referees or open a manuscript's page of them.
 */
export function rankingFields(
  overrides: Record<string, string | number> = {},
): Record<string, string | number> {
  const { exclude_candidates: _ranked, ...fields } = baseFields(overrides);
  return fields;
}

export async function upload(
  app: FastifyInstance,
  options: {
    apiKey?: string;
    fields: Record<string, string | number> | Array<[string, string | number]>;
    files?: FilePart[];
    headers?: Record<string, string>;
  },
) {
  const { body, contentType } = multipartBody(options.fields, options.files);
  return app.inject({
    method: 'POST',
    url: '/api/external/proposal/',
    headers: {
      'content-type': contentType,
      ...(options.apiKey ? { 'x-apikey': options.apiKey } : {}),
      ...options.headers,
    },
    payload: body,
  });
}
