/**
 * Signing benchmarks: OAuth HMAC-SHA1 (payout) against oauth-1.0a and oauth-sign, RSA-SHA256
 * against bare node:crypto (and node-forge for scale), and the control SHA-1 against a bare hash.
 * Every contender signs the same request with the same nonce and timestamp, and verify() proves
 * the outputs equal before anything is timed.
 */
import { createHash, createHmac, createPrivateKey, sign } from 'node:crypto';
import { createRequire } from 'node:module';
import OAuth from 'oauth-1.0a';
import {
  generateRsaKeyPair,
  loadPrivateKey,
  rsaSha256Signature,
  signOAuth,
  signRequest,
  type OAuthKey,
  type Pair,
  type SignResult,
} from '../src/signing/index.ts';
import { rsaSha256SignatureForge } from '../test/oracles.ts';
import type { BenchGroup, BenchModule } from './measure.ts';

// oauth-sign 0.9 ships no types; loaded with require and typed here as far as it is used (an ambient
// `declare module` would clash with the tests' own declaration in test/types/).
const oauthSign = createRequire(import.meta.url)('oauth-sign') as {
  hmacsign(
    httpMethod: string,
    baseUri: string,
    params: Record<string, string>,
    consumerSecret: string,
    tokenSecret?: string,
  ): string;
  rfc3986(value: string): string;
};

const LOGIN = 'merchant-login';
const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D8A8F1E3C0';
const NONCE = '4c0a1f5d9e8b7a6c3d2e1f0a9b8c7d6e';
const TIMESTAMP = '1700000000';

function equalOrThrow(what: string, ours: string, peer: string, peerName: string): void {
  if (ours !== peer) throw new Error(`bench: ${what} differs from ${peerName}'s\n  ours: ${ours}\n  peer: ${peer}`);
}

function oauthOf(result: SignResult): { signature: string; authorization: string; baseString: string } {
  if (result.scheme === 'control') throw new Error('bench: expected an OAuth endpoint');
  return result.oauth;
}

function controlOf(result: SignResult): string {
  if (result.scheme !== 'control') throw new Error('bench: expected a control endpoint');
  return result.control.control;
}

// ---- 1. OAuth HMAC-SHA1, payout: 12 body parameters + 5 oauth_* = 17 signed parameters ----

const PAYOUT_URL = 'https://sandbox.gateway.example/paynet/api/v2/payout/1234';
const PAYOUT_BODY: Pair[] = [
  ['client_orderid', 'PO-2024-000123'],
  ['amount', '100.00'],
  ['currency', 'EUR'],
  ['card_printed_name', 'JOHN SMITH'],
  ['credit_card_number', '4538977399606732'],
  ['expire_month', '12'],
  ['expire_year', '2099'],
  ['cvv2', '123'],
  ['email', 'john.smith+payout@example.com'],
  ['ipaddress', '203.0.113.42'],
  ['order_desc', 'Payout for order #123 – café “Zürich” ☕'],
  ['redirect_url', 'https://merchant.example/return?order=PO-2024-000123&status=done'],
];

function hmacGroup(): BenchGroup {
  const request = { method: 'POST', url: PAYOUT_URL, params: PAYOUT_BODY };
  const credentials = { login: LOGIN, controlKey: CONTROL_KEY };
  const options = { nonce: NONCE, timestamp: TIMESTAMP };
  // What signRequest hands to signOAuth for this request.
  const protocol = { consumerKey: LOGIN, nonce: NONCE, timestamp: TIMESTAMP, version: '1.0' };
  const key: OAuthKey = { method: 'HMAC-SHA1', consumerSecret: CONTROL_KEY };

  // oauth-1.0a with its documented node:crypto hash function; nonce and timestamp pinned.
  const oauth = new OAuth({
    consumer: { key: LOGIN, secret: CONTROL_KEY },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, signingKey) => createHmac('sha1', signingKey).update(base).digest('base64'),
  });
  oauth.getNonce = () => NONCE;
  oauth.getTimeStamp = () => Number(TIMESTAMP);
  const oauthRequest = { url: PAYOUT_URL, method: 'POST', data: Object.fromEntries(PAYOUT_BODY) };
  const oauth10a = (): string => oauth.toHeader(oauth.authorize(oauthRequest)).Authorization;

  // oauth-sign computes the signature only; the header is built the way its caller (request) does,
  // in sorted order with ", " so it matches the canonical header byte for byte.
  const oauthParams: Record<string, string> = {
    oauth_consumer_key: LOGIN,
    oauth_nonce: NONCE,
    oauth_signature_method: 'HMAC-SHA1',
    oauth_timestamp: TIMESTAMP,
    oauth_version: '1.0',
  };
  const signParams = { ...Object.fromEntries(PAYOUT_BODY), ...oauthParams };
  const oauthSignHeader = (): string => {
    const oa: Record<string, string> = {
      ...oauthParams,
      oauth_signature: oauthSign.hmacsign('POST', PAYOUT_URL, signParams, CONTROL_KEY, ''),
    };
    return `OAuth ${Object.keys(oa)
      .sort()
      .map((k) => `${k}="${oauthSign.rfc3986(oa[k]!)}"`)
      .join(', ')}`;
  };

  const viaSignRequest = (): string => oauthOf(signRequest(request, credentials, options)).authorization;
  const viaSignOAuth = (): string => signOAuth(request, protocol, key).authorization;

  return {
    title: 'HMAC-SHA1 payout',
    contenders: {
      signRequest: { label: 'signRequest', fn: viaSignRequest },
      signOAuth: { label: 'signOAuth', fn: viaSignOAuth },
      oauth10a: { label: 'oauth-1.0a 2.2.6', fn: oauth10a },
      oauthSign: { label: 'oauth-sign 0.9.0', fn: oauthSignHeader },
    },
    verify() {
      const ours = viaSignRequest();
      const sig = oauthOf(signRequest(request, credentials, options)).signature;
      if (PAYOUT_BODY.length + Object.keys(oauthParams).length !== 17)
        throw new Error('bench: payout must sign 17 parameters');
      equalOrThrow('signOAuth header', viaSignOAuth(), ours, 'signRequest');
      equalOrThrow('Authorization header', ours, oauth10a(), 'oauth-1.0a');
      equalOrThrow('Authorization header', ours, oauthSignHeader(), 'oauth-sign');
      equalOrThrow('signature', sig, oauthSign.hmacsign('POST', PAYOUT_URL, signParams, CONTROL_KEY, ''), 'oauth-sign');
      equalOrThrow('signature', sig, oauth.authorize(oauthRequest).oauth_signature, 'oauth-1.0a');
    },
    rows: [
      {
        name: 'HMAC-SHA1 payout, 17 params: signRequest',
        ours: 'signRequest',
        peers: ['oauth10a', 'oauthSign'],
        target: 1.5,
      },
      {
        name: 'HMAC-SHA1 payout, 17 params: signOAuth',
        ours: 'signOAuth',
        peers: ['oauth10a', 'oauthSign'],
        target: null,
      },
    ],
  };
}

// ---- 2. RSA-SHA256, 2048-bit key generated once ----

function rsaGroup(): BenchGroup {
  const { privateKeyPem } = generateRsaKeyPair(2048);
  // A realistic base string: the v4 payout request's, as the signer builds it.
  const base = oauthOf(
    signRequest(
      { url: 'https://sandbox.gateway.example/paynet/api/v4/payout/1234', params: PAYOUT_BODY },
      { login: LOGIN, privateKeyPem },
      { nonce: NONCE, timestamp: TIMESTAMP },
    ),
  ).baseString;
  // The peer gets its own KeyObject, parsed once, and no base64 step.
  const cachedKeyObject = createPrivateKey(privateKeyPem);
  const ours = (): string => rsaSha256Signature(loadPrivateKey(privateKeyPem), base);
  const bare = (): Buffer => sign('sha256', Buffer.from(base), cachedKeyObject);
  const forge = (): string => rsaSha256SignatureForge(privateKeyPem, base);
  return {
    title: 'RSA-SHA256 2048',
    contenders: {
      ours: { label: 'rsaSha256Signature(loadPrivateKey)', fn: ours },
      bare: { label: 'crypto.sign, cached KeyObject', fn: bare },
      // About 50× slower: rounds are timed, not counted, so it makes a few calls per round only.
      forge: { label: 'node-forge (rsaSha256SignatureForge)', fn: forge },
    },
    verify() {
      const sig = ours();
      equalOrThrow('RSA-SHA256 signature', sig, bare().toString('base64'), 'crypto.sign');
      equalOrThrow('RSA-SHA256 signature', sig, forge(), 'node-forge');
    },
    rows: [
      { name: 'RSA-SHA256 2048: fast path', ours: 'ours', peers: ['bare'], target: 0.9 },
      { name: 'RSA-SHA256 2048: fast path', ours: 'ours', peers: ['forge'], target: null },
    ],
  };
}

// ---- 3. control SHA-1, sale ----

function controlGroup(): BenchGroup {
  const request = {
    url: 'https://gw.example/api/v2/sale/1234',
    params: [
      ['client_orderid', '902B4FF5'],
      ['order_desc', 'Test Order Description'],
      ['amount', '10.00'],
      ['currency', 'USD'],
      ['email', 'john.smith@gmail.com'],
      ['ipaddress', '65.153.12.232'],
      ['redirect_url', 'https://merchant.example/return'],
    ] as Pair[],
  };
  const credentials = { login: LOGIN, controlKey: CONTROL_KEY };
  // endpointId + client_orderid + amount in cents + email + control key, precomputed.
  const concatenation = `1234902B4FF51000john.smith@gmail.com${CONTROL_KEY}`;
  const ours = (): string => controlOf(signRequest(request, credentials));
  const bare = (): string => createHash('sha1').update(concatenation).digest('hex');
  return {
    title: 'control SHA-1 sale',
    contenders: {
      ours: { label: 'signRequest', fn: ours },
      bare: { label: 'createHash(sha1) of concatenation', fn: bare },
    },
    verify() {
      equalOrThrow('control', ours(), bare(), 'the bare SHA-1');
    },
    rows: [{ name: 'control SHA-1 sale: signRequest', ours: 'ours', peers: ['bare'], target: null }],
  };
}

export const signingBench: BenchModule = {
  groups: () => [hmacGroup(), rsaGroup(), controlGroup()],
};
