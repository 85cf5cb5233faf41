// Spec 4.1-4.4: read, create-or-replace, partial update and delete of an author from group.
import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { answerCounter, tenantOf } from '../http/auth.ts';
import { EXTERNAL_ERRORS, Ok, errorResponses } from '../http/schemas.ts';
import { errors, toAppError, type ErrorDetail } from '../infra/errors.ts';
import { loadFieldRules } from '../custom-fields/store.ts';
import { checkCustomValues, type CustomValuesInput } from '../custom-fields/values.ts';
import { loadAuthorSummaries } from '../corpus/authors/author-summary.ts';
import { AuthorFromGroup, KNOWN_KEYS, LIST_KEYS, Params, PartialBody, ReplaceBody } from './schemas.ts';
import {
  deleteGroupAuthor,
  readGroupAuthor,
  findGroupAuthorForUpdate,
  isUnaddressableClientId,
  saveGroupAuthor,
  writeGroupAuthor,
  type GroupAuthorKey,
  type GroupAuthorRecord,
} from './store.ts';

type ParamsT = Static<typeof Params>;
type Body = Record<string, unknown>;

const PATH = '/author-from-group/:group_id/:client_id/';
const TAGS = ['authors from group'];
const known = new Set<string>(KNOWN_KEYS);

/**
 * "." and ".." (or "%2E%2E") cannot name a record: URL libraries (the WHATWG URL every browser and
 * Node's fetch use, curl) resolve them as path segments before sending, so a record made under one by
 * a raw request could never be read, replaced or deleted by another client. Refused on every method.
 */
function keyOf(request: FastifyRequest<{ Params: ParamsT }>): GroupAuthorKey {
  const { group_id, client_id } = request.params;
  if (isUnaddressableClientId(client_id)) {
    throw errors.validation('The client_id cannot be "." or ".."', [
      {
        path: 'params.client_id',
        message:
          'must not be "." or "..": URL clients resolve them as path segments, so no client could address it',
      },
    ]);
  }
  return { organizationId: tenantOf(request).id, groupId: group_id, clientId: client_id };
}

function notFound(key: GroupAuthorKey) {
  return errors.notFound(`Author from group ${key.groupId}/${key.clientId}`);
}

function isPlainObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Schema errors (attached, not thrown, so they can be reported together with custom field errors)
 * plus checks of the custom keys against the organization's fields. Throws one 400 naming each
 * offending path.
 */
async function validateBody(
  ctx: AppContext,
  request: FastifyRequest<{ Params: ParamsT }>,
  organizationId: number,
): Promise<{ body: Body; custom: CustomValuesInput }> {
  const problems: ErrorDetail[] = request.validationError
    ? (toAppError(request.validationError).details ?? [])
    : [];
  const body = request.body;
  let custom: CustomValuesInput = { set: {}, cleared: [], problems: [] };
  if (isPlainObject(body)) {
    const entries = Object.entries(body).filter(([k]) => !known.has(k));
    if (entries.length > 0) {
      const rules = await loadFieldRules(ctx.db, organizationId, 'author_from_group');
      custom = checkCustomValues(entries, rules, 'body');
    }
  }
  if (problems.length > 0 || custom.problems.length > 0 || !isPlainObject(body)) {
    // concat, not push(...): a spread of 125,000 problems (as many unknown keys) overflows the stack.
    throw errors.validation('The request is not valid', problems.concat(custom.problems));
  }
  return { body, custom };
}

function listOrNull(body: Body, key: string): string[] | null {
  return (body[key] as string[] | null | undefined) ?? null;
}

/**
 * Spec 4.1 lists the read's fields as name, emails, orcids, articles, affiliations, custom field
 * keys, author. The serializer writes the schema's named properties first and pattern-matched keys
 * (the custom fields) after them, which put `author` before the custom keys: this moves it last.
 */
const authorKeyLast: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode !== 200 || typeof payload !== 'string') {
    done(null, payload);
    return;
  }
  const { author, ...rest } = JSON.parse(payload) as Record<string, unknown>;
  done(null, JSON.stringify({ ...rest, author }));
};

export function registerAuthorFromGroupRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.get(
    PATH,
    {
      // A record at its caps answers ~1 MB (~0.2 s of CPU, most of it reading its lists back): the
      // answer counts against the key's and the address's requests by its size, as 4.7's does.
      onSend: [authorKeyLast, answerCounter(ctx.auth)],
      schema: {
        summary: 'Read an author from group (4.1)',
        tags: TAGS,
        params: Params,
        response: { 200: AuthorFromGroup, ...errorResponses(...EXTERNAL_ERRORS) },
      },
    },
    async (request: FastifyRequest<{ Params: ParamsT }>) => {
      const key = keyOf(request);
      const found = await readGroupAuthor(ctx.db, key);
      if (!found) throw notFound(key);
      const summary =
        found.linked_author_id === null
          ? undefined
          : (await loadAuthorSummaries(ctx.db, ctx.config.publicBaseUrl, [found.linked_author_id])).get(
              found.linked_author_id,
            );
      // Spec 2.1 types `year` as an integer: a work without a known year reports 0, as a candidate's
      // and a journal's relevant articles do (the dashboard shows it as "n.d.").
      const author = summary
        ? { ...summary, last_articles: summary.last_articles.map((a) => ({ ...a, year: a.year ?? 0 })) }
        : null;
      return {
        name: found.name,
        emails: found.emails,
        orcids: found.orcids,
        articles: found.articles,
        affiliations: found.affiliations,
        ...found.custom,
        author,
      };
    },
  );

  scope.post(
    PATH,
    {
      attachValidation: true,
      schema: {
        summary: 'Create or fully replace an author from group (4.2)',
        tags: TAGS,
        params: Params,
        body: ReplaceBody,
        // 409 limit_reached: a new record in a group at its records cap (docs/api.md, Limits).
        response: { 200: Ok, ...errorResponses(...EXTERNAL_ERRORS, 409) },
      },
    },
    async (request: FastifyRequest<{ Params: ParamsT }>) => {
      const key = keyOf(request);
      const { body, custom } = await validateBody(ctx, request, key.organizationId);
      const record: GroupAuthorRecord = {
        name: body.name as string,
        emails: listOrNull(body, 'emails'),
        orcids: listOrNull(body, 'orcids'),
        articles: listOrNull(body, 'articles'),
        affiliations: listOrNull(body, 'affiliations'),
        custom_values: custom.set,
      };
      const saved = await writeGroupAuthor(ctx.db, key, record);
      if (!saved) throw errors.notFound(`Authors group ${key.groupId}`);
      return { ok: true };
    },
  );

  scope.post(
    `${PATH}partial/`,
    {
      attachValidation: true,
      schema: {
        summary: 'Partially update an author from group (4.3)',
        tags: TAGS,
        params: Params,
        body: PartialBody,
        response: { 200: Ok, ...errorResponses(...EXTERNAL_ERRORS) },
      },
    },
    async (request: FastifyRequest<{ Params: ParamsT }>) => {
      const key = keyOf(request);
      const { body, custom } = await validateBody(ctx, request, key.organizationId);
      const saved = await ctx.db.transaction(async (tx) => {
        const current = await findGroupAuthorForUpdate(tx, key);
        if (!current) return false;
        const record: GroupAuthorRecord = {
          name: typeof body.name === 'string' ? body.name : current.name,
          emails: current.emails,
          orcids: current.orcids,
          articles: current.articles,
          affiliations: current.affiliations,
          custom_values: { ...current.custom_values, ...custom.set },
        };
        for (const list of LIST_KEYS) {
          if (Object.hasOwn(body, list)) record[list] = listOrNull(body, list);
        }
        for (const cleared of custom.cleared) delete record.custom_values[cleared];
        return saveGroupAuthor(tx, key, record);
      });
      if (!saved) throw notFound(key);
      return { ok: true };
    },
  );

  scope.delete(
    PATH,
    {
      schema: {
        summary: 'Delete an author from group (4.4)',
        tags: TAGS,
        params: Params,
        response: { 200: Ok, ...errorResponses(...EXTERNAL_ERRORS) },
      },
    },
    async (request: FastifyRequest<{ Params: ParamsT }>) => {
      const key = keyOf(request);
      if (!(await deleteGroupAuthor(ctx.db, key))) throw notFound(key);
      return { ok: true };
    },
  );
}
