// The answer rules in detail, on answers written by hand: api-spec.md "Endpoints" (200, 400, 500, each
// application/vnd.pay+json with a JSON body), A-21 (other statuses, 4xx for a refusal), A-19 and A-29
// (no full card number, no control key), A-17 and A-18 (the response schemas), A-28 (unknown is no
// outcome). Each says its exact words, and each boundary is judged on both sides.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  noControlKeyInAnswer,
  noFullPanInAnswer,
  orderKept,
  validationErrorStatus,
  answerMediaType,
} from '../../src/rules/answers.ts';
import type { AnswerSeen } from '../../src/rules/answers.ts';
import { answerFieldsKnown, answerJsonBody, answerSchema, otherStatusAnswer } from '../../src/rules/answer-body.ts';
import { answerFailure, judgeAnswer } from '../../src/rules/judge-answer.ts';
import { evidence, reason } from './outcomes.ts';

const JSON_TYPE = 'application/vnd.pay+json';
const ok: AnswerSeen = { status: 200, contentType: JSON_TYPE, text: '{}' };
/** 4111 1111 1111 1111: Luhn, doubling every second digit from the right: 4→8, seven 1→2, eight 1: 8 + 14 + 8 = 30. */
const PAN = '4111111111111111';

describe('answer-media-type', () => {
  it('passes the spec media type, with parameters or in capitals, on 200, 400 and 500', () => {
    for (const status of [200, 400, 500])
      for (const contentType of [JSON_TYPE, `${JSON_TYPE}; charset=utf-8`, 'Application/VND.pay+JSON'])
        assert.equal(answerMediaType.check({ ...ok, status, contentType }).outcome, 'pass', `${status} ${contentType}`);
  });

  it('names the media type that came, whole, or that none came', () => {
    for (const status of [200, 400, 500])
      assert.deepEqual(
        evidence(answerMediaType.check({ ...ok, status, contentType: 'application/json; charset=utf-8' })),
        {
          message: 'content-type: must be application/vnd.pay+json (got application/json; charset=utf-8)',
          field: 'content-type',
          expected: 'application/vnd.pay+json',
          actual: 'application/json; charset=utf-8',
        },
      );
    assert.deepEqual(evidence(answerMediaType.check({ ...ok, contentType: '' })), {
      message: 'content-type: must be application/vnd.pay+json (got none)',
      field: 'content-type',
      expected: 'application/vnd.pay+json',
      actual: 'none',
    });
  });

  it('leaves a status the spec does not list to other-status-answer', () => {
    for (const status of [201, 403, 404, 502])
      assert.equal(
        reason(answerMediaType.check({ ...ok, status, contentType: 'text/html' })),
        'a status the spec does not list',
      );
  });
});

describe('answer-json-body', () => {
  it('passes JSON, and names the body that is not, with the media type it claimed', () => {
    assert.equal(answerJsonBody.check({ ...ok, readAs: 'json' }).outcome, 'pass');
    for (const status of [200, 400, 500])
      assert.deepEqual(
        evidence(
          answerJsonBody.check({
            ...ok,
            status,
            readAs: 'json',
            contentType: 'Application/Vnd.Pay+Json; charset=utf-8',
            text: '{"a":',
          }),
        ),
        { message: 'body: is not JSON although the content type is application/vnd.pay+json', field: 'body' },
      );
  });

  it('skips a body not read as JSON (a profile’s form text) and a status the spec does not list', () => {
    assert.equal(reason(answerJsonBody.check({ ...ok, text: 'x' })), 'the body is not read as JSON');
    assert.equal(reason(answerJsonBody.check({ ...ok, readAs: 'form', text: 'x' })), 'the body is not read as JSON');
    assert.equal(
      reason(answerJsonBody.check({ ...ok, status: 403, readAs: 'json', text: 'x' })),
      'a status the spec does not list',
    );
  });
});

describe('other-status-answer (A-21)', () => {
  const other: AnswerSeen = { ...ok, status: 403, readAs: 'json', text: '{"type":"error"}' };

  it('skips the statuses the spec lists', () => {
    for (const status of [200, 400, 500])
      assert.equal(
        reason(otherStatusAnswer.check({ ...other, status, contentType: 'text/html' })),
        'a status the spec lists',
      );
  });

  it('passes another status answered like the spec’s, and says first what is wrong with its media type, then its body', () => {
    assert.equal(otherStatusAnswer.check(other).outcome, 'pass');
    assert.deepEqual(evidence(otherStatusAnswer.check({ ...other, contentType: 'text/html', text: '<html>' })), {
      message: 'content-type: must be application/vnd.pay+json (got text/html)',
      field: 'content-type',
      expected: 'application/vnd.pay+json',
      actual: 'text/html',
    });
    assert.deepEqual(evidence(otherStatusAnswer.check({ ...other, status: 404, text: '<html>' })), {
      message: 'body: is not JSON although the content type is application/vnd.pay+json',
      field: 'body',
    });
    assert.equal(reason(otherStatusAnswer.check({ ...other, readAs: undefined })), 'the body is not read as JSON');
  });
});

describe('validation-error-status (A-21)', () => {
  const refused = (status: number) => validationErrorStatus.check({ ...ok, status, refusalExpected: true });

  it('judges only an answer to a request that must be refused', () => {
    assert.equal(reason(validationErrorStatus.check({ ...ok, status: 500 })), 'no refusal was expected');
    assert.equal(
      reason(validationErrorStatus.check({ ...ok, status: 500, refusalExpected: false })),
      'no refusal was expected',
    );
  });

  it('passes every 4xx, 400 to 499', () => {
    for (const status of [400, 403, 499]) assert.equal(refused(status).outcome, 'pass', String(status));
  });

  it('leaves a 2xx, 200 to 299, to the acceptance checks', () => {
    for (const status of [200, 299]) assert.equal(reason(refused(status)), 'the request was accepted', String(status));
  });

  it('fails anything else, one either side of each class: 199, 300, 399, 500', () => {
    for (const status of [199, 300, 399, 500])
      assert.deepEqual(evidence(refused(status)), {
        message: `status: a client mistake is answered 4xx (got ${status})`,
        expected: '4xx (a client mistake)',
        actual: String(status),
      });
  });
});

describe('no-control-key-in-answer (A-29)', () => {
  it('fails an answer that quotes the key anywhere, and says so without quoting it', () => {
    assert.deepEqual(evidence(noControlKeyInAnswer.check({ ...ok, controlKey: 'K-123', text: '{"m":"bad K-123!"}' })), {
      message: 'leak: the answer contains the merchant control key',
    });
    assert.equal(noControlKeyInAnswer.check({ ...ok, controlKey: 'K-123', text: '{"m":"K-12"}' }).outcome, 'pass');
    assert.equal(reason(noControlKeyInAnswer.check({ ...ok, text: 'K-123' })), 'the control key is not known here');
  });
});

describe('no-full-pan-in-answer (A-19)', () => {
  it('fails a full card number in the text, and passes a masked one or digits that fail the Luhn check', () => {
    assert.deepEqual(evidence(noFullPanInAnswer.check({ ...ok, text: `card ${PAN}` })), {
      message: ': contains a full card number (at most the first six and last four digits may be shown)',
    });
    assert.equal(noFullPanInAnswer.check({ ...ok, text: 'card 411111******1111' }).outcome, 'pass');
    // 4111111111111112: the Luhn sum is 31, no card number.
    assert.equal(noFullPanInAnswer.check({ ...ok, text: 'id 4111111111111112' }).outcome, 'pass');
  });

  it('judges the body as read where there is one, so an identifier field may hold digits', () => {
    const idOnly = { ...ok, text: `{"card-ref-id":"${PAN}"}`, body: { 'card-ref-id': PAN } };
    assert.equal(noFullPanInAnswer.check(idOnly).outcome, 'pass');
    assert.equal(noFullPanInAnswer.check({ ...idOnly, body: { 'error-message': PAN } }).outcome, 'fail');
  });
});

describe('answer-schema (A-17) and answer-fields-known (A-18)', () => {
  const refusal = {
    type: 'validation-error',
    'serial-number': 'S-1',
    'error-message': 'amount: missing',
    'error-code': 'FIELD_MISSING',
  };
  const seen = (body: unknown): AnswerSeen => ({ ...ok, status: 400, schema: 'ValidationErrorResponse', body });
  const { 'serial-number': _serial, 'error-code': _code, ...twoMissing } = refusal;

  it('pass a body with the fields of its schema', () => {
    assert.equal(answerSchema.check(seen(refusal)).outcome, 'pass');
    assert.equal(answerFieldsKnown.check(seen(refusal)).outcome, 'pass');
  });

  it('answer-schema names each missing field, prefixed with the schema, and leaves unknown fields to A-18', () => {
    assert.deepEqual(evidence(answerSchema.check(seen({ ...twoMissing, colour: 'red' }))), {
      message:
        "ValidationErrorResponse/: must have required property 'error-code'; " +
        "ValidationErrorResponse/: must have required property 'serial-number'",
    });
    assert.equal(answerSchema.check(seen({ ...refusal, colour: 'red' })).outcome, 'pass');
  });

  it('answer-fields-known names each field the schema does not list, and nothing else', () => {
    assert.deepEqual(evidence(answerFieldsKnown.check(seen({ ...twoMissing, colour: 'red' }))), {
      message: 'ValidationErrorResponse/: must NOT have additional properties "colour"',
    });
    assert.equal(answerFieldsKnown.check(seen(twoMissing)).outcome, 'pass');
  });

  it('leave a full card number to no-full-pan-in-answer, which says it of every answer', () => {
    const leak = seen({ ...refusal, 'error-message': `card ${PAN}` });
    assert.equal(answerSchema.check(leak).outcome, 'pass');
    assert.equal(answerFieldsKnown.check(leak).outcome, 'pass');
    assert.equal(noFullPanInAnswer.check(leak).outcome, 'fail');
  });

  it('skip an answer with no schema for its status', () => {
    for (const rule of [answerSchema, answerFieldsKnown]) {
      assert.equal(reason(rule.check({ ...ok, body: {} })), 'no schema for this status');
      assert.equal(reason(rule.check({ ...ok, body: {}, schema: null })), 'no schema for this status');
    }
  });
});

describe('order-kept (A-28)', () => {
  it('fails "unknown" for an accepted order, passes processing or a final status, skips no status', () => {
    assert.deepEqual(evidence(orderKept.check({ ...ok, orderStatus: 'unknown' })), {
      message: 'status: the gateway answered "unknown" for an order it accepted',
      expected: 'processing or a final status',
      actual: 'unknown',
    });
    for (const status of ['processing', 'approved', 'declined'])
      assert.equal(orderKept.check({ ...ok, orderStatus: status }).outcome, 'pass');
    assert.equal(reason(orderKept.check(ok)), 'the answer reports no order status');
  });
});

describe('judgeAnswer and answerFailure', () => {
  it('hand back each failing rule with its evidence, and nothing for the rules that pass', () => {
    const findings = judgeAnswer({ ...ok, contentType: 'text/plain', orderStatus: 'unknown' });
    assert.deepEqual(
      findings.map((f) => [f.rule.id, f.evidence.message]),
      [
        ['answer-media-type', 'content-type: must be application/vnd.pay+json (got text/plain)'],
        ['order-kept', 'status: the gateway answered "unknown" for an order it accepted'],
      ],
    );
  });

  it('answerFailure finds the named rule’s failure, not another’s, and undefined where it passes', () => {
    const seen = { ...ok, contentType: 'text/plain', orderStatus: 'unknown' };
    assert.equal(answerFailure(seen, 'order-kept')?.actual, 'unknown');
    assert.equal(answerFailure(seen, 'answer-media-type')?.actual, 'text/plain');
    assert.equal(answerFailure(seen, 'no-control-key-in-answer'), undefined);
  });
});
