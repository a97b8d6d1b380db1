// Gateway profiles (certify --profile): the file is checked with one-line errors that point into it,
// profiles/mock.json states what the embedded mock does (a run with it passes, and one that claims
// other codes fails against the mock, where assumptions are the contract), and a profile's
// notApplicable leaves scenarios out with their reason.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { ACCEPT_SCENARIOS, mockProfile, profileDeviations, profileOf, readProfile } from '../../src/suite/profile.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-profile-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function certify(args: string[]) {
  const r = spawnSync(process.execPath, [bin, 'certify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function profileFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const rejection = (data: unknown): string => {
  try {
    profileOf(data, 'p.json');
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
};

describe('gateway profiles', () => {
  it('refuse a mistake with one line that points into the file', () => {
    assert.equal(rejection({ colour: 'blue' }), '--profile p.json: /colour: is not a profile setting');
    assert.equal(
      rejection({ errorCodes: { SIGNATURE_BAD: 'X' } }),
      '--profile p.json: /errorCodes/SIGNATURE_BAD: is not one of the allowed names',
    );
    assert.equal(rejection({ poll: { intervalMs: -1 } }), '--profile p.json: /poll/intervalMs: must be >= 0');
    assert.equal(
      rejection({ testCards: { approved: '4111111111111112' } }),
      '--profile p.json: /testCards/approved: fails the Luhn check (a card number has a valid check digit)',
    );
    assert.match(
      rejection({ notApplicable: [{ tags: '@a and', reason: 'r' }] }),
      /^--profile p\.json: \/notApplicable\/0\/tags: is not a tag expression/,
    );
    assert.equal(
      rejection({ amounts: { max: '1,000' } }),
      '--profile p.json: /amounts/max: must match pattern "^(?!$)([0-9]*)(?:\\.([0-9]{1,2}))?$"',
    );
    assert.equal(
      rejection({ finalStatuses: [] }),
      '--profile p.json: /finalStatuses: must NOT have fewer than 1 items',
    );
    assert.equal(rejection({ name: 'sandbox', errorCodes: { CONTROL_INVALID: ['E1', 'E2'] } }), 'accepted');
    assert.equal(
      rejection({ callbacks: { method: 'PUT' } }),
      '--profile p.json: /callbacks/method: must be one of "GET", "POST"',
    );
    assert.equal(
      rejection({ callbacks: { mehtod: 'GET' } }),
      '--profile p.json: /callbacks/mehtod: is not a profile setting',
    );
  });

  it('callbacks.method: GET unless the profile says POST (the public gateways send GET, A-31)', () => {
    assert.equal(profileOf({}, 'p.json').callbacks.method, 'GET');
    assert.equal(profileOf({ callbacks: {} }, 'p.json').callbacks.method, 'GET');
    assert.equal(profileOf({ callbacks: { method: 'POST' } }, 'p.json').callbacks.method, 'POST');
  });

  it('on the command line: exit 2, one line, no stack, nothing written', () => {
    const report = join(dir, 'never');
    const r = certify([
      '--profile',
      profileFile('bad.json', '{"poll": {"deadlineMs": "soon"}}'),
      '--report-dir',
      report,
    ]);
    assert.equal(r.code, 2, r.err);
    assert.equal(
      r.err.trim(),
      `payconform certify: --profile ${join(dir, 'bad.json')}: /poll/deadlineMs: must be integer`,
    );
    assert.throws(() => readFileSync(join(report, 'summary.json')));
    const missing = certify(['--profile', join(dir, 'nowhere.json')]);
    assert.equal(missing.code, 2);
    assert.match(missing.err.trim(), /^payconform certify: --profile: cannot read .*nowhere\.json \(ENOENT\)$/);
  });

  it('profiles/mock.json states the embedded mock: its cards, its codes, its field names', () => {
    const shipped = readProfile('profiles/mock.json');
    const mock = mockProfile();
    assert.deepEqual(shipped.testCards, TEST_CARDS);
    assert.deepEqual(shipped.errorCodes, mock.errorCodes);
    assert.deepEqual(shipped.answerFields, mock.answerFields);
    assert.deepEqual(shipped.finalStatuses, mock.finalStatuses);
    assert.deepEqual(shipped.callbacks, mock.callbacks);
    for (const [code, codes] of Object.entries(shipped.errorCodes)) assert.deepEqual(codes, [code]);
  });

  it('a run against the mock with profiles/mock.json passes; one that claims other error codes fails where it differs', () => {
    const ok = certify([
      '--profile',
      'profiles/mock.json',
      '--tags',
      '@endpoint:SALE',
      '--report-dir',
      join(dir, 'mock-profile'),
    ]);
    assert.equal(ok.code, 0, ok.out.slice(-1500) + ok.err);
    const other = profileFile('other.json', { name: 'other codes', errorCodes: { NOT_ACCEPTABLE: 'E_ACCEPT' } });
    const report = join(dir, 'other-codes');
    const r = certify([
      '--profile',
      other,
      '--tags',
      '@endpoint:SALE and @negative:accept-missing',
      '--report-dir',
      report,
    ]);
    assert.equal(r.code, 1, r.out);
    const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'));
    assert.deepEqual([summary.status, summary.totals.failed, summary.profile], ['failed', 1, 'other codes']);
    assert.match(
      readFileSync(join(report, 'messages.ndjson'), 'utf8'),
      /A-21: error code: expected E_ACCEPT, got NOT_ACCEPTABLE/,
    );
  });

  it('leaves out the scenarios it says do not apply, with the reason, and the run passes', () => {
    const file = profileFile('na.json', {
      name: 'no card info',
      notApplicable: [
        { tags: '@endpoint:CARDINFO and @negative:accept-wrong', reason: 'this sandbox ignores Accept on card info' },
      ],
    });
    const report = join(dir, 'na');
    const r = certify([
      '--profile',
      file,
      '--tags',
      '@endpoint:CARDINFO and @negative:accept-wrong',
      '--report-dir',
      report,
    ]);
    assert.equal(r.code, 0, r.out + r.err);
    const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'));
    assert.equal(summary.totals.notApplicable, 1);
    assert.equal(summary.totals.failed, 0);
    assert.deepEqual(
      summary.notApplicable.map((n: { reason: string }) => n.reason),
      ['no card info: this sandbox ignores Accept on card info'],
    );
  });
});

describe('gateway profiles: how the gateway answers and what it asks of a request', () => {
  it('refuse a wrong answers or request setting with one line', () => {
    assert.equal(
      rejection({ answers: { format: 'xml' } }),
      '--profile p.json: /answers/format: must be one of "json", "form"',
    );
    assert.equal(
      rejection({ answers: { format: 'form' } }),
      '--profile p.json: /answers/mediaType: is required with "format": "form" (the Content-Type the gateway answers with)',
    );
    assert.equal(
      rejection({ answers: { format: 'form', mediaType: 'text/plain', errorStatus: 400 } }),
      '--profile p.json: /answers/errorStatus: must be 200',
    );
    assert.equal(
      rejection({ request: { acceptRequired: 'no' } }),
      '--profile p.json: /request/acceptRequired: must be boolean',
    );
    assert.equal(
      rejection({ request: { accept: false } }),
      '--profile p.json: /request/accept: is not a profile setting',
    );
  });

  it("the spec's answers and Accept by default: no deviation", () => {
    assert.deepEqual(profileDeviations(mockProfile()), []);
    assert.deepEqual(profileDeviations(readProfile('profiles/mock.json')), []);
  });

  it('profiles/family-text.json declares each departure from the spec, with the clause, and leaves the Accept scenarios out', () => {
    const text = readProfile('profiles/family-text.json');
    assert.deepEqual(text.answers, { format: 'form', mediaType: 'text/html', errorStatus: 200 });
    assert.deepEqual(
      profileDeviations(text).map((d) => [d.key, d.clause.split(':')[0]]),
      [
        ['answers.format', 'Endpoints'],
        ['answers.mediaType', 'Endpoints'],
        ['answers.errorStatus', 'Errors'],
        ['request.acceptRequired', 'Endpoints'],
      ],
    );
    const accept = text.notApplicable.find((n) => n.tags === ACCEPT_SCENARIOS);
    assert.match(
      accept?.reason ?? '',
      /request\.acceptRequired: false.*"Request header: Accept: application\/vnd\.pay\+json, required"/,
    );
  });

  it('mock --profile: a bad file is exit 2 and one line, before anything listens', () => {
    const r = spawnSync(
      process.execPath,
      [bin, 'mock', '--port', '0', '--profile', profileFile('bad-answers.json', '{"answers": {"format": "form"}}')],
      { encoding: 'utf8', timeout: 20_000 },
    );
    assert.equal(r.status, 2, r.stderr);
    assert.equal(
      r.stderr.trim(),
      `payconform mock: --profile ${join(dir, 'bad-answers.json')}: /answers/mediaType: is required with "format": "form" (the Content-Type the gateway answers with)`,
    );
    assert.equal(r.stdout, '');
  });
});
