// The upload's request form and response (spec 4.5, 2.3, 2.4, 2.7), as TypeBox schemas. The response
// schema is exact: the serializer emits only what it names, in this order.
import { Type, type Static } from 'typebox';
import { Nullable } from '../http/schemas.ts';

const Exists = Type.Object({ exists: Type.Boolean() });

export const Candidate = Type.Object(
  {
    name: Type.String({ description: 'full name' }),
    first_name: Type.String(),
    last_name: Type.String(),
    middle_name: Nullable(Type.String()),
    suffix: Nullable(Type.String({ description: 'e.g. jr, sr' })),
    author_id: Type.Integer({ description: 'author id in the service' }),
    email: Nullable(Type.String()),
    orcid: Nullable(Type.String()),
    affiliation: Nullable(Type.String({ description: 'most recent affiliation' })),
    articlesCount: Type.Integer({ description: 'articles published' }),
    citationsCount: Type.Integer({ description: "citations of the author's articles" }),
    hIndex: Type.Integer(),
    score: Type.Number({ description: 'relevance; higher is more relevant' }),
    url: Type.String({ description: "link to the author's profile" }),
    relevant_concepts: Type.Array(Type.String()),
    relevant_articles: Type.Array(
      Type.Object({
        id: Type.Integer(),
        title: Type.String(),
        year: Type.Integer(),
        url: Type.String(),
      }),
      { maxItems: 5 },
    ),
    authors_groups: Type.Array(Type.Object({ group_id: Type.Integer(), client_id: Nullable(Type.String()) })),
    marked: Type.Boolean(),
    marked_by: Nullable(Type.String()),
    coauth_conflicts: Exists,
    aff_conflicts: Exists,
    retracted_articles: Exists,
    referenced_articles: Exists,
    external_coi: Exists,
  },
  { description: 'Referee candidate (2.3)' },
);
export type Candidate = Static<typeof Candidate>;

export const AuthorsGroupsSettings = Type.Object(
  {
    authors_groups: Type.Array(
      Type.Object({ id: Type.Integer(), name: Type.String(), label: Nullable(Type.String()) }),
    ),
    effect: Type.Union([Type.Literal('highlight'), Type.Literal('limit_to'), Type.Literal('boost')]),
    boost_multiplier: Type.Optional(Type.Number({ description: 'only when effect is boost' })),
  },
  { description: 'Authors groups settings of the folder (2.4)' },
);
export type AuthorsGroupsSettings = Static<typeof AuthorsGroupsSettings>;

export const DebugInfo = Type.Object(
  {
    source_file: Nullable(Type.String()),
    parsed_text_len: Type.Integer(),
    parsed_references: Type.Integer(),
    extracted_concepts: Type.Integer(),
    authors_info: Type.Object({
      authors_count: Type.Integer(),
      emails_count: Type.Integer(),
      orcids_count: Type.Integer(),
    }),
  },
  { description: 'Debug info (2.7)' },
);
export type DebugInfo = Static<typeof DebugInfo>;

export const UploadResponse = Type.Object({
  version: Type.Integer({ description: 'response version' }),
  manuscript_id: Type.Integer(),
  origin_id: Type.String(),
  candidates: Nullable(Type.Array(Candidate)),
  authors_groups_settings: Nullable(AuthorsGroupsSettings),
  debug_info: DebugInfo,
});
export type UploadResponse = Static<typeof UploadResponse>;

const text = (description: string) => Type.String({ description });
const integerText = (description: string) => Type.String({ pattern: '^\\+?\\d+$', description });

/**
 * The form as the OpenAPI document shows it. Multipart fields all arrive as text; the handler checks
 * them (validateUploadForm) so that one 400 names every bad field, which is why the route does not
 * let Ajv validate against this schema.
 */
export const UploadForm = Type.Object(
  {
    api_key: Type.Optional(text('organization API key; the X-ApiKey header may be used instead')),
    folder: text('destination folder name; created if missing'),
    origin_id: text('client-side manuscript id, unique within the organization'),
    title: text('title'),
    abstract: text('abstract'),
    authors_count: integerText('total number of authors'),
    source_file: Type.Optional(
      Type.String({ contentMediaType: 'application/octet-stream', description: 'PDF or DOCX' }),
    ),
    exclude_candidates: Type.Optional(text('any non-empty value skips candidate calculation')),
    min_h_index: Type.Optional(integerText('lower bound on h-index')),
    max_h_index: Type.Optional(integerText('upper bound on h-index')),
    min_academic_age: Type.Optional(integerText('lower bound on academic age')),
    max_academic_age: Type.Optional(integerText('upper bound on academic age')),
    min_articles_count: Type.Optional(integerText('lower bound on articles published')),
    max_articles_count: Type.Optional(integerText('upper bound on articles published')),
  },
  {
    patternProperties: { '^author[1-9]\\d*_(name|aff|orcid|email)$': Type.String() },
    description: 'authorK_name, authorK_aff, authorK_orcid, authorK_email for K = 1..N',
  },
);
