// inspect in front of the embedded mock judges a request once: the mock answers from inspect's
// judgement (RunningMock.answerJudged) and never judges the request again, nor keeps a nonce store
// of its own for it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { endpointByOperation, OP } from '../../src/catalogue/index.ts';
import { buildRequest, type SentRequest } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { Inspector } from '../../src/inspect/inspector.ts';
import { startMock, type RunningMock } from '../../src/mock/index.ts';
import { controlSignature } from '../../src/rules/control.ts';
import { fail } from '../../src/rules/rule.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};

/** A correct request of an operation signed by control (SALE) or by OAuth HMAC-SHA1 (PAYOUT, which has a nonce). */
function signed(operation: string, clientOrderId: string): SentRequest {
  const endpoint = endpointByOperation(operation);
  const pairs = sampleRequest(endpoint, [['client_orderid', clientOrderId]]);
  return buildRequest(endpoint, { baseUrl: 'http://127.0.0.1:8080', credentials, endpointId: '1001' }, pairs);
}

describe('the embedded mock behind inspect', () => {
  let mock: RunningMock;
  before(async () => {
    mock = await startMock({ merchants: [merchant], anyPrefix: true });
  });
  after(() => mock.close());

  const judged = (inspector: Inspector, r: SentRequest) => {
    const request = inspector.request({ method: r.method, url: r.url, headers: r.headers, body: Buffer.from(r.body) });
    return { request, ...inspector.inspect(request) };
  };

  it('answers a request every rule passed with its operation', () => {
    const { request, judgements, verdict } = judged(
      new Inspector({ merchants: [merchant] }),
      signed(OP.SALE, 'ONCE-1'),
    );
    assert.equal(verdict.passed, true);
    const written = mock.answerJudged(request, judgements);
    assert.equal(written.status, 200);
    assert.equal(written.answer.body.type, 'async-response');
    assert.equal(written.answer.body['merchant-order-id'], 'ONCE-1');
  });

  it('refuses with the rule inspect found failing, though the request itself is correct: it is not judged again', () => {
    const { request, judgements } = judged(new Inspector({ merchants: [merchant] }), signed(OP.SALE, 'ONCE-2'));
    const said = judgements.map((j) =>
      j.rule.id === controlSignature.id
        ? { ...j, outcome: fail('control: as inspect found', { field: 'control' }) }
        : j,
    );
    const written = mock.answerJudged(request, said);
    assert.equal(written.status, 400);
    assert.equal(written.answer.body['error-code'], 'CONTROL_INVALID');
    assert.equal(written.answer.body['error-message'], 'control: as inspect found');
  });

  it("keeps no nonce store of its own: inspect's one store says whether a nonce was used", () => {
    const inspector = new Inspector({ merchants: [merchant] });
    const r = signed(OP.PAYOUT, 'ONCE-3');
    const first = judged(inspector, r);
    // The same judgement answered twice: the mock takes inspect's word, and adds no replay of its own.
    assert.equal(mock.answerJudged(first.request, first.judgements).status, 200);
    const again = judged(inspector, r);
    assert.ok(again.verdict.checks.some((c) => c.id === 'nonce-unique' && c.outcome === 'fail'));
    const written = mock.answerJudged(again.request, again.judgements);
    assert.equal(written.answer.body['error-code'], 'NONCE_REPLAYED');
  });
});
