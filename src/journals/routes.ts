// Spec 4.6: GET /api/external/recommend-journals/{origin_id}/ (needs the recommend_journals feature).
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { tenantOf } from '../http/auth.ts';
import { EXTERNAL_ERRORS, Nullable, errorResponses } from '../http/schemas.ts';
import { floatFieldsWithFraction } from '../http/float-fields.ts';
import { requireFeature } from '../organizations/api-keys.ts';
import { DEFAULT_JOURNALS, JOURNALS_CORPORA, recommendJournals } from './recommend.ts';

const Params = Type.Object({
  origin_id: Type.String({
    minLength: 1,
    maxLength: 256,
    description: 'Client-side id of an uploaded manuscript',
  }),
});

const Query = Type.Object({
  journals_corpus: Type.Optional(
    Type.Union(
      JOURNALS_CORPORA.map((c) => Type.Literal(c)),
      {
        description:
          'all_journals (default): every source of the corpus, journals and conference proceedings; ' +
          "org_journals: only journals linked to the organization's folders (empty when none are linked)",
      },
    ),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 100,
      description: `How many journals (default ${DEFAULT_JOURNALS})`,
    }),
  ),
});

const RelevantArticle = Type.Object({ id: Type.Integer(), title: Type.String(), year: Type.Integer() });

const RecommendedJournal = Type.Object({
  id: Type.Integer({ description: 'Journal (source) id in the service' }),
  title: Type.String(),
  score: Type.Number({ description: 'Relevance; higher is more relevant' }),
  publisher_name: Nullable(Type.String()),
  folder_id: Nullable(Type.Integer({ description: 'Folder of this organization linked to the journal' })),
  folder_name: Nullable(Type.String()),
  relevant_articles: Type.Array(RelevantArticle, {
    maxItems: 10,
    description: 'Up to 10 articles of the journal, most relevant first',
  }),
});

const Response = Type.Object({ recommended_journals: Type.Array(RecommendedJournal) });

export function registerJournalRoutes(scope: FastifyInstance, ctx: AppContext): void {
  scope.get<{
    Params: { origin_id: string };
    Querystring: { journals_corpus?: (typeof JOURNALS_CORPORA)[number]; limit?: number };
  }>(
    '/recommend-journals/:origin_id/',
    {
      onSend: floatFieldsWithFraction,
      schema: {
        summary: 'Recommend journals for an uploaded manuscript (4.6)',
        tags: ['journals'],
        params: Params,
        querystring: Query,
        response: { 200: Response, ...errorResponses(...EXTERNAL_ERRORS, 503) },
      },
    },
    async (request, reply) => {
      const organization = tenantOf(request);
      requireFeature(organization, 'recommend_journals');
      ctx.readiness.assertReady(reply);
      const recommended = await recommendJournals(
        ctx,
        organization.id,
        // The upload stores origin_id without surrounding white space: the id a client sent there
        // must find its manuscript here too.
        request.params.origin_id.trim(),
        request.query.journals_corpus ?? 'all_journals',
        request.query.limit ?? DEFAULT_JOURNALS,
      );
      return { recommended_journals: recommended };
    },
  );
}
