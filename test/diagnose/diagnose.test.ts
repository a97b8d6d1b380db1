// diagnose: published anchors first (Postman #8879, JavaScript's float cents), then every mistake
// applied on purpose to random requests, which diagnose must name.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildAuthorizationHeader } from '../../src/signing/authorization-header.ts';
import { diagnose } from '../../src/rules/diagnose.ts';
import { controlWithMistake, MISTAKES, oauthHeaderWithMistake } from '../../src/signing/diagnose/index.ts';
import { CONTROL_MISTAKES } from '../../src/signing/diagnose/control-mistakes.ts';
import { OAUTH_MISTAKES } from '../../src/signing/diagnose/oauth-mistakes.ts';
import type { Pair } from '../../src/signing/form-body.ts';
import { signRequest } from '../../src/signing/sign.ts';
import {
  amount,
  digits,
  hostName,
  pairsWithRepeatedNames,
  paramValue,
  randomCase,
  realm,
  secret,
  unicodeString,
} from '../arbitraries.ts';
import { fcParams, seed } from '../seed.ts';

describe('diagnose: published cases', () => {
  const postman = { method: 'GET', url: 'http://localhost:4567/fun?foo=first%2Csecond', params: [] as Pair[] };
  const creds = { login: 'a', controlKey: 'b', token: '123', tokenSecret: 'abc' };
  const header = (sig: string) =>
    `OAuth oauth_consumer_key="a",oauth_token="123",oauth_signature_method="HMAC-SHA1",oauth_timestamp="123",oauth_nonce="3",oauth_version="1.0",oauth_signature="${sig}"`;

  it('accepts the signature Postman issue #8879 gives as correct (cdQQuXon1opN/3wj5APnIF5NAMg=)', () => {
    assert.equal(
      diagnose({
        request: postman,
        credentials: creds,
        given: { authorization: header('cdQQuXon1opN%2F3wj5APnIF5NAMg%3D') },
      }).verdict,
      'valid',
    );
  });

  it("names double encoding for Postman's wrong value 1tyKsJRLaTvpnCwKGayL4YgHmLM=", () => {
    const d = diagnose({
      request: postman,
      credentials: creds,
      given: { authorization: header('1tyKsJRLaTvpnCwKGayL4YgHmLM%3D') },
    });
    assert.equal(d.verdict, 'invalid');
    assert.ok(d.defects.includes('double-encoding') && d.defects.includes('query-not-decoded'), d.defects.join());
    assert.match(d.partner?.baseString ?? '', /foo%3Dfirst%25252Csecond/);
    assert.match(d.correct.baseString ?? '', /foo%3Dfirst%252Csecond/);
  });

  it('names float cents for a control over "28.999999999999996" (0.29 × 100 in JavaScript)', () => {
    const request = {
      url: 'https://h.example/api/v2/sale/9876',
      params: [
        ['client_orderid', 'A-7'],
        ['amount', '0.29'],
        ['email', 'e@x'],
      ] as Pair[],
    };
    // printf '%s' '9876A-728.999999999999996e@xTESTKEY-123' | sha1sum
    const given = '4a86d932afd5518e87040058f06adaf35eb4bf24';
    const independent = controlWithMistake('float-cents', 'SALE', '9876', request, { controlKey: 'TESTKEY-123' });
    assert.equal(independent, given);
    const d = diagnose({ request, credentials: { controlKey: 'TESTKEY-123' }, given: { control: given } });
    assert.deepEqual([d.verdict, d.defects], ['invalid', ['float-cents']]);
    assert.equal(d.partner?.controlInput, '9876A-728.999999999999996e@x<merchant_control_key>');
  });

  it('finds no mistake in a random wrong value, and reports a missing or malformed signature without throwing', () => {
    const request = { url: 'https://h.example/api/v2/payout/1', params: [['amount', '1.00']] as Pair[] };
    const wrong = buildAuthorizationHeader([
      ['oauth_consumer_key', 'm'],
      ['oauth_nonce', 'n'],
      ['oauth_signature_method', 'HMAC-SHA1'],
      ['oauth_timestamp', '1'],
      ['oauth_version', '1.0'],
      ['oauth_signature', 'AAAAAAAAAAAAAAAAAAAAAAAAAAA='],
    ]);
    assert.deepEqual(
      diagnose({ request, credentials: { controlKey: 'k' }, given: { authorization: wrong } }).defects,
      [],
    );
    assert.match(diagnose({ request, credentials: { controlKey: 'k' }, given: {} }).message, /authorization: missing/);
    assert.match(
      diagnose({ request, credentials: { controlKey: 'k' }, given: { authorization: 'Basic x' } }).message,
      /must start with "OAuth "/,
    );
  });

  it('documents every id it reports, each with a shipped vector (docs/diagnoses.md, vectors/diagnoses.json)', () => {
    const doc = readFileSync(new URL('../../docs/diagnoses.md', import.meta.url), 'utf8');
    const vectors = JSON.parse(readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8'))
      .vectors as Array<{ expected: { defect: string } }>;
    const documented = [...doc.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(
      documented,
      MISTAKES.map((m) => m.id),
    );
    for (const m of MISTAKES)
      assert.ok(
        vectors.some((v) => v.expected.defect === m.id),
        m.id,
      );
  });
});

describe(`diagnose names each mistake made on purpose (seed ${seed})`, () => {
  const oauthRequest = fc.record({
    host: hostName.chain(randomCase),
    port: fc.constantFrom('', ':443'),
    query: fc.array(fc.tuple(fc.constantFrom('q', 'Q', 'r'), fc.constantFrom('a:b', 'x y', 'é', '')), { maxLength: 3 }),
    body: pairsWithRepeatedNames,
    extra: fc.constantFrom<Pair[]>([], [['note', '']], [['desc', "it's (2*3)!"]]),
    realm: fc.option(realm, { nil: undefined }),
    key: secret,
    nonce: unicodeString({ minLength: 1, maxLength: 8 }),
  });
  const seen = new Set<string>();

  it('for OAuth (HMAC-SHA1): every mistake that changes the signature is named', () => {
    fc.assert(
      fc.property(oauthRequest, (r) => {
        const query = r.query.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('&');
        const request = {
          url: `https://${r.host}${r.port}/paynet/api/v2/payout/7${query ? `?${query}` : ''}`,
          params: [...r.body, ...r.extra],
        };
        const input = {
          request,
          credentials: { login: 'm', controlKey: r.key },
          method: 'HMAC-SHA1' as const,
          nonce: r.nonce,
          timestamp: '1700000000',
          realm: r.realm,
        };
        const correct = oauthHeaderWithMistake('none', input)!;
        assert.equal(
          diagnose({ request, credentials: input.credentials, given: { authorization: correct } }).verdict,
          'valid',
        );
        for (const m of OAUTH_MISTAKES.filter((x) => x.id !== 'rsa-sha1-instead-of-sha256')) {
          for (let variant = 0; variant < m.recipes.length; variant++) {
            const given = oauthHeaderWithMistake(m.id, input, variant)!;
            if (given === correct) continue;
            seen.add(m.id);
            const d = diagnose({ request, credentials: input.credentials, given: { authorization: given } });
            assert.equal(d.verdict, 'invalid');
            assert.ok(d.defects.includes(m.id), `${m.id} not in ${d.defects.join()}`);
          }
        }
      }),
      fcParams(60),
    );
    const never = OAUTH_MISTAKES.map((m) => m.id).filter((id) => id !== 'rsa-sha1-instead-of-sha256' && !seen.has(id));
    assert.deepEqual(never, [], 'every HMAC mistake was exercised at least once');
  });

  it('for control: every mistake that changes the value is named', () => {
    // Amounts below one unit as well (0.05, .5): the only ones cents-leading-zero changes, rare in `amount` alone.
    const belowOne = fc
      .tuple(fc.constantFrom('0', ''), digits(1, 2))
      .map(([whole, fraction]) => `${whole}.${fraction}`);
    // Below ten cents (0.05): the one case cents-leading-zero changes; from belowOne alone about 2 % of
    // runs, which some seeds never drew (seed 1660895513), so the mistake went unexercised.
    const belowTenCents = fc.integer({ min: 0, max: 9 }).map((cents) => `0.0${cents}`);
    // Amounts whose binary float × 100 falls just under the cents (0.29 × 100 = 28.999999999999996): the only
    // ones truncated-cents changes; some seeds (292910133) drew none from the others in 150 runs.
    const floatShort = fc.constantFrom('0.29', '19.99', '1.15', '4.35', '0.57', '1.13');
    const controlRequest = fc.record({
      operation: fc.constantFrom('SALE', 'CAPTURE', 'TDS_UPLOAD_CRES_RESULT', 'STATUS'),
      amount: fc.oneof(amount, belowOne, belowTenCents, floatShort),
      value: paramValue,
      login: fc.stringMatching(/^[a-z]{1,8}$/),
      key: secret,
      spelling: fc.boolean(),
    });
    const controlSeen = new Set<string>();
    fc.assert(
      fc.property(controlRequest, (r) => {
        const orderField =
          r.operation === 'TDS_UPLOAD_CRES_RESULT' && !r.spelling ? 'client-order-id' : 'client_orderid';
        const params: Pair[] = [
          [orderField, `O-${r.value}`],
          ['amount', r.amount],
          ['email', 'e@x'],
          ['orderid', '55'],
          ['currency', 'EUR'],
        ];
        const path = {
          SALE: 'sale',
          CAPTURE: 'capture',
          TDS_UPLOAD_CRES_RESULT: '../3ds/v1/upload-cres-result',
          STATUS: 'status',
        }[r.operation];
        const request = { url: new URL(`https://h.example/api/v2/${path}/42`).href, params };
        const credentials = { login: r.login, controlKey: r.key };
        let correct: string | undefined;
        try {
          const signed = signRequest(request, credentials);
          correct = signed.scheme === 'control' ? signed.control.control : undefined;
          assert.equal(diagnose({ request, credentials, given: { control: correct } }).verdict, 'valid');
        } catch {
          correct = undefined; // e.g. client_orderid on a 3-D Secure upload: only the spelling mistake applies
        }
        for (const m of CONTROL_MISTAKES) {
          const given = controlWithMistake(m.id, r.operation, '42', request, credentials);
          if (given === undefined || given === correct) continue;
          controlSeen.add(m.id);
          const d = diagnose({ request, credentials, given: { control: given } });
          assert.equal(d.verdict, 'invalid');
          // The amount signed as sent is one value: a whole number reads as cents, so the field itself is wrong.
          const whole = /^[0-9]+$/.test(r.amount);
          const asSent = ['decimal-amount', 'amount-value-wrong'].includes(m.id);
          const named = asSent ? (whole ? 'amount-value-wrong' : 'decimal-amount') : m.id;
          assert.ok(d.defects.includes(named), `${named} (made as ${m.id}) not in ${d.defects.join()}`);
        }
      }),
      fcParams(150),
    );
    assert.deepEqual(
      CONTROL_MISTAKES.map((m) => m.id).filter((id) => !controlSeen.has(id)),
      [],
    );
  });
});
