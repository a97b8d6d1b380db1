// `payconform inspect` end to end: driven by payconform's own client (every check passes), by
// requests with mistakes (each reported under its check), in front of a second `payconform mock`
// (answers relayed unchanged), and its HTML report opened in a real headless chromium.
import { REQUEST_RULES } from '../../src/rules/book.ts';
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { ENDPOINTS, endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest, PayClient } from '../../src/client/client.ts';
import { prepareRequest } from '../../src/client/prepare.ts';
import { MAGIC_CARDS } from '../../src/mock/magic.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { oauthHeaderWithMistake } from '../../src/signing/diagnose/index.ts';
import { startListening } from '../support/listening.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const merchant = testMerchant();
const credentials = {
  login: merchant.login,
  controlKey: merchant.merchantControlKey,
  privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
};
const dir = mkdtempSync(join(tmpdir(), 'payconform-inspect-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Starts a payconform command that prints "listening on URL" and resolves once it does. */
const start = startListening;

const filesOf = (d: string): string[] => readdirSync(d).map((f) => join(d, f));

/** Every secret of the run that must never show: keys, card numbers, CVVs, signatures. */
function leaks(text: string): string[] {
  const keyLine = credentials.privateKeyPem.split('\n')[3] ?? 'a private key has more than three lines';
  const found = [merchant.merchantControlKey, keyLine, ...Object.keys(MAGIC_CARDS)].filter((s) => text.includes(s));
  for (const pattern of [
    /control=[0-9a-f]{40}/,
    /oauth_signature="(?!<redacted>)[^"]{8,}/,
    /cvv2=(?!%2A%2A%2A|\*\*\*)[0-9]/,
    /"cvv2" = "[0-9]/,
  ])
    if (pattern.test(text)) found.push(String(pattern));
  return found;
}

describe('payconform inspect', () => {
  it("passes every request payconform's own client sends, writes the report and exits 0", async () => {
    const report = join(dir, 'correct');
    const inspect = await start(['inspect', '--port', '0', '--report-dir', report, '--until-requests', '6']);
    const client = new PayClient({ baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' });
    let n = 0;
    const orderId = (): string => `INSPECT-${process.pid}-${++n}`;
    const sale = await client.send('SALE', await prepareRequest(client, 'SALE', [], orderId));
    await client.send(
      'STATUS',
      await prepareRequest(
        client,
        'STATUS',
        [['orderid', String((sale.body as Record<string, string>)['paynet-order-id'])]],
        orderId,
      ),
    );
    await client.send('PAYOUT', await prepareRequest(client, 'PAYOUT', [], orderId));
    await client.send('PAYOUT_V4', await prepareRequest(client, 'PAYOUT_V4', [], orderId));
    await client.send('CAPTURE', await prepareRequest(client, 'CAPTURE', [], orderId)); // and its PREAUTH
    await client.close();
    assert.equal(await inspect.exit, 0, inspect.out());
    const out = inspect.out();
    assert.match(out, /#1 SALE → 200: pass/);
    assert.match(out, /#6 CAPTURE → 200: pass/);
    assert.match(out, /6 passed, 0 failed/);
    assert.match(
      out,
      /inspect: signatures are checked with the built-in TEST-ONLY merchant payconform-test-merchant \(endpoint ids 1001[^)]*\) \(payconform mock --show-test-merchant shows its keys\); to check your own credentials give --merchants FILE/,
    );
    assert.match(
      out,
      new RegExp(`operations exercised: 6 of ${ENDPOINTS.length}; status polled after 1 of 5 asynchronous answers`),
    );
    const names = readdirSync(report).sort();
    assert.deepEqual(names, ['junit.xml', 'manifest.json', 'report.html', 'report.json']);
    for (const entry of JSON.parse(readFileSync(join(report, 'manifest.json'), 'utf8')).files) {
      assert.equal(
        createHash('sha256')
          .update(readFileSync(join(report, entry.path)))
          .digest('hex'),
        entry.sha256,
        entry.path,
      );
    }
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8'));
    assert.equal(json.requests.length, 6);
    // A control-signed request: the OAuth checks do not apply, which is not the same as not reached.
    const nonce = json.requests[0].verdict.checks.find((c: { id: string }) => c.id === 'nonce-unique');
    assert.deepEqual(
      [nonce?.outcome, nonce?.message],
      ['skip', 'does not apply: the endpoint is not signed with OAuth'],
    );
    assert.deepEqual(json.summary.coverage.exercised, ['CAPTURE', 'PAYOUT', 'PREAUTH', 'SALE', 'STATUS', 'PAYOUT_V4']);
    // A test case per request and check, and one per request for the gateway's own verdict.
    assert.equal(
      (readFileSync(join(report, 'junit.xml'), 'utf8').match(/<testcase /g) ?? []).length,
      6 * (REQUEST_RULES.length + 1),
    );
    for (const file of filesOf(report)) assert.deepEqual(leaks(readFileSync(file, 'utf8')), [], file);
    assert.deepEqual(leaks(out), [], 'console');
  });

  it('reports each mistake under its check, with the diagnosis of a wrong signature, exits 1 and leaks nothing', async () => {
    const report = join(dir, 'mistakes');
    const inspect = await start(['inspect', '--port', '0', '--report-dir', report, '--until-requests', '4']);
    const base = `${inspect.url}/paynet`;
    // Each request with its own client order id, so only the mistake made on purpose shows.
    const built = (operation: string, i: number, extra: Array<[string, string]> = []) =>
      buildRequest(
        endpointByOperation(operation),
        { baseUrl: base, credentials, endpointId: '1001' },
        sampleRequest(endpointByOperation(operation), [['client_orderid', `M-${process.pid}-${i}`], ...extra]),
      );
    const send = (r: { url: string; headers: Record<string, string>; body: string }) =>
      request(r.url, { method: 'POST', headers: r.headers, body: r.body }).then((x) => x.body.text());
    const sale1 = built('SALE', 1);
    await send({ ...sale1, headers: { ...sale1.headers, accept: 'application/json' } });
    const sale2 = built('SALE', 2);
    await send({ ...sale2, body: sale2.body.replace(/amount=[^&]*/, 'amount=1.005') });
    const payout = built('PAYOUT', 3, [['order_desc', 'two words']]);
    const wrong = oauthHeaderWithMistake('plus-for-space', {
      request: { method: 'POST', url: payout.url, params: payout.params },
      credentials,
      method: 'HMAC-SHA1',
      nonce: `n-${process.pid}`,
      timestamp: String(Math.floor(Date.now() / 1000)),
    })!;
    await send({ ...payout, headers: { ...payout.headers, authorization: wrong } });
    const payout4 = built('PAYOUT', 4);
    await send({ ...payout4, body: `${payout4.body}&oauth_nonce=x` });
    assert.equal(await inspect.exit, 1, inspect.out());
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8'));
    const failed = json.requests.map((r: { verdict: { checks: Array<{ id: string; outcome: string }> } }) =>
      r.verdict.checks.filter((c) => c.outcome === 'fail').map((c) => c.id),
    );
    assert.deepEqual(failed, [
      ['accept-header'],
      ['control-signature', 'required-fields', 'amount-format'],
      ['oauth-signature'],
      ['oauth-body-consistent', 'oauth-signature'],
    ]);
    const signature = json.requests[2].verdict.checks.find((c: { id: string }) => c.id === 'oauth-signature');
    assert.deepEqual(signature.signature.diagnoses, ['plus-for-space']);
    assert.match(signature.signature.sent.baseString, /two%2Bwords/);
    assert.match(signature.signature.correct.baseString, /two%2520words/);
    assert.match(signature.signature.explanation, /Signature base string/);
    assert.match(inspect.out(), /#3 PAYOUT → 403: FAIL oauth-signature: .*plus-for-space/);
    for (const file of filesOf(report)) assert.deepEqual(leaks(readFileSync(file, 'utf8')), [], file);
    assert.deepEqual(leaks(inspect.out()), [], 'console');
    const page = readFileSync(join(report, 'report.html'), 'utf8');
    assert.match(page, /credit_card_number%3D411111%252A/, 'card numbers in base strings are masked');
    // The first character where the sent base string departs from the correct one is marked on both sides:
    // plus-for-space signs a space as %2B where %2520 belongs (the first space: the sample's printed name).
    assert.match(
      page,
      /correct \(what the gateway computes\) <small>\(first difference at character \d+\)<\/small><\/h5><pre>[^<]*JANE%2<mark class="first-difference">5<\/mark>20DOE/,
    );
    assert.match(
      page,
      /sent \(what your code signed\) <small>\(first difference at character \d+\)<\/small><\/h5><pre>[^<]*JANE%2<mark class="first-difference">B<\/mark>DOE/,
    );
  });

  it("with --upstream relays a second payconform mock's answers, status and headers unchanged", async () => {
    const upstream = await start(['mock', '--port', '0', '--prefix', '/paynet']);
    const report = join(dir, 'upstream');
    const inspect = await start([
      'inspect',
      '--port',
      '0',
      '--upstream',
      upstream.url,
      '--report-dir',
      report,
      '--until-requests',
      '3',
    ]);
    // Control signatures cover no URL; the OAuth one is made for the sandbox's URL, as in production.
    const sale = buildRequest(
      endpointByOperation('SALE'),
      { baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' },
      sampleRequest(endpointByOperation('SALE'), [['client_orderid', `U-${process.pid}`]]),
    );
    const viaInspect = await request(sale.url, { method: 'POST', headers: sale.headers, body: sale.body });
    const saleAnswer = JSON.parse(await viaInspect.body.text());
    assert.equal(viaInspect.statusCode, 200);
    assert.equal(viaInspect.headers['content-type'], 'application/vnd.pay+json');
    assert.equal(saleAnswer.type, 'async-response');
    assert.match(saleAnswer['serial-number'], /^mock-/, 'the upstream mock answered');
    const payout = buildRequest(
      endpointByOperation('PAYOUT_V4'),
      { baseUrl: `${upstream.url}/paynet`, credentials, endpointId: '1001' },
      sampleRequest(endpointByOperation('PAYOUT_V4'), [['client-order-id', `U4-${process.pid}`]]),
    );
    const viaInspect4 = await request(payout.url.replace(upstream.url, inspect.url), {
      method: 'POST',
      headers: payout.headers,
      body: payout.body,
    });
    assert.equal(viaInspect4.statusCode, 200, await viaInspect4.body.text());
    // Signed for the URL it was sent to (inspect's), as a library that signs what it sends does:
    // valid there, refused by the sandbox, which checks its own URL. Inspect must say so, with the fix.
    const forInspect = buildRequest(
      endpointByOperation('PAYOUT_V4'),
      { baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' },
      sampleRequest(endpointByOperation('PAYOUT_V4'), [['client-order-id', `U5-${process.pid}`]]),
    );
    const refused = await request(forInspect.url, {
      method: 'POST',
      headers: forInspect.headers,
      body: forInspect.body,
    });
    assert.ok(refused.statusCode >= 400, 'the upstream mock refuses a signature made for another URL');
    await refused.body.text();
    assert.equal(await inspect.exit, 1, inspect.out());
    assert.match(inspect.out(), /#1 SALE → 200: pass/);
    assert.match(inspect.out(), /#2 PAYOUT_V4 → 200: pass/);
    assert.match(
      inspect.out(),
      new RegExp(
        `#3 PAYOUT_V4 → 4\\d\\d: FAIL oauth-signature: .*made for inspect's URL ${inspect.url}/paynet/api/v4/payout/1001, but the sandbox verifies it against ${upstream.url}/paynet/api/v4/payout/1001 .*sign for the sandbox's URL`,
      ),
    );
    assert.match(inspect.out(), /2 passed, 1 failed;/);
    const signature = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')).requests[2].verdict.checks.find(
      (c: { id: string }) => c.id === 'oauth-signature',
    );
    assert.ok(
      signature.signature.correct.baseString.includes(encodeURIComponent(`${upstream.url}/paynet/api/v4/payout/1001`)),
      'the correct base string is for the sandbox',
    );
    assert.ok(
      signature.signature.sent.baseString.includes(encodeURIComponent(`${inspect.url}/paynet/api/v4/payout/1001`)),
      'the sent one for inspect',
    );
    upstream.child.kill('SIGTERM');
    assert.match(
      upstream.out(),
      /POST \/paynet\/api\/v2\/sale\/1001 200 SALE/,
      'the request reached the upstream mock',
    );
    assert.match(upstream.out(), /POST \/paynet\/api\/v4\/payout\/1001 200 PAYOUT_V4/);
  });

  it('relays an upstream answer byte for byte, with its status and headers', async () => {
    const body = Buffer.from('{"type":"error","error-code":"X","weird":"ü\\u0000"}\n');
    const fake = createServer((req, res) => {
      req.resume();
      res.writeHead(503, { 'content-type': 'application/vnd.pay+json', 'x-sandbox': 'kept' });
      res.end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as { port: number }).port;
    const inspect = await start([
      'inspect',
      '--port',
      '0',
      '--upstream',
      `http://127.0.0.1:${port}`,
      '--report-dir',
      join(dir, 'fake'),
      '--until-requests',
      '3',
    ]);
    const huge = await request(`${inspect.url}/paynet/api/v2/status/1001`, {
      method: 'POST',
      body: Buffer.alloc(2 * 1024 * 1024, 0x61),
    });
    assert.equal(huge.statusCode, 413, 'a body too large to hold is refused, not forwarded truncated');
    await huge.body.text();
    const r = await request(`${inspect.url}/paynet/api/v2/status/1001`, {
      method: 'POST',
      headers: { accept: 'application/vnd.pay+json', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'login=x',
    });
    assert.equal(r.statusCode, 503);
    assert.equal(r.headers['x-sandbox'], 'kept');
    assert.deepEqual(Buffer.from(await r.body.arrayBuffer()), body);
    // A request every check passes, which the sandbox refuses: it must stand out and count as failed.
    const sale = buildRequest(
      endpointByOperation('SALE'),
      { baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' },
      sampleRequest(endpointByOperation('SALE'), [['client_orderid', `F-${process.pid}`]]),
    );
    await (await request(sale.url, { method: 'POST', headers: sale.headers, body: sale.body })).body.text();
    assert.equal(await inspect.exit, 1);
    const out = inspect.out();
    assert.match(out, /#1 STATUS → 413: FAIL /, 'a body too large to forward is a failed request');
    const tooLarge = JSON.parse(readFileSync(join(dir, 'fake', 'report.json'), 'utf8')).requests[0];
    assert.deepEqual(
      tooLarge.verdict.checks.find((c: { id: string }) => c.id === 'body-size'),
      {
        id: 'body-size',
        outcome: 'fail',
        message: 'body: at most 65536 bytes (got 2097152 bytes)',
        expected: '≤ 65536 bytes',
        actual: '2097152 bytes',
      },
    );
    assert.match(tooLarge.refused, /^inspect answered 413/);
    assert.match(
      out,
      new RegExp(
        `#3 SALE → 503: every check passed, but REFUSED: http://127.0.0.1:${port} answered 503 X; read its answer`,
      ),
    );
    assert.match(out, /0 passed, 3 failed \(1 of them passed every check but http:\/\/127\.0\.0\.1:\d+ refused it\)/);
    const junit = readFileSync(join(dir, 'fake', 'junit.xml'), 'utf8');
    assert.match(
      junit,
      new RegExp(
        `name="accepted by the gateway \\[answer\\]" time="0"><failure message="http://127.0.0.1:${port} answered 503 X"/>`,
      ),
    );
    fake.close();
  });

  it('renders the failure details in a real headless browser (chromium through playwright-core)', async (t) => {
    const chromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
    if (!chromium)
      return t.skip(
        'no chromium on this machine (apt-get install chromium): the HTML report was not checked in a browser',
      );
    const { chromium: driver } = await import('playwright-core');
    const browser = await driver.launch({ executablePath: chromium, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await page.goto(`file://${join(dir, 'mistakes', 'report.html')}`);
      assert.match(await page.locator('#verdict').innerText(), /4 requests: 0 passed every check, 4 failed/);
      const failure = page.locator('.failure[data-check="oauth-signature"]', { hasText: 'plus-for-space' });
      assert.ok(await failure.isVisible());
      assert.match(await failure.innerText(), /plus-for-space[\s\S]*Fix:/);
      const shot = join(dir, 'failure.png');
      await failure.screenshot({ path: shot });
      const box = await failure.boundingBox();
      assert.ok(box && box.height > 100 && box.width > 600, `the failure is laid out (${JSON.stringify(box)})`);
      assert.ok(statSync(shot).size > 10_000, 'the screenshot shows something');
      // The table of checks fits the 1400 px window: long values wrap instead of pushing the page sideways.
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 1400, `the page is ${width} px wide in a 1400 px window`);
    } finally {
      await browser.close();
    }
  });

  it("a run no request reached says so in one line and in the report, exit 1; --force replaces an earlier run's files only", async () => {
    const report = join(dir, 'nothing');
    const child = spawn(process.execPath, [bin, 'inspect', '--report-dir', report, '--duration', '1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    assert.equal(code, 1, out);
    const url = /listening on (\S+)/.exec(out)?.[1];
    assert.equal(
      out.trim().split('\n').at(-1),
      `no request reached inspect in 1 s: nothing was judged (point your integration at ${url}); report: ${join(report, 'report.html')}`,
    );
    assert.match(
      readFileSync(join(report, 'report.html'), 'utf8'),
      /<p id="verdict" class="verdict-fail"><strong>No request reached inspect in 1 s: nothing was judged/,
    );
    assert.equal(JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')).summary.requests, 0);
    // Run again into the same folder: refused without --force, its files replaced with it.
    writeFileSync(join(report, 'report.json'), 'earlier');
    const again = spawn(process.execPath, [bin, 'inspect', '--report-dir', report, '--duration', '1', '--force'], {
      stdio: 'ignore',
    });
    assert.equal(await new Promise<number | null>((resolve) => again.once('exit', resolve)), 1);
    assert.equal(JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')).summary.requests, 0);
    assert.deepEqual(readdirSync(report).sort(), ['junit.xml', 'manifest.json', 'report.html', 'report.json']);
  });

  it('refuses bad input with one line and exit 2', async () => {
    const { runCli } = await import('../support/cli.ts');
    for (const [args, message] of [
      [['--upstream', 'https://sandbox.example/paynet'], /--upstream: must be an origin/],
      [['--until-requests', '0'], /--until-requests: must be a whole number from 1/],
      [['--duration', 'x'], /--duration: must be a whole number/],
    ] as const) {
      const r = await runCli(['inspect', ...args]);
      assert.equal(r.code, 2, r.err);
      assert.match(r.err, message);
    }
  });

  it('a busy port, an address not of this machine or a report folder that is a file: exit 2 at once, naming the flag', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    try {
      for (const [args, line] of [
        [
          ['--port', String(port)],
          `payconform inspect: --port: ${port} is in use on 127.0.0.1 (EADDRINUSE): give another port, or 0 for a free one`,
        ],
        [['--host', '192.0.2.1'], /^payconform inspect: --host: cannot listen on 192\.0\.2\.1 \(EADDRNOTAVAIL\)/],
        [['--report-dir', file], `payconform inspect: --report-dir: ${file} is a file; give a folder`],
      ] as const) {
        // A child process: a listener that failed to start once kept the process alive (the embedded mock still ran).
        const child = spawn(process.execPath, [bin, 'inspect', '--duration', '60', ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let err = '';
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
        clearTimeout(timer);
        assert.equal(code, 2, `${args.join(' ')}: ${err}`);
        assert.equal(err.trim().split('\n').length, 1, err);
        if (typeof line === 'string') assert.equal(err.trim(), line);
        else assert.match(err.trim(), line);
      }
    } finally {
      busy.close();
    }
  });
});
