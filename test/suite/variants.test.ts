// Certify judged the way it will be judged: through gateways that differ from the mock only where
// the spec is silent (each must pass, with the warnings its differences explain and no failure)
// and through broken ones (each must fail on what the spec states, even without --strict).
// The gateways are proxies in front of a mock served without a prefix (test/support/gateway-variants.ts).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Defect } from '../../src/mock/defects.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import type { Summary } from '../../src/report/bundle.ts';
import { profileOf } from '../../src/suite/profile.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { CONFORMING, RENAMED_FIELDS_PROFILE, startVariant, type Variant } from '../support/gateway-variants.ts';
import { freePort } from '../support/free-port.ts';
import { testMerchantEnv } from '../support/merchant-env.ts';

const env = testMerchantEnv({ group: true });
const dir = mkdtempSync(join(tmpdir(), 'payconform-variants-'));
const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const SOME = '@endpoint:SALE or @endpoint:PAYOUT_V4 or @endpoint:PAYOUT';
let mock: RunningMock;
let runs = 0;

before(async () => {
  mock = await startMock();
});
after(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Through {
  variants?: Variant[];
  defect?: Defect;
  tags?: string;
  strict?: boolean;
  profile?: object;
}

/** certify in this process through a gateway made of the mock (or a broken mock) and a proxy. */
async function certifyThrough(options: Through): Promise<Summary> {
  const upstream = options.defect ? await startMock({ defect: options.defect }) : mock;
  const proxy = await startVariant(upstream.url, options.variants ?? []);
  try {
    const profile = options.profile ? profileOf(options.profile, 'profile.json') : undefined;
    const target = resolveTarget({ baseUrl: proxy.url, live: false, strict: options.strict, profile }, env);
    const outcome = await runSuite(
      { target, tags: options.tags, reportDir: join(dir, `run-${++runs}`) },
      { log: () => {}, progress: new PassThrough().resume() },
    );
    return outcome.summary;
  } finally {
    await proxy.close();
    if (upstream !== mock) await upstream.close();
  }
}

function certifyCli(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [bin, 'certify', ...args], { env: { ...process.env, ...env, ...extraEnv } });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

const failedNames = (s: Summary): string => s.failed.map((f) => f.name).join('\n');

describe('certify through gateways that differ from the mock only where the spec is silent', () => {
  it('one with every such difference at once, without a prefix, passes with warnings and no failure (the command line)', async () => {
    const proxy = await startVariant(mock.url, Object.keys(CONFORMING) as Variant[]);
    const profile = join(dir, 'renamed.json');
    writeFileSync(profile, JSON.stringify(RENAMED_FIELDS_PROFILE));
    const report = join(dir, 'all-differences');
    // The callbacks scenarios run too: the mock behind the proxy reaches the run's handler on loopback.
    const port = await freePort();
    // Not spawnSync: the proxy answers from this process, which must keep running.
    const r = await certifyCli(['--base-url', proxy.url, '--profile', profile, '--report-dir', report], {
      PAYCONFORM_CALLBACK_URL: `http://127.0.0.1:${port}/shop/callback`,
      PAYCONFORM_CALLBACK_PORT: String(port),
    });
    await proxy.close();
    const out = r.out;
    assert.equal(r.code, 0, out.slice(-3000) + r.err);
    assert.match(out, /^PASSED WITH WARNINGS: \d{3} passed, 0 failed/m);
    const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8')) as Summary;
    assert.equal(summary.status, 'passed-with-warnings');
    assert.equal(summary.totals.failed, 0);
    assert.ok(summary.totals.passed >= 200, `${summary.totals.passed} passed`);
    for (const id of ['A-18', 'A-21', 'A-25'])
      assert.ok(
        (summary.warnings.byAssumption[id] ?? 0) > 0,
        `${id}: ${JSON.stringify(summary.warnings.byAssumption)}`,
      );
    assert.match(out, /^warnings: \d+ \(.*A-21 ×\d+/m);
    assert.deepEqual(summary.notApplicable.map((n) => n.name).sort(), [
      'a base URL with a path prefix before /api/ is signed and served',
      'a base URL with no prefix before /api/ is signed and served',
    ]);
    // Not applicable without PAYCONFORM_CALLBACK_URL: here they ran, and nothing failed.
    assert.equal(summary.totals.other, 0);
    assert.match(
      readFileSync(join(report, 'junit.xml'), 'utf8'),
      /<property name="payconform.warnings.A-21" value="[1-9][0-9]*"\/>/,
    );
  });

  it('the same gateway fails under --strict, where it differs from our assumptions', async () => {
    const s = await certifyThrough({
      variants: Object.keys(CONFORMING) as Variant[],
      profile: RENAMED_FIELDS_PROFILE,
      tags: SOME,
      strict: true,
    });
    assert.equal(s.status, 'failed');
    assert.ok(s.totals.failed > 10, `${s.totals.failed} failed`);
  });

  const expectations: Record<Variant & keyof typeof CONFORMING, { profile?: object; warnings: string[] }> = {
    'extra-answer-fields': { warnings: ['A-18'] },
    'renamed-error-codes': { warnings: ['A-17', 'A-21', 'A-25'] },
    'signature-403': { warnings: [] },
    'auth-401-text': { warnings: ['A-21'] },
    'charset-media-type': { warnings: [] },
    'extra-headers': { warnings: [] },
    'reordered-keys': { warnings: [] },
    'renamed-answer-fields': { profile: RENAMED_FIELDS_PROFILE, warnings: [] },
    'numeric-order-ids': { warnings: ['A-17'] },
    'uppercase-statuses': { warnings: ['A-17'] },
    'all-400': { warnings: [] },
    'bare-error-body': { warnings: ['A-17', 'A-18', 'A-21', 'A-25'] },
    'media-type-case': { warnings: [] },
    'connection-close': { warnings: [] },
  };
  for (const [variant, expected] of Object.entries(expectations)) {
    it(`${variant}: passes, warned under ${expected.warnings.join(', ') || 'no assumption'}`, async () => {
      const s = await certifyThrough({ variants: [variant as Variant], profile: expected.profile, tags: SOME });
      assert.equal(s.totals.failed, 0, failedNames(s));
      assert.deepEqual(
        Object.keys(s.warnings.byAssumption).sort(),
        expected.warnings,
        JSON.stringify(s.warnings.list.slice(0, 3)),
      );
      assert.equal(s.status, expected.warnings.length ? 'passed-with-warnings' : 'passed');
    });
  }

  it('renamed answer fields without a profile: the flows cannot go on, and the failure says which setting names them', async () => {
    const s = await certifyThrough({ variants: ['renamed-answer-fields'], tags: '@endpoint:SALE and @positive' });
    assert.equal(s.status, 'failed');
    const messages = readFileSync(join(dir, `run-${runs}`, 'messages.ndjson'), 'utf8');
    assert.match(
      messages,
      /with no \\"paynet-order-id\\": the suite needs it to go on \(name it in a gateway profile's answerFields\.paynet-order-id/,
    );
  });
});

describe('certify through broken gateways', () => {
  for (const variant of ['all-200', 'json-media-type', 'text-400', 'all-500'] as const) {
    it(`${variant}: fails on the spec, without --strict`, async () => {
      const s = await certifyThrough({ variants: [variant], tags: `(${SOME}) and not @assumption` });
      assert.equal(s.status, 'failed');
      assert.ok(s.totals.failed >= 5, failedNames(s));
    });
  }

  const defects: Array<[Defect, RegExp]> = [
    ['accept-any-control', /SALE with a wrong control value/],
    ['accept-any-oauth-signature', /PAYOUT_V4 with a wrong signature/],
    ['ignore-accept-header', /SALE without the Accept header is refused/],
  ];
  for (const [defect, scenario] of defects) {
    it(`${defect}: the spec's refusal scenarios fail, without --strict`, async () => {
      const s = await certifyThrough({ defect, tags: `(${SOME}) and not @assumption` });
      assert.equal(s.status, 'failed');
      assert.match(failedNames(s), scenario);
    });
  }
});
