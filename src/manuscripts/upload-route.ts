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
import { floatFieldsWithFraction } from '../http/float-fields.ts';
import { errors } from '../infra/errors.ts';
import type { InFlightGate } from '../infra/in-flight-gate.ts';
import type { Organization } from '../organizations/organizations.ts';
import {
  API_KEY_FIELD,
  FORM_TEXT_CHARSET,
  formTextBytes,
  readUploadParts,
  validateUploadForm,
  type RawUpload,
  type UploadedFile,
  type UploadForm,
} from './upload-form.ts';
import { UploadForm as UploadFormSchema, UploadResponse as UploadResponseSchema } from './upload-schema.ts';
import type { UploadResponse } from './upload-schema.ts';
import { checkSourceFile, uploadManuscript, type UploadDeps } from './upload.ts';
import { findCandidates } from '../referee-finder/find-candidates.ts';
import { ParseShares, parsesPerOrganization } from './parse-shares.ts';

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

/**
 * What every upload goes through, whoever sends it (the API's form, the dashboard's): the process's
 * and the organization's places (UPLOADS_IN_FLIGHT*) and the organization's share of the parser
 * workers. One per app: the dashboard's uploads taking places of their own would let a process hold
 * twice its bound.
 */
export interface UploadLane {
  /** The process's and the organization's places (ctx.inFlight.uploads). */
  gate: InFlightGate;
  /** Parses, stores and ranks one upload with the organization's share of the parser. */
  upload(
    uploader: Organization,
    form: UploadForm,
    file: UploadedFile | null,
    call: Pick<UploadDeps, 'log' | 'countStored' | 'refuseUnreadFile'>,
  ): Promise<UploadResponse>;
}

const lanes = new WeakMap<AppContext, UploadLane>();

/** The app's one upload lane (made on first use). */
export function uploadLane(ctx: AppContext): UploadLane {
  let lane = lanes.get(ctx);
  if (!lane) {
    const parser = ctx.metrics.timedParser(ctx.parser);
    const finder = ctx.metrics.timedFinder(findCandidates);
    const gate = ctx.inFlight.uploads;
    const shares = new ParseShares(parsesPerOrganization(ctx.config.parsing.workers), (n) =>
      ctx.metrics.parsesWaitingForShare.set(n),
    );
    lane = {
      gate,
      upload: (uploader, form, file, call) =>
        uploadManuscript(
          { ctx, findCandidates: finder, parser: shares.forOrganization(uploader.id, parser), ...call },
          uploader,
          form,
          file,
        ),
    };
    lanes.set(ctx, lane);
  }
  return lane;
}

export function registerUploadRoute(external: FastifyInstance, ctx: AppContext) {
  const { gate, upload } = uploadLane(ctx);
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
        onSend: floatFieldsWithFraction,
        // The body schema documents the form; validateUploadForm checks it, in one pass.
        validatorCompiler: () => () => true,
        schema: {
          summary: 'Upload a manuscript and get referee candidates',
          tags: ['manuscripts'],
          consumes: ['multipart/form-data'],
          body: UploadFormSchema,
          response: { 200: UploadResponseSchema, ...errorResponses(400, 401, 409, 413, 415, 429, 500, 503) },
        },
      },
      async (request, reply) => {
        // Before the body is read: while the corpus loads, candidates would come from part of it.
        ctx.readiness.assertReady(reply);
        const fromHeader = headerKey(request);
        let organization: Organization | null = fromHeader
          ? await ctx.auth.authenticate(request, fromHeader)
          : null;
        // An upload takes its places (the process's, its organization's) once its key is known:
        // from the header, before the body is read; from the form's api_key field, as soon as it is
        // read, before the file. Taken before the key was known, uploads held open by callers with
        // no key at all filled the process's bound and every organization's upload was refused.
        let release = () => {};
        const admit = (uploader: Organization) => {
          release = gate.admit(uploader.id);
        };
        try {
          if (organization) admit(organization);
          let raw: RawUpload;
          try {
            raw = await readUploadParts(
              request,
              organization
                ? undefined
                : async (key) => {
                    organization = await ctx.auth.authenticate(request, key);
                    admit(organization);
                  },
            );
          } catch (error) {
            stopReading(request);
            throw error;
          }
          const fromField = raw.fields.get(API_KEY_FIELD);
          if (fromHeader && fromField && fromField !== fromHeader) throw errors.conflictingApiKeys();
          if (!organization) throw errors.missingApiKey();
          const uploader: Organization = organization;
          request.organization = uploader;
          // What an upload stores counts against the rate limits as a JSON body's bytes do: its text
          // fields here, before anything is parsed or stored; what is read from its file once read.
          const key = fromHeader ?? fromField;
          const countStored = (bytes: number) => ctx.auth.countBody(request, bytes, key);
          await countStored(formTextBytes(raw.fields));
          const form = validateUploadForm(raw);
          checkSourceFile(raw.file);
          return await upload(uploader, form, raw.file, { log: request.log, countStored });
        } finally {
          release();
        }
      },
    );
  });
}
