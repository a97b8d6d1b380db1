// certify against the mock answering as the family's public gateways (profiles/family-text.json):
// with the profile, 0 failures and every departure from the spec shown as a warning under
// "profile <key>" or as not applicable with the key's reason; without it, the same gateway fails
// on exactly the clauses the profile declares (the answer's media type, the Accept header).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import type { Summary } from '../../src/report/bundle.ts';
import { readProfile, type Profile } from '../../src/suite/profile.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { testMerchantEnv } from '../support/merchant-env.ts';

const merchant = testMerchant();
const env = testMerchantEnv({ group: true });
const profile = readProfile(new URL('../../profiles/family-text.json', import.meta.url).pathname);
const dir = mkdtempSync(join(tmpdir(), 'payconform-family-text-'));
let textMock: RunningMock;
let runs = 0;

before(async () => {
  textMock = await startMock({
    answers: profile.answers,
    answerFields: profile.answerFields,
    acceptRequired: profile.request.acceptRequired,
  });
});
after(async () => {
  await textMock.close();
  rmSync(dir, { recursive: true, force: true });
});

async function certify(withProfile: Profile | undefined, tags?: string): Promise<{ summary: Summary; bundle: string }> {
  const target = resolveTarget({ baseUrl: textMock.url, live: false, profile: withProfile }, env);
  const bundle = join(dir, `run-${++runs}`);
  const outcome = await runSuite(
    { target, tags, reportDir: bundle },
    { log: () => {}, progress: new PassThrough().resume() },
  );
  return { summary: outcome.summary, bundle };
}

/** No report file of the bundle shows the control key or a full test card number (redaction of form text too). */
function assertRedacted(bundle: string): void {
  const files = readdirSync(bundle).filter((f) => /\.(ndjson|xml|html|json)$/.test(f));
  assert.ok(
    files.includes('messages.ndjson') && files.includes('junit.xml') && files.includes('report.html'),
    files.join(),
  );
  for (const file of files) {
    const text = readFileSync(join(bundle, file), 'utf8');
    assert.ok(!text.includes(merchant.merchantControlKey), `${file} shows the control key`);
    assert.ok(!text.includes('4111111111111111'), `${file} shows a full card number`);
  }
}

describe('certify against the mock with profiles/family-text.json', () => {
  it('passes with 0 failures, the media type a warning under its profile key and the Accept checks not applicable', async () => {
    const { summary, bundle } = await certify(profile);
    assert.deepEqual(summary.failed, []);
    assert.equal(summary.totals.failed, 0);
    assert.equal(summary.status, 'passed-with-warnings');
    assert.ok(
      (summary.warnings.byAssumption['profile answers.format, answers.mediaType'] ?? 0) > 0,
      JSON.stringify(summary.warnings.byAssumption),
    );
    const accept = summary.notApplicable.filter((n) => n.reason.includes('request.acceptRequired'));
    assert.ok(
      accept.length > 0 && accept.every((n) => n.reason.includes('Accept: application/vnd.pay+json, required')),
    );
    const written = JSON.parse(readFileSync(join(bundle, 'summary.json'), 'utf8')) as { deviations: string[] };
    assert.deepEqual(
      written.deviations.map((d) => d.split(':')[0]),
      ['answers.format', 'answers.mediaType', 'answers.errorStatus', 'request.acceptRequired'],
    );
    assert.ok(
      (summary.warnings.byAssumption['profile answers.errorStatus'] ?? 0) > 0,
      JSON.stringify(summary.warnings.byAssumption),
    );
    const page = readFileSync(join(bundle, 'report.html'), 'utf8');
    assert.match(page, /with deviations declared by the profile/);
    assert.match(page, /profile answers\.format, answers\.mediaType/);
    assert.match(page, /A departure from the spec that the gateway profile declares/);
    assertRedacted(bundle);
  });

  it('fails without the profile, only on the clauses the profile declares and on what an unread answer cannot give', async () => {
    const { summary, bundle } = await certify(undefined);
    assert.ok(summary.totals.failed > 0);
    const messages = readFileSync(join(bundle, 'messages.ndjson'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map(
        (line) => JSON.parse(line) as { testStepFinished?: { testStepResult: { status: string; message?: string } } },
      )
      .flatMap((e) =>
        e.testStepFinished?.testStepResult.status === 'FAILED'
          ? [e.testStepFinished.testStepResult.message!.split('\n')[0]]
          : [],
      );
    const declared = [
      /answer: expected what the spec states, got content-type: must be application\/vnd\.pay\+json \(got text\/html;charset=utf-8\)/, // answers.format, answers.mediaType
      /status: expected a refusal \(no 2xx\), got 200 \(the spec\)/, // answers.errorStatus, and request.acceptRequired (served without Accept)
      /answered 200 with no "[a-z-]+": the suite needs it to go on/, // the text left unread
      /needs an orderid from [A-Z_0-9]+, which answered 200: "type=/, // the same, one step earlier
      /generated [a-z-]+ request to [A-Z_0-9]+: expected a refusal \(no 2xx\), got 200 for /, // answers.errorStatus
    ];
    assert.ok(messages.length > 0);
    for (const message of messages)
      assert.ok(
        declared.some((re) => re.test(message!)),
        message,
      );
    for (const re of declared.slice(0, 2))
      assert.ok(
        messages.some((m) => re.test(m!)),
        `no failure matches ${re}`,
      );
    const acceptMissing = summary.failed.filter((f) => /without the Accept header/.test(f.name));
    assert.ok(acceptMissing.length > 0);
    // The failures attach the exchanges, form text as it came: redacted all the same.
    assert.match(readFileSync(join(bundle, 'messages.ndjson'), 'utf8'), /type=async-response/);
    assertRedacted(bundle);
  });

  it('without --base-url the embedded mock answers as the profile says, so the deviations are exercised there too', async () => {
    const target = resolveTarget({ baseUrl: undefined, live: false, profile }, env);
    const outcome = await runSuite(
      { target, tags: '@endpoint:SALE', reportDir: join(dir, `run-${++runs}`) },
      { log: () => {}, progress: new PassThrough().resume() },
    );
    assert.equal(outcome.summary.totals.failed, 0);
    assert.ok(
      (outcome.summary.warnings.byAssumption['profile answers.format, answers.mediaType'] ?? 0) > 0,
      JSON.stringify(outcome.summary.warnings.byAssumption),
    );
    assert.ok((outcome.summary.warnings.byAssumption['profile answers.errorStatus'] ?? 0) > 0);
  });
});
