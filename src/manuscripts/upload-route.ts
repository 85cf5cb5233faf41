// POST /api/external/proposal/ (spec 4.5), multipart. Multipart parsing is registered in this
// route's own scope so no JSON route accepts multipart bodies. The key may come in the X-ApiKey
// header or in the api_key form field (either suffices; two different keys are refused), so the route
// authenticates itself (`auth: 'manual'`): the header, when sent, before any of the body is read.
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app-context.ts';
import { headerKey } from '../http/auth.ts';
import { errorResponses } from '../http/schemas.ts';
import { errors } from '../infra/errors.ts';
import type { Organization } from '../organizations/organizations.ts';
import { readUploadParts, validateUploadForm } from './upload-form.ts';
import { UploadForm, UploadResponse } from './upload-schema.ts';
import { checkSourceFile, uploadManuscript, type CandidateFinder } from './upload.ts';
import type { ManuscriptParser } from './parsed-document.ts';

const MAX_FORM_FIELDS = 4200; // 1000 authors of 4 fields, and the rest of the form
const MAX_FIELD_BYTES = 4 * 1024 * 1024; // an abstract, generously

export interface UploadRouteDeps {
  parser: ManuscriptParser;
  findCandidates: CandidateFinder;
}

export function registerUploadRoute(external: FastifyInstance, ctx: AppContext, deps: UploadRouteDeps) {
  void external.register(async (scope) => {
    await scope.register(multipart, {
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
          response: { 200: UploadResponse, ...errorResponses(400, 401, 413, 415, 500, 503) },
        },
      },
      async (request) => {
        const fromHeader = headerKey(request);
        let organization: Organization | null = fromHeader ? await ctx.keys.verify(fromHeader) : null;
        const raw = await readUploadParts(request);
        const fromField = raw.fields.get('api_key');
        if (fromHeader && fromField && fromField !== fromHeader) throw errors.conflictingApiKeys();
        organization ??= await ctx.keys.verify(fromField);
        request.organization = organization;
        const form = validateUploadForm(raw);
        checkSourceFile(raw.file);
        return uploadManuscript({ ctx, ...deps, log: request.log }, organization, form, raw.file);
      },
    );
  });
}
