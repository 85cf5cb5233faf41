// The upload form (spec 4.5): reading the multipart parts, then checking every field in one pass so
// that a 400 names each offending field at once.
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { isAscii, isUtf8 } from 'node:buffer';
import { AppError, errors, type ErrorDetail } from '../infra/errors.ts';
import { MAX_INTEGER } from '../http/schemas.ts';
import { unstorableText } from '../http/storable-text.ts';
import { normalizeOrcid } from '../corpus/openalex/ids.ts';
import type { CandidateFilters } from '../referee-finder/types.ts';

export interface UploadedFile {
  fileName: string | null;
  bytes: Buffer;
}

export interface RawUpload {
  fields: Map<string, string>;
  file: UploadedFile | null;
  problems: ErrorDetail[];
}

export const SOURCE_FILE_FIELD = 'source_file';
export const API_KEY_FIELD = 'api_key';

/**
 * Without the X-ApiKey header the key must come as the `api_key` field, before the file and within
 * the first FORM_KEY_WINDOW_BYTES of the form's fields, so an unauthenticated caller costs at most
 * that much reading; past that point the upload is refused at once (401).
 */
export const FORM_KEY_WINDOW_BYTES = 64 * 1024;

/**
 * The body's own bytes read while the key is awaited: the fields' window with room for each part's
 * boundary and headers. The multipart parser reads and discards what comes before the first boundary
 * (the preamble) and reads a field to its end whatever its length, so without this bound a body of
 * nothing but preamble, or one endless field, was read until the request timed out (120 s).
 */
export const FORM_KEY_WINDOW_RAW_BYTES = 2 * FORM_KEY_WINDOW_BYTES;

/**
 * The form's text fields together, in characters: each field may hold 4 MB (an abstract, generously),
 * but 4,200 of them would be 17 GB, and the fields are held in memory until the form is read (a
 * thousand such fields ran the server out of heap). Four times the largest field is more than any
 * real form: an abstract, a title, a thousand authors.
 */
export const MAX_FORM_TEXT_CHARS = 16 * 1024 * 1024;

/** The bytes of the form's text fields as sent (UTF-8): what the upload stores of its form. */
export function formTextBytes(fields: Map<string, string>): number {
  let bytes = 0;
  for (const [name, value] of fields) bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
  return bytes;
}

/**
 * How the multipart parser is asked to hand over text fields: as latin1, one character a byte, so
 * that their bytes reach `utf8Text` as they came. Decoded as UTF-8 by the parser, invalid bytes
 * became U+FFFD and were stored as text the client never sent (JSON bodies are refused the same way).
 */
export const FORM_TEXT_CHARSET = 'latin1';

/**
 * A text field's value as sent, if its bytes are UTF-8; else null. A character past U+00FF cannot
 * have come from latin1: the part named a charset of its own (UTF-16), which is not read either.
 */
function utf8Text(latin1: string): string | null {
  if (/[\u0100-\uffff]/.test(latin1)) return null;
  const bytes = Buffer.from(latin1, 'latin1');
  // Plain ASCII is the same text in both charsets.
  if (isAscii(bytes)) return latin1;
  return isUtf8(bytes) ? bytes.toString('utf8') : null;
}

/**
 * Reads every part; files other than one `source_file` are drained and reported as problems. With
 * `verifyFormKey` (no key in the header), the `api_key` field is handed to it as soon as it is read,
 * before any more of the body.
 */
export async function readUploadParts(
  request: FastifyRequest,
  verifyFormKey?: (key: string) => Promise<void>,
): Promise<RawUpload> {
  if (!request.isMultipart()) {
    throw errors.unsupportedMediaType('The upload must be sent as multipart/form-data');
  }
  const fields = new Map<string, string>();
  const problems: ErrorDetail[] = [];
  try {
    const file = await collectParts(request, fields, problems, verifyFormKey);
    return { fields, file, problems };
  } catch (error) {
    throw asClientError(error);
  }
}

/**
 * Errors of our own and the multipart plugin's (FST_*: limits, 413) go to the error handler as they
 * are; so do the engine's TypeError and ReferenceError, which are a fault of this code (a 500 that
 * hides its message), not of the body: one read a nameless part's missing name and answered 400
 * "Cannot read properties of undefined". Anything else came from the form parser reading a broken
 * body, which is the caller's fault.
 */
function asClientError(error: unknown): unknown {
  if (error instanceof AppError || error instanceof TypeError || error instanceof ReferenceError)
    return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('FST_')) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return errors.validation(`The multipart body is malformed: ${reason}`);
}

async function collectParts(
  request: FastifyRequest,
  fields: Map<string, string>,
  problems: ErrorDetail[],
  verifyFormKey: ((key: string) => Promise<void>) | undefined,
): Promise<UploadedFile | null> {
  let file: UploadedFile | null = null;
  let textChars = 0;
  let awaitingKey = verifyFormKey !== undefined;
  let bytesBeforeKey = 0;
  let namelessReported = false;
  const parts = request.parts()[Symbol.asyncIterator]();
  // The first next() sets the parser reading the body (the request is piped to it), so the bytes are
  // counted from the first; a listener added before would set the body flowing with no parser.
  let next = parts.next();
  let refuseUnkeyed: (error: Error) => void = () => {};
  const unkeyedTooLong = new Promise<never>((_, reject) => (refuseUnkeyed = reject));
  unkeyedTooLong.catch(() => {});
  let rawBytes = 0;
  // The key's part taken from the parser: the window is met, whatever comes while it is checked.
  let keyPartTaken = false;
  let windowCheckQueued = false;
  const countRaw = (chunk: Buffer) => {
    rawBytes += chunk.length;
    if (!awaitingKey || keyPartTaken || windowCheckQueued || rawBytes <= FORM_KEY_WINDOW_RAW_BYTES) return;
    // Bytes arrive ahead of the parts the parser makes of them (a fast client's whole form in one
    // chunk): the parts in what has arrived are handed over first, and the form is refused only if
    // the key's part is not among them. Refused at once, a form whose first field is the key was
    // refused when its body passed the window before the key's part was read (or while it was
    // checked), as a large abstract sent quickly did.
    windowCheckQueued = true;
    setImmediate(() => {
      if (awaitingKey && !keyPartTaken) refuseUnkeyed(errors.apiKeyFieldTooLate(FORM_KEY_WINDOW_BYTES));
      else windowCheckQueued = false;
    });
  };
  if (awaitingKey) request.raw.on('data', countRaw);
  try {
    for (;;) {
      const step = awaitingKey ? await Promise.race([next, unkeyedTooLong]) : await next;
      if (step.done) break;
      const part = step.value;
      if (part.fieldname === API_KEY_FIELD) keyPartTaken = true;
      if (!awaitingKey) request.raw.off('data', countRaw);
      await readPart(part);
      next = parts.next();
    }
  } finally {
    request.raw.off('data', countRaw);
  }
  if (awaitingKey) throw errors.missingApiKey();
  return file;

  async function readPart(part: Multipart): Promise<void> {
    // A part whose Content-Disposition names no field arrives with no fieldname at all. It is read
    // and counted like any other (its text against the same limits), then refused as a problem.
    const named = typeof (part.fieldname as string | undefined) === 'string';
    const fieldName = named ? part.fieldname : '';
    if (!named && !namelessReported) {
      problems.push({
        path: 'body',
        message: 'has a part without a name (Content-Disposition: form-data; name="…")',
      });
      namelessReported = true;
    }
    const path = named ? `body.${fieldName}` : 'body';
    // Text fields arrive as latin1 (FORM_TEXT_CHARSET): their length is their size in bytes.
    const sent = part.type === 'file' ? '' : typeof part.value === 'string' ? part.value : String(part.value);
    if (part.type !== 'file' && part.valueTruncated) {
      throw errors.payloadTooLarge(`The form field ${fieldName} is larger than the limit`);
    }
    if (awaitingKey) {
      if (part.type === 'file') throw errors.apiKeyFieldTooLate(FORM_KEY_WINDOW_BYTES);
      if (fieldName !== API_KEY_FIELD) {
        bytesBeforeKey += Buffer.byteLength(fieldName) + sent.length;
        if (bytesBeforeKey > FORM_KEY_WINDOW_BYTES) throw errors.apiKeyFieldTooLate(FORM_KEY_WINDOW_BYTES);
      }
    }
    let value = utf8Text(sent);
    if (value === null) {
      // Refused, yet read on as the parser would have read it, so that the answer names this
      // problem alone rather than the field as missing.
      problems.push({ path, message: 'must be UTF-8 text' });
      value = Buffer.from(sent, 'latin1').toString('utf8');
      if (awaitingKey && fieldName === API_KEY_FIELD) return;
    }
    if (awaitingKey && fieldName === API_KEY_FIELD) {
      await verifyFormKey!(value);
      awaitingKey = false;
    }
    // A file part's text is its field name and file name (reported as body.<field>.filename).
    const text = part.type === 'file' ? { filename: part.filename } : value;
    problems.push(...unstorableText({ [fieldName]: text }, 'body'));
    if (part.type === 'file') {
      // A file that will be refused is read through without being kept: five 50 MB parts under
      // other names were held whole before the refusal.
      // A nameless file part was reported above.
      const refusal = !named
        ? null
        : fieldName !== SOURCE_FILE_FIELD
          ? `is a file; only ${SOURCE_FILE_FIELD} may carry a file`
          : file
            ? 'only one source file may be sent'
            : null;
      if (refusal) problems.push({ path, message: refusal });
      if (refusal || !named) {
        for await (const chunk of part.file) void chunk;
        return;
      }
      const bytes = await part.toBuffer();
      // A form whose file input was left empty sends a nameless, empty part: that is no file.
      if (bytes.length > 0 || part.filename) file = { fileName: part.filename || null, bytes };
      return;
    }
    textChars += fieldName.length + value.length;
    if (textChars > MAX_FORM_TEXT_CHARS) {
      throw errors.payloadTooLarge(
        `The form's text fields together are longer than ${MAX_FORM_TEXT_CHARS} characters`,
      );
    }
    if (!named) return;
    if (fieldName === SOURCE_FILE_FIELD) {
      // Text where the file belongs (`-F source_file=paper.pdf` without the @): read as no file, the
      // manuscript would be ranked without it and the caller never told. Empty text is no file.
      if (value !== '') problems.push({ path, message: 'must be a file part (with a filename), not text' });
      return;
    }
    if (fields.has(fieldName)) problems.push({ path, message: 'was given more than once' });
    fields.set(fieldName, value);
  }
}

export interface SuppliedAuthor {
  name: string;
  email: string | null;
  orcid: string | null;
  affiliation: string | null;
}

export interface UploadForm {
  folder: string;
  originId: string;
  title: string;
  abstract: string;
  /**
   * The sender's count of the authors (its check that all were read), or null when it stated none:
   * the dashboard's form with no author typed, whose authors are the file's.
   */
  authorsCount: number | null;
  authors: SuppliedAuthor[];
  excludeCandidates: boolean;
  filters: CandidateFilters;
}

const FILTERS = [
  ['min_h_index', 'minHIndex'],
  ['max_h_index', 'maxHIndex'],
  ['min_academic_age', 'minAcademicAge'],
  ['max_academic_age', 'maxAcademicAge'],
  ['min_articles_count', 'minArticlesCount'],
  ['max_articles_count', 'maxArticlesCount'],
] as const satisfies ReadonlyArray<readonly [string, keyof CandidateFilters]>;

const AUTHOR_FIELD = /^author(\d+)_(.*)$/;
const AUTHOR_PARTS = { name: 'name', aff: 'affiliation', orcid: 'orcid', email: 'email' } as const;
type AuthorPart = keyof typeof AUTHOR_PARTS;
const MAX_AUTHORS = 1000;

/**
 * Longest value of each text field, in characters: far beyond any real title, abstract or name, and
 * the group records' own limits for names and affiliations. Every character is analysed, matched
 * and stored on the way to the answer (about a microsecond each, with the embedded database on the
 * event loop), so four 4 MB fields held other requests 18 s.
 */
export const UPLOAD_FIELD_MAX_CHARS = {
  title: 2_000,
  abstract: 100_000,
  name: 1_000,
  aff: 2_000,
  email: 320,
  orcid: 100,
} as const;

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/**
 * ORCIDs arrive as bare ids or as orcid.org links; the bare form is what the corpus stores. What is
 * no ORCID (a placeholder, a wrong check digit) is kept as written: it is the client's, and it
 * matches no one (the conflict search normalizes it to nothing).
 */
function suppliedOrcid(value: string | null): string | null {
  return value === null ? null : (normalizeOrcid(value) ?? value);
}

export function validateUploadForm(raw: RawUpload): UploadForm {
  const { fields } = raw;
  const problems: ErrorDetail[] = [...raw.problems];
  const problem = (field: string, message: string) => problems.push({ path: `body.${field}`, message });

  const text = (field: string, opts: { allowEmpty?: boolean; max?: number } = {}): string => {
    const value = fields.get(field);
    if (value === undefined) {
      problem(field, 'is required');
      return '';
    }
    const trimmed = value.trim();
    if (!trimmed && !opts.allowEmpty) problem(field, 'must not be empty');
    if (opts.max !== undefined && trimmed.length > opts.max) {
      problem(field, `must be at most ${opts.max} characters`);
    }
    return trimmed;
  };

  const integer = (field: string, required: boolean): number | undefined => {
    const value = fields.get(field);
    if (value === undefined || (!required && value.trim() === '')) {
      if (required) problem(field, 'is required');
      return undefined;
    }
    if (!/^\+?\d+$/.test(value.trim()) || Number(value.trim()) > MAX_INTEGER) {
      problem(field, 'must be a whole number from 0 to 2147483647');
      return undefined;
    }
    return Number(value.trim());
  };

  const folder = text('folder', { max: 256 });
  const originId = text('origin_id', { max: 256 });
  const title = text('title', { max: UPLOAD_FIELD_MAX_CHARS.title });
  // Required to be sent, but may be empty: the parsed file can supply the abstract.
  const abstract = text('abstract', { allowEmpty: true, max: UPLOAD_FIELD_MAX_CHARS.abstract });
  const authorsCount = integer('authors_count', true) ?? 0;

  const filters: CandidateFilters = {};
  for (const [field, key] of FILTERS) {
    const value = integer(field, false);
    if (value !== undefined) filters[key] = value;
  }
  for (const [lo, hi, loField, hiField] of [
    ['minHIndex', 'maxHIndex', 'min_h_index', 'max_h_index'],
    ['minAcademicAge', 'maxAcademicAge', 'min_academic_age', 'max_academic_age'],
    ['minArticlesCount', 'maxArticlesCount', 'min_articles_count', 'max_articles_count'],
  ] as const) {
    const [low, high] = [filters[lo], filters[hi]];
    if (low !== undefined && high !== undefined && low > high) {
      problem(loField, `must not be greater than ${hiField}`);
    }
  }

  const authors = readAuthors(fields, problem);
  const exclude = fields.get('exclude_candidates');

  if (problems.length > 0) throw errors.validation('The upload form is not valid', problems);
  return {
    folder,
    originId,
    title,
    abstract,
    authorsCount,
    authors,
    // Any non-empty value, spaces too (the specification: "any non-empty value").
    excludeCandidates: exclude !== undefined && exclude !== '',
    filters,
  };
}

function readAuthors(
  fields: Map<string, string>,
  problem: (field: string, message: string) => void,
): SuppliedAuthor[] {
  const byIndex = new Map<number, Partial<Record<AuthorPart, string>>>();
  for (const [field, value] of fields) {
    const match = AUTHOR_FIELD.exec(field);
    if (!match) continue;
    const [, digits, part] = match as unknown as [string, string, string];
    if (!(part in AUTHOR_PARTS)) {
      problem(field, 'is not a known author field (authorK_name, authorK_aff, authorK_orcid, authorK_email)');
      continue;
    }
    const k = Number(digits);
    if (k < 1 || digits.startsWith('0') || k > MAX_AUTHORS) {
      problem(field, `author numbers run from 1 to ${MAX_AUTHORS} without leading zeros`);
      continue;
    }
    const max = UPLOAD_FIELD_MAX_CHARS[part as AuthorPart];
    if (value.trim().length > max) {
      problem(field, `must be at most ${max} characters`);
      continue;
    }
    const entry = byIndex.get(k) ?? {};
    entry[part as AuthorPart] = value;
    byIndex.set(k, entry);
  }
  const highest = Math.max(0, ...byIndex.keys());
  const authors: SuppliedAuthor[] = [];
  for (let k = 1; k <= highest; k++) {
    const entry = byIndex.get(k);
    if (!entry) {
      problem(`author${k}_name`, `is missing: authors are numbered 1 to ${highest} without gaps`);
      continue;
    }
    const name = blankToNull(entry.name);
    if (!name) {
      problem(`author${k}_name`, `is required when other author${k}_ fields are sent`);
      continue;
    }
    authors.push({
      name,
      email: blankToNull(entry.email)?.toLowerCase() ?? null,
      orcid: suppliedOrcid(blankToNull(entry.orcid)),
      affiliation: blankToNull(entry.aff),
    });
  }
  return authors;
}
