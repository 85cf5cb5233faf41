// Request and response schemas of the author-from-group endpoints (spec 2.1, 4.1-4.4).
import { Type } from 'typebox';
import { NOT_BLANK, Nullable, RowId } from '../http/schemas.ts';
import { RECORD_LIMITS } from './store.ts';

export const Params = Type.Object({
  group_id: RowId({ description: 'Authors group id' }),
  client_id: Type.String({
    minLength: 1,
    maxLength: RECORD_LIMITS.clientId,
    description: 'Client-side id of the author inside the group (URL-encoded in the path)',
  }),
});

const StringList = Nullable(
  Type.Array(Type.String({ maxLength: RECORD_LIMITS.itemLength }), { maxItems: RECORD_LIMITS.items }),
);
// A name of spaces alone names nobody (the upload refuses a blank title the same way).
const Name = Type.String({ minLength: 1, maxLength: RECORD_LIMITS.name, pattern: NOT_BLANK });

/** The fields of 2.1 a body may carry, besides custom field keys. */
export const KNOWN_KEYS = ['name', 'emails', 'orcids', 'articles', 'affiliations', 'author'] as const;
export type ListKey = 'emails' | 'orcids' | 'articles' | 'affiliations';
export const LIST_KEYS: readonly ListKey[] = ['emails', 'orcids', 'articles', 'affiliations'];

const CUSTOM_KEYS_NOTE =
  'Any other key must be the api_id of a custom field of the author_from_group owner (see ' +
  '/api/external/custom-fields/all/); its value follows the field data_kind: number, str, date ' +
  '(YYYY-MM-DD), single_option (an option api_id) or multi_option (an array of distinct option ' +
  'api_ids). null clears a value.';

const bodyFields = {
  emails: Type.Optional(StringList),
  orcids: Type.Optional(StringList),
  articles: Type.Optional(StringList),
  affiliations: Type.Optional(StringList),
  author: Type.Optional(Type.Unknown({ description: 'Read-only; ignored when sent' })),
};

export const ReplaceBody = Type.Object(
  { name: Name, ...bodyFields },
  {
    additionalProperties: true,
    description: `Replaces the whole record: a field not supplied becomes null. ${CUSTOM_KEYS_NOTE}`,
  },
);

export const PartialBody = Type.Object(
  { name: Type.Optional(Name), ...bodyFields },
  {
    additionalProperties: true,
    description:
      'Changes only the supplied fields. `articles` may hold DOIs, titles, arXiv ids or PubMed ids. ' +
      CUSTOM_KEYS_NOTE,
  },
);

export const LastArticle = Type.Object({
  service_url: Type.String(),
  title: Type.String(),
  year: Type.Integer({ description: 'Publication year; 0 when the corpus has none' }),
});

export const LinkedAuthor = Type.Object({
  id: Type.Integer(),
  service_url: Type.String({ description: "Link to the author's profile" }),
  name: Type.String(),
  articles_count: Type.Integer(),
  h_index: Type.Integer(),
  last_articles: Type.Array(LastArticle, { description: 'The three newest articles' }),
});

const UUID_KEY = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

export const AuthorFromGroup = Type.Object(
  {
    name: Type.String(),
    emails: StringList,
    orcids: StringList,
    articles: StringList,
    affiliations: StringList,
    author: Nullable(LinkedAuthor),
  },
  {
    additionalProperties: false,
    patternProperties: { [UUID_KEY]: Type.Unknown({ description: 'Custom field value, by api_id' }) },
    description: 'An author from group (2.1); custom field values appear as keys named by their api_id.',
  },
);
