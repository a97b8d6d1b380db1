// Coverage (issue 29): what a run exercised, read from its scenarios' tags and not-applicable reasons,
// and the verdict that follows. The scenarios below are written by hand; the expected names come from
// the catalogue's own words (operations, schemes) and the features' @capability tags, typed here.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS, PREREQUISITES } from '../../src/catalogue/index.ts';
import {
  CAPABILITY_NAMES,
  coverageOf,
  missingOf,
  requiredCapabilities,
  TAGGED_CAPABILITIES,
  type CoverageInput,
} from '../../src/report/coverage.ts';
import { coveredStatus } from '../../src/report/coverage-verdict.ts';
import { withSkipReasons } from '../../src/report/junit-skipped.ts';
import type { ScenarioResult } from '../../src/report/run-record.ts';
import { onLoopback } from '../../src/suite/live-safety.ts';

const result = (tags: string[], notApplicable?: string): ScenarioResult => ({
  name: tags.join(' '),
  uri: 'features/x.feature',
  tags,
  outcome: notApplicable === undefined ? 'passed' : 'skipped',
  warnings: [],
  notApplicable,
});
const CALLBACK = ['@endpoint:SALE', '@scheme:control', '@capability:callbacks'];
const GROUP = ['@endpoint:SALE', '@scheme:control', '@capability:endpoint-groups'];
const SALE = ['@endpoint:SALE', '@scheme:control', '@positive'];
const input = (selection: string[][], more: Partial<CoverageInput> = {}): CoverageInput => ({
  selection,
  tags: 'all',
  shard: null,
  profile: 'Acme sandbox',
  live: false,
  required: [],
  ...more,
});
const UNREACHABLE =
  "a gateway off this machine (https://sandbox.example) cannot reach the run's callback handler: set " +
  'PAYCONFORM_CALLBACK_URL (a public URL forwarded here) and PAYCONFORM_CALLBACK_PORT';

describe('coverage', () => {
  it('a run whose callbacks did not apply has not exercised callbacks: PARTIAL, with why and how', () => {
    const coverage = coverageOf([result(SALE), result(CALLBACK, UNREACHABLE)], input([SALE, CALLBACK]));
    assert.deepEqual(coverage.exercised, ['endpoint:SALE', 'scheme:control']);
    assert.deepEqual(
      missingOf(coverage).map((m) => [m.capability, m.why]),
      [['callbacks', 'not configured']],
    );
    assert.match(missingOf(coverage)[0]?.include ?? '', /PAYCONFORM_CALLBACK_URL and PAYCONFORM_CALLBACK_PORT/);
    assert.equal(coverage.selected, 3);
    assert.equal(coveredStatus('passed', coverage), 'partial');
    assert.equal(coveredStatus('passed-with-warnings', coverage), 'partial-with-warnings');
    assert.equal(coveredStatus('failed', coverage), 'failed', 'a failure stays the verdict');
  });

  it('a run that exercised every capability of its selection passes; one outside the selection has no bearing', () => {
    const coverage = coverageOf([result(SALE), result(CALLBACK)], input([SALE, CALLBACK], { tags: '@endpoint:SALE' }));
    assert.deepEqual(missingOf(coverage), []);
    assert.equal(coveredStatus('passed', coverage), 'passed');
    const group = coverage.notExercised.find((m) => m.capability === 'endpoint-groups');
    assert.deepEqual(
      [group?.why, group?.inSelection, group?.include],
      ['left out of the selection', false, 'widen --tags'],
    );
  });

  it('a missing endpoint group names PAYCONFORM_ENDPOINT_GROUP_ID; the profile leaving one out says so', () => {
    const noGroup = 'the merchant has no endpoint group here: set PAYCONFORM_ENDPOINT_GROUP_ID to certify it';
    const missing = missingOf(coverageOf([result(SALE), result(GROUP, noGroup)], input([SALE, GROUP])));
    assert.deepEqual(
      missing.map((m) => [m.capability, m.why, m.include]),
      [['endpoint-groups', 'not configured', 'PAYCONFORM_ENDPOINT_GROUP_ID']],
    );
    const byProfile = missingOf(
      coverageOf([result(SALE), result(GROUP, 'Acme sandbox: no groups here')], input([SALE, GROUP])),
    );
    assert.deepEqual(
      byProfile.map((m) => [m.capability, m.why]),
      [['endpoint-groups', "not offered by this gateway's profile"]],
    );
  });

  it('a shard that ran none of a selected capability is PARTIAL for it, "left out of this shard"', () => {
    const coverage = coverageOf([result(SALE)], input([SALE, CALLBACK], { shard: '1/2' }));
    assert.deepEqual(
      missingOf(coverage).map((m) => [m.capability, m.why]),
      [['callbacks', 'left out of this shard']],
    );
  });

  it('a required capability not exercised fails the run, even one left out of the selection', () => {
    const coverage = coverageOf([result(SALE)], input([SALE], { required: ['endpoint-groups'] }));
    assert.deepEqual(coverage.requiredMissing, ['endpoint-groups']);
    assert.equal(coveredStatus('passed', coverage), 'failed');
    const met = coverageOf([result(SALE), result(GROUP)], input([SALE, GROUP], { required: ['endpoint-groups'] }));
    assert.equal(coveredStatus('passed', met), 'passed');
  });

  it('--require takes known names, repeated or comma-separated; an unknown one is one line naming the option', () => {
    assert.deepEqual(requiredCapabilities(['callbacks,endpoint:SALE', 'flow:PREAUTH+CAPTURE'], '--require'), [
      'callbacks',
      'endpoint:SALE',
      'flow:PREAUTH+CAPTURE',
    ]);
    assert.throws(
      () => requiredCapabilities(['callback'], '--require'),
      (err: Error) => /^--require: "callback" is not a capability \(/.test(err.message) && !err.message.includes('\n'),
    );
  });

  it('the capabilities are the catalogue operations, its three schemes, its prerequisite flows and the tagged ones', () => {
    const expected = [
      ...ENDPOINTS.map((e) => `endpoint:${e.operation}`),
      'scheme:control',
      'scheme:oauth-hmac-sha1',
      'scheme:oauth-rsa-sha256',
      'flow:PREAUTH+CAPTURE',
      'flow:SALE+STATUS',
      'flow:SALE+RETURN',
      'callbacks',
      'customer-return',
      'endpoint-groups',
      '3-d-secure',
      'hosted-pages',
    ];
    for (const name of expected) assert.ok(CAPABILITY_NAMES.includes(name), name);
    const flows = Object.values(PREREQUISITES).filter((p) => p !== null).length;
    assert.equal(CAPABILITY_NAMES.length, ENDPOINTS.length + 3 + flows + 5);
  });

  it('every @capability tag of the features is a capability, and every tagged capability has a scenario', () => {
    const root = new URL('../../features/', import.meta.url).pathname;
    const text = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.feature'))
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    const tagged = new Set([...text.matchAll(/@capability:([a-z0-9-]+)/g)].map((m) => m[1]));
    assert.deepEqual([...tagged].sort(), [...TAGGED_CAPABILITIES].sort());
  });
});

describe('JUnit and loopback', () => {
  it('a not-applicable scenario is <skipped message="its reason"/> in junit.xml', () => {
    const xml = [
      '<testsuite>',
      '  <testcase classname="endpoint groups" name="a SALE to the group &amp; back" time="0.001">',
      '    <skipped/>',
      '  </testcase>',
      '  <testcase classname="x" name="other" time="0.001">',
      '    <skipped/>',
      '  </testcase>',
      '</testsuite>',
    ].join('\n');
    const out = withSkipReasons(xml, [{ name: 'a SALE to the group & back', reason: 'no group "here" <set one>' }]);
    assert.match(out, /<skipped message="no group &quot;here&quot; &lt;set one&gt;"\/>/);
    assert.equal((out.match(/<skipped\/>/g) ?? []).length, 1, 'a skip with no reason stays as it was');
  });

  it('a gateway on loopback reaches this machine; one elsewhere does not', () => {
    assert.equal(onLoopback('http://127.0.0.1:8099/paynet'), true);
    assert.equal(onLoopback('http://localhost:8099'), true);
    assert.equal(onLoopback('http://[::1]:8099'), true);
    assert.equal(onLoopback('https://sandbox.example/paynet'), false);
  });
});
