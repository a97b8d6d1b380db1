// The Postman collection's pre-request script (src/interop/postman-script.ts), run as Postman runs
// it: the exact script text taken from the collection, evaluated in node:vm with a small `pm` shim
// and crypto-js (what Postman's sandbox offers), against the shipped known-answer vectors
// (vectors/generated.json, made by the reference signer) and the diagnosis vectors' known mistakes.
// Deliberately broken copies of the script (float cents, `+` for a space, body left out of the base
// string) fail the same checks, so the checks can fail.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { runInNewContext } from 'node:vm';
import { endpointByOperation, ENDPOINTS, isOperation, OP } from '../../src/catalogue/index.ts';
import { postmanCollection } from '../../src/interop/postman.ts';
import { computeControl, parseAuthorizationHeader, type Pair } from '../../src/signing/index.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
/** crypto-js 4.2.0 (a devDependency, as Postman's sandbox offers it); it ships no types, and the script needs none. */
const CryptoJS: unknown = createRequire(import.meta.url)('crypto-js');
type Json = Record<string, any>;

interface Vector {
  id: string;
  scheme: string;
  operation?: string;
  message?: string;
  request: { method: string; url: string; params: [string, string][] };
  credentials: { login: string; merchantControlKey: string };
  oauth?: { nonce: string; timestamp: string; realm?: string };
  given?: { control?: string; authorization?: string };
  expected: Json;
}

const vectorsOf = (file: string): Vector[] =>
  (JSON.parse(readFileSync(`${ROOT}vectors/${file}`, 'utf8')) as { vectors: Vector[] }).vectors;
const GENERATED = vectorsOf('generated.json');
const DIAGNOSES = vectorsOf('diagnoses.json');

/** The script exactly as the collection carries it. */
const SCRIPT: string = (postmanCollection().event as Json[])
  .find((e) => e.listen === 'prerequest')!
  .script.exec.join('\n');

interface Header {
  key: string;
  value: string;
  disabled?: boolean;
}

export interface ScriptRun {
  /** The form pairs the runtime would send after the script. */
  sent: Pair[];
  url: string;
  headers: Header[];
  skipped: boolean;
  locals: Map<string, string>;
  logs: string[];
}

/**
 * Runs a script as Postman's sandbox would for one request: pm.request (url, method, urlencoded
 * body, headers), pm.variables (get with the run's variables, replaceIn with {{name}} and {{$guid}}),
 * pm.execution.skipRequest, and require('crypto-js').
 */
export function runScript(
  source: string,
  request: { url: string; params: readonly Pair[]; headers?: Header[] },
  vars: Record<string, string>,
): ScriptRun {
  const run: ScriptRun = {
    sent: [...request.params],
    url: request.url,
    headers: [...(request.headers ?? [])],
    skipped: false,
    locals: new Map(),
    logs: [],
  };
  const replaceIn = (text: string): string =>
    text.replace(/\{\{([^{}]+)\}\}/g, (whole, name: string) =>
      name === '$guid' ? randomUUID() : (vars[name] ?? whole),
    );
  const pm = {
    request: {
      method: 'POST',
      url: { toString: () => request.url, update: (url: string) => void (run.url = url) },
      body: {
        mode: 'urlencoded',
        urlencoded: { all: () => request.params.map(([key, value]) => ({ key, value })) },
        update: (o: { mode: string; urlencoded: Array<{ key: string; value: string }> }) =>
          void (run.sent = o.urlencoded.map((p) => [p.key, p.value] as const)),
      },
      headers: {
        all: () => run.headers,
        upsert: (h: Header) => {
          const at = run.headers.findIndex((x) => x.key.toLowerCase() === h.key.toLowerCase());
          if (at === -1) run.headers.push(h);
          else run.headers[at] = h;
        },
      },
    },
    variables: {
      get: (name: string) => run.locals.get(name) ?? vars[name],
      set: (name: string, value: string) => void run.locals.set(name, value),
      replaceIn,
    },
    execution: { skipRequest: () => void (run.skipped = true) },
  };
  const require = (name: string): unknown => {
    if (name === 'crypto-js') return CryptoJS;
    throw new Error(`Postman's sandbox has no module ${name}`);
  };
  runInNewContext(source, { pm, require, console: { log: (line: string) => run.logs.push(line) } });
  return run;
}

const authorizationOf = (run: ScriptRun): string | undefined =>
  run.headers.find((h) => h.key === 'Authorization' && !h.disabled)?.value;
const controlOf = (run: ScriptRun): string | undefined => run.sent.filter(([n]) => n === 'control').at(-1)?.[1];

function varsOf(
  v: Vector,
  oauth?: { nonce?: string; timestamp?: string; realm?: string | undefined },
): Record<string, string> {
  return {
    login: v.credentials.login,
    controlKey: v.credentials.merchantControlKey,
    ...(oauth?.nonce ? { oauthNonce: oauth.nonce } : {}),
    ...(oauth?.timestamp ? { oauthTimestamp: oauth.timestamp } : {}),
    ...(oauth?.realm ? { oauthRealm: oauth.realm } : {}),
  };
}

/** The control and HMAC vectors of generated.json that are requests to the API (not the gateway's callbacks). */
const SIGNING_VECTORS = GENERATED.filter(
  (v) => (v.scheme === 'control' && v.message === undefined) || v.scheme === 'oauth-hmac-sha1',
);

/** Every difference between what the script computes and the vectors' expected values. */
function vectorMismatches(source: string): string[] {
  const problems: string[] = [];
  for (const v of SIGNING_VECTORS) {
    const run = runScript(source, { url: v.request.url, params: v.request.params }, varsOf(v, v.oauth));
    const check = (what: string, got: string | undefined, want: string | undefined): void => {
      if (want !== undefined && got !== want) problems.push(`${v.id} ${what}: got ${got}, want ${want}`);
    };
    if (v.scheme === 'control') {
      const key = v.credentials.merchantControlKey;
      const input = v.expected.controlInput as string | undefined;
      check(
        'controlInput',
        run.locals.get('payconformControlInput'),
        input === undefined ? undefined : `${input.slice(0, -key.length)}<merchant_control_key>`,
      );
      check('control', controlOf(run), v.expected.control);
      if (authorizationOf(run) !== undefined) problems.push(`${v.id}: a control request got an Authorization header`);
    } else {
      check('baseString', run.locals.get('payconformBaseString'), v.expected.baseString);
      check('signature', run.locals.get('payconformSignature'), v.expected.signature);
      check('authorization', authorizationOf(run), v.expected.authorization);
      if (controlOf(run) !== undefined) problems.push(`${v.id}: an HMAC request got a control field`);
    }
  }
  return problems;
}

/** A copy of the script with one deliberate mistake; the replaced text must be there. */
function broken(from: string, to: string): string {
  assert.ok(SCRIPT.includes(from), `the script no longer contains ${from}`);
  return SCRIPT.replace(from, to);
}

describe('the Postman pre-request script against the shipped vectors', () => {
  it('covers the control and HMAC vectors of every endpoint that has them', () => {
    const operations = new Set(SIGNING_VECTORS.map((v) => v.operation ?? 'hmac'));
    const controlled = ENDPOINTS.filter((e) => e.auth.kind === 'control').map((e) => e.operation);
    for (const op of controlled) assert.ok(operations.has(op), `no control vector of ${op}`);
    assert.ok(SIGNING_VECTORS.filter((v) => v.scheme === 'oauth-hmac-sha1').length >= 15);
    assert.ok(SIGNING_VECTORS.length >= 70, `${SIGNING_VECTORS.length} vectors`);
  });

  it('computes every control, control input, base string, signature and Authorization header of generated.json', () => {
    assert.deepEqual(vectorMismatches(SCRIPT), []);
  });

  it('fails the vectors when it converts amounts through floating point', () => {
    const problems = vectorMismatches(
      broken("return digits === '' ? '0' : digits;", 'return String(parseFloat(amount) * 100);'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('edge-control-amount-2-decimals control')),
      problems.join('\n'),
    );
  });

  it('fails the vectors when it writes a space as + (postman-app-support #1874)', () => {
    const problems = vectorMismatches(
      broken(
        'return encodeURIComponent(text).replace(',
        "return encodeURIComponent(text).replace(/%20/g, '+').replace(",
      ),
    );
    assert.ok(
      problems.some((p) => p.startsWith('edge-space-and-plus signature')),
      problems.join('\n'),
    );
  });

  it('fails the vectors when it leaves the form body out of the base string (postman-app-support #1838)', () => {
    const problems = vectorMismatches(
      broken("pairs.filter(function (p) { return p[0] !== 'oauth_signature'; })", '[]'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('payout-001 baseString')),
      problems.join('\n'),
    );
  });

  it('fails the vectors when it percent-encodes values twice (postman-app-support #8879)', () => {
    const problems = vectorMismatches(broken('return [enc(p[0]), enc(p[1])];', 'return [enc(p[0]), enc(enc(p[1]))];'));
    assert.ok(
      problems.some((p) => p.startsWith('edge-reserved-characters signature')),
      problems.join('\n'),
    );
  });
});

/** The diagnosis vectors of requests to the API signed by control or HMAC (not callbacks, not RSA). */
const JUDGED = DIAGNOSES.filter(
  (v) =>
    v.given !== undefined &&
    v.message === undefined &&
    (v.scheme === 'control' || v.scheme === 'oauth-hmac-sha1') &&
    (v.operation === undefined || isOperation(v.operation)),
);

/** Where the script's signature disagrees with a verdict: equal to a valid given one, different from every mistaken one. */
function diagnosisMismatches(source: string): string[] {
  const wrong: string[] = [];
  for (const v of JUDGED) {
    const header = v.given!.authorization === undefined ? undefined : parseAuthorizationHeader(v.given!.authorization);
    const oauth = header && {
      nonce: header.pairs.find(([n]) => n === 'oauth_nonce')![1],
      timestamp: header.pairs.find(([n]) => n === 'oauth_timestamp')![1],
      realm: header.realm,
    };
    // A request the formula cannot be computed from (a field missing) is refused: no signature at all.
    let mine: string | undefined;
    try {
      const run = runScript(source, { url: v.request.url, params: v.request.params }, varsOf(v, oauth));
      mine = v.scheme === 'control' ? controlOf(run) : run.locals.get('payconformSignature');
    } catch (err) {
      if (v.expected.verdict === 'valid') throw err;
    }
    const theirs = v.scheme === 'control' ? v.given!.control : header!.pairs.find(([n]) => n === 'oauth_signature')![1];
    const same = mine === theirs;
    if (same !== (v.expected.verdict === 'valid'))
      wrong.push(
        `${v.id} (${v.expected.defect ?? 'valid'}): ${same ? 'the script makes the same mistake' : 'the script does not reproduce the valid signature'}`,
      );
  }
  return wrong;
}

describe('the Postman pre-request script against the known mistakes (vectors/diagnoses.json)', () => {
  it('reproduces the valid given signatures and none of the mistaken ones', () => {
    assert.ok(JUDGED.length >= 30, `${JUDGED.length} diagnosis vectors`);
    assert.ok(
      ['double-encoding', 'plus-for-space', 'body-params-omitted', 'float-cents', 'decimal-amount'].every((d) =>
        JUDGED.some((v) => v.expected.defect === d),
      ),
    );
    assert.deepEqual(diagnosisMismatches(SCRIPT), []);
  });

  it('notices a script that makes one of those mistakes', () => {
    // `+` for a space in the parameters (the signing key stays RFC 3986 encoded, as the diagnosis has it).
    const plus = diagnosisMismatches(
      broken(
        'return [enc(p[0]), enc(p[1])];',
        "return [enc(p[0]).replace(/%20/g, '+'), enc(p[1]).replace(/%20/g, '+')];",
      ),
    );
    assert.ok(plus.includes('plus-for-space (plus-for-space): the script makes the same mistake'), plus.join('\n'));
    const decimal = diagnosisMismatches(broken('return cents ? toCents(value, name) : value;', 'return value;'));
    assert.ok(
      decimal.some((p) => p.endsWith('(decimal-amount): the script makes the same mistake')),
      decimal.join('\n'),
    );
  });
});

describe('the Postman pre-request script per kind of endpoint', () => {
  const vars = { baseUrl: 'http://127.0.0.1:9/paynet', endpointId: '1001', login: 'merchant', controlKey: 'k' };
  const at = (path: string): string => `{{baseUrl}}${path}/{{endpointId}}`;

  it('resolves {{variables}} (dynamic ones too) once, signs those values and sends them', () => {
    const run = runScript(
      SCRIPT,
      {
        url: at('/api/v2/sale'),
        params: [
          ['client_orderid', 'PM-{{$guid}}'],
          ['amount', '10.00'],
          ['email', 'a@b.c'],
          ['phone', '+49 30 1234567'],
        ],
      },
      vars,
    );
    assert.equal(run.url, 'http://127.0.0.1:9/paynet/api/v2/sale/1001');
    assert.match(run.sent[0]![1], /^PM-[0-9a-f-]{36}$/);
    assert.equal(run.sent[3]![1], '+49 30 1234567');
    const sale = endpointByOperation(OP.SALE).auth;
    assert.equal(sale.kind, 'control');
    const expected = computeControl(
      sale.kind === 'control' ? sale.fields : [],
      { operation: OP.SALE, endpointId: '1001', params: run.sent.filter(([n]) => n !== 'control') },
      'k',
    );
    assert.equal(controlOf(run), expected.control);
  });

  it('replaces a control already in the body instead of adding a second one', () => {
    const run = runScript(
      SCRIPT,
      {
        url: at('/api/v2/status'),
        params: [
          ['login', '{{login}}'],
          ['client_orderid', 'A'],
          ['orderid', '1'],
          ['control', 'stale'],
        ],
      },
      vars,
    );
    assert.equal(run.sent.filter(([n]) => n === 'control').length, 1);
    assert.notEqual(controlOf(run), 'stale');
  });

  it('skips an RSA-SHA256 request unless an Authorization header is supplied, and then leaves it alone', () => {
    const params: Pair[] = [
      ['client-order-id', 'X'],
      ['amount', '10.00'],
    ];
    const bare = runScript(
      SCRIPT,
      { url: at('/api/v4/payout'), params, headers: [{ key: 'Authorization', value: 'OAuth …', disabled: true }] },
      vars,
    );
    assert.equal(bare.skipped, true);
    assert.match(bare.logs.join('\n'), /RSA-SHA256/);
    const pasted = 'OAuth oauth_consumer_key="merchant", oauth_signature="x"';
    const given = runScript(
      SCRIPT,
      { url: at('/api/v4/payout'), params, headers: [{ key: 'Authorization', value: pasted }] },
      vars,
    );
    assert.equal(given.skipped, false);
    assert.equal(authorizationOf(given), pasted);
    assert.equal(controlOf(given), undefined);
  });

  it("signs get-card-info with the public page's control, SHA-1(login + cardrefid + key) (A-12)", () => {
    const run = runScript(
      SCRIPT,
      {
        url: at('/api/v2/get-card-info'),
        params: [
          ['login', '{{login}}'],
          ['cardrefid', '1'],
        ],
      },
      vars,
    );
    assert.equal(controlOf(run), createHash('sha1').update('merchant1k').digest('hex'));
    assert.equal(authorizationOf(run), undefined);
  });

  it('sends the two operations with no stated scheme unsigned', () => {
    for (const path of ['/api/v2/payment-form', '/api/v2/payout-form']) {
      const run = runScript(
        SCRIPT,
        {
          url: at(path),
          params: [
            ['login', '{{login}}'],
            ['cardrefid', '1'],
          ],
        },
        vars,
      );
      assert.equal(run.skipped, false, path);
      assert.equal(authorizationOf(run), undefined, path);
      assert.equal(controlOf(run), undefined, path);
    }
  });

  it('draws a fresh nonce and the current time when oauthNonce and oauthTimestamp are not set', () => {
    const params: Pair[] = [['amount', '1.00']];
    const nonces = [1, 2].map(
      () =>
        parseAuthorizationHeader(authorizationOf(runScript(SCRIPT, { url: at('/api/v2/payout'), params }, vars))!)
          .pairs,
    );
    const [a, b] = nonces.map((pairs) => pairs.find(([n]) => n === 'oauth_nonce')![1]);
    assert.notEqual(a, b);
    const timestamp = Number(nonces[0]!.find(([n]) => n === 'oauth_timestamp')![1]);
    assert.ok(Math.abs(timestamp - Date.now() / 1000) < 60, String(timestamp));
  });

  it('refuses to sign without a control key, and names a missing formula field', () => {
    assert.throws(
      () => runScript(SCRIPT, { url: at('/api/v2/sale'), params: [] }, { ...vars, controlKey: '' }),
      /set the controlKey variable/,
    );
    assert.throws(
      () => runScript(SCRIPT, { url: at('/api/v2/sale'), params: [['amount', '1.00']] }, vars),
      /client_orderid is missing; the SALE control is SHA-1\(endpointId \+ client_orderid \+ amount \+ email \+ merchant_control_key\)/,
    );
    assert.throws(
      () =>
        runScript(
          SCRIPT,
          {
            url: at('/api/v2/sale'),
            params: [
              ['client_orderid', 'A'],
              ['amount', '1.5e3'],
              ['email', 'a@b.c'],
            ],
          },
          vars,
        ),
      /amount "1.5e3" is not a decimal amount/,
    );
  });
});
