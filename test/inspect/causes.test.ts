// inspect groups its failures by mistake: twelve SALEs whose control has the amount as sent (10.00)
// instead of in cents are one cause with twelve requests under it, apart from three signed with the key
// first. The controls are computed here with node:crypto from the spec's SALE formula, by hand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { Inspector } from '../../src/inspect/inspector.ts';
import type { InspectRecord } from '../../src/inspect/listener.ts';
import { writeInspectReport } from '../../src/inspect/report.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

const merchant = testMerchant();
const key = merchant.merchantControlKey;
const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');
const dir = mkdtempSync(join(tmpdir(), 'payconform-inspect-causes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A SALE of 10.00 whose control is `sign(orderId, email)`. */
function sale(seq: number, sign: (orderId: string, email: string) => string): InspectRecord {
  const endpoint = endpointByOperation('SALE');
  const orderId = `CAUSE-${seq}`;
  const pairs = sampleRequest(endpoint, [
    ['client_orderid', orderId],
    ['amount', '10.00'],
  ]).filter(([name]) => name !== 'control');
  const email = pairs.find(([name]) => name === 'email')?.[1] ?? '';
  const r = buildRequest(
    endpoint,
    {
      baseUrl: 'http://127.0.0.1:8080/paynet',
      credentials: { login: merchant.login, controlKey: key },
      endpointId: '1001',
    },
    [...pairs, ['control', sign(orderId, email)]],
    { unsigned: true },
  );
  const verdict = new Inspector({ merchants: [merchant] }).judge({
    method: r.method,
    url: r.url,
    headers: r.headers,
    body: Buffer.from(r.body),
  });
  const path = new URL(r.url).pathname;
  return {
    seq,
    at: '2026-01-01T00:00:00Z',
    method: 'POST',
    path,
    verdict,
    answer: { status: 400, errorCode: 'CONTROL_INVALID' },
  };
}

const decimal = (orderId: string, email: string): string => sha1(`1001${orderId}10.00${email}${key}`);
const keyFirst = (orderId: string, email: string): string => sha1(`${key}1001${orderId}1000${email}`);
const correct = (orderId: string, email: string): string => sha1(`1001${orderId}1000${email}${key}`);

describe('inspect groups failures by mistake', () => {
  const records = [
    ...Array.from({ length: 12 }, (_, i) => sale(i + 1, decimal)),
    ...Array.from({ length: 3 }, (_, i) => sale(20 + i, keyFirst)),
    sale(30, correct),
  ];

  it('twelve requests with one mistake are one cause listing the twelve', () => {
    const summary = writeInspectReport(dir, records, { target: 'mock', startedAt: 'a', finishedAt: 'b', version: 't' });
    const [first, second, ...rest] = summary.causes;
    assert.equal(rest.length, 0, JSON.stringify(rest));
    assert.deepEqual(
      [first?.rule, first?.mistake, first?.kind, first?.actor],
      ['control-signature', 'decimal-amount', 'sent-wrong', 'merchant-code'],
    );
    assert.deepEqual(
      first?.scenarios.map((s) => s.name),
      Array.from({ length: 12 }, (_, i) => `#${i + 1} SALE`),
    );
    assert.equal(second?.rule, 'control-signature');
    assert.notEqual(second?.mistake, 'decimal-amount');
    assert.equal(second?.scenarios.length, 3);
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { summary: { causes: unknown[] } };
    assert.equal(json.summary.causes.length, 2);
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    assert.match(html, /<h2>Failures by mistake \(2\)<\/h2>/);
    assert.match(html, /control-signature <code>decimal-amount<\/code> <small>requests break the rule: 12 failures/);
  });
});
