// Spec 4.7: the organization's custom fields, grouped by owner. Read-only here; the CLI changes them.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { answerCounter, tenantOf } from '../http/auth.ts';
import { EXTERNAL_ERRORS, Nullable, errorResponses } from '../http/schemas.ts';
import { listCustomFields } from './store.ts';
import { DATA_KINDS } from './kinds.ts';

const Option = Type.Object({ api_id: Type.String({ format: 'uuid' }), option: Type.String() });

export const CustomFieldSchema = Type.Object({
  api_id: Type.String({ format: 'uuid' }),
  data_kind: Type.Union(DATA_KINDS.map((k) => Type.Literal(k))),
  name: Type.String(),
  description: Nullable(Type.String()),
  options: Type.Optional(
    Type.Array(Option, { description: 'Present only for single_option and multi_option' }),
  ),
});

const CustomFieldsByOwner = Type.Object({
  author_from_group: Type.Array(CustomFieldSchema),
  folder: Type.Array(CustomFieldSchema),
  proposal: Type.Array(CustomFieldSchema),
});

export function registerCustomFieldRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.get(
    '/custom-fields/all/',
    {
      schema: {
        summary: 'List custom fields (4.7)',
        tags: ['custom fields'],
        response: { 200: CustomFieldsByOwner, ...errorResponses(...EXTERNAL_ERRORS) },
      },
      // The answer holds every option (up to 20,000 and 500,000 characters: 1.8 MB, ~0.19 s of
      // CPU): it counts by its size against the rate limits, as a JSON body does.
      onSend: answerCounter(ctx.auth),
    },
    async (request) => listCustomFields(ctx.db, tenantOf(request).id),
  );
}
