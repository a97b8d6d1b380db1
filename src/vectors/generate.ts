/**
 * `vectors generate`: a deterministic vector file covering every catalogue endpoint whose scheme is
 * known (three vectors each) plus the edge cases canonicalisation gets wrong. Same seed and keys,
 * same bytes: nonces and timestamps come from the seed, never from the clock. Each vector draws its
 * data from a stream of its own, keyed by the seed and its id, so a new catalogue row adds vectors
 * and changes none of the others.
 */
import { createHash } from 'node:crypto';
import {
  CALLBACK_STATUSES,
  endpointByOperation,
  ENDPOINTS,
  OP,
  type ControlField,
  type Endpoint,
  type Operation,
} from '../catalogue/index.ts';
import { present } from '../present.ts';
import { CONTROL_KEY_PLACEHOLDER } from '../signing/control.ts';
import type { Pair } from '../signing/form-body.ts';
import { computeExpected } from './compute.ts';
import { VECTOR_FORMAT, type Vector, type VectorFile, type VectorScheme } from './types.ts';
import { seededRandom } from '../seeded-random.ts';

/** Test-only credentials, public on purpose (vectors/keys/README.md). */
export const TEST_LOGIN = 'payconform-test-merchant';
export const TEST_CONTROL_KEY = 'TEST-ONLY-control-key-0f6b2c';
export const DEFAULT_SEED = 20261122;
const BASE_URL = 'https://sandbox.gateway.example/paynet';

/** The stream of one vector: the seed and the vector id, hashed into mulberry32's 32-bit state. */
function streamFor(seed: number, id: string): () => number {
  return seededRandom(createHash('sha256').update(`${seed}/${id}`).digest().readUInt32BE(0));
}

class Data {
  constructor(private readonly next: () => number) {}
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  pick<T>(items: readonly T[]): T {
    return present(items[this.int(items.length)], 'the item drawn');
  }
  digits(n: number): string {
    return Array.from({ length: n }, (_, i) => String(i === 0 ? 1 + this.int(9) : this.int(10))).join('');
  }
  hex(n: number): string {
    return Array.from({ length: n }, () => this.int(16).toString(16)).join('');
  }
  amount(): string {
    const whole = String(this.int(5000));
    return this.pick([whole, `${whole}.${this.int(10)}`, `${whole}.${this.digits(2)}`]);
  }
}

/** Values for a formula or payload field, by name (field names of the API family's public docs). */
function fieldValue(name: string, d: Data): string {
  switch (name) {
    case 'client_orderid':
    case 'client-order-id':
      return `ORD-${d.digits(6)}`;
    case 'orderid':
      return d.digits(8);
    case 'cardrefid':
      return d.digits(7);
    case 'amount':
      return d.amount();
    case 'currency':
      return d.pick(['EUR', 'USD', 'GBP']);
    case 'email':
      return d.pick(['jane.doe@example.com', 'j+test@example.org', "o'brien@example.net"]);
    case 'ipaddress':
      return `192.0.2.${1 + d.int(250)}`;
    case 'redirect_url':
      return 'https://merchant.example/return?o=1&s=ok';
    case 'card_printed_name':
      return d.pick(['JANE DOE', 'JOHN SMITH']);
    default:
      return `value-${d.hex(6)}`; // a formula field of a new catalogue row
  }
}

/**
 * The three vectors of each catalogue row: the payload fields each adds (none is a formula field or
 * one of the OAuth vectors' base fields, so each is added once) and whether it reverses the send order.
 */
interface Variant {
  readonly name: string;
  readonly extra: readonly string[];
  readonly reversed: boolean;
}
const FORMULA_ONLY: Variant = { name: 'formula fields only', extra: [], reversed: false };
const VARIANTS: readonly Variant[] = [
  FORMULA_ONLY,
  { name: 'one extra field', extra: ['ipaddress'], reversed: false },
  { name: 'extra fields, reversed send order', extra: ['redirect_url', 'card_printed_name'], reversed: true },
];

function paramsFor(endpoint: Endpoint, d: Data, variant: Variant): Pair[] {
  const names: string[] =
    endpoint.auth.kind === 'control'
      ? endpoint.auth.fields.filter((f) => f.from === 'params').map((f) => f.name)
      : [endpoint.version === 'v4' ? 'client-order-id' : 'client_orderid', 'amount', 'currency'];
  names.push(...variant.extra);
  const pairs: Pair[] = names.map((n) => [n, fieldValue(n, d)]);
  // Send order varies: the signer must not depend on it.
  return variant.reversed ? pairs.reverse() : pairs;
}

interface Draft {
  id: string;
  description: string;
  scheme: VectorScheme;
  operation?: Operation;
  message?: 'callback';
  url: string;
  params: Pair[];
  realm?: string;
  /** The vector's own stream, with the values drawn for url and params already taken. */
  data: Data;
}

/** A draft without its id, and so without its stream yet. */
type Case = Omit<Draft, 'id' | 'data'>;

function url(endpoint: Endpoint, id: string, base: string): string {
  return `${base}${endpoint.path.replace('{endpointId}', id)}`;
}

const slug = (endpoint: Endpoint): string => endpoint.operation.toLowerCase().replaceAll('_', '-');

function catalogueDrafts(seed: number, endpoints: readonly Endpoint[], base: string, endpointId?: string): Draft[] {
  const drafts: Draft[] = [];
  for (const endpoint of endpoints) {
    for (const [i, variant] of VARIANTS.entries()) {
      const id = `${slug(endpoint)}-${String(i + 1).padStart(3, '0')}`;
      const d = new Data(streamFor(seed, id));
      drafts.push({
        id,
        description: `${endpoint.operation} ${endpoint.auth.kind}, ${variant.name}`,
        scheme: endpoint.auth.kind as VectorScheme,
        ...(endpoint.auth.kind === 'control' ? { operation: endpoint.operation } : {}),
        url: url(endpoint, endpointId ?? d.digits(1 + d.int(6)), base),
        params: paramsFor(endpoint, d, variant),
        data: d,
      });
    }
  }
  return drafts;
}

/**
 * One vector per operation whose public page lists an endpoint-group URL, sent to
 * `…/{operation}/group/{groupId}`: the group id enters a formula that names endpointId, and the
 * OAuth base string's URL; a formula without endpointId does not change.
 */
function groupUrlDrafts(seed: number, endpoints: readonly Endpoint[], base: string): Draft[] {
  return endpoints
    .filter((e) => e.endpointGroup.accepted)
    .map((endpoint) => {
      const id = `${slug(endpoint)}-group-001`;
      const d = new Data(streamFor(seed, id));
      return {
        id,
        description:
          `${endpoint.operation} ${endpoint.auth.kind} at its endpoint-group URL …/group/{groupId} ` +
          `(A-3: ${endpoint.endpointGroup.page})`,
        scheme: endpoint.auth.kind as VectorScheme,
        ...(endpoint.auth.kind === 'control' ? { operation: endpoint.operation } : {}),
        url: url(endpoint, `group/${d.digits(1 + d.int(6))}`, base),
        params: paramsFor(endpoint, d, FORMULA_ONLY),
        data: d,
      };
    });
}

/** Canonicalisation edge cases on one OAuth endpoint (HMAC or RSA: the base string rules are the same), by name. */
function oauthEdgeCases(endpoint: Endpoint, base: string, id = '1001'): Map<string, Case> {
  const scheme = endpoint.auth.kind as VectorScheme;
  const origin = new URL(base);
  const path = origin.pathname.replace(/\/+$/, '');
  const at = (b: string, endpointId = id): string => url(endpoint, endpointId, b);
  const edge = (name: string, description: string, params: Pair[], u = at(base), realm?: string): [string, Case] => [
    name,
    { description: `${endpoint.operation}: ${description}`, scheme, url: u, params, realm },
  ];
  return new Map([
    edge('unicode', 'UTF-8 of 2-, 3- and 4-byte characters in a value', [
      ['order_desc', 'Zahlung für Jörg — 東京 🎉'],
      ['amount', '10.00'],
    ]),
    edge('reserved-characters', "every reserved character and `!'()*`, which encodeURIComponent leaves alone", [
      ['order_desc', "!*'();:@&=+$,/?#[]% ~"],
      ['amount', '1.00'],
    ]),
    edge('space-and-plus', 'a space is %20 and a plus %2B, never the other way round', [
      ['card_printed_name', 'JANE A+B DOE'],
      ['amount', '2.00'],
    ]),
    edge('empty-values', 'empty values are signed, not dropped', [
      ['order_desc', ''],
      ['amount', '3.00'],
      ['note', ''],
    ]),
    edge('repeated-names', 'repeated names are all signed, sorted by value', [
      ['item', 'b'],
      ['item', 'a'],
      ['item', 'a'],
      ['amount', '4.00'],
    ]),
    edge('mixed-case-names', 'byte order puts uppercase names before lowercase ones', [
      ['amount', '5.00'],
      ['Amount', '5'],
      ['AMOUNT', 'x'],
      ['b', '1'],
      ['B', '2'],
    ]),
    edge(
      'query-string',
      'query parameters are decoded and signed with the body; the URL loses its query',
      [['amount', '6.00']],
      `${at(base)}?b=2&a=%3A1&a=x+y`,
    ),
    edge(
      'default-port',
      'an explicit default port is dropped from the base string',
      [['amount', '7.00']],
      at(`${origin.protocol}//${origin.hostname}:${origin.protocol === 'http:' ? 80 : 443}${path}`),
    ),
    edge(
      'explicit-port',
      'a non-default port stays in the base string',
      [['amount', '8.00']],
      at(`${origin.protocol}//${origin.hostname}:8443${path}`),
    ),
    edge(
      'uppercase-host',
      'scheme and host are lowercased; the path keeps its case',
      [['amount', '9.00']],
      at(`${origin.protocol.toUpperCase()}//${origin.hostname.toUpperCase()}${path}`),
    ),
    edge(
      'realm',
      'the realm is written in the header but never signed',
      [['amount', '11.00']],
      at(base),
      'payconform-test',
    ),
    edge('int64-endpoint-id', 'the largest int64 endpoint id', [['amount', '12.00']], at(base, '9223372036854775807')),
  ]);
}

/** Amount and id edge cases on one control endpoint (amounts only where its formula has one). */
function controlEdgeDrafts(
  endpoint: Endpoint,
  fields: readonly ControlField[],
  prefix: string,
  base: string,
  seed: number,
  id = '1001',
): Draft[] {
  const draft = (name: string, description: string, amount: string, endpointId = id): Draft => {
    const d = new Data(streamFor(seed, `${prefix}${name}`));
    return {
      id: `${prefix}${name}`,
      description: `${endpoint.operation} control, ${description}`,
      scheme: 'control',
      operation: endpoint.operation,
      url: url(endpoint, endpointId, base),
      params: fields
        .filter((f) => f.from === 'params')
        .map((f): Pair => [f.name, f.name === 'amount' ? amount : fieldValue(f.name, d)]),
      data: d,
    };
  };
  const amounts = fields.some((f) => f.cents)
    ? [
        draft('amount-0-decimals', 'amount without decimals (10 → 1000)', '10'),
        draft('amount-1-decimal', 'amount with one decimal (10.5 → 1050)', '10.5'),
        draft('amount-2-decimals', 'amount 0.29 (29 cents; floating point gives 28.999999999999996)', '0.29'),
        draft('amount-15-digits', 'a 15-digit amount, exact only in integer arithmetic', '999999999999999.99'),
        draft('amount-zero', 'a zero amount', '0.00'),
      ]
    : [];
  return [
    ...amounts,
    draft('int64-endpoint-id', 'the largest int64 endpoint id in the formula', '1.00', '9223372036854775807'),
  ];
}

/** The edge cases of one endpoint, their ids starting with `prefix`. */
function edgeDrafts(endpoint: Endpoint, prefix: string, base: string, seed: number, id?: string): Draft[] {
  if (endpoint.auth.kind === 'control')
    return controlEdgeDrafts(endpoint, endpoint.auth.fields, prefix, base, seed, id);
  return [...oauthEdgeCases(endpoint, base, id)].map(([name, c]) => ({
    ...c,
    id: `${prefix}${name}`,
    data: new Data(streamFor(seed, `${prefix}${name}`)),
  }));
}

/**
 * The gateway's callbacks to the merchant (docs/callbacks.md): one per final status, one whose ids
 * need UTF-8, and a customer return (no amount, no type). The amount is never in the formula.
 */
function callbackDrafts(seed: number): Draft[] {
  const draft = (name: string, description: string, fields: (d: Data) => Pair[]): Draft => {
    const id = `callback-${name}`;
    const d = new Data(streamFor(seed, id));
    return {
      id,
      description: `merchant callback: ${description}`,
      scheme: 'control',
      message: 'callback',
      url: 'https://merchant.example/payment/callback?shop=1',
      params: fields(d),
      data: d,
    };
  };
  const callback =
    (status: string, clientOrderId?: string) =>
    (d: Data): Pair[] => {
      const order = clientOrderId ?? fieldValue('client_orderid', d);
      return [
        ['orderid', fieldValue('orderid', d)],
        ['merchant_order', order],
        ['client_orderid', order],
        ['amount', d.amount()],
        ['status', status],
        ['type', 'sale'],
      ];
    };
  return [
    ...CALLBACK_STATUSES.map((status) => draft(status, `status ${status}`, callback(status))),
    draft(
      'utf8-order-id',
      'a client_orderid with non-ASCII characters, hashed as UTF-8',
      callback('approved', 'Bestellung-Jörg-東京'),
    ),
    draft('customer-return', "the customer's return to redirect_url (no amount, no type)", (d) => {
      const order = fieldValue('client_orderid', d);
      return [
        ['status', 'declined'],
        ['orderid', fieldValue('orderid', d)],
        ['merchant_order', order],
        ['client_orderid', order],
      ];
    }),
  ];
}

export interface GenerateOptions {
  readonly seed?: number;
  /** PEM of the RSA key for v4 vectors. */
  readonly privateKeyPem?: string;
  readonly login?: string;
  readonly controlKey?: string;
  /** Only these operations, with edge cases on each (a partner pack); default every endpoint whose scheme is known. */
  readonly operations?: readonly Operation[];
  readonly baseUrl?: string;
  /** One endpointId for every vector (a partner's own); default varied ids. */
  readonly endpointId?: string;
  /** The catalogue rows to cover; default the catalogue itself. */
  readonly endpoints?: readonly Endpoint[];
}

function drafts(seed: number, options: GenerateOptions): Draft[] {
  const base = options.baseUrl ?? BASE_URL;
  const known = (options.endpoints ?? ENDPOINTS).filter((e) => e.auth.kind !== 'unstated');
  const { operations } = options;
  const selected = operations ? known.filter((e) => operations.includes(e.operation)) : known;
  const all = catalogueDrafts(seed, selected, base, options.endpointId);
  if (options.operations) {
    for (const e of selected) all.push(...edgeDrafts(e, `${slug(e)}-edge-`, base, seed, options.endpointId));
    return all;
  }
  const payout = endpointByOperation(OP.PAYOUT);
  all.push(
    ...edgeDrafts(payout, 'edge-', base, seed),
    ...edgeDrafts(endpointByOperation(OP.SALE), 'edge-control-', base, seed),
  );
  const rsa = present(oauthEdgeCases(endpointByOperation(OP.PAYOUT_V4), base).get('unicode'), 'the unicode case');
  all.push({
    ...rsa,
    id: 'edge-rsa-unicode',
    description: 'PAYOUT_V4: RSA-SHA256 over the UTF-8 bytes of a base string with non-ASCII text',
    data: new Data(streamFor(seed, 'edge-rsa-unicode')),
  });
  const reserved = present(
    oauthEdgeCases(payout, 'https://gateway.example').get('reserved-characters'),
    'the reserved-characters case',
  );
  all.push({
    ...reserved,
    id: 'edge-no-prefix',
    description: 'PAYOUT: a base URL without a prefix before /api/ (reserved characters)',
    data: new Data(streamFor(seed, 'edge-no-prefix')),
  });
  all.push(...groupUrlDrafts(seed, selected, base), ...callbackDrafts(seed));
  return all;
}

export function generateVectors(options: GenerateOptions): VectorFile {
  const seed = options.seed ?? DEFAULT_SEED;
  const login = options.login ?? TEST_LOGIN;
  const controlKey = options.controlKey ?? TEST_CONTROL_KEY;
  const vectors = drafts(seed, options).map((draft): Vector => {
    const d = draft.data;
    const oauth =
      draft.scheme === 'control'
        ? undefined
        : {
            nonce: d.hex(32),
            timestamp: String(1700000000 + d.int(86400)),
            ...(draft.realm === undefined ? {} : { realm: draft.realm }),
          };
    const vector: Vector = {
      id: draft.id,
      description: draft.description,
      scheme: draft.scheme,
      ...(draft.operation === undefined ? {} : { operation: draft.operation }),
      ...(draft.message === undefined ? {} : { message: draft.message }),
      request: { method: 'POST', url: draft.url, params: draft.params },
      credentials:
        draft.scheme === 'oauth-rsa-sha256'
          ? { login, privateKeyPem: options.privateKeyPem }
          : { login, merchantControlKey: controlKey },
      ...(oauth === undefined ? {} : { oauth }),
      expected: {},
    };
    const expected = computeExpected(vector);
    // The format's controlInput is the real concatenation (vector-format.md).
    if (expected.controlInput !== undefined)
      expected.controlInput = expected.controlInput.slice(0, -CONTROL_KEY_PLACEHOLDER.length) + controlKey;
    vector.expected = expected;
    return vector;
  });
  return {
    format: VECTOR_FORMAT,
    description:
      `Generated by payconform vectors generate --seed ${seed} with TEST-ONLY credentials ` +
      `(vectors/keys/README.md).`,
    vectors,
  };
}
