// The OAuth recipe's steps called directly, each expected value worked out by hand from RFC 5849 §3.4: which pairs
// are signed, the base URL, the encoding steps together, the HMAC key, and the memo that must never change a result.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Pair } from '../../src/signing/form-body.ts';
import { normalizeUrl } from '../../src/signing/normalize-url.ts';
import { OAUTH_MISTAKES } from '../../src/signing/diagnose/oauth-mistakes.ts';
import {
  baseUrl,
  encodeValue,
  oauthParts,
  recipeBaseString,
  recipeHmacKey,
  REFERENCE,
  signedPairs,
  type Memo,
  type OAuthRecipe,
} from '../../src/signing/diagnose/oauth-recipe.ts';

const body: Pair[] = [
  ['a', '1'],
  ['e', ''],
  ['a', '2'],
];
const parts = oauthParts('post', 'https://h.example/paynet/api/v2/x?q=%3A&q=b', body, [['oauth_nonce', 'n']], 'R');
const pairs = (change: Partial<OAuthRecipe>): Pair[] => signedPairs({ ...REFERENCE, ...change }, parts);

describe('OAuth recipe: the pairs signed', () => {
  it('signs body, oauth_* and the decoded query, in that order, by default', () => {
    assert.deepEqual(pairs({}), [
      ['a', '1'],
      ['e', ''],
      ['a', '2'],
      ['oauth_nonce', 'n'],
      ['q', ':'],
      ['q', 'b'],
    ]);
  });
  it('leaves out the body, the oauth_* pairs, the query, or empty values; or takes the query as written', () => {
    assert.deepEqual(pairs({ body: false }), [
      ['oauth_nonce', 'n'],
      ['q', ':'],
      ['q', 'b'],
    ]);
    assert.deepEqual(pairs({ oauth: false }), [
      ['a', '1'],
      ['e', ''],
      ['a', '2'],
      ['q', ':'],
      ['q', 'b'],
    ]);
    assert.deepEqual(pairs({ query: 'omitted' }), [
      ['a', '1'],
      ['e', ''],
      ['a', '2'],
      ['oauth_nonce', 'n'],
    ]);
    assert.deepEqual(pairs({ query: 'raw' }).slice(4), [
      ['q', '%3A'],
      ['q', 'b'],
    ]);
    assert.deepEqual(pairs({ emptyDropped: true }), [
      ['a', '1'],
      ['a', '2'],
      ['oauth_nonce', 'n'],
      ['q', ':'],
      ['q', 'b'],
    ]);
  });
  it('adds the realm where there is one', () => {
    assert.deepEqual(pairs({ realmSigned: true }).at(-1), ['realm', 'R']);
    const none = oauthParts('POST', 'https://h.example/x', [['a', '1']], [], undefined);
    assert.deepEqual(signedPairs({ ...REFERENCE, realmSigned: true }, none), [['a', '1']]);
  });
  it('keeps the first or the last pair of a repeated name, at the place the name first came', () => {
    assert.deepEqual(pairs({ repeated: 'first' }), [
      ['a', '1'],
      ['e', ''],
      ['oauth_nonce', 'n'],
      ['q', ':'],
    ]);
    assert.deepEqual(pairs({ repeated: 'last' }), [
      ['a', '2'],
      ['e', ''],
      ['oauth_nonce', 'n'],
      ['q', 'b'],
    ]);
  });
});

describe('OAuth recipe: the base URL', () => {
  const url = (input: string, change: Partial<OAuthRecipe>): string =>
    baseUrl({ ...REFERENCE, ...change }, normalizeUrl(input));
  it('drops the path before the first /api/, and nothing when there is none', () => {
    assert.equal(url('https://h.example/paynet/api/v2/x', { urlPrefixDropped: true }), 'https://h.example/api/v2/x');
    assert.equal(
      url('https://h.example/a/b/api/v2/api/x', { urlPrefixDropped: true }),
      'https://h.example/api/v2/api/x',
    );
    assert.equal(url('https://h.example/api/v2/x', { urlPrefixDropped: true }), 'https://h.example/api/v2/x');
    assert.equal(url('https://h.example/paynet/v2/x', { urlPrefixDropped: true }), 'https://h.example/paynet/v2/x');
  });
  it('composes case, port, prefix and query as written', () => {
    const input = 'HTTPS://H.Example:443/paynet/api/v2/x?z=1';
    assert.equal(
      url(input, { urlCase: true, urlPort: true, urlPrefixDropped: true, urlQuery: true }),
      'HTTPS://H.Example:443/api/v2/x?z=1',
    );
    assert.equal(url(input, { urlCase: true }), 'HTTPS://H.Example/paynet/api/v2/x');
    assert.equal(url(input, { urlQuery: true }), 'https://h.example/paynet/api/v2/x?z=1');
  });
  it('takes the normalised URL unless the case or the port is kept as written', () => {
    assert.equal(url('https://h.example/a/../p', {}), 'https://h.example/p');
    assert.equal(url('https://h.example/a/../p', { urlPrefixDropped: true, urlQuery: true }), 'https://h.example/p');
  });
  it('keeps a port that is not the default one, whatever the port step says', () => {
    assert.equal(url('https://H.example:8443/p', { urlCase: true }), 'https://H.example:8443/p');
    assert.equal(url('http://h.example:80/p', { urlPort: true }), 'http://h.example:80/p');
    assert.equal(url('http://h.example:80/p', { urlCase: true }), 'http://h.example/p');
  });
});

describe('OAuth recipe: encoding steps together, the method, the HMAC key', () => {
  const enc = (s: string, change: Partial<OAuthRecipe>): string => encodeValue({ ...REFERENCE, ...change }, s);
  it('writes + for a space before encoding again, and lowers the hex last', () => {
    assert.equal(enc('a b', { plusForSpace: true, doubleEncoded: true }), 'a%2Bb');
    // Encoded twice, ":" is %253A: its one escape is %25 (no letter to lower); 3A is text by then.
    assert.equal(enc(':', { doubleEncoded: true, lowerHex: true }), '%253A');
    assert.equal(enc('é', { lowerHex: true }), '%c3%a9');
    assert.equal(enc(':/', { lowerHex: true }), '%3a%2f');
  });
  it('uppercases the method in the reference', () => {
    assert.match(recipeBaseString(REFERENCE, parts), /^POST&https%3A%2F%2Fh\.example%2Fpaynet/);
  });
  it('makes the HMAC key with or without encoding and the "&"', () => {
    const key = (change: Partial<OAuthRecipe>): string => recipeHmacKey({ ...REFERENCE, ...change }, 'a b&', 't');
    assert.equal(key({}), 'a%20b%26&t');
    assert.equal(key({ keyEncoded: false }), 'a b&&t');
    assert.equal(key({ keyAmpersand: false }), 'a%20b%26');
    assert.equal(key({ keyEncoded: false, keyAmpersand: false }), 'a b&');
  });
});

describe('OAuth recipe: the memo', () => {
  it('gives every recipe of one and two mistakes the base string it has without a memo', () => {
    const rich = oauthParts(
      'POST',
      'https://H.Example:443/paynet/api/v2/x?q=%3A&Q=a%20b',
      [
        ['n', "it's (2*3)! ö"],
        ['n', ''],
        ['Z', '1'],
      ],
      [['oauth_nonce', 'n']],
      'R',
    );
    const changes = OAUTH_MISTAKES.flatMap((m) => m.recipes);
    const memo: Memo = new Map();
    for (const a of changes)
      for (const b of changes) {
        const recipe = { ...REFERENCE, ...a, ...b };
        assert.equal(recipeBaseString(recipe, rich, memo), recipeBaseString(recipe, rich));
      }
  });
});
