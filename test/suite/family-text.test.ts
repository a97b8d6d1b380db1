// certify against the mock answering as the family's public gateways (profiles/family-text.json):
// with the profile, 0 failures and every departure from the spec shown as a warning under
// "profile <key>" or as not applicable with the key's reason; without it, the same gateway fails
// on exactly the clauses the profile declares (the answer's media type, the Accept header).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/mock/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import type { Summary } from '../../src/report/bundle.ts';
import { readProfile, type Profile } from '../../src/suite/profile.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';

const merchant = testMerchant();
const env = {
  CI: 'true', PAYCONFORM_POLL_INTERVAL_MS: '0', PAYCONFORM_ENDPOINT_ID: merchant.endpointIds[0]!, PAYCONFORM_ENDPOINT_GROUP_ID: merchant.endpointGroupIds[0]!, PAYCONFORM_LOGIN: merchant.login,
  PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey, PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
};
const profile = readProfile(new URL('../../profiles/family-text.json', import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), 'payconform-family-text-'));
let textMock: RunningMock;
let runs = 0;

before(async () => {
  textMock = await startMock({ answers: profile.answers, answerFields: profile.answerFields, acceptRequired: profile.request.acceptRequired });
});
after(async () => {
  await textMock.close();
  rmSync(dir, { recursive: true, force: true });
});

async function certify(withProfile: Profile | undefined, tags?: string): Promise<{ summary: Summary; bundle: string }> {
  const target = resolveTarget({ baseUrl: textMock.url, live: false, profile: withProfile }, env);
  const bundle = join(dir, `run-${++runs}`);
  const outcome = await runSuite({ target, tags, reportDir: bundle }, { log: () => {}, progress: new PassThrough().resume() });
  return { summary: outcome.summary, bundle };
}

describe('certify against the mock with profiles/family-text.json', () => {
  it('passes with 0 failures, the media type a warning under its profile key and the Accept checks not applicable', async () => {
    const { summary, bundle } = await certify(profile);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.totals.failed, 0);
    assert.equal(summary.status, 'passed-with-warnings');
    assert.ok((summary.warnings.byAssumption['profile answers.format, answers.mediaType'] ?? 0) > 0, JSON.stringify(summary.warnings.byAssumption));
    const accept = summary.notApplicable.filter((n) => n.reason.includes('request.acceptRequired'));
    assert.ok(accept.length > 0 && accept.every((n) => n.reason.includes('Accept: application/vnd.pay+json, required')));
    const written = JSON.parse(readFileSync(join(bundle, 'summary.json'), 'utf8')) as { deviations: string[] };
    assert.deepEqual(written.deviations.map((d) => d.split(':')[0]), ['answers.format', 'answers.mediaType', 'answers.errorStatus', 'request.acceptRequired']);
    assert.ok((summary.warnings.byAssumption['profile answers.errorStatus'] ?? 0) > 0, JSON.stringify(summary.warnings.byAssumption));
    const page = readFileSync(join(bundle, 'report.html'), 'utf8');
    assert.match(page, /with deviations declared by the profile/);
    assert.match(page, /profile answers\.format, answers\.mediaType/);
  });

  it('fails without the profile, on the answer media type and on the Accept header', async () => {
    const { summary } = await certify(undefined, '@endpoint:SALE');
    assert.ok(summary.totals.failed > 0);
    const names = summary.failed.map((f) => f.name).join('\n');
    assert.match(names, /Accept/);
    assert.match(names, /accepted/i);
  });
});
