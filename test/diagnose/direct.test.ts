// diagnose, the mistake recipes and the apply helpers called directly. Every expected value is built by
// hand here: the concatenation or base string a partner's code would produce, hashed or signed with
// node:crypto; never a value taken from the code under test.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac, generateKeyPairSync, sign as rsaSign, verify } from 'node:crypto';
import { diagnose } from '../../src/rules/diagnose.ts';
import {
  callbackControlWithMistake,
  controlWithMistake,
  oauthHeaderWithMistake,
} from '../../src/signing/diagnose/index.ts';
import { OAUTH_MISTAKES } from '../../src/signing/diagnose/oauth-mistakes.ts';
import { oauthParts, recipeBaseString, REFERENCE } from '../../src/signing/diagnose/oauth-recipe.ts';
import type { Pair } from '../../src/signing/form-body.ts';

const sha1 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex');
const hmac = (key: string, base: string): string => createHmac('sha1', key).update(base, 'utf8').digest('base64');
/** An Authorization header written out by hand: name="value" items, values percent-encoded. */
const header = (pairs: Array<[string, string]>): string =>
  `OAuth ${pairs.map(([n, v]) => `${n}="${encodeURIComponent(v)}"`).join(',')}`;
const PLACEHOLDER = '<merchant_control_key>';

describe('diagnose, control scheme', () => {
  // SALE: SHA-1(endpointId + client_orderid + amount in cents + email + key), api-spec.md Scheme A.
  const KEY = 'K3y';
  const url = 'https://h.example/api/v2/sale/9876';
  const params: Pair[] = [
    ['client_orderid', 'A-7'],
    ['amount', '10.00'],
    ['email', 'e@x'],
  ];
  const concatenation = '9876' + 'A-7' + '1000' + 'e@x';
  const credentials = { controlKey: KEY };

  it('accepts the correct control, given directly or as the control form field, and shows the concatenation', () => {
    const good = sha1(concatenation + KEY);
    for (const d of [
      diagnose({ request: { url, params }, credentials, given: { control: good } }),
      diagnose({ request: { url, params: [...params, ['control', good]] }, credentials, given: {} }),
    ]) {
      assert.equal(d.verdict, 'valid');
      assert.equal(d.scheme, 'control');
      assert.deepEqual(d.defects, []);
      assert.match(d.message, /control/);
      assert.match(d.message, /valid/);
      assert.equal(d.correct.controlInput, concatenation + PLACEHOLDER);
      assert.equal(d.partner, undefined);
    }
  });

  it('reports a missing control without computing anything', () => {
    const d = diagnose({ request: { url, params }, credentials, given: {} });
    assert.equal(d.verdict, 'invalid');
    assert.equal(d.scheme, 'control');
    assert.deepEqual(d.defects, []);
    assert.match(d.message, /control/);
    assert.match(d.message, /missing/);
    assert.deepEqual(d.correct, {});
  });

  it('names key-not-last for SHA-1(key + fields) and shows the partner concatenation with the key first', () => {
    const d = diagnose({ request: { url, params }, credentials, given: { control: sha1(KEY + concatenation) } });
    assert.equal(d.verdict, 'invalid');
    assert.equal(d.scheme, 'control');
    assert.deepEqual(d.defects, ['key-not-last']);
    assert.equal(d.partner?.controlInput, PLACEHOLDER + concatenation);
    assert.equal(d.correct.controlInput, concatenation + PLACEHOLDER);
    assert.match(d.message, /does not match the formula/);
    assert.match(d.message, /reproduced by: key-not-last/);
  });

  it('names fields-wrong-order for the right values concatenated in another order', () => {
    const swapped = 'A-7' + '9876' + '1000' + 'e@x';
    const d = diagnose({ request: { url, params }, credentials, given: { control: sha1(swapped + KEY) } });
    assert.deepEqual(d.defects, ['fields-wrong-order']);
    assert.equal(d.partner?.controlInput, swapped + PLACEHOLDER);
  });

  it('names decimal-amount for an amount that is no decimal at all ("10,00"), though no correct control exists', () => {
    const comma: Pair[] = [
      ['client_orderid', 'A-7'],
      ['amount', '10,00'],
      ['email', 'e@x'],
    ];
    const d = diagnose({
      request: { url, params: comma },
      credentials,
      given: { control: sha1('9876' + 'A-7' + '10,00' + 'e@x' + KEY) },
    });
    assert.equal(d.verdict, 'invalid');
    assert.deepEqual(d.defects, ['decimal-amount']);
    assert.match(d.message, /^control cannot be computed \(amount: /);
    assert.match(d.message, /reproduced by: decimal-amount$/);
    assert.deepEqual(d.correct, {});
  });

  it('says no known mistake reproduces an unrelated value, and shows no partner concatenation', () => {
    const d = diagnose({ request: { url, params }, credentials, given: { control: sha1('unrelated') } });
    assert.equal(d.verdict, 'invalid');
    assert.deepEqual(d.defects, []);
    assert.match(d.message, /does not match the formula/);
    assert.match(d.message, /no known mistake reproduces it/);
    assert.equal(d.partner, undefined);
  });

  it('says, for an unexplained value, what it tried and what that leaves instead of blaming the key', () => {
    const d = diagnose({ request: { url, params }, credentials, given: { control: sha1('unrelated') } });
    // The known control mistakes, written out here (docs/diagnoses.md).
    const known = [
      'decimal-amount',
      'amount-value-wrong',
      'float-cents',
      'truncated-cents',
      'cents-leading-zero',
      'values-form-encoded',
      'fields-wrong-order',
      'missing-field',
      'missing-fields',
      'amount-in-formula',
      'added-fields',
      'client-order-id-spelling',
      'login-endpointid-confusion',
      'separator-ampersand',
      'separator-pipe',
      'separator-comma',
      'separator-semicolon',
      'separator-newline',
      'key-not-last',
      'key-trailing-newline',
      'sha256-digest',
      'md5-digest',
      'uppercase-hex',
      'base64-digest',
    ];
    assert.deepEqual(d.tried, known);
    assert.match(
      d.message,
      /no known mistake reproduces it \(all 24 known control mistakes of docs\/diagnoses\.md tried, alone and up to 3 together\); that leaves a control key other than the one given, a formula value other than the one sent \(amount, order id, email, endpoint id or login\), or a formula payconform does not know$/,
    );
    // A value a mistake explains names that mistake and lists nothing tried.
    const explained = diagnose({
      request: { url, params },
      credentials,
      given: { control: sha1(`${concatenation}${KEY}`).toUpperCase() },
    });
    assert.deepEqual([explained.defects, explained.tried], [['uppercase-hex'], undefined]);
    assert.doesNotMatch(explained.message, /that leaves/);
  });

  it('names the client-order-id spelling when the order id was sent under the other name (SALE uses client_orderid)', () => {
    const sent: Pair[] = [
      ['client-order-id', 'A-7'],
      ['amount', '10.00'],
      ['email', 'e@x'],
    ];
    const d = diagnose({ request: { url, params: sent }, credentials, given: { control: sha1(concatenation + KEY) } });
    assert.equal(d.verdict, 'invalid');
    assert.deepEqual(d.defects, ['client-order-id-spelling']);
    assert.match(d.message, /cannot be computed/);
    assert.match(d.message, /client_orderid/);
    assert.match(d.message, /missing/);
    assert.deepEqual(d.correct, {});
    assert.equal(d.partner?.controlInput, concatenation + PLACEHOLDER);
  });

  it('names the client-order-id spelling on a 3-D Secure upload (formula uses client-order-id) signed over client_orderid', () => {
    // TDS_UPLOAD_CRES_RESULT: SHA-1(login + client-order-id + orderid + key).
    const request = {
      url: 'https://h.example/api/3ds/v1/upload-cres-result/42',
      params: [
        ['client_orderid', 'A-7'],
        ['orderid', '55'],
      ] as Pair[],
    };
    const d = diagnose({
      request,
      credentials: { login: 'merch', controlKey: KEY },
      given: { control: sha1('merch' + 'A-7' + '55' + KEY) },
    });
    assert.ok(d.defects.includes('client-order-id-spelling'), d.defects.join());
    assert.match(d.message, /client-order-id/);
  });

  it('names login-endpointid-confusion for a STATUS control over the endpointId instead of the login', () => {
    // STATUS: SHA-1(login + client_orderid + orderid + key).
    const request = {
      url: 'https://h.example/api/v2/status/42',
      params: [
        ['client_orderid', 'A-7'],
        ['orderid', '55'],
      ] as Pair[],
    };
    const d = diagnose({
      request,
      credentials: { login: 'merch', controlKey: KEY },
      given: { control: sha1('42' + 'A-7' + '55' + KEY) },
    });
    assert.deepEqual(d.defects, ['login-endpointid-confusion']);
    assert.equal(d.partner?.controlInput, '42A-755' + PLACEHOLDER);
  });

  it("diagnoses get-card-info by its public page's formula, SHA-1(login + cardrefid + key) (A-12)", () => {
    const request = {
      url: 'https://h.example/api/v2/get-card-info/42',
      params: [
        ['login', 'merch'],
        ['cardrefid', '9001'],
      ] as Pair[],
    };
    const creds = { login: 'merch', controlKey: KEY };
    assert.equal(
      diagnose({ request, credentials: creds, given: { control: sha1('merch9001' + KEY) } }).verdict,
      'valid',
    );
    const d = diagnose({ request, credentials: creds, given: { control: sha1(KEY + 'merch9001') } });
    assert.deepEqual(d.defects, ['key-not-last']);
    assert.equal(d.partner?.controlInput, PLACEHOLDER + 'merch9001');
  });

  it('takes the login from the form when the credentials have none, for the mistakes too', () => {
    const request = {
      url: 'https://h.example/api/v2/status/42',
      params: [
        ['login', 'merch'],
        ['client_orderid', 'A-7'],
        ['orderid', '55'],
      ] as Pair[],
    };
    const d = diagnose({ request, credentials, given: { control: sha1(KEY + 'merch' + 'A-7' + '55') } });
    assert.deepEqual(d.defects, ['key-not-last']);
    assert.equal(d.partner?.controlInput, PLACEHOLDER + 'merchA-755');
  });

  it('never takes a field the request lacks as empty: an uppercase digest over the fields without email is no mistake', () => {
    const noEmail: Pair[] = [
      ['client_orderid', 'A-7'],
      ['amount', '10.00'],
    ];
    const given = sha1('9876A-71000' + KEY).toUpperCase();
    const d = diagnose({ request: { url, params: noEmail }, credentials, given: { control: given } });
    assert.deepEqual(d.defects, []);
    assert.match(d.message, /cannot be computed/);
    assert.match(d.message, /email/);
  });

  it('uses the operation given for a URL that is no catalogue path, with the endpointId from its last segment', () => {
    const d = diagnose({
      request: { url: 'https://h.example/merchant/9876', params },
      credentials,
      operation: 'SALE',
      given: { control: sha1(concatenation + KEY) },
    });
    assert.equal(d.verdict, 'valid');
    assert.equal(d.correct.controlInput, concatenation + PLACEHOLDER);
  });

  it('refuses an endpoint without a stated scheme, and a control without a control key', () => {
    assert.throws(
      () =>
        diagnose({
          request: { url: 'https://h.example/api/v2/payment-form/1', params: [] },
          credentials,
          given: { control: 'x' },
        }),
      (e: Error & { code?: string }) =>
        e.code === 'ERR_SCHEME' && /PAYMENTFORM/.test(e.message) && /no authentication stated/.test(e.message),
    );
    assert.throws(
      () => diagnose({ request: { url, params }, credentials: {}, given: { control: sha1(concatenation) } }),
      (e: Error & { code?: string }) =>
        e.code === 'ERR_CREDENTIALS' && /control key/.test(e.message) && /missing/.test(e.message),
    );
  });

  it('lets a programming error through instead of turning it into a verdict', () => {
    // A pair whose value throws a TypeError the first time it is read (a bug in the caller, not bad input).
    let thrown = false;
    const email = ['email', ''] as unknown as Pair;
    Object.defineProperty(email, 1, {
      get() {
        if (!thrown) {
          thrown = true;
          throw new TypeError('boom');
        }
        return 'e@x';
      },
    });
    assert.throws(
      () =>
        diagnose({
          request: { url, params: [['client_orderid', 'A-7'], ['amount', '10.00'], email] },
          credentials,
          given: { control: sha1('x') },
        }),
      TypeError,
    );
    const payout = 'https://h.example/api/v2/payout/7';
    assert.throws(
      () =>
        diagnose({
          request: { url: payout, params: [] },
          credentials,
          given: { authorization: Symbol('h') as unknown as string },
        }),
      TypeError,
    );
  });
});

describe('diagnose, OAuth', () => {
  const KEY = 'K3y';
  const payout = 'https://h.example/api/v2/payout/7';
  const params: Pair[] = [
    ['amount', '10.00'],
    ['note', 'a b'],
  ];
  const protocol = (method: string): Array<[string, string]> => [
    ['oauth_consumer_key', 'm'],
    ['oauth_nonce', 'n'],
    ['oauth_signature_method', method],
    ['oauth_timestamp', '1'],
    ['oauth_version', '1.0'],
  ];
  // RFC 5849 §3.4.1 by hand: POST & enc(URL) & enc(sorted name=value pairs), a space as %20 (so %2520 after the outer encoding).
  const oauthTail = (method: string) =>
    `%26oauth_consumer_key%3Dm%26oauth_nonce%3Dn%26oauth_signature_method%3D${method}%26oauth_timestamp%3D1%26oauth_version%3D1.0`;
  const hmacBase =
    'POST&https%3A%2F%2Fh.example%2Fapi%2Fv2%2Fpayout%2F7&amount%3D10.00%26note%3Da%2520b' + oauthTail('HMAC-SHA1');
  const plusBase =
    'POST&https%3A%2F%2Fh.example%2Fapi%2Fv2%2Fpayout%2F7&amount%3D10.00%26note%3Da%2Bb' + oauthTail('HMAC-SHA1');
  const signed = (method: string, signature: string) => header([...protocol(method), ['oauth_signature', signature]]);
  const credentials = { login: 'm', controlKey: KEY };

  it('accepts the correct HMAC-SHA1 signature and shows the base string', () => {
    const d = diagnose({
      request: { url: payout, params },
      credentials,
      given: { authorization: signed('HMAC-SHA1', hmac(`${KEY}&`, hmacBase)) },
    });
    assert.equal(d.verdict, 'valid');
    assert.equal(d.scheme, 'oauth-hmac-sha1');
    assert.deepEqual(d.defects, []);
    assert.match(d.message, /HMAC-SHA1/);
    assert.match(d.message, /valid/);
    assert.equal(d.correct.baseString, hmacBase);
    assert.equal(d.partner, undefined);
  });

  it('names plus-for-space for a signature over "a+b" and shows that base string', () => {
    const d = diagnose({
      request: { url: payout, params },
      credentials,
      given: { authorization: signed('HMAC-SHA1', hmac(`${KEY}&`, plusBase)) },
    });
    assert.equal(d.verdict, 'invalid');
    assert.deepEqual(d.defects, ['plus-for-space']);
    assert.equal(d.partner?.baseString, plusBase);
    assert.equal(d.correct.baseString, hmacBase);
    assert.match(d.message, /HMAC-SHA1 signature does not match/);
    assert.match(d.message, /reproduced by: plus-for-space/);
  });

  it('says no known mistake reproduces an unrelated signature, and shows no partner base string', () => {
    const d = diagnose({
      request: { url: payout, params },
      credentials,
      given: { authorization: signed('HMAC-SHA1', hmac('other&', hmacBase)) },
    });
    assert.deepEqual([d.verdict, d.defects, d.partner], ['invalid', [], undefined]);
    assert.match(d.message, /does not match/);
    assert.match(
      d.message,
      /no known mistake reproduces it \(all 23 known OAuth mistakes of docs\/diagnoses\.md tried, alone and up to 3 together\); that leaves a key other than the one given, a parameter or URL signed other than it was sent, or a signing step payconform does not know$/,
    );
    assert.equal(d.tried?.length, 23);
    assert.ok(d.tried?.includes('double-encoding') && d.tried.includes('realm-signed'));
  });

  it('reports a missing header under the scheme the endpoint requires (HMAC-SHA1 when there is no catalogue endpoint)', () => {
    for (const [u, scheme] of [
      [payout, 'oauth-hmac-sha1'],
      ['https://h.example/api/v4/payout/7', 'oauth-rsa-sha256'],
      ['https://h.example/other/7', 'oauth-hmac-sha1'],
    ] as const) {
      const d = diagnose({ request: { url: u, params }, credentials, given: {} });
      assert.deepEqual([d.verdict, d.scheme, d.defects, d.correct], ['invalid', scheme, [], {}], u);
      assert.match(d.message, /authorization/);
      assert.match(d.message, /missing/);
    }
  });

  it('reports a header without oauth_signature, or with no or an unknown oauth_signature_method, in the words of the book', () => {
    const noSignature = diagnose({
      request: { url: payout, params },
      credentials,
      given: { authorization: header(protocol('HMAC-SHA1')) },
    });
    assert.equal(noSignature.verdict, 'invalid');
    assert.match(noSignature.message, /oauth_signature\b/);
    assert.match(noSignature.message, /missing/);
    const plaintext = diagnose({
      request: { url: payout, params },
      credentials,
      given: { authorization: signed('PLAINTEXT', 'K3y%26') },
    });
    assert.equal(plaintext.verdict, 'invalid');
    // The signature-method rule's words: the method sent and the one the endpoint requires.
    assert.equal(plaintext.message, 'authorization: oauth_signature_method is PLAINTEXT; PAYOUT requires HMAC-SHA1');
    const noMethod = header([
      ...protocol('x').filter(([n]) => n !== 'oauth_signature_method'),
      ['oauth_signature', 'AAAA'],
    ]);
    const missing = diagnose({ request: { url: payout, params }, credentials, given: { authorization: noMethod } });
    assert.equal(missing.verdict, 'invalid');
    // The header-format rule's words, as the mock refuses it.
    assert.equal(missing.message, 'authorization: oauth_signature_method is missing');
    for (const d of [noSignature, plaintext, missing]) assert.doesNotMatch(d.message, /\n/);
  });

  it('refuses an HMAC-SHA1 check without a control key', () => {
    assert.throws(
      () =>
        diagnose({
          request: { url: payout, params },
          credentials: { login: 'm' },
          given: { authorization: signed('HMAC-SHA1', 'AAAA') },
        }),
      (e: Error & { code?: string }) =>
        e.code === 'ERR_CREDENTIALS' && /control key/.test(e.message) && /missing/.test(e.message),
    );
  });

  describe('RSA-SHA256', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const v4 = 'https://h.example/api/v4/payout/7';
    const rsaBase = (u: string) =>
      `POST&${encodeURIComponent(u)}&amount%3D10.00%26note%3Da%2520b${oauthTail('RSA-SHA256')}`;
    const rsa = (base: string) => rsaSign('sha256', Buffer.from(base, 'utf8'), privateKey).toString('base64');

    it('accepts a correct signature checked with the public key alone, and only in canonical base64', () => {
      const signature = rsa(rsaBase(v4));
      const ok = diagnose({
        request: { url: v4, params },
        credentials: { publicKeyPem },
        given: { authorization: signed('RSA-SHA256', signature) },
      });
      assert.deepEqual([ok.verdict, ok.scheme, ok.correct.baseString], ['valid', 'oauth-rsa-sha256', rsaBase(v4)]);
      assert.match(ok.message, /RSA-SHA256/);
      // A 256-byte signature ends in "==": the same bytes without the padding are not the signature sent.
      assert.ok(signature.endsWith('=='));
      const unpadded = diagnose({
        request: { url: v4, params },
        credentials: { publicKeyPem },
        given: { authorization: signed('RSA-SHA256', signature.replace(/=+$/, '')) },
      });
      assert.equal(unpadded.verdict, 'invalid');
    });

    it('names wrong-signature-method for an RSA-SHA256 signature on PAYOUT (HMAC-SHA1), checking it with the private key', () => {
      const d = diagnose({
        request: { url: payout, params },
        credentials: { login: 'm', controlKey: KEY, privateKeyPem },
        given: { authorization: signed('RSA-SHA256', rsa(rsaBase(payout))) },
      });
      assert.equal(d.verdict, 'invalid');
      assert.equal(d.scheme, 'oauth-hmac-sha1');
      assert.deepEqual(d.defects, ['wrong-signature-method']);
      for (const word of [/oauth_signature_method is RSA-SHA256/, /PAYOUT requires HMAC-SHA1/, /valid RSA-SHA256/])
        assert.match(d.message, word);
      assert.equal(d.message.split('(').length, d.message.split(')').length, 'parentheses balance');
    });

    it('says only which method is required when a wrong-method signature is not even valid under its own method', () => {
      const d = diagnose({
        request: { url: v4, params },
        credentials: { controlKey: KEY, publicKeyPem },
        given: { authorization: signed('HMAC-SHA1', hmac('other&', 'x')) },
      });
      assert.deepEqual([d.verdict, d.scheme, d.defects], ['invalid', 'oauth-rsa-sha256', []]);
      assert.match(d.message, /oauth_signature_method is HMAC-SHA1; PAYOUT_V4 requires RSA-SHA256$/);
    });

    it('refuses to check an RSA signature without any key', () => {
      assert.throws(
        () =>
          diagnose({
            request: { url: v4, params },
            credentials: {},
            given: { authorization: signed('RSA-SHA256', 'AAAA') },
          }),
        (e: Error & { code?: string; field?: string; rule?: string }) =>
          e.code === 'ERR_CREDENTIALS' &&
          e.field === 'public key' &&
          e.rule === 'required' &&
          /public key/.test(e.message) &&
          /missing/.test(e.message),
      );
    });
  });
});

describe('mistake recipes give the base string a partner with that mistake signs', () => {
  const nonce: Pair[] = [['oauth_nonce', 'n']];
  const recipe = (id: string, variant = 0) => ({
    ...REFERENCE,
    ...OAUTH_MISTAKES.find((m) => m.id === id)!.recipes[variant],
  });
  const base = (id: string, url: string, body: Pair[], realm?: string, variant = 0) =>
    recipeBaseString(id === 'none' ? REFERENCE : recipe(id, variant), oauthParts('POST', url, body, nonce, realm));

  it('default-port-kept and host-not-lowercased keep an IPv6 host literal whole, brackets included', () => {
    // RFC 3986 §3.2.2: an IPv6 host is written in brackets; the partner's URL as written is https://[2001:DB8::1]:443/p.
    const url = 'https://[2001:DB8::1]:443/p';
    assert.equal(
      base('default-port-kept', url, []),
      'POST&https%3A%2F%2F%5B2001%3Adb8%3A%3A1%5D%3A443%2Fp&oauth_nonce%3Dn',
    );
    assert.equal(
      base('host-not-lowercased', url, []),
      'POST&https%3A%2F%2F%5B2001%3ADB8%3A%3A1%5D%2Fp&oauth_nonce%3Dn',
    );
  });

  it('sort-by-name-only sorts the names and keeps repeated names in send order', () => {
    assert.equal(
      base('sort-by-name-only', 'https://h.example/p', [
        ['z', '2'],
        ['b', '2'],
        ['b', '1'],
      ]),
      'POST&https%3A%2F%2Fh.example%2Fp&b%3D2%26b%3D1%26oauth_nonce%3Dn%26z%3D2',
    );
  });

  it('case-insensitive-sort: lowercased names then values by bytes (variant 1: localeCompare, "~" before letters)', () => {
    const body: Pair[] = [
      ['a', '1'],
      ['B', '2'],
      ['A', '2'],
      ['A', '1'],
      ['~', '0'],
    ];
    assert.equal(
      base('case-insensitive-sort', 'https://h.example/p', body),
      'POST&https%3A%2F%2Fh.example%2Fp&a%3D1%26A%3D1%26A%3D2%26B%3D2%26oauth_nonce%3Dn%26~%3D0',
    );
    assert.equal(
      base('case-insensitive-sort', 'https://h.example/p', body, undefined, 1),
      'POST&https%3A%2F%2Fh.example%2Fp&~%3D0%26a%3D1%26A%3D1%26A%3D2%26B%3D2%26oauth_nonce%3Dn',
    );
  });

  it('realm-signed adds the realm only when there is one', () => {
    assert.equal(
      base('realm-signed', 'https://h.example/p', [['a', '1']], 'R'),
      'POST&https%3A%2F%2Fh.example%2Fp&a%3D1%26oauth_nonce%3Dn%26realm%3DR',
    );
    assert.equal(
      base('realm-signed', 'https://h.example/p', [['a', '1']]),
      'POST&https%3A%2F%2Fh.example%2Fp&a%3D1%26oauth_nonce%3Dn',
    );
  });

  it('default-port-kept keeps an explicit port (also after an IPv6 host, and with "/" for an empty path), adds none', () => {
    assert.equal(
      base('default-port-kept', 'https://H.example:443', []),
      'POST&https%3A%2F%2Fh.example%3A443%2F&oauth_nonce%3Dn',
    );
    assert.equal(
      base('default-port-kept', 'https://[::1]:443/p', []),
      'POST&https%3A%2F%2F%5B%3A%3A1%5D%3A443%2Fp&oauth_nonce%3Dn',
    );
    assert.equal(
      base('default-port-kept', 'https://h.example/p', []),
      'POST&https%3A%2F%2Fh.example%2Fp&oauth_nonce%3Dn',
    );
  });

  it('host-not-lowercased keeps the case of scheme and host but drops the query; a URL without "//" stays as written', () => {
    assert.equal(
      base('host-not-lowercased', 'HTTPS://H.Example/p?q=1', []),
      'POST&HTTPS%3A%2F%2FH.Example%2Fp&oauth_nonce%3Dn%26q%3D1',
    );
    assert.equal(base('host-not-lowercased', 'https:H.example/p', []), 'POST&https%3AH.example%2Fp&oauth_nonce%3Dn');
  });

  it('only-first-star-or-bang-encoded encodes the first * and the first ! only, inside and outside', () => {
    // value: a!!b**c -> a%21!b%2A*c; outer: v%3Da%2521!b%252A*c -> first * and first ! of that encoded.
    assert.equal(
      recipeBaseString(
        recipe('only-first-star-or-bang-encoded'),
        oauthParts('POST', 'https://h.example/p', [['v', 'a!!b**c']], [], undefined),
      ),
      'POST&https%3A%2F%2Fh.example%2Fp&v%3Da%2521%21b%252A%2Ac',
    );
  });

  it('encodeuricomponent-unfixed keeps a lone surrogate as it is instead of failing', () => {
    assert.equal(
      recipeBaseString(
        recipe('encodeuricomponent-unfixed'),
        oauthParts('POST', 'https://h.example/p', [['v', '\uD800']], [], undefined),
      ),
      'POST&https%3A%2F%2Fh.example%2Fp&v=\uD800',
    );
  });

  it('query-params-omitted signs the body without its oauth_signature pair', () => {
    assert.equal(
      base('query-params-omitted', 'https://h.example/p?q=1', [
        ['a', '1'],
        ['oauth_signature', 'S'],
      ]),
      'POST&https%3A%2F%2Fh.example%2Fp&a%3D1%26oauth_nonce%3Dn',
    );
  });

  it('query-not-decoded splits the query as written: a name without "=" has an empty value, empty items are skipped', () => {
    assert.equal(
      base('query-not-decoded', 'https://h.example/p?flag&a=1&&b=%3A', []),
      'POST&https%3A%2F%2Fh.example%2Fp&a%3D1%26b%3D%25253A%26flag%3D%26oauth_nonce%3Dn',
    );
    assert.equal(
      base('query-not-decoded', 'https://h.example/p', []),
      'POST&https%3A%2F%2Fh.example%2Fp&oauth_nonce%3Dn',
    );
  });
});

describe('making a mistake on purpose (apply)', () => {
  const request = {
    url: 'https://h.example/api/v2/sale/9876',
    params: [
      ['client_orderid', 'A-7'],
      ['amount', '10.00'],
      ['email', 'e@x'],
    ] as Pair[],
  };
  const input = {
    request: { url: 'https://h.example/api/v2/payout/7', params: [] },
    credentials: {},
    method: 'HMAC-SHA1' as const,
    nonce: 'n',
    timestamp: '1',
  };

  it('gives undefined for an unknown mistake, a variant it does not have, or a control mistake on an OAuth endpoint', () => {
    assert.equal(oauthHeaderWithMistake('no-such-mistake', input), undefined);
    assert.equal(oauthHeaderWithMistake('plus-for-space', input, 5), undefined);
    assert.equal(controlWithMistake('no-such-mistake', 'SALE', '9876', request, { controlKey: 'k' }), undefined);
    assert.equal(controlWithMistake('key-not-last', 'PAYOUT', '7', request, { controlKey: 'k' }), undefined);
  });

  it('gives undefined where the request lacks a field the mistake needs', () => {
    const without = (name: string) => ({ ...request, params: request.params.filter(([n]) => n !== name) });
    assert.equal(controlWithMistake('float-cents', 'SALE', '9876', without('amount'), { controlKey: 'k' }), undefined);
    assert.equal(
      controlWithMistake('fields-wrong-order', 'SALE', '9876', without('email'), { controlKey: 'k' }),
      undefined,
    );
    assert.equal(controlWithMistake('uppercase-hex', 'SALE', '9876', without('email'), { controlKey: 'k' }), undefined);
  });

  it('signs with an empty consumer key and an empty control key when the credentials have none', () => {
    const h = oauthHeaderWithMistake('none', input)!;
    const base =
      'POST&https%3A%2F%2Fh.example%2Fapi%2Fv2%2Fpayout%2F7&oauth_consumer_key%3D%26oauth_nonce%3Dn%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1%26oauth_version%3D1.0';
    assert.match(h, /oauth_consumer_key=""/);
    assert.equal(decodeURIComponent(/oauth_signature="([^"]*)"/.exec(h)![1]!), hmac('&', base));
    assert.equal(
      controlWithMistake('uppercase-hex', 'SALE', '9876', request, {}),
      sha1('9876A-71000e@x').toUpperCase(),
    );
    // With an empty key, key first or last is the same concatenation: no room for the mistake.
    assert.equal(controlWithMistake('key-not-last', 'SALE', '9876', request, {}), undefined);
  });

  it('asks for the private key when an RSA-SHA256 header is to be signed without one', () => {
    assert.throws(
      () => oauthHeaderWithMistake('none', { ...input, method: 'RSA-SHA256' }),
      (err: Error & { code?: string; field?: string }) =>
        err.code === 'ERR_CREDENTIALS' && err.field === 'private key' && /^private key: missing/.test(err.message),
    );
  });

  // The base string of `input` with a consumer key and a signature method, written out by hand (RFC 5849 §3.4.1).
  const payoutBase = (consumerKey: string, method: string): string =>
    'POST&https%3A%2F%2Fh.example%2Fapi%2Fv2%2Fpayout%2F7&oauth_consumer_key%3D' +
    `${consumerKey}%26oauth_nonce%3Dn%26oauth_signature_method%3D${method}%26oauth_timestamp%3D1%26oauth_version%3D1.0`;
  const signatureOf = (h: string): string => decodeURIComponent(/oauth_signature="([^"]*)"/.exec(h)![1]!);

  it('signs HMAC-SHA1 with the key "control key&token secret" when a token secret is given', () => {
    const h = oauthHeaderWithMistake('none', {
      ...input,
      credentials: { login: 'm', controlKey: 'K', tokenSecret: 'T' },
    });
    assert.equal(signatureOf(h!), hmac('K&T', payoutBase('m', 'HMAC-SHA1')));
  });

  it('signs RSA-SHA256 with the private key: the Base64 signature verifies with its public key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const privateKeyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const h = oauthHeaderWithMistake('none', {
      ...input,
      method: 'RSA-SHA256',
      credentials: { login: 'm', privateKeyPem },
    });
    const base = Buffer.from(payoutBase('m', 'RSA-SHA256'), 'utf8');
    assert.equal(verify('sha256', base, publicKey, Buffer.from(signatureOf(h!), 'base64')), true);
    assert.match(signatureOf(h!), /^[A-Za-z0-9+/]+={0,2}$/);
  });

  it('query-params-omitted leaves the query out; the last variant of repeated-params-collapsed keeps the last pair', () => {
    const omitted = oauthHeaderWithMistake('query-params-omitted', {
      ...input,
      request: { url: 'https://h.example/api/v2/payout/7?q=1', params: [] },
    });
    assert.equal(signatureOf(omitted!), hmac('&', payoutBase('', 'HMAC-SHA1')));
    const repeated: Pair[] = [
      ['a', '1'],
      ['a', '2'],
    ];
    const last = oauthHeaderWithMistake(
      'repeated-params-collapsed',
      { ...input, request: { ...input.request, params: repeated } },
      1,
    );
    const base = payoutBase('', 'HMAC-SHA1').replace('&oauth_consumer_key', '&a%3D2%26oauth_consumer_key');
    assert.equal(signatureOf(last!), hmac('&', base));
  });

  it("gives a callback's control under a mistake: SHA-1(status + orderid + client_orderid + key) in uppercase", () => {
    const params: Pair[] = [
      ['orderid', '123'],
      ['status', 'approved'],
      ['client_orderid', 'A-7'],
    ];
    assert.equal(callbackControlWithMistake('uppercase-hex', params, 'K'), sha1('approved123A-7K').toUpperCase());
    assert.equal(callbackControlWithMistake('key-not-last', params, 'K'), sha1('Kapproved123A-7'));
    assert.equal(callbackControlWithMistake('no-such-mistake', params, 'K'), undefined);
  });
});
