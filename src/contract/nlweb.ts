import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MAX_QUERY_LENGTH, StringEnum } from './schemas.js';

/** NLWeb 0.55 shapes (spec 2.6 and 4.3-4.4), published in /openapi.json from these objects. */

export const NLWEB_VERSION = '0.55';

export const NlWebMetaSchema = Type.Object(
  {
    response_type: StringEnum(['Answer', 'Elicitation'] as const, {
      description:
        '`Answer` for a search result (also when nothing matched); `Elicitation` when the caller must supply ' +
        'something first (an empty query, or one with nothing searchable in it).',
    }),
    version: Type.Literal(NLWEB_VERSION),
    conversation_id: Type.Optional(Type.String({ description: 'Echoed from the request when given.' })),
    request_id: Type.Optional(Type.String({ description: 'Unique id of this answer, for support.' })),
  },
  { additionalProperties: true, title: 'NlWebMeta' },
);

export const NlWebTextItemSchema = Type.Object(
  { type: Type.Literal('text'), text: Type.String() },
  { additionalProperties: false, title: 'NlWebTextItem' },
);

export const NlWebResourceItemSchema = Type.Object(
  {
    type: Type.Literal('resource'),
    resource: Type.Object(
      {
        data: Type.Union([
          Type.Object({}, { additionalProperties: true }),
          Type.Array(Type.Object({}, { additionalProperties: true })),
        ]),
        uri: Type.Optional(Type.String({ format: 'uri' })),
        mimeType: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true, title: 'NlWebResourceItem' },
);

export const NlWebContentItemSchema = Type.Union([NlWebTextItemSchema, NlWebResourceItemSchema]);

export const NlWebResponseSchema = Type.Object(
  {
    _meta: NlWebMetaSchema,
    content: Type.Array(NlWebContentItemSchema, { minItems: 1 }),
  },
  { additionalProperties: false, title: 'NlWebResponse' },
);
export type NlWebResponse = Static<typeof NlWebResponseSchema>;
export type NlWebContentItem = Static<typeof NlWebContentItemSchema>;

export const AskPostBodySchema = Type.Object(
  {
    query: Type.Object(
      {
        text: Type.String({ maxLength: MAX_QUERY_LENGTH, description: 'Natural-language question.' }),
        site: Type.Optional(
          Type.Union([Type.String(), Type.Array(Type.String())], {
            description:
              'Optional site scope (a string in NLWeb 0.55, an array in 0.5.x; both accepted). The public ' +
              'endpoint always searches this service’s own site.',
          }),
        ),
      },
      { additionalProperties: true, description: 'Extra properties (schema.org-style filters) are allowed.' },
    ),
    context: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Conversational context from the caller.' }),
    ),
    prefer: Type.Optional(
      Type.Object(
        {
          streaming: Type.Optional(Type.Boolean({ description: 'True returns Server-Sent Events.' })),
          mode: Type.Optional(StringEnum(['list'] as const, { description: 'Grounded list retrieval.' })),
        },
        { additionalProperties: true },
      ),
    ),
    meta: Type.Optional(
      Type.Object(
        {},
        { additionalProperties: true, description: 'Request, conversation and protocol metadata.' },
      ),
    ),
  },
  { additionalProperties: false, title: 'AskRequest' },
);
export type AskPostBody = Static<typeof AskPostBodySchema>;

export const NLWEB_COMPONENTS: Record<string, TSchema> = {
  NlWebResponse: NlWebResponseSchema,
  AskRequest: AskPostBodySchema,
};
