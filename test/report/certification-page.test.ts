// report.html, the certification page: from a run against a broken mock (failures) and one through a
// gateway that warns, checked as text (verdict, facts, matrix cells, failures with their fix, warnings
// under their assumption, no secret) and in a real headless chromium at 1400 px and at 390 px
// (screenshots under reports/certification-page/).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { maskLogin } from '../../src/report/certification-page.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-page-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const shots = new URL('../../reports/certification-page/', import.meta.url).pathname;
const TAGS = '@endpoint:SALE or @endpoint:PAYOUT_V4';
const quiet = { log: () => {}, progress: new PassThrough().resume() };

describe('the certification page (report.html)', () => {
  let failing: string;
  let passing: string;
  before(async () => {
    failing = join(dir, 'failing');
    passing = join(dir, 'passing');
    await runSuite(
      { target: resolveTarget({ live: false, defect: 'accept-any-control' }, {}), tags: TAGS, reportDir: failing },
      quiet,
    );
    await runSuite({ target: resolveTarget({ live: false }, {}), tags: TAGS, reportDir: passing }, quiet);
  });

  it('puts the verdict first, then what was certified, the matrix and each failure with its fix', () => {
    const page = readFileSync(join(failing, 'report.html'), 'utf8');
    const summary = JSON.parse(readFileSync(join(failing, 'summary.json'), 'utf8'));
    assert.match(
      page,
      new RegExp(
        `<p id="verdict" class="v-failed">FAIL — ${summary.totals.passed} passed, ${summary.totals.failed} failed`,
      ),
    );
    assert.ok(page.indexOf('id="verdict"') < page.indexOf('class="facts"'));
    assert.match(
      page,
      /<th>target<\/th><td>the embedded mock gateway \(TEST-ONLY merchant\), deliberately broken: accept-any-control<\/td>/,
    );
    const login = testMerchant().login;
    assert.match(page, new RegExp(`<th>merchant login</th><td>${maskLogin(login)}</td>`));
    assert.ok(!page.includes(login), 'the login is masked');
    assert.match(page, /<th>spec \(docs\/spec\/api-spec\.md\) SHA-256<\/th><td>[0-9a-f]{64}<\/td>/);
    assert.match(
      page,
      /<tr><th>SALE<\/th><td class="pass"[^>]*>✓<\/td>(<td[^>]*>[^<]*<\/td>){3}<td class="fail"[^>]*>✗<\/td>/,
      'SALE: accepted passes, a wrong signature fails',
    );
    assert.equal((page.match(/<article class="failure">/g) ?? []).length, summary.totals.failed);
    assert.match(page, /<details><summary>exchange and curl \(redacted\)<\/summary><pre># SALE/);
    // A required negative scenario's failure names the rule it exercises, its clause and its fix.
    assert.match(
      page,
      /<h3>✗ SALE with a wrong control value[^<]*<\/h3>[\s\S]*?<p class="rule">Rule <code>control-signature<\/code>: [^<]+<\/p><p class="fix"><strong>Fix:<\/strong> [^<]+<\/p>/,
    );
    for (const secret of [testMerchant().merchantControlKey, '4111111111111111', 'BEGIN PRIVATE KEY'])
      assert.ok(!page.includes(secret), secret);
    assert.match(page, /☐ fix the failures of /);
  });

  it('groups warnings under their assumption with its statement', async () => {
    const warned = join(dir, 'warned');
    // The one gateway difference the embedded mock can show: a profile naming other error codes.
    const profile = { name: 'codes', errorCodes: { CONTROL_INVALID: 'E_SIGNATURE' } };
    const { profileOf } = await import('../../src/suite/profile.ts');
    const { startMock } = await import('../../src/mock/server.ts');
    const mock = await startMock();
    try {
      const m = testMerchant();
      const env = {
        PAYCONFORM_ENDPOINT_ID: m.endpointIds[0],
        PAYCONFORM_LOGIN: m.login,
        PAYCONFORM_CONTROL_KEY: m.merchantControlKey,
        PAYCONFORM_PRIVATE_KEY_FILE: new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url)
          .pathname,
        PAYCONFORM_POLL_INTERVAL_MS: '0',
        // Without it the endpoint-group scenarios do not apply and the verdict is PARTIAL WITH WARNINGS.
        PAYCONFORM_ENDPOINT_GROUP_ID: m.endpointGroupIds[0],
      };
      await runSuite(
        {
          target: resolveTarget({ baseUrl: mock.url, live: false, profile: profileOf(profile, 'p.json') }, env),
          tags: '@endpoint:SALE',
          reportDir: warned,
        },
        quiet,
      );
    } finally {
      await mock.close();
    }
    const page = readFileSync(join(warned, 'report.html'), 'utf8');
    assert.match(page, /<p id="verdict" class="v-passed-with-warnings">PASS WITH WARNINGS/);
    // Another error code for a wrong control rests on A-21 (error codes and statuses of refusals).
    assert.match(
      page,
      /<section class="assumption"><h3>A-21 <small>\(4\)<\/small><\/h3>\n<p>the mock answers 400 with a ValidationErrorResponse[^<]*<em>\(docs\/assumptions\.md, A-21\)<\/em><\/p>/,
    );
    assert.match(
      page,
      /<li>SALE with a wrong control value \(a formula field changed after signing\) is refused: error code: expected E_SIGNATURE, got CONTROL_INVALID<\/li>/,
    );
    assert.match(page, /<td class="warn"[^>]*>!<\/td>/);
  });

  it("names the real gateway's profile (or that none was given) and blames a refused prerequisite, not the request", async () => {
    const { profileOf } = await import('../../src/suite/profile.ts');
    const { startMock } = await import('../../src/mock/server.ts');
    const { createServer, request } = await import('node:http');
    const mock = await startMock();
    const mockPort = new URL(mock.url).port;
    // A gateway that refuses every SALE (the prerequisite of STATUS) and passes the rest to the mock.
    const gateway = createServer((req, res) => {
      if (req.url!.includes('/sale/')) {
        req.resume();
        res.writeHead(400, { 'content-type': 'application/vnd.pay+json' });
        res.end('{"type":"validation-error","error-code":"MERCHANT_DISABLED","error-message":"sales disabled"}');
        return;
      }
      req.pipe(
        request(
          { host: '127.0.0.1', port: mockPort, method: req.method, path: req.url, headers: req.headers },
          (answer) => {
            res.writeHead(answer.statusCode!, answer.headers);
            answer.pipe(res);
          },
        ),
      );
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(gateway.address() as { port: number }).port}`;
    const m = testMerchant();
    const env = {
      PAYCONFORM_ENDPOINT_ID: m.endpointIds[0],
      PAYCONFORM_LOGIN: m.login,
      PAYCONFORM_CONTROL_KEY: m.merchantControlKey,
      PAYCONFORM_PRIVATE_KEY_FILE: new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url)
        .pathname,
      PAYCONFORM_POLL_INTERVAL_MS: '0',
    };
    const named = join(dir, 'refused-sale');
    const unnamed = join(dir, 'no-profile');
    try {
      await runSuite(
        {
          target: resolveTarget(
            { baseUrl, live: false, profile: profileOf({ name: 'Acme sandbox' }, 'acme.json') },
            env,
          ),
          tags: '@endpoint:STATUS and (@positive or @negative:accept-missing)',
          reportDir: named,
        },
        quiet,
      );
      await runSuite(
        {
          target: resolveTarget({ baseUrl, live: false }, env),
          tags: '@endpoint:STATUS and @positive',
          reportDir: unnamed,
        },
        quiet,
      );
    } finally {
      gateway.close();
      await mock.close();
    }
    const page = readFileSync(join(named, 'report.html'), 'utf8');
    assert.match(page, /<tr><th>gateway profile<\/th><td>Acme sandbox<\/td><\/tr>/);
    assert.match(
      readFileSync(join(unnamed, 'report.html'), 'utf8'),
      /<tr><th>gateway profile<\/th><td>none given \(--profile\): the embedded mock&#39;s choices stand in<\/td><\/tr>/,
    );
    const failures = page.match(/<article class="failure">[\s\S]*?<\/article>/g) ?? [];
    assert.ok(failures.length > 0, 'the STATUS scenarios failed: their SALE was refused');
    for (const failure of failures) {
      assert.match(
        failure,
        /<p class="fix"><strong>Fix:<\/strong> the prerequisite SALE was refused \(it answered 400\): fix that first/,
      );
      assert.doesNotMatch(failure, /class="rule"/, 'no rule of the STATUS request is blamed');
    }
  });

  it("shows the verdict, the matrix and a failure's details in chromium at 1400 px and at 390 px", async (t) => {
    const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
    if (!chromium)
      return t.skip('no chromium on this machine (apt-get install chromium): the page was not checked in a browser');
    const { chromium: driver } = await import('playwright-core');
    const browser = await driver.launch({ executablePath: chromium, args: ['--no-sandbox'] });
    mkdirSync(shots, { recursive: true });
    try {
      for (const width of [1400, 390]) {
        const page = await browser.newPage({ viewport: { width, height: 900 } });
        await page.route('**/*', (route) =>
          route.request().url().startsWith('file:') ? route.continue() : route.abort(),
        );
        await page.goto(`file://${join(failing, 'report.html')}`);
        assert.match(await page.locator('#verdict').innerText(), /^FAIL — \d+ passed, \d+ failed/);
        assert.ok(await page.locator('#verdict').isVisible());
        assert.ok(await page.locator('#matrix').isVisible(), `matrix at ${width}px`);
        const shot = join(shots, `report-${width}.png`);
        await page.screenshot({ path: shot, fullPage: false }); // the top: verdict, facts, matrix
        assert.ok(statSync(shot).size > 10_000);
        const failure = page.locator('article.failure').first();
        await failure.scrollIntoViewIfNeeded();
        assert.ok(await failure.isVisible());
        assert.match(await failure.innerText(), /expected .*, got /);
        assert.doesNotMatch(await failure.innerText(), /\n\s+at /, 'no stack trace');
        const box = await page.locator('#verdict').boundingBox();
        assert.ok(box && box.width <= width, `the verdict fits ${width}px (${box?.width})`);
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });

  it("a passing run's page says PASS and ticks the checklist but the live run", () => {
    const page = readFileSync(join(passing, 'report.html'), 'utf8');
    assert.match(page, /<p id="verdict" class="v-passed">PASS — /);
    assert.match(page, /☑ no endpoint has a failure/);
    assert.match(page, /☐ this run was not against a live sandbox/);
    assert.ok(existsSync(join(passing, 'cucumber.html')), "cucumber's own page stays beside it");
  });
});
