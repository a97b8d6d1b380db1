/**
 * The Postman collection v2.1 of the API (`payconform postman`, docs/postman.md), generated: one
 * request per catalogue row with a valid example body (sampleRequest), in an order that makes what
 * later requests need first (PREREQUISITES), each request's test script keeping the ids its answer
 * gives in collection variables; signing is the collection-level pre-request script
 * (postman-script.ts). The collection holds no credential: its variables are empty or placeholders.
 */
import {
  endpointByOperation,
  ENDPOINTS,
  FORM_TYPE,
  MEDIA_TYPE,
  PREREQUISITES,
  type Endpoint,
  type Operation,
  type Prerequisite,
} from '../catalogue/index.ts';
import { REQUEST_TABLES, sampleRequest } from '../schemas/index.ts';
import { formulaText } from '../signing/control.ts';
import type { Pair } from '../signing/form-body.ts';
import { postmanScript } from './postman-script.ts';

type Json = Record<string, unknown>;

export const COLLECTION_SCHEMA = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';

/** The variables a user sets (all empty or a placeholder here: never a credential). */
export const SETTINGS: ReadonlyArray<readonly [name: string, value: string, description: string]> = [
  [
    'baseUrl',
    'https://sandbox.gateway.example',
    'The service address, with any path prefix before /api/ (no trailing slash).',
  ],
  ['login', '', 'The merchant login (control formulas; OAuth consumer key).'],
  ['endpointId', '', 'Your endpointId (the last path segment of every request).'],
  [
    'controlKey',
    '',
    'The merchant control key: set it in an environment (current value), never in the collection. It is never sent.',
  ],
  ['oauthNonce', '', 'Optional: a fixed oauth_nonce (reproducing a signature); random per request when empty.'],
  ['oauthTimestamp', '', 'Optional: a fixed oauth_timestamp in seconds; now when empty.'],
  ['oauthRealm', '', 'Optional: a realm for the Authorization header (never signed).'],
];

/** A request's place in the run: a catalogue request, or a set-up made only for a later one. */
export interface PlannedRequest {
  readonly operation: Operation;
  /** Set-up requests exist only so that `forOperation` has something of its own to act on. */
  readonly setupFor?: Operation;
  /** Request fields that the prerequisite asks of this request (e.g. the 3-D Secure card). */
  readonly with: ReadonlyArray<readonly [string, string]>;
  /** The variable this request's answer id is kept in, when a later request uses it. */
  keeps?: { readonly variable: string; readonly answer: string };
  /** The prerequisite's field and the variable it is read from. */
  readonly uses?: { readonly field: string; readonly variable: string; readonly from: string; readonly answer: string };
  readonly why?: string;
}

/** An order move changes the order it acts on (capture, void, return, payout-pay, 3-D Secure results). */
const moves = (operation: Operation): boolean => endpointByOperation(operation).mockBehaviour === 'move';

const keyOf = (p: Prerequisite): string => `${p.operation}${JSON.stringify(p.with ?? [])}`;

/**
 * The run order. Requests acting on nothing earlier first, then those that only read an earlier
 * result, then those that move an order on; a prerequisite always before its user. Readers share
 * the catalogue request that made their prerequisite; the first move of it takes it over; every
 * further move (void after return of the same sale) and every prerequisite with fields of its own
 * (a sale with the 3-D Secure card) gets a set-up request of its own, just before it.
 */
export function runPlan(): PlannedRequest[] {
  const plan: PlannedRequest[] = [];
  const emitted = new Set<Operation>();
  /** Sources by prerequisite key: the request that made it, and whether a move took it over. */
  const sources = new Map<string, { request: PlannedRequest; moved: boolean }>();

  const variableOf = (p: Prerequisite, request: PlannedRequest): string =>
    `${p.field}_${request.operation}${request.setupFor ? `_for_${request.setupFor}` : ''}`;

  function source(p: Prerequisite, user: Operation): { request: PlannedRequest; moved: boolean } {
    const key = keyOf(p);
    const known = sources.get(key);
    if (known && !(moves(user) && known.moved)) return known;
    const earlierMove = known?.moved
      ? plan.find((r) => r.uses?.variable === variableOf(p, known.request) && moves(r.operation))?.operation
      : undefined;
    const why = p.with
      ? `Set-up for ${user}: a ${p.operation} with ${p.with.map(([n]) => n).join(', ')} of its own (${user} acts ` +
        `on an order in that state).`
      : `Set-up for ${user}: a ${p.operation} of its own, because ${earlierMove ?? 'an earlier request'} already ` +
        `moved the first one on and the gateway may refuse a second move of the same order.`;
    const setup = planned(p.operation, p.with ?? [], user, why);
    const made = { request: setup, moved: false };
    sources.set(key, made);
    return made;
  }

  function planned(
    operation: Operation,
    withFields: ReadonlyArray<readonly [string, string]>,
    setupFor?: Operation,
    why?: string,
  ): PlannedRequest {
    const p = PREREQUISITES[operation];
    let uses: PlannedRequest['uses'];
    if (p !== null) {
      if (!p.with) emit(p.operation);
      const from = source(p, operation);
      if (moves(operation)) from.moved = true;
      const variable = variableOf(p, from.request);
      from.request.keeps = { variable, answer: p.answer };
      uses = { field: p.field, variable, from: p.operation, answer: p.answer };
    }
    const request: PlannedRequest = {
      operation,
      with: withFields,
      ...(setupFor ? { setupFor } : {}),
      ...(uses ? { uses } : {}),
      ...(why ? { why } : {}),
    };
    plan.push(request);
    if (!setupFor) sources.set(`${operation}[]`, { request, moved: false });
    return request;
  }

  function emit(operation: Operation): void {
    if (emitted.has(operation)) return;
    emitted.add(operation);
    planned(operation, []);
  }

  const rank = (e: Endpoint): number => (PREREQUISITES[e.operation] === null ? 0 : moves(e.operation) ? 2 : 1);
  for (const e of [...ENDPOINTS].sort((a, b) => rank(a) - rank(b))) emit(e.operation);
  return plan;
}

/** A client order id: unique per run where the script signs, fixed where a person signs (RSA). */
function orderIdFor(request: PlannedRequest, endpoint: Endpoint): string {
  if (endpoint.auth.kind === 'oauth-rsa-sha256') return `PM-${request.operation}-1`;
  return `PM-{{$timestamp}}-{{$randomInt}}`;
}

function bodyOf(request: PlannedRequest, endpoint: Endpoint): Pair[] {
  const overrides: Pair[] = [...request.with];
  if (request.uses) overrides.push([request.uses.field, `{{${request.uses.variable}}}`]);
  const pairs = sampleRequest(endpoint, overrides).map(([name, value]): Pair => {
    if (name === 'client_orderid' || name === 'client-order-id') return [name, orderIdFor(request, endpoint)];
    if (name === 'login') return [name, '{{login}}'];
    return [name, value];
  });
  if (endpoint.auth.kind === 'control') pairs.push(['control', '']);
  return pairs;
}

/** A body field's description from its table row: what it is, how it is needed, the page it was read from. */
function fieldDescription(endpoint: Endpoint, name: string): { description?: string } {
  const row = REQUEST_TABLES.get(endpoint.checkedRequestSchema)?.fields.find((f) => f.name === name);
  if (row === undefined) return {};
  const necessity = row.condition === undefined ? row.necessity : `${row.necessity}: ${row.condition}`;
  return { description: `${row.description} (${necessity}; ${row.source.page})` };
}

function describe(request: PlannedRequest, endpoint: Endpoint): string {
  const lines = [
    `**${endpoint.operation}**: POST ${endpoint.path} (${endpoint.requestSchema ?? endpoint.checkedRequestSchema} ` +
      `→ ${endpoint.responseSchema ?? 'answer not shown by the spec'}).`,
  ];
  if (request.why) lines.push('', request.why);
  if (request.uses)
    lines.push(
      '',
      `\`${request.uses.field}\` is the \`${request.uses.answer}\` of ` +
        `the ${request.uses.from} answer, kept in \`{{${request.uses.variable}}}\`.`,
    );
  const auth = endpoint.auth;
  lines.push('');
  if (auth.kind === 'control')
    lines.push(
      `Signed by the collection's pre-request script: \`control = ${formulaText(auth.fields)}\` (the \`control\` ` +
        `field is filled in before sending).`,
    );
  if (auth.kind === 'control' && auth.fromPublicPage !== undefined)
    lines.push(
      '',
      `The spec states no authentication for it; the formula is the family's public ` +
        `page's: ${auth.fromPublicPage} (A-12).`,
    );
  else if (auth.kind === 'oauth-hmac-sha1')
    lines.push(
      "Signed by the collection's pre-request script: OAuth 1.0a HMAC-SHA1 Authorization header (RFC 5849; body " +
        'parameters in the base string, key `controlKey&`).',
    );
  else if (auth.kind === 'unstated')
    lines.push('The spec states no signature scheme for this operation: sent unsigned.');
  else {
    const params = bodyOf(request, endpoint)
      .map(([n, v]) => `--param '${n}=${v.replace(/^\{\{(.*)\}\}$/, '<value of $1>')}'`)
      .join(' \\\n    ');
    lines.push(
      "OAuth 1.0a **RSA-SHA256**: Postman's sandbox cannot sign with an RSA private key, so an automated run " +
        '(newman) skips this request. To send it, make the header with payconform and paste it:',
      '',
      '```',
      `payconform sign --url "<baseUrl>${endpoint.path.replace('{endpointId}', '<endpointId>')}" \\\n   ` +
        ` ${params} \\\n    --login <login> --private-key-file merchant.pem --json | jq -r .authorization`,
      '```',
      '',
      'then enable the disabled `Authorization` header of this request and paste the value (the body must be ' +
        'exactly the parameters signed; the timestamp is only valid for a few minutes).',
    );
  }
  return lines.join('\n');
}

function testScript(request: PlannedRequest): string[] {
  // Each test names its basis: the spec's (a valid request answers 200) or an assumption's id.
  const lines = [
    `pm.test('${request.operation} answers 200 (spec: Endpoints, 200 for a valid request)', function () {`,
    '  pm.response.to.have.status(200);',
    '});',
  ];
  if (request.keeps) {
    const { variable, answer } = request.keeps;
    lines.push(
      `// Keeps ${answer} for the requests that act on it.`,
      'var answer = pm.response.json();',
      `var id = answer['${answer}'];`,
      `pm.test('${request.operation} gives ${answer} (assumption A-17: the spec shows no answer fields; rename it ` +
        `for your gateway)', function () {`,
      "  pm.expect(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)), 'an " +
        "id').to.equal(true);",
      '});',
      `pm.collectionVariables.set('${variable}', String(id));`,
    );
  }
  return lines;
}

function itemOf(request: PlannedRequest): Json {
  const endpoint = endpointByOperation(request.operation);
  const path = endpoint.path.replace('/{endpointId}', '').split('/').filter(Boolean);
  const headers: Json[] = [
    { key: 'Accept', value: MEDIA_TYPE },
    { key: 'Content-Type', value: FORM_TYPE },
  ];
  if (endpoint.auth.kind === 'oauth-rsa-sha256')
    headers.push({
      key: 'Authorization',
      value: 'OAuth … (paste what payconform sign prints, then enable this header)',
      disabled: true,
    });
  return {
    name: request.setupFor ? `${request.operation} (set-up for ${request.setupFor})` : request.operation,
    event: [{ listen: 'test', script: { type: 'text/javascript', exec: testScript(request) } }],
    request: {
      method: 'POST',
      header: headers,
      body: {
        mode: 'urlencoded',
        urlencoded: bodyOf(request, endpoint).map(([key, value]) => ({
          key,
          value,
          type: 'text',
          ...fieldDescription(endpoint, key),
        })),
      },
      url: {
        raw: `{{baseUrl}}/${path.join('/')}/{{endpointId}}`,
        host: ['{{baseUrl}}'],
        path: [...path, '{{endpointId}}'],
      },
      description: describe(request, endpoint),
    },
  };
}

export function postmanCollection(): Json {
  const plan = runPlan();
  return {
    info: {
      name: 'payconform: card-processing server-to-server API',
      description: [
        'Every endpoint of the API, generated by `payconform postman` from its endpoint catalogue, in an order ' +
          'that creates what later requests need. docs/postman.md says how to run it.',
        '',
        'Set `baseUrl`, `login` and `endpointId`, and `controlKey` in an environment (never in this collection). ' +
          "The collection's pre-request script computes each request's `control` field or OAuth 1.0a HMAC-SHA1 " +
          "header itself (do not use Postman's OAuth 1.0 helper); RSA-SHA256 requests (/api/v4/) are skipped " +
          'unless you paste a header made by `payconform sign`.',
      ].join('\n'),
      schema: COLLECTION_SCHEMA,
    },
    auth: { type: 'noauth' },
    event: [{ listen: 'prerequest', script: { type: 'text/javascript', exec: postmanScript().split('\n') } }],
    variable: [
      ...SETTINGS.map(([key, value, description]) => ({ key, value, type: 'string', description })),
      ...plan.flatMap(({ keeps, operation }) =>
        keeps
          ? [
              {
                key: keeps.variable,
                value: '',
                type: 'string',
                description: `The ${keeps.answer} of the ${operation} answer (set by its test script).`,
              },
            ]
          : [],
      ),
    ],
    item: plan.map(itemOf),
  };
}

export function postmanText(): string {
  return `${JSON.stringify(postmanCollection(), null, 2)}\n`;
}
