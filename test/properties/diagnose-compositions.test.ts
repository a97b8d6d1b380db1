/**
 * Diagnosis as a search over composable mistakes: random requests of both schemes, signed with up to two mistakes
 * at different steps, must be named (the composition made, a smaller one where a mistake changes nothing, or
 * equivalent ones flagged as ambiguous) in at least 99 % of cases, and diagnose never proposes a fix that changes
 * the amount. Every wrong value is built here by hand, from the spec's formulas and RFC 5849, with string
 * operations and node:crypto: no code of src/signing/diagnose makes them.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { diagnose } from '../../src/rules/diagnose.ts';
import type { Diagnosis } from '../../src/signing/diagnose/index.ts';
import { fcParams, seed } from '../seed.ts';

type Pair = [string, string];

// ---- control (api-spec.md Scheme A): SHA-1 hex of the formula's values, amount in cents, then the key ----

/** The formulas of the operations used, written out from the spec. */
const FORMULAS: Record<string, { path: string; fields: string[] }> = {
  SALE: { path: 'sale', fields: ['endpointId', 'client_orderid', 'amount', 'email'] },
  CAPTURE: { path: 'capture', fields: ['login', 'client_orderid', 'orderid', 'amount', 'currency'] },
  STATUS: { path: 'status', fields: ['login', 'client_orderid', 'orderid'] },
};

/** Cents by hand: the digits without the dot, leading zeros dropped ("0.05" → "5", "10.50" → "1050"). */
const centsByHand = (amount: string): string => {
  const [whole, fraction = ''] = amount.split('.');
  return (whole + fraction.padEnd(2, '0')).replace(/^0+(?=.)/, '');
};

interface ControlCase {
  operation: string;
  endpointId: string;
  login: string;
  key: string;
  params: Record<string, string>;
}

/** A control value under a set of hand-made mistakes (by id), as a partner's code computes it. */
interface ControlWork {
  values: string[];
  names: string[];
  separator: string;
  keyFirst: boolean;
  key: string;
  digest: string;
  encoding: 'hex' | 'HEX' | 'base64';
}

/** Hand-made control mistakes: each changes the work one way (several ways where the mistake has variants). */
const CONTROL_BY_HAND: Record<string, (w: ControlWork, c: ControlCase) => ControlWork[]> = {
  'decimal-amount': (w, c) => [
    { ...w, values: w.names.map((n, i) => (n === 'amount' ? c.params.amount! : w.values[i]!)) },
  ],
  'amount-value-wrong': (w, c) => [
    { ...w, values: w.names.map((n, i) => (n === 'amount' ? c.params.amount! : w.values[i]!)) },
  ],
  'float-cents': (w, c) => [
    { ...w, values: w.names.map((n, i) => (n === 'amount' ? String(Number(c.params.amount) * 100) : w.values[i]!)) },
  ],
  'truncated-cents': (w, c) => [
    {
      ...w,
      values: w.names.map((n, i) =>
        n === 'amount' ? String(Math.trunc(Number(c.params.amount) * 100)) : w.values[i]!,
      ),
    },
  ],
  'fields-wrong-order': (w) =>
    w.values.slice(1).map((_, i) => {
      const v = [...w.values];
      [v[i], v[i + 1]] = [v[i + 1]!, v[i]!];
      return { ...w, values: v };
    }),
  'missing-field': (w) => w.values.map((_, skip) => ({ ...w, values: w.values.filter((__, i) => i !== skip) })),
  'separator-pipe': (w) => [{ ...w, separator: '|' }],
  'separator-comma': (w) => [{ ...w, separator: ',' }],
  'separator-newline': (w) => [{ ...w, separator: '\n' }],
  'key-not-last': (w) => [{ ...w, keyFirst: true }],
  'key-trailing-newline': (w) => [{ ...w, key: `${w.key}\n` }],
  'sha256-digest': (w) => [{ ...w, digest: 'sha256' }],
  'md5-digest': (w) => [{ ...w, digest: 'md5' }],
  'uppercase-hex': (w) => [{ ...w, encoding: 'HEX' }],
  'base64-digest': (w) => [{ ...w, encoding: 'base64' }],
};
/** The step each hand-made mistake is at: two at one step do not compose. */
const CONTROL_STEP: Record<string, string> = {
  'decimal-amount': 'amount',
  'amount-value-wrong': 'amount',
  'float-cents': 'amount',
  'truncated-cents': 'amount',
  'fields-wrong-order': 'fields',
  'missing-field': 'fields',
  'separator-pipe': 'separator',
  'separator-comma': 'separator',
  'separator-newline': 'separator',
  'key-not-last': 'key place',
  'key-trailing-newline': 'key form',
  'sha256-digest': 'digest',
  'md5-digest': 'digest',
  'uppercase-hex': 'encoding',
  'base64-digest': 'encoding',
};

function controlWork(c: ControlCase): ControlWork {
  const names = FORMULAS[c.operation]!.fields;
  const value = (n: string): string =>
    n === 'endpointId'
      ? c.endpointId
      : n === 'login'
        ? c.login
        : n === 'amount'
          ? centsByHand(c.params.amount!)
          : c.params[n]!;
  return {
    values: names.map(value),
    names,
    separator: '',
    keyFirst: false,
    key: c.key,
    digest: 'sha1',
    encoding: 'hex',
  };
}

const controlOf = (w: ControlWork): string => {
  const text = (w.keyFirst ? [w.key, ...w.values] : [...w.values, w.key]).join(w.separator);
  const digest = createHash(w.digest).update(text);
  return w.encoding === 'HEX' ? digest.digest('hex').toUpperCase() : digest.digest(w.encoding);
};

/** Every value a composition of hand-made mistakes gives (each variant of each), in the order the ids are given. */
function controlValues(ids: readonly string[], c: ControlCase): string[] {
  // Amount formatting first: the other steps move or join values already written.
  const ordered = [...ids].sort((a, b) => +(CONTROL_STEP[b] === 'amount') - +(CONTROL_STEP[a] === 'amount'));
  let works = [controlWork(c)];
  for (const id of ordered) works = works.flatMap((w) => CONTROL_BY_HAND[id]!(w, c));
  return works.map(controlOf);
}

// ---- OAuth (RFC 5849 §3.4–3.6) ----

/** RFC 3986 percent-encoding, by hand. */
const rfc3986 = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

interface OAuthCase {
  method: 'HMAC-SHA1' | 'RSA-SHA256';
  host: string;
  port: string;
  query: Pair[];
  body: Pair[];
  key: string;
  realm: string | undefined;
  nonce: string;
}

interface OAuthWork {
  httpMethod: string;
  url: string;
  pairs: Pair[];
  enc: (s: string) => string;
  outer: (s: string) => string;
  caseless: boolean;
  hmacKey: string;
  hash: string;
}

const lowerEscapes = (s: string): string => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());

/** Hand-made OAuth mistakes, each at its own step. */
const OAUTH_BY_HAND: Record<string, (w: OAuthWork, c: OAuthCase) => OAuthWork> = {
  'plus-for-space': (w) => ({ ...w, enc: (s) => w.enc(s).replace(/%20/g, '+') }),
  'lowercase-hex': (w) => ({ ...w, enc: (s) => lowerEscapes(w.enc(s)), outer: (s) => lowerEscapes(w.outer(s)) }),
  'body-params-omitted': (w, c) => ({ ...w, pairs: w.pairs.filter((p) => !c.body.includes(p)) }),
  'oauth-params-omitted': (w) => ({ ...w, pairs: w.pairs.filter(([n]) => !n.startsWith('oauth_')) }),
  'query-params-omitted': (w, c) => ({ ...w, pairs: w.pairs.filter((p) => !c.query.includes(p)) }),
  'empty-params-dropped': (w) => ({ ...w, pairs: w.pairs.filter(([, v]) => v !== '') }),
  'realm-signed': (w, c) => ({ ...w, pairs: c.realm === undefined ? w.pairs : [...w.pairs, ['realm', c.realm]] }),
  'default-port-kept': (w, c) => ({ ...w, url: w.url.replace(/^(https:\/\/[^/]*)/, `$1${c.port}`) }),
  'host-not-lowercased': (w, c) => ({ ...w, url: w.url.replace(c.host.toLowerCase(), c.host) }),
  'method-lowercase': (w) => ({ ...w, httpMethod: 'post' }),
  'case-insensitive-sort': (w) => ({ ...w, caseless: true }),
  'hmac-key-no-ampersand': (w, c) => ({ ...w, hmacKey: rfc3986(c.key) }),
  'hmac-sha256-instead-of-sha1': (w) => ({ ...w, hash: 'sha256' }),
  'rsa-sha1-instead-of-sha256': (w) => ({ ...w, hash: 'sha1' }),
};
const OAUTH_STEP: Record<string, string> = {
  'plus-for-space': 'space',
  'lowercase-hex': 'hex case',
  'body-params-omitted': 'body',
  'oauth-params-omitted': 'oauth',
  'query-params-omitted': 'query',
  'empty-params-dropped': 'empty',
  'realm-signed': 'realm',
  'default-port-kept': 'port',
  'host-not-lowercased': 'host case',
  'method-lowercase': 'method',
  'case-insensitive-sort': 'sort',
  'hmac-key-no-ampersand': 'key form',
  'hmac-sha256-instead-of-sha1': 'hash',
  'rsa-sha1-instead-of-sha256': 'hash',
};
const HMAC_ONLY = new Set(['hmac-key-no-ampersand', 'hmac-sha256-instead-of-sha1']);

const RSA_PEM = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const RSA_KEY = createPrivateKey(RSA_PEM);

function protocolOf(c: OAuthCase): Pair[] {
  return [
    ['oauth_consumer_key', 'merchant'],
    ['oauth_nonce', c.nonce],
    ['oauth_signature_method', c.method],
    ['oauth_timestamp', '1700000000'],
    ['oauth_version', '1.0'],
  ];
}

function urlOf(c: OAuthCase): string {
  const query = c.query.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  const path = c.method === 'HMAC-SHA1' ? '/paynet/api/v2/payout/7' : '/paynet/api/v4/payout/7';
  return `https://${c.host}${c.port}${path}${query ? `?${query}` : ''}`;
}

/** The signature a partner with these hand-made mistakes sends. */
function oauthSignature(ids: readonly string[], c: OAuthCase): string {
  const path = c.method === 'HMAC-SHA1' ? '/paynet/api/v2/payout/7' : '/paynet/api/v4/payout/7';
  let w: OAuthWork = {
    httpMethod: 'POST',
    url: `https://${c.host.toLowerCase()}${path}`,
    pairs: [...c.body, ...protocolOf(c), ...c.query],
    enc: rfc3986,
    outer: rfc3986,
    caseless: false,
    hmacKey: `${rfc3986(c.key)}&`,
    hash: c.method === 'HMAC-SHA1' ? 'sha1' : 'sha256',
  };
  for (const id of ids) w = OAUTH_BY_HAND[id]!(w, c);
  const name = (n: string): string => (w.caseless ? n.toLowerCase() : n);
  const encoded = w.pairs.map(([n, v]): Pair => [w.enc(n), w.enc(v)]);
  encoded.sort((a, b) =>
    name(a[0]) < name(b[0]) ? -1 : name(a[0]) > name(b[0]) ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0,
  );
  const base = `${w.httpMethod}&${w.outer(w.url)}&${w.outer(encoded.map(([n, v]) => `${n}=${v}`).join('&'))}`;
  return c.method === 'HMAC-SHA1'
    ? createHmac(w.hash, w.hmacKey).update(base).digest('base64')
    : sign(w.hash, Buffer.from(base), RSA_KEY).toString('base64');
}

function authorization(c: OAuthCase, signature: string): string {
  const pairs: Pair[] = [...protocolOf(c), ['oauth_signature', signature]];
  const realm = c.realm === undefined ? [] : [`realm="${c.realm}"`];
  return `OAuth ${[...realm, ...pairs.map(([n, v]) => `${rfc3986(n)}="${rfc3986(v)}"`)].join(', ')}`;
}

// ---- the generators ----

const word = fc.stringMatching(/^[A-Za-z0-9 ._~!*'()@:-]{0,8}$/);
const amountText = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 99 }))
    .map(([w, f]) => `${w}.${String(f).padStart(2, '0')}`),
  fc.constantFrom('0.29', '19.99', '1.15', '4.35', '0.57'),
  fc.integer({ min: 1, max: 99999 }).map(String),
);

/** Two ids at different steps, or one, from a table. */
const composition = (ids: string[], steps: Record<string, string>): fc.Arbitrary<string[]> =>
  fc
    .uniqueArray(fc.constantFrom(...ids), { minLength: 1, maxLength: 2 })
    .filter((xs) => xs.length < 2 || steps[xs[0]!] !== steps[xs[1]!]);

const controlCase = fc.record({
  operation: fc.constantFrom('SALE', 'CAPTURE', 'STATUS'),
  endpointId: fc.integer({ min: 1, max: 99999 }).map(String),
  login: fc.stringMatching(/^[a-z]{3,8}$/),
  key: fc.stringMatching(/^[A-Za-z0-9&/-]{8,16}$/),
  params: fc.record({
    client_orderid: fc.stringMatching(/^[A-Z0-9-]{1,8}$/),
    amount: amountText,
    email: fc.stringMatching(/^[a-z]{1,5}@[a-z]{1,5}\.example$/),
    orderid: fc.integer({ min: 1, max: 999999 }).map(String),
    currency: fc.constantFrom('EUR', 'USD', 'GBP'),
  }),
  mistakes: composition(Object.keys(CONTROL_BY_HAND), CONTROL_STEP),
});

const oauthCase = fc.record({
  method: fc.constantFrom<OAuthCase['method']>('HMAC-SHA1', 'RSA-SHA256'),
  host: fc.constantFrom('gate.example', 'Gate.Example', 'SANDBOX.gw.example'),
  port: fc.constantFrom('', ':443'),
  query: fc.array(fc.tuple(fc.constantFrom('q', 'Q', 'ref'), word), { maxLength: 2 }),
  body: fc.array(fc.tuple(fc.constantFrom('amount', 'Name', 'note', 'desc'), word), { minLength: 1, maxLength: 4 }),
  key: fc.stringMatching(/^[A-Za-z0-9&/ -]{8,16}$/),
  realm: fc.option(fc.constantFrom('payconform', 'api'), { nil: undefined }),
  nonce: fc.stringMatching(/^[a-z0-9]{4,10}$/),
});
const oauthMistakes = (method: OAuthCase['method']): string[] =>
  Object.keys(OAUTH_BY_HAND).filter((id) =>
    method === 'HMAC-SHA1' ? id !== 'rsa-sha1-instead-of-sha256' : !HMAC_ONLY.has(id),
  );

// ---- the judgement ----

const subset = (small: readonly string[], big: readonly string[]): boolean => small.every((id) => big.includes(id));

/**
 * Named: a composition named is the one made or part of it (a mistake that changes nothing here cannot be seen);
 * or every composition named is another that gives this very value (checked by hand), and the answer says so.
 */
function named(
  d: Diagnosis,
  made: readonly string[],
  givesSame: (ids: readonly string[]) => boolean | undefined,
): boolean {
  const found = d.compositions ?? [];
  if (d.verdict !== 'invalid' || found.length === 0) return false;
  if (found.some((c) => subset(c.mistakes, made))) return true;
  return found.length > 1 && d.ambiguous === true && found.every((c) => givesSame(c.mistakes) !== false);
}

describe(`diagnose: random compositions of up to two mistakes (seed ${seed})`, () => {
  it('names the control composition made (or an equivalent, said ambiguous) in ≥ 99 %, and never an amount fix', (t) => {
    let cases = 0;
    let hits = 0;
    const misses: string[] = [];
    for (const c of fc.sample(controlCase, fcParams(300))) {
      const whole = /^[0-9]+$/.test(c.params.amount);
      // The as-sent amount is one mistake whose name the amount decides: decimal-amount for a decimal, and for a
      // whole number amount-value-wrong (the field itself is wrong).
      const made = c.mistakes.map((id) =>
        id === 'decimal-amount' || id === 'amount-value-wrong' ? (whole ? 'amount-value-wrong' : 'decimal-amount') : id,
      );
      const f = FORMULAS[c.operation]!;
      const params = Object.entries(c.params).filter(([n]) => f.fields.includes(n)) as Pair[];
      const given = controlValues(c.mistakes, c)[0]!;
      const correct = controlValues([], c)[0]!;
      if (given === correct) continue; // the mistakes change nothing for this request
      cases++;
      const d = diagnose({
        request: { url: `https://gate.example/paynet/api/v2/${f.path}/${c.endpointId}`, params },
        credentials: { login: c.login, controlKey: c.key },
        given: { control: given },
      });
      const byHand = (ids: readonly string[]): boolean | undefined =>
        ids.every((id) => id in CONTROL_BY_HAND) ? controlValues(ids, c).includes(given) : undefined;
      if (named(d, made, byHand)) hits++;
      else misses.push(`${made.join('+')} on ${JSON.stringify(c.params)}: ${d.message}`);
      // Never an amount-changing fix: a whole amount signed as sent is never told to sign its cents.
      if (whole) assert.ok(!d.defects.includes('decimal-amount'), `${c.params.amount}: ${d.message}`);
      if (whole && made.includes('amount-value-wrong') && d.defects.includes('amount-value-wrong'))
        assert.equal(d.wrongValue, 'amount');
    }
    t.diagnostic(`control: named ${hits} of ${cases}`);
    assert.ok(cases >= 200, `only ${cases} cases changed the value`);
    assert.ok(hits >= 0.99 * cases, `named ${hits} of ${cases}:\n${misses.slice(0, 5).join('\n')}`);
  });

  it('names the OAuth composition made (or an equivalent, said ambiguous) in ≥ 99 %', (t) => {
    let cases = 0;
    let hits = 0;
    const misses: string[] = [];
    const arb = oauthCase.chain((c) =>
      composition(oauthMistakes(c.method), OAUTH_STEP).map((mistakes) => ({ c, mistakes })),
    );
    for (const { c, mistakes } of fc.sample(arb, fcParams(150))) {
      const given = oauthSignature(mistakes, c);
      if (given === oauthSignature([], c)) continue;
      cases++;
      const d = diagnose({
        request: { method: 'POST', url: urlOf(c), params: c.body },
        credentials: { login: 'merchant', controlKey: c.key, privateKeyPem: RSA_PEM },
        given: { authorization: authorization(c, given) },
      });
      const byHand = (ids: readonly string[]): boolean | undefined =>
        ids.every((id) => id in OAUTH_BY_HAND)
          ? c.method === 'HMAC-SHA1' && oauthSignature(ids, c) === given
          : undefined;
      if (named(d, mistakes, c.method === 'HMAC-SHA1' ? byHand : () => undefined)) hits++;
      else misses.push(`${mistakes.join('+')} on ${urlOf(c)} ${JSON.stringify(c.body)}: ${d.message}`);
    }
    t.diagnostic(`OAuth: named ${hits} of ${cases}`);
    assert.ok(cases >= 100, `only ${cases} cases changed the signature`);
    assert.ok(hits >= 0.99 * cases, `named ${hits} of ${cases}:\n${misses.slice(0, 5).join('\n')}`);
  });
});
