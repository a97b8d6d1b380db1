/**
 * The OpenAPI 3.1 document of the API (`payconform openapi`, docs/openapi.md), generated: the paths
 * and operations from the endpoint catalogue, the request schemas from the field tables (REQUEST_TABLES),
 * the answers from RESPONSE_SCHEMAS, the control formulas from the rows. Nothing here lists an
 * endpoint, a field or a formula; what OpenAPI cannot say (the control, OAuth 1.0a) goes into
 * `x-payconform-*` extensions and the prose, and every assumption is marked with its id
 * (`x-payconform-assumptions`, docs/assumptions.md) so a reader can tell the spec from ours.
 */
import {
  ENDPOINTS,
  FORM_TYPE,
  MEDIA_TYPE,
  OP,
  type Endpoint,
  type FeatureArea,
  type Operation,
} from '../catalogue/index.ts';
import { packageVersion } from '../package-root.ts';
import type { FieldRow } from '../catalogue/fields/types.ts';
import { FIELDS, REQUEST_TABLES, REQUIRED_FIELDS } from '../schemas/requests.ts';
import { RESPONSE_SCHEMAS } from '../schemas/responses.ts';
import {
  authProse,
  CONTROL_SCHEMA,
  controlExtension,
  OAUTH_SCHEMES,
  oauthExtension,
  securitySchemes,
  signatureMethodOf,
} from './openapi-auth.ts';

type Json = Record<string, unknown>;

/** The interface description's version label (api-spec.md "Versioning"). */
const SPEC_VERSION_LABEL = 'dev';

const ref = (kind: 'schemas' | 'parameters' | 'responses', name: string): Json => ({
  $ref: `#/components/${kind}/${name}`,
});

const TAGS: Readonly<Record<FeatureArea, string>> = {
  payments: 'Card payments and the moves of an order: sale, preauth, capture, void, return, account verification',
  forms: 'Hosted checkout forms: each answers AsyncCheckoutFormRedirect',
  cards: 'Card references, card information and rebills',
  recurring: 'Recurring payments (v4)',
  payouts: 'Payouts (v2 HMAC-SHA1, v4 RSA-SHA256)',
  threeds: 'Results of 3-D Secure steps',
  status: 'The status of an order',
  transfers: "Endpoints named only in the spec's signing examples (A-4)",
};

/** Assumptions behind a row itself (its facts beyond the spec's table), by id. */
function rowAssumptions(endpoint: Endpoint): string[] {
  const ids: string[] = [];
  if (endpoint.endpointGroup.accepted) ids.push('A-3');
  if (endpoint.source === 'signing-example') ids.push('A-4');
  // The spec lists transfer-by-ref without a scheme; the catalogue takes "all /api/v4/".
  if (endpoint.operation === OP.TRANSFER_BY_REF_V4) ids.push('A-5');
  if (
    endpoint.auth.kind === 'unstated' ||
    (endpoint.auth.kind === 'control' && endpoint.auth.fromPublicPage !== undefined)
  )
    ids.push('A-12', 'A-24');
  ids.push('A-25');
  return ids;
}

/**
 * The path stem without the `/api/<version>/` head and the `{endpointId}` tail: `sale-form`, `pan-eligibility/send`.
 */
const stemOf = (endpoint: Endpoint): string =>
  endpoint.path.slice(`/api/${endpoint.version}/`.length, -'/{endpointId}'.length);

function operationOf(endpoint: Endpoint, groupUrl: boolean): Json {
  const op: Operation = endpoint.operation;
  const schema = endpoint.checkedRequestSchema;
  const method = signatureMethodOf(endpoint);
  const control = controlExtension(endpoint, groupUrl);
  const lines = [
    groupUrl
      ? `${op} at the endpoint-group URL …/group/{groupId} (A-3: the family's public page lists ` +
        `it, ${endpoint.endpointGroup.page}): the same operation as POST ${endpoint.path}, with an endpoint ` +
        `group id.`
      : `${op} (${
          endpoint.source === 'table'
            ? "a row of api-spec.md's endpoint table"
            : "named only in api-spec.md's signing " + 'examples; the operation name is ours, A-4'
        }).`,
    `Request: ${schema}${
      endpoint.requestSchema === null
        ? ' (the spec shows no request schema; name and fields ' + 'are ours, A-25)'
        : ' (its fields are ours: the spec ' + 'shows none, A-25)'
    }, ${FORM_TYPE}.`,
    `Answer: ${endpoint.responseSchema ?? 'not shown by the spec'} (${MEDIA_TYPE}).`,
    authProse(endpoint, groupUrl),
  ];
  return {
    operationId: groupUrl ? `${op}_BY_GROUP` : op,
    summary:
      `${stemOf(endpoint)} (${endpoint.version})${groupUrl ? ' by endpoint group' : ''}: ${schema} ` +
      `→ ${endpoint.responseSchema ?? 'not shown'}`,
    description: lines.join('\n\n'),
    tags: [endpoint.featureArea],
    parameters: [
      ref('parameters', groupUrl ? 'GroupId' : endpoint.endpointGroup.accepted ? 'EndpointIdOrGroupId' : 'EndpointId'),
      ref('parameters', 'Accept'),
    ],
    requestBody: { required: true, content: { [FORM_TYPE]: { schema: ref('schemas', schema) } } },
    responses: {
      200: {
        description:
          endpoint.responseSchema === null
            ? 'Accepted. The spec shows no answer body for this operation ("not shown").'
            : `Accepted: ${endpoint.responseSchema}.`,
        content: {
          [MEDIA_TYPE]: {
            schema:
              endpoint.responseSchema === null
                ? { description: 'not shown by api-spec.md' }
                : ref('schemas', endpoint.responseSchema),
          },
        },
      },
      400: ref('responses', 'ValidationError'),
      ...(method === undefined ? {} : { 403: ref('responses', 'OAuthRefused') }),
      500: ref('responses', 'ServerError'),
    },
    security: method === undefined ? [] : [{ [OAUTH_SCHEMES[method]]: [] }],
    'x-payconform-operation': op,
    'x-payconform-auth': endpoint.auth.kind,
    ...(control ? { 'x-payconform-control': control } : {}),
    ...(groupUrl ? { 'x-payconform-url-form': 'group' } : {}),
    'x-payconform-source': endpoint.source,
    'x-payconform-assumptions': groupUrl
      ? [...new Set(['A-3', ...rowAssumptions(endpoint)])]
      : rowAssumptions(endpoint),
  };
}

/** A field of a request schema: its rule, its row's necessity and the page it was read from. */
function fieldProperty(schema: string, row: FieldRow): Json {
  const rule = FIELDS[row.name];
  if (rule === undefined) throw new Error(`openapi: field ${row.name} of ${schema} has no rule in FIELDS`);
  const necessity = row.condition === undefined ? row.necessity : `${row.necessity} (${row.condition})`;
  const signed = row.inControl ? ' Enters the control formula.' : '';
  return {
    ...rule,
    description: `${row.description} Necessity: ${necessity}.${signed} Source: ${row.source.page}`,
    'x-payconform-source': row.source,
  };
}

/** A request schema: every field of its table (mandatory or not, each with its page), and the control where signed. */
function requestSchema(endpoint: Endpoint): Json {
  const name = endpoint.checkedRequestSchema;
  const required = REQUIRED_FIELDS[name];
  const table = REQUEST_TABLES.get(name);
  if (required === undefined || table === undefined)
    throw new Error(`openapi: ${endpoint.operation}'s request schema ${name} has no field table`);
  const properties: Json = Object.fromEntries(table.fields.map((row) => [row.name, fieldProperty(name, row)]));
  const signed = endpoint.auth.kind === 'control';
  if (signed) properties.control = ref('schemas', 'Control');
  const named =
    endpoint.requestSchema === null
      ? `The spec shows no request schema for ${endpoint.operation}: the name is ours (A-25).`
      : 'Named by api-spec.md, which shows no fields.';
  const needs: Record<string, string[]> = {};
  for (const f of table.fields) if (f.requiredWith !== undefined) (needs[f.requiredWith] ??= []).push(f.name);
  return {
    type: 'object',
    description:
      `${named} The fields are those of the API family's public page (${table.page}), each citing its own; ` +
      'docs/fields.md shows them all. Every value is a string, judged with its outer whitespace omitted where the ' +
      'signature does not cover it; an optional field sent empty counts as not sent; other fields are ignored (A-36).',
    required: signed ? [...required, 'control'] : [...required],
    properties,
    ...(Object.keys(needs).length === 0 ? {} : { dependentRequired: needs }),
    'x-payconform-assumptions': ['A-25', 'A-36'],
  };
}

/** The answer schemas: payconform's field lists, closed to unknown fields. */
function responseSchemas(): Json {
  return Object.fromEntries(
    Object.entries(RESPONSE_SCHEMAS).map(([name, schema]) => [
      name,
      {
        ...schema,
        description:
          `${name}, named by api-spec.md; the spec shows no fields. The fields are the API family's ` +
          `public response keys (A-17), and no other is expected (A-18).`,
        'x-payconform-assumptions': ['A-17', 'A-18'],
      },
    ]),
  );
}

function parameters(): Json {
  const id = (name: string, description: string, assumptions: string[]): Json => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'integer', format: 'int64', minimum: 1 },
    'x-payconform-assumptions': assumptions,
  });
  return {
    EndpointId: id(
      'endpointId',
      'The endpoint identifier (integer, int64). payconform takes a positive id in decimal (A-8).',
      ['A-8'],
    ),
    EndpointIdOrGroupId: id(
      'endpointId',
      'The endpoint identifier (integer, int64); api-spec.md: "on some operations an endpoint group identifier is ' +
        'also accepted". ' +
        ('This is one of them (A-3: the operations whose public page lists an endpoint-group URL): an endpoint ' +
          'group id may stand here, and it then ') +
        ("takes the endpointId's place in the formula where the formula names endpointId. The URL form " +
          '…/group/{groupId} is the operation …_BY_GROUP. ') +
        'payconform takes a positive id in decimal (A-8).',
      ['A-3', 'A-8'],
    ),
    GroupId: id(
      'groupId',
      "An endpoint group identifier (integer, int64), in the vendor library's URL form " +
        '…/{operation}/group/{groupId}; ' +
        ("there the id must be a group id, and it takes the endpointId's place in a control formula that names " +
          'endpointId (A-3).'),
      ['A-3', 'A-8'],
    ),
    Accept: {
      name: 'Accept',
      in: 'header',
      required: true,
      description:
        `Required on every request: the client must ask for ${MEDIA_TYPE} explicitly. (OpenAPI tells tools to ` +
        `ignore a header parameter ` +
        `named Accept; the answers' media type, ${MEDIA_TYPE} only, says the same to them.)`,
      schema: { type: 'string', const: MEDIA_TYPE },
    },
  };
}

function responses(): Json {
  const error = (label: string, schema: string): Json => ({
    description: `${label} (${schema}).`,
    content: { [MEDIA_TYPE]: { schema: ref('schemas', schema) } },
  });
  // The spec's labels (api-spec.md "Errors").
  return {
    ValidationError: error('Validation error', 'ValidationErrorResponse'),
    // Not the spec's: the family's public gateways answer a failed OAuth check 403 Forbidden, and so does the
    // mock.
    OAuthRefused: {
      ...error(
        'OAuth check failed: header, consumer key, timestamp, nonce or signature (assumption A-21; the spec shows ' +
          'no status for it)',
        'ValidationErrorResponse',
      ),
      'x-payconform-assumptions': ['A-21'],
    },
    ServerError: error('Server error', 'ServerErrorResponse'),
  };
}

const DESCRIPTION = [
  `The card-processing server-to-server API of api-spec.md (interface version label \`${SPEC_VERSION_LABEL}\`), ` +
    `generated by payconform ${'{version}'} from its endpoint catalogue. ` +
    (`Every endpoint is a POST of an ${FORM_TYPE} body with the header Accept: ${MEDIA_TYPE}, answering 200, 400 ` +
      `(ValidationErrorResponse) or 500 (ServerErrorResponse) as ${MEDIA_TYPE}.`),
  'Spec and assumption: the spec names the request and answer schemas but shows none of their fields. The field ' +
    "lists here are payconform's " +
    ("assumptions, each marked with x-payconform-assumptions and the id of its entry in payconform's " +
      "docs/assumptions.md; what carries no mark is the spec's."),
  'Authentication, which OpenAPI cannot express: most v2 operations and the 3-D Secure uploads sign with a ' +
    '`control` form field, SHA-1 of the ' +
    ("operation's formula fields with the merchant control key last (each operation's x-payconform-control); the " +
      'v2 payout and pan-eligibility ') +
    ('use OAuth 1.0a with HMAC-SHA1, every /api/v4/ endpoint OAuth 1.0a with RSA-SHA256 (x-payconform-oauth1, and ' +
      'the security schemes, whose ') +
    ("http scheme OAuth is RFC 5849's). No client generator, mock server or fuzzer computes either: `payconform " +
      'sign` does, and the Postman ') +
    'collection signs in its pre-request script.',
  'Endpoint groups: on the operations whose public page lists an endpoint-group URL an endpoint group id may ' +
    "stand in the endpointId's place, " +
    ('and the URL form …/group/{groupId} is listed as its own operation, OPERATION_BY_GROUP (A-3, each naming its ' +
      'page).'),
].join('\n\n');

/** The OpenAPI 3.1 document as a plain object. */
export function openApiDocument(): Json {
  const version = packageVersion();
  const schemas: Json = { Control: CONTROL_SCHEMA };
  const paths: Json = {};
  for (const endpoint of ENDPOINTS) {
    if (Object.hasOwn(schemas, endpoint.checkedRequestSchema))
      throw new Error(`openapi: request schema ${endpoint.checkedRequestSchema} serves two rows`);
    schemas[endpoint.checkedRequestSchema] = requestSchema(endpoint);
    paths[endpoint.path] = { post: operationOf(endpoint, false) };
  }
  for (const endpoint of ENDPOINTS.filter((e) => e.endpointGroup.accepted)) {
    paths[endpoint.path.replace('{endpointId}', 'group/{groupId}')] = { post: operationOf(endpoint, true) };
  }
  Object.assign(schemas, responseSchemas());
  const areas = [...new Set(ENDPOINTS.map((e) => e.featureArea))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Card Processing Server-to-Server API',
      summary: `api-spec.md (version label ${SPEC_VERSION_LABEL}) as OpenAPI 3.1, generated by payconform`,
      version,
      description: DESCRIPTION.replace('{version}', version),
      'x-payconform-spec-version': SPEC_VERSION_LABEL,
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The gateway: {base_url} as api-spec.md uses it, with any path prefix that precedes /api/.',
        variables: {
          base_url: {
            default: 'http://127.0.0.1:8080',
            description:
              'for example `payconform mock --port 8080` (the embedded mock), or the sandbox with its prefix',
          },
        },
      },
    ],
    tags: areas.map((name) => ({ name, description: TAGS[name] })),
    paths,
    components: { schemas, parameters: parameters(), responses: responses(), securitySchemes: securitySchemes() },
    'x-payconform-oauth1': oauthExtension(),
  };
}

/** The document as `payconform openapi` prints and docs/openapi.json holds it. */
export function openApiText(): string {
  return `${JSON.stringify(openApiDocument(), null, 2)}\n`;
}
