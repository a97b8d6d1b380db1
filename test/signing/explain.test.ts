// The explanation of a signature, step by step. Every value shown is checked against one built here by
// hand: the concatenation written out and hashed with node:crypto, the OAuth base string assembled from
// hand-sorted, hand-encoded pairs and signed / verified with node:crypto directly.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  sign as rsaSign,
  verify as rsaVerify,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import { explain, explanationText, type ExplainStep, type Explanation } from '../../src/signing/explain.ts';
import { signRequest } from '../../src/signing/sign.ts';

const root = new URL('../..', import.meta.url).pathname;
const privateKeyPem = readFileSync(`${root}vectors/keys/test-only-merchant-rsa-2048.pem`, 'utf8');
const publicKeyPem = readFileSync(`${root}vectors/keys/test-only-merchant-rsa-2048.pub.pem`, 'utf8');

const KEY = 'TESTKEY-123';
const LOGIN = 'merchant-test';

/** RFC 3986 percent-encoding (RFC 5849 §3.6): everything but ALPHA / DIGIT / - . _ ~ is encoded. */
const enc = (s: string): string =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function step(e: Explanation, id: string): ExplainStep {
  const [found, ...more] = e.steps.filter((s) => s.step === id);
  assert.ok(found !== undefined && more.length === 0, `exactly one step ${id}`);
  return found;
}

describe('explain: control SHA-1 (Scheme A)', () => {
  // SALE below a /paynet prefix; the parameters in an order different from the formula's.
  const sale = explain(
    signRequest(
      {
        url: 'https://sandbox.gateway.example/paynet/api/v2/sale/9876',
        params: [
          ['email', 'jane@example.com'],
          ['amount', '123.45'],
          ['currency', 'EUR'],
          ['client_orderid', 'A-7'],
        ],
      },
      { login: LOGIN, controlKey: KEY },
    ),
  );
  // STATUS at the root of the host: login from the credentials, no amount.
  const status = explain(
    signRequest(
      {
        url: 'https://gw.example/api/v2/status/42',
        params: [
          ['client_orderid', 'A-7'],
          ['orderid', 'PNX-55'],
        ],
      },
      { login: LOGIN, controlKey: KEY },
    ),
  );

  it('lists the steps in order, with a cents step only where the formula takes an amount', () => {
    assert.deepEqual(
      sale.steps.map((s) => s.step),
      ['endpoint', 'formula', 'cents', 'concatenation', 'digest'],
    );
    assert.deepEqual(
      status.steps.map((s) => s.step),
      ['endpoint', 'formula', 'concatenation', 'digest'],
    );
    assert.equal(sale.scheme, 'control');
    assert.equal(sale.operation, 'SALE');
    assert.equal(sale.endpointId, '9876');
  });

  it('names the endpoint from the catalogue, its id from the URL, the path prefix when there is one, and the scheme', () => {
    const e = step(sale, 'endpoint');
    assert.match(e.title, /endpoint/i);
    assert.match(e.title, /catalogue/);
    assert.equal(e.value, 'SALE /api/v2/sale/{endpointId}');
    assert.equal(e.details.length, 2);
    assert.match(e.details[0]!, /endpointId 9876\b/);
    assert.match(e.details[0]!, /URL path/);
    assert.match(e.details[0]!, /path prefix \/paynet$/);
    assert.match(e.details[1]!, /^scheme: control$/);
    const s = step(status, 'endpoint');
    assert.equal(s.value, 'STATUS /api/v2/status/{endpointId}');
    assert.match(s.details[0]!, /endpointId 42\b/);
    // No prefix: the line ends with where the id came from.
    assert.match(s.details[0]!, /\(from the URL path\)$/);
    assert.doesNotMatch(s.details[0]!, /prefix/);
  });

  it('states the formula: the spec order of the fields, the key last, the amount in cents', () => {
    const f = step(sale, 'formula');
    assert.match(f.title, /Control formula/);
    assert.match(f.title, /Scheme A/);
    const names = /^SHA-1\((.*)\)/.exec(f.value)?.[1]?.split(' + ');
    assert.deepEqual(names, ['endpointId', 'client_orderid', 'amount', 'email', 'merchant_control_key']);
    assert.match(f.value, /amount in cents/);
    assert.equal(f.details.length, 1);
    assert.match(f.details[0]!, /control key/);
    assert.match(f.details[0]!, /appended last/);
    assert.match(f.details[0]!, /never sent/);
    const s = step(status, 'formula');
    assert.deepEqual(/^SHA-1\((.*)\)/.exec(s.value)?.[1]?.split(' + '), [
      'login',
      'client_orderid',
      'orderid',
      'merchant_control_key',
    ]);
    assert.doesNotMatch(s.value, /cents/);
  });

  it('shows the amount converted to integer cents', () => {
    const c = step(sale, 'cents');
    assert.match(c.title, /integer cents/);
    assert.match(c.title, /\bamount$/);
    assert.equal(c.value, '12345');
    assert.equal(c.details.length, 1);
    assert.match(c.details[0]!, /^"123\.45" → 12345\b/);
    assert.match(c.details[0]!, /no floating point/);
  });

  it('shows the concatenation with the key as a placeholder, and where each value comes from', () => {
    const c = step(sale, 'concatenation');
    assert.match(c.title, /concatenation/);
    assert.match(c.title, /key last/);
    assert.equal(c.value, '9876' + 'A-7' + '12345' + 'jane@example.com' + '<merchant_control_key>');
    assert.equal(c.details.length, 4);
    assert.match(c.details[0]!, /^endpointId = "9876" \(from the URL\)$/);
    assert.match(c.details[1]!, /^client_orderid = "A-7" \(from the form body\)$/);
    assert.match(c.details[2]!, /^amount = "12345" \(from the form body\)$/);
    assert.match(c.details[3]!, /^email = "jane@example.com" \(from the form body\)$/);
    const s = step(status, 'concatenation');
    assert.equal(s.value, `${LOGIN}A-7PNX-55<merchant_control_key>`);
    assert.match(s.details[0]!, /^login = "merchant-test" \(from the login\)$/);
    assert.match(s.details[1]!, /^client_orderid = "A-7" \(from the form body\)$/);
    assert.match(s.details[2]!, /^orderid = "PNX-55" \(from the form body\)$/);
  });

  it('shows the SHA-1 of the concatenation with the real key, lowercase hex, and nothing more', () => {
    const d = step(sale, 'digest');
    assert.match(d.title, /SHA-1/);
    assert.match(d.title, /lowercase hex/);
    // printf '%s' '9876A-712345jane@example.comTESTKEY-123' | sha1sum (also in control.test.ts)
    assert.equal(d.value, '7bdd7979a5aed21b747e2c3084cb874ef842ed5d');
    assert.equal(d.value, createHash('sha1').update(`9876A-712345jane@example.com${KEY}`).digest('hex'));
    assert.deepEqual(d.details, []);
    assert.equal(step(status, 'digest').value, createHash('sha1').update(`${LOGIN}A-7PNX-55${KEY}`).digest('hex'));
    assert.deepEqual(sale.expected, {
      controlInput: '9876A-712345jane@example.com<merchant_control_key>',
      control: d.value,
    });
  });

  it('renders as numbered titles, each followed by its value and its indented details', () => {
    const lines = explanationText(sale).split('\n');
    const numbered = lines.filter((l) => /^\d+\. /.test(l));
    assert.deepEqual(
      numbered.map((l) => l.split(' ')[0]),
      ['1.', '2.', '3.', '4.', '5.'],
    );
    assert.match(lines[0]!, /^1\. Endpoint/);
    assert.equal(lines[1], '   SALE /api/v2/sale/{endpointId}');
    assert.match(lines[2]!, /^ {5}endpointId 9876 /);
    assert.match(lines[3]!, /^ {5}scheme: control$/);
    assert.match(lines[4]!, /^2\. Control formula/);
    const concat = lines.findIndex((l) => /^4\. /.test(l));
    assert.match(lines[concat]!, /concatenation/);
    assert.equal(lines[concat + 1], '   9876A-712345jane@example.com<merchant_control_key>');
    assert.match(lines[concat + 2]!, /^ {5}endpointId = "9876"/);
    // The digest step has no details: its value is the last line.
    assert.match(lines.at(-2)!, /^5\. SHA-1/);
    assert.equal(lines.at(-1), '   7bdd7979a5aed21b747e2c3084cb874ef842ed5d');
    assert.equal(lines.length, 5 + 5 + 2 + 1 + 1 + 4 + 0);
  });
});

describe('explain: OAuth HMAC-SHA1 (Scheme B), with a query and a default port', () => {
  const input = 'https://SANDBOX.gateway.example:443/paynet/api/v2/payout/77?x=a%20b%2Fc';
  const e = explain(
    signRequest(
      {
        url: input,
        params: [
          ['client_orderid', 'P 1'],
          ['amount', '100.00'],
        ],
      },
      { login: LOGIN, controlKey: KEY },
      { nonce: 'n-1', timestamp: '1700000000' },
    ),
  );
  const url = 'https://sandbox.gateway.example/paynet/api/v2/payout/77';
  // Encoded and sorted by hand: amount < client_orderid < oauth_* < x.
  const sorted = [
    'amount=100.00',
    'client_orderid=P%201',
    'oauth_consumer_key=merchant-test',
    'oauth_nonce=n-1',
    'oauth_signature_method=HMAC-SHA1',
    'oauth_timestamp=1700000000',
    'oauth_version=1.0',
    'x=a%20b%2Fc',
  ];
  const normalized = sorted.join('&');
  const baseString = `POST&${enc(url)}&${enc(normalized)}`;
  const signature = createHmac('sha1', `${enc(KEY)}&`)
    .update(baseString)
    .digest('base64');
  const authorization =
    `OAuth oauth_consumer_key="merchant-test", oauth_nonce="n-1", oauth_signature="${enc(signature)}", ` +
    'oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000", oauth_version="1.0"';

  it('lists every step, the query parameters included', () => {
    assert.deepEqual(
      e.steps.map((s) => s.step),
      [
        'endpoint',
        'url',
        'protocol-params',
        'body-params',
        'query-params',
        'sorted-pairs',
        'normalized-params',
        'base-string',
        'key',
        'signature',
        'authorization',
      ],
    );
    assert.equal(e.scheme, 'oauth-hmac-sha1');
    assert.equal(step(e, 'endpoint').value, 'PAYOUT /api/v2/payout/{endpointId}');
    assert.match(step(e, 'endpoint').details[0]!, /endpointId 77\b.*path prefix \/paynet$/);
    assert.match(step(e, 'endpoint').details[1]!, /^scheme: oauth-hmac-sha1$/);
  });

  it('normalises the URL and says why: lowercase host, no query, default port dropped', () => {
    const u = step(e, 'url');
    assert.match(u.title, /Normalised request URL/);
    assert.equal(u.value, url);
    assert.equal(u.details.length, 3);
    assert.equal(u.details[0], `input: ${input}`);
    assert.match(u.details[1]!, /lowercased/);
    assert.match(u.details[1]!, /query/);
    assert.match(u.details[1]!, /3\.4\.1\.2/);
    assert.match(u.details[2]!, /default port :443 dropped/);
  });

  it('lists the protocol, body and query parameters decoded, with their counts', () => {
    const p = step(e, 'protocol-params');
    assert.match(p.title, /oauth_\* protocol parameters/);
    assert.match(p.title, /oauth_signature excluded/);
    assert.equal(p.value, '5 parameters');
    assert.deepEqual(p.details, [
      '"oauth_consumer_key" = "merchant-test"',
      '"oauth_nonce" = "n-1"',
      '"oauth_signature_method" = "HMAC-SHA1"',
      '"oauth_timestamp" = "1700000000"',
      '"oauth_version" = "1.0"',
    ]);
    const b = step(e, 'body-params');
    assert.match(b.title, /Form-body parameters/);
    assert.match(b.title, /send order/);
    assert.equal(b.value, '2 parameters');
    assert.deepEqual(b.details, ['"client_orderid" = "P 1"', '"amount" = "100.00"']);
    const q = step(e, 'query-params');
    assert.match(q.title, /query parameters/);
    assert.match(q.title, /decoded/);
    assert.equal(q.value, '1 parameter');
    assert.deepEqual(q.details, ['"x" = "a b/c"']);
  });

  it('shows the encoded pairs in byte order, joined, and the base string', () => {
    const s = step(e, 'sorted-pairs');
    assert.match(s.title, /RFC 3986-encoded/);
    assert.match(s.title, /sorted/);
    assert.equal(s.value, '8 pairs');
    assert.deepEqual(s.details, sorted);
    const n = step(e, 'normalized-params');
    assert.match(n.title, /joined with &/);
    assert.match(n.title, /3\.4\.1\.3\.2/);
    assert.equal(n.value, normalized);
    assert.deepEqual(n.details, []);
    const b = step(e, 'base-string');
    assert.match(b.title, /base string/);
    assert.equal(b.value, baseString);
    assert.deepEqual(b.details, []);
  });

  it('describes the HMAC key without the key, then the signature and the header', () => {
    const k = step(e, 'key');
    assert.match(k.title, /HMAC-SHA1 key/);
    assert.match(k.title, /consumer secret &/);
    assert.equal(k.value, 'enc(<merchant_control_key>)&');
    assert.deepEqual(k.details, []);
    const sig = step(e, 'signature');
    assert.match(sig.title, /Signature/);
    assert.match(sig.title, /Base64/);
    assert.equal(sig.value, signature);
    assert.equal(sig.details.length, 1);
    assert.match(sig.details[0]!, /percent-encoded/);
    assert.match(sig.details[0]!, /header/);
    const a = step(e, 'authorization');
    assert.match(a.title, /Authorization header/);
    assert.equal(a.value, authorization);
    assert.deepEqual(a.details, []);
    assert.deepEqual(e.expected, { baseString, signature, authorization });
    assert.ok(!JSON.stringify(e).includes(KEY), 'the control key is never shown');
  });
});

describe('explain: OAuth RSA-SHA256 (Scheme B), no query, no explicit port', () => {
  const e = explain(
    signRequest(
      { url: 'https://gw.example/api/v4/transfer/5', params: [['amount', '10.00']] },
      { login: LOGIN, privateKeyPem },
      { nonce: 'n-2', timestamp: '1700000001' },
    ),
  );
  const url = 'https://gw.example/api/v4/transfer/5';
  const normalized =
    'amount=10.00&oauth_consumer_key=merchant-test&oauth_nonce=n-2&oauth_signature_method=RSA-SHA256&oauth_timestamp=1700000001&oauth_version=1.0';
  const baseString = `POST&${enc(url)}&${enc(normalized)}`;

  it('has no query step and no port note when the URL has neither', () => {
    assert.deepEqual(
      e.steps.map((s) => s.step),
      [
        'endpoint',
        'url',
        'protocol-params',
        'body-params',
        'sorted-pairs',
        'normalized-params',
        'base-string',
        'key',
        'signature',
        'authorization',
      ],
    );
    assert.doesNotMatch(step(e, 'endpoint').details[0]!, /prefix/);
    assert.match(step(e, 'endpoint').details[1]!, /^scheme: oauth-rsa-sha256$/);
    const u = step(e, 'url');
    assert.equal(u.value, url);
    assert.equal(u.details.length, 2);
    assert.doesNotMatch(u.details.join('\n'), /port/);
    assert.equal(step(e, 'body-params').value, '1 parameter');
    assert.equal(step(e, 'sorted-pairs').value, '6 pairs');
  });

  it('describes the RSA key without the key and gives a PKCS#1 v1.5 SHA-256 signature of the base string', () => {
    assert.equal(step(e, 'base-string').value, baseString);
    const k = step(e, 'key');
    assert.match(k.title, /RSA-SHA256 key/);
    assert.match(k.title, /PKCS#1 v1\.5/);
    assert.doesNotMatch(k.title, /HMAC/);
    assert.match(k.value, /^<PRIVATE_KEY> \(2048-bit RSA private key\)$/);
    const signature = step(e, 'signature').value;
    assert.ok(
      rsaVerify('sha256', Buffer.from(baseString), createPublicKey(publicKeyPem), Buffer.from(signature, 'base64')),
    );
    // PKCS#1 v1.5 is deterministic: node:crypto gives the same bytes.
    assert.equal(
      signature,
      rsaSign('sha256', Buffer.from(baseString), createPrivateKey(privateKeyPem)).toString('base64'),
    );
    assert.match(e.expected.authorization!, new RegExp(`oauth_signature="${enc(signature)}"`));
    assert.ok(!JSON.stringify(e).includes('MIIE'), 'no key material');
  });
});
