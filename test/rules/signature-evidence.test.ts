// The evidence of a failed signature (src/rules/signature-evidence.ts), as inspect asks for it (explain): the
// hint naming the key tried, the diagnosis, what the signature should cover, the steps without the secret
// values, a field the formula lacks, an RSA merchant without a public key, and a signature made for inspect's
// URL behind --upstream. Controls are SHA-1 over concatenations written here (api-spec.md Scheme A);
// HMAC-SHA1 is built here from SHA-1 (RFC 2104) over base strings written here (RFC 5849 §3.4.1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { controlSignature } from '../../src/rules/control.ts';
import type { Merchant } from '../../src/rules/merchant.ts';
import { NonceStore } from '../../src/rules/nonces.ts';
import { oauthSignature } from '../../src/rules/oauth.ts';
import { RequestUnderTest } from '../../src/rules/request.ts';
import type { Evidence } from '../../src/rules/rule.ts';
import type { SignatureDetail } from '../../src/rules/signature-evidence.ts';
import { evidence } from './outcomes.ts';

type P = [string, string];
const merchant = testMerchant(); // endpoint 1001
const KEY = merchant.merchantControlKey;
const sha1 = (data: string | Buffer): Buffer => createHash('sha1').update(data).digest();
const hex = (text: string): string => sha1(text).toString('hex');
function hmacSha1(key: string, text: string): string {
  const block = Buffer.alloc(64);
  Buffer.from(key).copy(block);
  const pad = (byte: number): Buffer => Buffer.from(block.map((b) => b ^ byte));
  return sha1(Buffer.concat([pad(0x5c), sha1(Buffer.concat([pad(0x36), Buffer.from(text)]))])).toString('base64');
}
const header = (pairs: readonly P[]): string =>
  `OAuth ${pairs.map(([n, v]) => `${n}="${encodeURIComponent(v)}"`).join(', ')}`;

interface Sent {
  url: string;
  body: string;
  explain?: boolean;
  authorization?: string;
  signedFor?: string;
  owner?: Merchant;
}
const request = ({ url, body, explain = true, authorization, signedFor, owner = merchant }: Sent) =>
  new RequestUnderTest(
    { method: 'POST', url, headers: { authorization }, body: Buffer.from(body), signedFor },
    {
      merchants: [owner],
      windowSeconds: 300,
      now: Date.now,
      nonces: new NonceStore(300),
      maxBodyBytes: 1e6,
      explain,
    },
  );
const detail = (e: Evidence): SignatureDetail => e.detail as SignatureDetail;
const KEY_TRIED = "; the key tried is merchant payconform-test-merchant's from the merchants file, for endpoint 1001";

describe('signature evidence, control (SALE)', () => {
  const SALE = 'http://h/paynet/api/v2/sale/1001';
  const FIELDS = 'client_orderid=A-1&amount=10.50&email=a%40b.example';
  const INPUT = '1001A-11050a@b.example';
  const good = hex(`${INPUT}${KEY}`);
  const judge = (sent: Sent) => controlSignature.check(request(sent));

  it('passes the hand-computed control', () => {
    assert.equal(judge({ url: SALE, body: `${FIELDS}&control=${good}` }).outcome, 'pass');
  });

  it('without explain: one line, the field', () => {
    assert.deepEqual(evidence(judge({ url: SALE, body: `${FIELDS}&control=${hex('x')}`, explain: false })), {
      message: "control: does not match SALE's formula",
      field: 'control',
    });
  });

  it('nothing reproduces it: names the key tried, and shows the steps up to the concatenation, not the digest', () => {
    const e = evidence(judge({ url: SALE, body: `${FIELDS}&control=${hex(`${INPUT}another-key`)}` }));
    assert.ok(e.message.startsWith('control does not match the formula; '), e.message);
    assert.ok(e.message.endsWith(KEY_TRIED), e.message);
    assert.equal(e.field, 'control');
    const { explanation, ...rest } = detail(e);
    assert.deepEqual(rest, {
      scheme: 'control',
      diagnoses: [],
      correct: { controlInput: `${INPUT}<merchant_control_key>` },
    });
    assert.ok(explanation?.includes(`${INPUT}<merchant_control_key>`), explanation);
    assert.doesNotMatch(explanation ?? '', /[0-9a-f]{40}/, 'the digest is as secret as the control');
  });

  it('a known mistake: named, no key hint, with what the integration signed', () => {
    const e = evidence(judge({ url: SALE, body: `${FIELDS}&control=${good.toUpperCase()}` }));
    assert.equal(e.message, 'control does not match the formula; reproduced by: uppercase-hex');
    assert.deepEqual(detail(e).diagnoses, ['uppercase-hex']);
    assert.deepEqual(detail(e).sent, { controlInput: `${INPUT}<merchant_control_key>` });
  });

  it('a field of the formula missing or malformed: that field, as the fields rule names it', () => {
    const noEmail = evidence(
      judge({ url: SALE, body: `client_orderid=A-1&amount=10.50&control=${good}`, explain: false }),
    );
    assert.ok(noEmail.message.startsWith('email: is missing'), noEmail.message);
    assert.equal(noEmail.field, 'email');
    assert.equal(noEmail.code, 'FIELD_MISSING');
    assert.equal(noEmail.detail, undefined);
    const badAmount = evidence(
      judge({ url: SALE, body: `client_orderid=A-1&amount=1x&email=a&control=${good}`, explain: false }),
    );
    assert.ok(badAmount.message.startsWith('amount: '), badAmount.message);
    assert.equal(badAmount.field, 'amount');
    assert.equal(badAmount.code, 'FIELD_INVALID');
  });

  it('a field missing, with explain: diagnosed, and no steps where the formula cannot be computed', () => {
    const e = evidence(judge({ url: SALE, body: `client_orderid=A-1&amount=10.50&control=${good}` }));
    assert.ok(e.message.startsWith('control cannot be computed (email: is missing'), e.message);
    assert.equal(e.field, 'email');
    assert.equal(e.code, 'FIELD_MISSING');
    assert.deepEqual(detail(e), { scheme: 'control', diagnoses: [], correct: {} });
  });
});

describe('signature evidence, OAuth', () => {
  const PATH = '/paynet/api/v2/payout/1001';
  const INSPECT = `http://inspect.local:9000${PATH}`;
  const protocol = (method: string, signature: string): P[] => [
    ['oauth_consumer_key', merchant.login],
    ['oauth_nonce', 'n-7'],
    ['oauth_signature_method', method],
    ['oauth_timestamp', '1700000000'],
    ['oauth_signature', signature],
  ];
  const base = (encodedUrl: string, method = 'HMAC-SHA1'): string =>
    `POST&${encodedUrl}&amount%3D5.00%26oauth_consumer_key%3Dpayconform-test-merchant%26oauth_nonce%3Dn-7` +
    `%26oauth_signature_method%3D${method}%26oauth_timestamp%3D1700000000`;
  const INSPECT_BASE = base('http%3A%2F%2Finspect.local%3A9000%2Fpaynet%2Fapi%2Fv2%2Fpayout%2F1001');
  const signedForInspect = header(protocol('HMAC-SHA1', hmacSha1(`${KEY}&`, INSPECT_BASE)));
  const judge = (sent: Omit<Sent, 'body'> & { body?: string }) =>
    oauthSignature.check(request({ body: 'amount=5.00', ...sent }));

  it('passes the hand-computed HMAC-SHA1 signature', () => {
    assert.equal(judge({ url: INSPECT, authorization: signedForInspect }).outcome, 'pass');
  });

  it("nothing reproduces it: the key tried, the steps with the header's nonce, and no signature value", () => {
    const e = evidence(judge({ url: INSPECT, authorization: header(protocol('HMAC-SHA1', 'c3R1Yg==')) }));
    assert.ok(e.message.startsWith('HMAC-SHA1 signature does not match; '), e.message);
    assert.ok(e.message.endsWith(KEY_TRIED), e.message);
    const { explanation, ...rest } = detail(e);
    assert.deepEqual(rest, { scheme: 'oauth-hmac-sha1', diagnoses: [], correct: { baseString: INSPECT_BASE } });
    assert.ok(explanation?.includes('"oauth_nonce" = "n-7"'), explanation);
    assert.ok(explanation?.includes('"oauth_timestamp" = "1700000000"'), explanation);
    // The last step shown is the key's shape; the signature and the header that carries it are left out.
    assert.ok(explanation?.endsWith('enc(<merchant_control_key>)&'), explanation);
    // A header sent without oauth_version is explained without it (A-9): the base string the steps build is the one
    // the signature is checked against.
    assert.ok(explanation?.includes(INSPECT_BASE), explanation);
    assert.ok(!explanation?.includes('oauth_version'), explanation);
  });

  it('a header sent with oauth_version="1.0" is explained with it, over the base string that covers it', () => {
    const sent = header([...protocol('HMAC-SHA1', 'c3R1Yg=='), ['oauth_version', '1.0']]);
    const { explanation, correct } = detail(evidence(judge({ url: INSPECT, authorization: sent })));
    const withVersion = `${INSPECT_BASE}%26oauth_version%3D1.0`;
    assert.deepEqual(correct, { baseString: withVersion });
    assert.ok(explanation?.includes('"oauth_version" = "1.0"'), explanation);
    assert.ok(explanation?.includes(withVersion), explanation);
  });

  it('RSA-SHA256: no steps (the verifier holds no private key)', () => {
    const V4 = 'http://h/paynet/api/v4/payout/1001';
    const e = evidence(judge({ url: V4, authorization: header(protocol('RSA-SHA256', 'c3R1Yg==')) }));
    assert.equal(detail(e).scheme, 'oauth-rsa-sha256');
    assert.deepEqual(detail(e).correct, {
      baseString: base('http%3A%2F%2Fh%2Fpaynet%2Fapi%2Fv4%2Fpayout%2F1001', 'RSA-SHA256'),
    });
    assert.equal('explanation' in detail(e), false);
  });

  it('HMAC-SHA1 needs no public key: a merchant without one is verified', () => {
    const owner = { ...merchant, publicKeyPem: undefined };
    assert.equal(judge({ url: INSPECT, authorization: signedForInspect, owner }).outcome, 'pass');
  });

  it('signed as RSA-SHA256 where HMAC-SHA1 is required: no steps for the method sent', () => {
    const e = evidence(judge({ url: INSPECT, authorization: header(protocol('RSA-SHA256', 'c3R1Yg==')) }));
    assert.equal('explanation' in detail(e), false);
  });

  it('a form field named control is one more parameter of the base string, in the steps too', () => {
    const e = evidence(
      judge({ url: INSPECT, body: 'amount=5.00&control=x', authorization: header(protocol('HMAC-SHA1', 'c3R1Yg==')) }),
    );
    assert.ok(detail(e).correct?.baseString?.includes('%26control%3Dx%26'), detail(e).correct?.baseString);
    assert.ok(detail(e).explanation?.includes('\n     control=x\n'), detail(e).explanation);
  });

  it('RSA-SHA256 for a merchant without a public key: says it cannot be verified', () => {
    const V4 = 'http://h/paynet/api/v4/payout/1001';
    const owner = { ...merchant, publicKeyPem: undefined };
    assert.deepEqual(evidence(judge({ url: V4, authorization: header(protocol('RSA-SHA256', 'c3R1Yg==')), owner })), {
      message:
        'oauth_signature: merchant payconform-test-merchant has no publicKeyPem in the merchants file, so its ' +
        'RSA-SHA256 signature cannot be verified',
      field: 'oauth_signature',
    });
  });

  it("behind --upstream: a signature for inspect's URL fails with the reason, both base strings and the steps", () => {
    const SANDBOX = 'https://sandbox.example/gw/api/v2/payout/1001';
    const e = evidence(judge({ url: INSPECT, authorization: signedForInspect, signedFor: SANDBOX }));
    assert.equal(
      e.message,
      `oauth_signature: made for inspect's URL ${INSPECT}, but the sandbox verifies it against ${SANDBOX} and will ` +
        "refuse it: sign for the sandbox's URL (the origin your integration signs must be the sandbox's even when it " +
        'sends to inspect)',
    );
    assert.equal(e.field, 'oauth_signature');
    const { explanation, ...rest } = detail(e);
    assert.deepEqual(rest, {
      scheme: 'oauth-hmac-sha1',
      diagnoses: [],
      correct: { baseString: base('https%3A%2F%2Fsandbox.example%2Fgw%2Fapi%2Fv2%2Fpayout%2F1001') },
      sent: { baseString: INSPECT_BASE },
    });
    // The sandbox's URL is matched anew: its own prefix, not inspect's.
    assert.ok(explanation?.includes('path prefix /gw'), explanation);
    // Signed for the sandbox's URL, it passes there.
    const forSandbox = base('https%3A%2F%2Fsandbox.example%2Fgw%2Fapi%2Fv2%2Fpayout%2F1001');
    const authorization = header(protocol('HMAC-SHA1', hmacSha1(`${KEY}&`, forSandbox)));
    assert.equal(judge({ url: INSPECT, authorization, signedFor: SANDBOX }).outcome, 'pass');
  });
});
