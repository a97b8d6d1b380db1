// Hostile content in every page and junit.xml payconform writes (issue 41, "one writer per medium"): a gateway whose
// answers hold markup, `]]>` twice, control characters, U+FFFE/U+FFFF and lone surrogates is certified in this
// process; inspect writes a report of a merchant whose fields hold the same. Every junit.xml must parse with a strict
// XML 1.0 parser (saxes) and keep the hostile text, escaped; every HTML page is opened in Debian's chromium and must
// carry a Content-Security-Policy, run none of the injected code and still show its own content. The writers
// themselves are held to the same by property tests.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import type { Browser } from 'playwright-core';
import { SaxesParser } from 'saxes';
import xmlbuilder from 'xmlbuilder';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_CARDS } from '../../src/catalogue/test-cards.ts';
import { startRewritingProxy } from '../support/gateway-variants.ts';
import { buildRequest, PayClient } from '../../src/client/client.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import type { InspectRecord } from '../../src/inspect/listener.ts';
import { writeInspectReport } from '../../src/inspect/report.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { escapeHtml, formOrigin } from '../../src/report/html.ts';
import { fitForJunit, withoutCdata } from '../../src/report/junit-cucumber.ts';
import { xmlText } from '../../src/report/xml.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { runSuite } from '../../src/suite/run.ts';
import { resolveTarget } from '../../src/suite/target.ts';
import { fcParams, seed } from '../seed.ts';
import { startListening } from '../support/listening.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

/** What an attacker puts in an answer or a field: each piece breaks a medium that trusts it. */
const INJECTED = {
  script: `<script>window.hostile='script'</script>`,
  attribute: `"><img src=x onerror="window.hostile='img'">`,
  cdata: ']]>]]>',
  controls: '\u0000\u0001\u001b[31m',
  nonCharacters: '\uFFFE\uFFFF',
  loneSurrogates: '\uD800!\uDC00',
};
const HOSTILE = Object.values(INJECTED).join(' ');

const dir = mkdtempSync(join(tmpdir(), 'payconform-hostile-markup-'));
after(() => (process.env.KEEP ? console.log(dir) : rmSync(dir, { recursive: true, force: true })));

/** Parses `xml` as XML 1.0 (saxes, strict): throws on the first thing that is not XML; gives the text it holds. */
function parsedText(xml: string): string {
  const parser = new SaxesParser();
  let text = '';
  parser.on('text', (t) => (text += t));
  parser.on('opentag', (tag) => (text += Object.values(tag.attributes).join('\n')));
  parser.write(xml).close();
  return text;
}

/** The attributes and text of the first element named `name` of `xml`, parsed strictly (saxes). */
function elementOf(xml: string, name: string): { attributes: Record<string, string>; text: string } {
  const parser = new SaxesParser();
  const found = { attributes: {} as Record<string, string>, text: '' };
  let depth = 0;
  parser.on('opentag', (tag) => {
    if (depth > 0) depth += 1;
    else if (tag.name === name && found.text === '' && Object.keys(found.attributes).length === 0) {
      depth = 1;
      found.attributes = tag.attributes;
    }
  });
  parser.on('closetag', () => {
    if (depth > 0) depth -= 1;
  });
  parser.on('text', (t) => {
    if (depth > 0) found.text += t;
  });
  parser.write(xml).close();
  return found;
}

/**
 * The XML writer's promise for a text, written apart from it (code point by code point): what a parser gives back,
 * each character XML 1.0 forbids shown as `\xNN` or `\uNNNN`.
 */
function shownInXml(s: string): string {
  let shown = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    const hex = code.toString(16).toUpperCase();
    if (code < 0x20 && ch !== '\t' && ch !== '\n' && ch !== '\r') shown += `\\x${hex.toLowerCase().padStart(2, '0')}`;
    else if (code === 0xfffe || code === 0xffff || (code >= 0xd800 && code <= 0xdfff)) shown += `\\u${hex}`;
    else shown += ch;
  }
  return shown;
}

/** Any text, and text made of the pieces that break markup, so each is met often. */
const texts = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc
    .array(fc.constantFrom(...'<>&"\'\t\n\r\u0000\u001b\uFFFE\uFFFF\uD800\uDC00a', ']]>', '😀', '\uD83D'), {
      maxLength: 40,
    })
    .map((a) => a.join('')),
);

const ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

describe(`the writers of HTML and XML (seed ${seed})`, () => {
  it('escapeHtml leaves no < > " \' & but as the entities it writes, and they read back as the text', () => {
    fc.assert(
      fc.property(texts, (s) => {
        const out = escapeHtml(s);
        assert.doesNotMatch(out.replace(/&(amp|lt|gt|quot|#39);/g, ''), /[<>"'&]/);
        assert.equal(
          out.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ENTITIES[e] ?? ''),
          s,
        );
      }),
      fcParams(500),
    );
  });

  it("a form may post only to redirect_url's own http(s) origin; a URL that could bend the policy allows none", () => {
    assert.equal(formOrigin('https://Shop.example:8443/return?x=1#y'), 'https://shop.example:8443');
    assert.equal(formOrigin('http://[::1]:9000/r'), 'http://[::1]:9000');
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'ftp://shop.example/', 'not a url', ''])
      assert.equal(formOrigin(url), undefined, url);
    // `;` and `'` are allowed in a WHATWG host: written into form-action they would start a directive or a keyword.
    for (const url of ['http://a;script-src/', "http://'unsafe-inline'/", 'http://a,b/'])
      assert.equal(formOrigin(url), undefined, url);
  });

  it('xmlText of any string parses inside an element and an attribute, and reads back as written', () => {
    fc.assert(
      fc.property(texts, (s) => {
        const element = parsedText(`<a>${xmlText(s)}</a>`);
        const attribute = parsedText(`<a b="${xmlText(s)}"/>`);
        const shown = shownInXml(s);
        assert.equal(element, shown);
        // In an attribute a parser turns a newline into a space (XML 1.0 §3.3.3); a tab and a return are references.
        assert.equal(attribute, shown.replace(/\n/g, ' '));
      }),
      fcParams(500),
    );
  });

  it("cucumber's JUnit printer fed fitted text, its CDATA then written as text: XML that reads back", () => {
    fc.assert(
      fc.property(texts, (s) => {
        // As @cucumber/junit-xml-formatter builds a failure and a system-out (xmlbuilder, invalid characters dropped).
        const printed = xmlbuilder
          .create('testsuite', { invalidCharReplacement: '' })
          .ele('failure', { message: fitForJunit(s) })
          .cdata(fitForJunit(s) as string)
          .end({ pretty: true });
        const xml = withoutCdata(printed);
        assert.ok(!xml.includes('<![CDATA['));
        const failure = elementOf(xml, 'failure');
        assert.equal(failure.attributes.message, shownInXml(s));
        assert.equal(failure.text, shownInXml(s));
      }),
      fcParams(500),
    );
  });
});

/** A gateway in front of the mock that puts HOSTILE into every JSON answer it relays: loopback, bodies read whole. */
function hostileGateway(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  return startRewritingProxy(upstream, (answer) => {
    const headers = { ...answer.headers };
    delete headers['content-length'];
    // An acceptance turned into a plain-text 502, shown raw in the failure it causes (cucumber's files, the
    // certificate); a refusal's field named as HOSTILE, read into a warning (junit.xml's system-out).
    if (answer.status === 200)
      return { status: 502, headers: { ...headers, 'content-type': 'text/plain' }, body: HOSTILE };
    if (!String(headers['content-type']).startsWith('application/vnd.pay+json')) return { ...answer, headers };
    const json = JSON.parse(answer.body) as Record<string, unknown>;
    [json.field, json['error-message']] = [HOSTILE, HOSTILE];
    return { status: answer.status, headers, body: JSON.stringify(json) };
  });
}

interface Opened {
  readonly csp: string | null;
  readonly hostile: unknown;
  readonly violations: readonly string[];
  readonly errors: readonly string[];
  readonly text: string;
}

async function openPage(browser: Browser, file: string, show?: string): Promise<Opened> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // Anything from outside the file is refused and counted: the page must need nothing.
  await page.route(/^(?!file:|data:)/, (route) => {
    errors.push(`request ${route.request().url()}`);
    return route.abort();
  });
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.violatedDirective}`));
  });
  await page.goto(`file://${file}`);
  if (show !== undefined) await page.getByText(show).first().waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  const seen = await page.evaluate(() => {
    const w = window as unknown as { violations: string[]; hostile?: unknown };
    const meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
    return { csp: meta?.getAttribute('content') ?? null, hostile: w.hostile, violations: w.violations };
  });
  const text = await page.innerText('body');
  await page.close();
  return { ...seen, errors, text };
}

/** What every page must show: a policy that fetches and posts nothing and runs only its own code, and no attack. */
function assertInert(opened: Opened, file: string): void {
  assert.ok(opened.csp, `${file}: no Content-Security-Policy`);
  for (const directive of ["default-src 'none'", "base-uri 'none'"]) assert.ok(opened.csp.includes(directive), file);
  assert.doesNotMatch(opened.csp, /unsafe-inline|unsafe-eval|\*/, file);
  assert.equal(opened.hostile, undefined, `${file}: the injected code ran`);
  assert.deepEqual(opened.violations, [], `${file}: the page's own code was refused`);
  assert.deepEqual(opened.errors, [], file);
}

describe('a hostile gateway certified: every page inert, junit.xml XML', () => {
  let mock: RunningMock;
  let report = '';
  before(async () => {
    mock = await startMock();
    const gateway = await hostileGateway(mock.url);
    const merchant = testMerchant();
    const env = {
      CI: 'true',
      PAYCONFORM_POLL_INTERVAL_MS: '0',
      PAYCONFORM_ENDPOINT_ID: merchant.endpointIds[0],
      PAYCONFORM_ENDPOINT_GROUP_ID: merchant.endpointGroupIds[0],
      PAYCONFORM_LOGIN: merchant.login,
      PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
      PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
    };
    report = join(dir, 'certify');
    try {
      const target = resolveTarget({ baseUrl: gateway.url, live: false }, env);
      await runSuite(
        { target, tags: '@endpoint:SALE and (@negative:field-missing or @positive)', reportDir: report },
        { log: () => {}, progress: new PassThrough().resume() },
      );
    } finally {
      await gateway.close();
      await mock.close();
    }
  });

  it('junit.xml parses as XML 1.0 and holds the hostile answer, escaped', () => {
    const xml = readFileSync(join(report, 'junit.xml'), 'utf8');
    const text = parsedText(xml);
    // A plain-text body is UTF-8 on the wire, where a lone surrogate cannot be: it arrives as U+FFFD. A JSON string
    // carries one as an escape (`\ud800`), so the refusal's field arrives whole.
    assert.ok(text.includes(shownInXml(Buffer.from(HOSTILE).toString())), 'the answer in a failure, shown');
    assert.ok(text.includes(shownInXml(HOSTILE)), 'the refusal field in a warning, shown');
    assert.ok(xml.includes(']]&gt;]]&gt;'), '`]]>` twice, escaped');
    assert.ok(xml.includes('&lt;script&gt;'));
    assert.ok(!xml.includes('<![CDATA['), 'no CDATA');
  });

  it(
    'report.html and cucumber.html in chromium: a policy, no injected code run, their own content shown',
    { skip: CHROMIUM ? false : 'no chromium (apt-get install chromium): the pages were not opened' },
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const certificate = await openPage(browser, join(report, 'report.html'));
        assertInert(certificate, 'report.html');
        assert.match(certificate.text, /payconform certification/);
        assert.ok(certificate.text.includes(INJECTED.script), 'the answer is shown as text');
        const cucumber = await openPage(browser, join(report, 'cucumber.html'), 'features/payments/v2-sale.feature');
        assertInert(cucumber, 'cucumber.html');
        assert.match(cucumber.text, /Scenarios/);
        assert.ok(cucumber.text.includes(INJECTED.script), "the failing scenario's answer is shown as text");
      } finally {
        await browser.close();
      }
    },
  );
});

describe("inspect's report of a hostile merchant: inert page, junit.xml XML", () => {
  const out = join(dir, 'inspect');
  // A form body is UTF-8, where a lone surrogate cannot be: the merchant sends the rest.
  const field = HOSTILE.replace(INJECTED.loneSurrogates, '');
  before(async () => {
    const inspect = await startListening(['inspect', '--port', '0', '--report-dir', out, '--until-requests', '1']);
    const merchant = testMerchant();
    const credentials = {
      login: merchant.login,
      controlKey: merchant.merchantControlKey,
      privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
    };
    const sale = endpointByOperation('SALE');
    const sent = buildRequest(
      sale,
      { baseUrl: `${inspect.url}/paynet`, credentials, endpointId: '1001' },
      sampleRequest(sale, [['client_orderid', field]]),
    );
    // A control over other values: the report shows the control input, the merchant's client_orderid in it, raw.
    const body = sent.body.replace(/control=[0-9a-f]+/, `control=${'0'.repeat(40)}`);
    await fetch(sent.url, { method: 'POST', headers: sent.headers, body });
    assert.equal(await inspect.exit, 1, inspect.out());
  });

  it('junit.xml parses as XML 1.0; given the hostile text in every field it writes, it holds it, escaped', () => {
    parsedText(readFileSync(join(out, 'junit.xml'), 'utf8'));
    // The run's junit.xml quotes no field of the merchant's (rule messages only): the writer is given them directly,
    // lone surrogates included, as an upstream's refusal or a callback handler's answer would bring them.
    const at = '2026-01-01T00:00:00.000Z';
    const record: InspectRecord = {
      seq: 1,
      at,
      method: 'POST',
      path: `/paynet/api/v2/sale/${HOSTILE}`,
      verdict: {
        operation: 'SALE',
        clientOrderId: HOSTILE,
        passed: false,
        checks: [{ id: 'control-signature', outcome: 'fail', message: `client_orderid ${HOSTILE} is not signed` }],
      },
      answer: { status: 400, type: 'validation-error', errorCode: HOSTILE },
      refused: `the gateway answered 400 ${HOSTILE}`,
    };
    const given = join(dir, 'inspect-given');
    writeInspectReport(given, [record], { target: HOSTILE, startedAt: at, finishedAt: at, version: '0' });
    assert.ok(parsedText(readFileSync(join(given, 'junit.xml'), 'utf8')).includes(shownInXml(HOSTILE)));
  });

  it(
    'report.html in chromium: a policy, no injected code run, its own content shown',
    { skip: CHROMIUM ? false : 'no chromium (apt-get install chromium): the page was not opened' },
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const opened = await openPage(browser, join(out, 'report.html'));
        assertInert(opened, 'inspect report.html');
        assert.match(opened.text, /payconform inspect/);
        assert.ok(opened.text.includes(INJECTED.attribute), 'the field is shown as text');
      } finally {
        await browser.close();
      }
    },
  );
});

describe(
  "the mock's customer pages in chromium, for an order whose client_orderid is hostile",
  { skip: CHROMIUM ? false : 'no chromium (apt-get install chromium): the pages were not opened' },
  () => {
    it("checkout: a policy, nothing injected runs; paid, the page's script sends the customer back", async () => {
      const merchant = testMerchant();
      const credentials = {
        login: merchant.login,
        controlKey: merchant.merchantControlKey,
        privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
      };
      const returned: string[] = [];
      const shop = createServer((req, res) => {
        let body = '';
        req.on('data', (c: Buffer) => (body += c.toString()));
        req.on('end', () => {
          if (req.method === 'POST') returned.push(body);
          res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Thank you</p>');
        });
      });
      await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
      const shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}/return`;
      const mock = await startMock({ prefix: '/paynet' });
      const client = new PayClient({ baseUrl: `${mock.url}/paynet`, credentials, endpointId: '1001' });
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const orderId = `${INJECTED.script}${INJECTED.attribute}`;
        const form = await client.send(
          'SALEFORM',
          sampleRequest(endpointByOperation('SALEFORM'), [
            ['client_orderid', orderId],
            ['redirect_url', shopUrl],
          ]),
        );
        assert.equal(form.status, 200, JSON.stringify(form.body));
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(e.message));
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto((form.body as Record<string, string>)['redirect-url'] ?? '');
        const seen = await page.evaluate(() => ({
          csp: document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null,
          hostile: (window as unknown as { hostile?: unknown }).hostile,
        }));
        assert.ok(seen.csp?.includes("default-src 'none'") && seen.csp.includes("form-action 'self'"), seen.csp ?? '');
        assert.equal(seen.hostile, undefined, 'the injected code ran');
        assert.ok((await page.innerText('body')).includes(orderId), 'the order id is shown as text');
        await page.fill('#pan', TEST_CARDS.approved);
        await page.fill('#name', 'A Customer');
        await page.fill('#mm', '12');
        await page.fill('#yy', '30');
        await page.fill('#cvv', '123');
        await Promise.all([page.waitForURL(shopUrl, { timeout: 10_000 }), page.click('button[type=submit]')]);
        assert.equal(returned.length, 1, 'the return form posted to the shop once');
        assert.deepEqual(errors, [], 'no policy refused the pages their own script and forms');
      } finally {
        await browser.close();
        await client.close();
        await mock.close();
        await new Promise<void>((resolve) => shop.close(() => resolve()));
      }
    });
  },
);
