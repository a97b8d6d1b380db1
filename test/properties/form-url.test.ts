/** Form bodies (decodeForm/encodeForm) and the base string URI (RFC 5849 §3.4.1.2). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeForm, encodeForm, normalizeUrl } from '../../src/signing/index.ts';
import { hostName, pairs, pathSegment, randomCase, urlPath } from '../arbitraries.ts';
import { rfc3986 } from '../oracles.ts';
import { fcParams, seed } from '../seed.ts';

const DEFAULT_PORT = { http: 80, https: 443 } as const;

/** A URL with random-case scheme and host, an optional port, a query and a fragment, plus what it must normalise to. */
const urlCase = fc
  .record({
    scheme: fc.constantFrom('http', 'https'),
    host: hostName,
    port: fc.oneof(fc.constant<'none'>('none'), fc.constant<'default'>('default'), fc.integer({ min: 0, max: 65535 })),
    path: urlPath,
    query: fc.option(pairs({ maxLength: 4 }), { nil: undefined }),
    fragment: fc.option(
      fc.array(pathSegment, { maxLength: 2 }).map((s) => s.join('/')),
      { nil: undefined },
    ),
  })
  .chain((c) => fc.record({ c: fc.constant(c), schemeCase: randomCase(c.scheme), hostCase: randomCase(c.host) }));

describe(`form bodies and URL normalisation (seed ${seed})`, () => {
  it('decodeForm(encodeForm(pairs)) deep-equals pairs, repeated names kept in order', () => {
    fc.assert(
      fc.property(pairs({ maxLength: 10 }), fc.constantFrom('a', 'A', 'x y'), (ps, repeated) => {
        // Force at least one repeated name, in two places, so order between them matters.
        const input = [...ps, [repeated, 'first'] as const, ...ps, [repeated, 'second'] as const];
        assert.deepEqual(
          decodeForm(encodeForm(input)),
          input.map(([n, v]) => [n, v]),
        );
      }),
      fcParams(200),
    );
  });

  it('decodeForm cuts any well-formed text as WHATWG URLSearchParams does: empty segments skipped, no = is an empty value', () => {
    // Pieces that move segment and name boundaries about; every escape is well-formed UTF-8, which both read alike.
    const piece = fc.constantFrom('a', 'b', '=', '&', '&&', '+', '%41', '%C3%A9', '%26', '%3D', '');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('');
        assert.deepEqual(decodeForm(text), [...new URLSearchParams(text)], text);
      }),
      fcParams(500),
    );
  });

  it('normalizeUrl: lowercase scheme/host, default port dropped, other ports kept, no query/fragment, query pairs decoded', () => {
    fc.assert(
      fc.property(urlCase, ({ c, schemeCase, hostCase }) => {
        const explicit = c.port === 'none' ? null : c.port === 'default' ? DEFAULT_PORT[c.scheme] : c.port;
        const query =
          c.query === undefined ? '' : `?${c.query.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&')}`;
        const fragment = c.fragment === undefined ? '' : `#${c.fragment}`;
        const input = `${schemeCase}://${hostCase}${explicit === null ? '' : `:${explicit}`}${c.path}${query}${fragment}`;

        const keepsPort = explicit !== null && explicit !== DEFAULT_PORT[c.scheme];
        const expected = `${c.scheme}://${c.host}${keepsPort ? `:${explicit}` : ''}${c.path}`;
        const result = normalizeUrl(input);
        assert.equal(result.normalized, expected);
        assert.ok(!result.normalized.includes('?') && !result.normalized.includes('#'), result.normalized);
        assert.equal(result.explicitPort, explicit === null ? null : String(explicit));
        assert.equal(result.defaultPortDropped, explicit !== null && !keepsPort);
        assert.deepEqual(
          result.queryPairs,
          (c.query ?? []).map(([n, v]) => [n, v]),
        );
      }),
      fcParams(300),
    );
  });
});
