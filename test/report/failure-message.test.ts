// The failure text the certification page shows: cucumber's message without the stack it appends
// and without the class name it starts with (AssertionError [ERR_ASSERTION]:, PayconformError:),
// which says nothing to the people who fix the failure.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { failureMessage } from '../../src/report/certification-page.ts';

describe('a failure message on the certification page', () => {
  for (const [raw, shown] of [
    [
      'PayconformError: SALE needs an orderid from PREAUTH, which answered 400: {}\n    at prepareRequest (file:///x.js:1:1)',
      'SALE needs an orderid from PREAUTH, which answered 400: {}',
    ],
    [
      'AssertionError [ERR_ASSERTION]: status: expected 400, got 200\n    at World.<anonymous> (file:///s.js:2:2)',
      'status: expected 400, got 200',
    ],
    ['status: expected approved', 'status: expected approved'],
  ] as const) {
    it(JSON.stringify(raw.split('\n')[0]), () => assert.equal(failureMessage(raw), shown));
  }
});
