// POST /api/external/proposal/ (spec 4.5), multipart. Multipart parsing is registered in this
// route's own scope so no JSON route accepts multipart bodies. The key may come in the X-ApiKey
// header or in the api_key form field (either suffices; two different keys are refused), so the route
// authenticates itself (`auth: 'manual'`): the header, when sent, before any of the body is read;
// else the field, as soon as it is read, which must be before the file (upload-form.ts).
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { headerKey } from '../http/auth.ts';
import { errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import type { Organization } from '../organizations/organizations.ts';
import {
  API_KEY_FIELD,
  FORM_TEXT_CHARSET,
  readUploadParts,
  validateUploadForm,
  type RawUpload,
} from './upload-form.ts';
import { UploadForm, UploadResponse } from './upload-schema.ts';
import { checkSourceFile, uploadManuscript, type CandidateFinder } from './upload.ts';
import type { ManuscriptParser } from './parsed-document.ts';

const MAX_FORM_FIELDS = 4200; // 1000 authors of 4 fields, and the rest of the form
const MAX_FIELD_BYTES = 4 * 1024 * 1024; // an abstract, generously

/**
 * An upload refused before its body was read through (no key, a limit) reads no more of it: the
 * form parser is cut off the request stream (the error handler then closes the connection).
 */
function stopReading(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.pause();
}

export interface UploadRouteDeps {
  parser: ManuscriptParser;
  findCandidates: CandidateFinder;
}

export function registerUploadRoute(external: FastifyInstance, ctx: AppContext, deps: UploadRouteDeps) {
  void external.register(async (scope) => {
    await scope.register(multipart, {
      defCharset: FORM_TEXT_CHARSET,
      limits: {
        fileSize: ctx.config.fileLimitBytes,
        files: 5,
        fields: MAX_FORM_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        parts: MAX_FORM_FIELDS + 5,
      },
    });

    scope.post(
      '/proposal/',
      {
        config: { auth: 'manual' },
        // The body schema documents the form; validateUploadForm checks it, in one pass.
        validatorCompiler: () => () => true,
        schema: {
          summary: 'Upload a manuscript and get referee candidates',
          tags: ['manuscripts'],
          consumes: ['multipart/form-data'],
          body: UploadForm,
          response: { 200: UploadResponse, ...errorResponses(400, 401, 413, 415, 429, 500, 503) },
        },
      },
      async (request, reply) => {
        // Before the body is read: while the corpus loads, candidates would come from part of it.
        ctx.readiness.assertReady(reply);
        const fromHeader = headerKey(request);
        let organization: Organization | null = fromHeader
          ? await ctx.auth.authenticate(request, fromHeader)
          : null;
        let raw: RawUpload;
        try {
          raw = await readUploadParts(
            request,
            organization
              ? undefined
              : async (key) => {
                  organization = await ctx.auth.authenticate(request, key);
                },
          );
        } catch (error) {
          stopReading(request);
          throw error;
        }
        const fromField = raw.fields.get(API_KEY_FIELD);
        if (fromHeader && fromField && fromField !== fromHeader) throw errors.conflictingApiKeys();
        if (!organization) throw errors.missingApiKey();
        request.organization = organization;
        const form = validateUploadForm(raw);
        checkSourceFile(raw.file);
        return uploadManuscript({ ctx, ...deps, log: request.log }, organization, form, raw.file);
      },
    );
  });
}
