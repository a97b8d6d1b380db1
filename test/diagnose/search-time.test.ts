// The diagnosis search's time on the richest requests payconform ships (vectors/diagnoses.json: every mistake has
// room there) and on typical ones: never over 500 ms; the measured figures are printed as diagnostics.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/rules/diagnose.ts';
import type { DiagnoseInput } from '../../src/signing/diagnose/index.ts';

describe('the search time on the richest shipped requests', () => {
  const file = JSON.parse(readFileSync(new URL('../../vectors/diagnoses.json', import.meta.url), 'utf8')) as {
    vectors: Array<{
      request: DiagnoseInput['request'];
      credentials: { login?: string; merchantControlKey?: string; privateKeyPem?: string };
      given: { control?: string; authorization?: string };
      operation?: string;
      message?: string;
    }>;
  };
  // A value no mistake explains makes the search try every composition: the worst case.
  const unexplained = file.vectors.map((v): DiagnoseInput => ({
    request: v.request,
    credentials: {
      login: v.credentials.login,
      controlKey: v.credentials.merchantControlKey,
      privateKeyPem: v.credentials.privateKeyPem,
    },
    given:
      v.given.control === undefined
        ? { authorization: v.given.authorization?.replace(/oauth_signature="[^"]*"/, 'oauth_signature="QUJD"') }
        : { control: 'f'.repeat(40) },
    ...(v.operation === undefined ? {} : { operation: v.operation }),
    ...(v.message === 'callback' ? { callback: true } : {}),
  }));

  it('stays under 500 ms for each, the budget cutting a search short on a busy machine', (t) => {
    diagnose(unexplained[0]!); // loads and compiles the code once
    let cut = 0;
    const times = unexplained.map((input) => {
      const start = performance.now();
      const d = diagnose(input);
      const ms = performance.now() - start;
      assert.equal(d.verdict, 'invalid');
      if (/budget ran out/.test(d.message)) cut++;
      return ms;
    });
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    const worst = sorted.at(-1)!;
    t.diagnostic(
      `${times.length} searches: median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms, ${cut} cut short`,
    );
    assert.ok(worst < 500, `worst ${worst.toFixed(1)} ms`);
  });

  it('searches a typical request (a sale, a payout with three fields) in full', (t) => {
    const sale: DiagnoseInput = {
      request: {
        url: 'https://gate.example/paynet/api/v2/sale/1001',
        params: [
          ['client_orderid', 'ORD-1'],
          ['amount', '10.00'],
          ['email', 'jane@example.com'],
        ],
      },
      credentials: { controlKey: 'TEST-ONLY-key' },
      given: { control: 'f'.repeat(40) },
    };
    const payout: DiagnoseInput = {
      request: {
        url: 'https://gate.example/paynet/api/v2/payout/1001',
        params: [
          ['client_orderid', 'ORD-1'],
          ['amount', '10.00'],
          ['currency', 'EUR'],
        ],
      },
      credentials: { login: 'merchant', controlKey: 'TEST-ONLY-key' },
      given: {
        authorization:
          'OAuth oauth_consumer_key="merchant", oauth_nonce="n1", oauth_signature_method="HMAC-SHA1", ' +
          'oauth_timestamp="1700000000", oauth_version="1.0", oauth_signature="QUJD"',
      },
    };
    for (const input of [sale, payout]) {
      diagnose(input);
      const start = performance.now();
      const d = diagnose(input);
      t.diagnostic(`${input.request.url}: ${(performance.now() - start).toFixed(1)} ms`);
      assert.match(d.message, /alone and up to 3 together/);
    }
  });
});
