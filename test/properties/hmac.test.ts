/**
 * HMAC-SHA1 OAuth signatures (RFC 5849 §3.4.2, api-spec.md Scheme B): every signed input changes the
 * signature, the key is enc(secret)&, and the result matches node:crypto over an independently built
 * base string and the `oauth-sign` package.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import oauthSign from 'oauth-sign';
import { hmacSigningKey, percentEncode, signOAuth, type Pair } from '../../src/signing/index.ts';
import {
  hostName,
  login,
  nonce,
  pairs,
  paramName,
  paramValue,
  randomCase,
  secret,
  timestamp,
  uniqueNamePairs,
  unicodeString,
  urlPath,
} from '../arbitraries.ts';
import { baseStringOracle, hmacSha1Oracle, rfc3986 } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

interface Case {
  readonly path: string;
  readonly params: Pair[];
  readonly consumerKey: string;
  readonly nonce: string;
  readonly timestamp: string;
  readonly secret: string;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  path: urlPath,
  params: pairs({ minLength: 1, maxLength: 6 }),
  consumerKey: login,
  nonce,
  timestamp,
  secret,
});

function sign(c: Case): string {
  return signOAuth(
    { method: 'POST', url: `https://gw.example${c.path}`, params: c.params },
    { consumerKey: c.consumerKey, nonce: c.nonce, timestamp: c.timestamp, version: '1.0' },
    { method: 'HMAC-SHA1', consumerSecret: c.secret },
  ).signature;
}

/** `candidate` when it differs from `old`, otherwise `old` with one more character. */
const differentFrom = (old: string, candidate: string, extra = 'x'): string =>
  candidate !== old ? candidate : old + extra;

const replaceAt = (ps: readonly Pair[], index: number, p: Pair): Pair[] => ps.map((q, i) => (i === index ? p : q));

/** The protocol parameters signOAuth adds for HMAC-SHA1 with version 1.0 (RFC 5849 §3.1). */
const protocol = (c: Pick<Case, 'consumerKey' | 'nonce' | 'timestamp'>): Pair[] => [
  ['oauth_consumer_key', c.consumerKey],
  ['oauth_nonce', c.nonce],
  ['oauth_signature_method', 'HMAC-SHA1'],
  ['oauth_timestamp', c.timestamp],
  ['oauth_version', '1.0'],
];

describe(`HMAC-SHA1 signatures (seed ${seed})`, () => {
  describe('changing any one signed input changes the signature', () => {
    it('a parameter name', () => {
      fc.assert(
        fc.property(caseArb, fc.nat(), paramName, (c, at, candidate) => {
          const i = at % c.params.length;
          const [name, value] = c.params[i]!;
          assert.notEqual(
            sign({ ...c, params: replaceAt(c.params, i, [differentFrom(name, candidate), value]) }),
            sign(c),
          );
        }),
        fcParams(100),
      );
    });

    it('a parameter value', () => {
      fc.assert(
        fc.property(caseArb, fc.nat(), paramValue, (c, at, candidate) => {
          const i = at % c.params.length;
          const [name, value] = c.params[i]!;
          assert.notEqual(
            sign({ ...c, params: replaceAt(c.params, i, [name, differentFrom(value, candidate)]) }),
            sign(c),
          );
        }),
        fcParams(100),
      );
    });

    it('the URL path', () => {
      fc.assert(
        fc.property(caseArb, urlPath, (c, candidate) => {
          assert.notEqual(sign({ ...c, path: differentFrom(c.path, candidate) }), sign(c));
        }),
        fcParams(100),
      );
    });

    it('the nonce', () => {
      fc.assert(
        fc.property(caseArb, nonce, (c, candidate) => {
          assert.notEqual(sign({ ...c, nonce: differentFrom(c.nonce, candidate) }), sign(c));
        }),
        fcParams(100),
      );
    });

    it('the timestamp', () => {
      fc.assert(
        fc.property(caseArb, timestamp, (c, candidate) => {
          assert.notEqual(sign({ ...c, timestamp: differentFrom(c.timestamp, candidate, '0') }), sign(c));
        }),
        fcParams(100),
      );
    });

    it('the key', () => {
      fc.assert(
        fc.property(caseArb, secret, (c, candidate) => {
          assert.notEqual(sign({ ...c, secret: differentFrom(c.secret, candidate) }), sign(c));
        }),
        fcParams(100),
      );
    });
  });

  it('the key is enc(secret)&enc(token secret), and the signature is node:crypto HMAC-SHA1 over an independent base string', () => {
    fc.assert(
      fc.property(secret, unicodeString({ maxLength: 12 }), (consumerSecret, tokenSecret) => {
        assert.equal(hmacSigningKey(consumerSecret), `${rfc3986(consumerSecret)}&`);
        assert.equal(hmacSigningKey(consumerSecret), `${percentEncode(consumerSecret)}&`);
        assert.equal(hmacSigningKey(consumerSecret, tokenSecret), `${rfc3986(consumerSecret)}&${rfc3986(tokenSecret)}`);
      }),
      fcParams(200),
    );
    fc.assert(
      fc.property(caseArb, hostName, pairs({ maxLength: 3 }), (c, host, query) => {
        const search = query.length === 0 ? '' : `?${query.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&')}`;
        const result = signOAuth(
          { method: 'POST', url: `https://${host}${c.path}${search}`, params: c.params },
          { consumerKey: c.consumerKey, nonce: c.nonce, timestamp: c.timestamp, version: '1.0' },
          { method: 'HMAC-SHA1', consumerSecret: c.secret },
        );
        const base = baseStringOracle('POST', `https://${host}${c.path}`, [...c.params, ...protocol(c), ...query]);
        assert.equal(result.baseString, base);
        assert.equal(result.signature, hmacSha1Oracle(c.secret, base));
      }),
      fcParams(200),
    );
  });

  it('agrees with the oauth-sign package', () => {
    const caseWithUniqueNames = fc.record({
      path: urlPath,
      host: hostName.chain((h) => fc.tuple(fc.constant(h), randomCase(h))),
      params: uniqueNamePairs({ maxLength: 8 }),
      consumerKey: login,
      nonce,
      timestamp,
      secret: fc.oneof(secret, fc.constant('')),
    });
    fc.assert(
      fc.property(caseWithUniqueNames, (c) => {
        const [host, hostAsWritten] = c.host;
        const ours = signOAuth(
          { method: 'POST', url: `https://${hostAsWritten}${c.path}`, params: c.params },
          { consumerKey: c.consumerKey, nonce: c.nonce, timestamp: c.timestamp, version: '1.0' },
          { method: 'HMAC-SHA1', consumerSecret: c.secret },
        ).signature;
        const theirs = oauthSign.hmacsign(
          'POST',
          `https://${host}${c.path}`,
          Object.fromEntries([...c.params, ...protocol(c)]),
          c.secret,
          '',
        );
        assert.equal(ours, theirs);
      }),
      fcParams(200),
    );
  });
});
