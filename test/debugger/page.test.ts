// The debugger page as `payconform debugger --out` writes it, opened from disk in a real headless
// chromium with every request recorded and refused: no request beyond the file, no CSP violation; every
// diagnosis vector reaches the verdict and mistake `payconform diagnose --json` reaches, every vector of
// vectors/generated.json is valid with the vector's own values; the form answers within 200 ms and its
// exported vector passes `vectors check`; 390 and 1400 px without sideways scrolling; Tab reaches every field.
// Needs `npm run build` (the page is built there). Screenshots: reports/debugger/ (and docs/images/debugger.png
// with PAYCONFORM_DOCS_SCREENSHOT=1).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { DebuggerInput, DebuggerResult } from '../../src/debugger/case.ts';
import { PAGE_FILE } from '../../src/debugger/page-file.ts';
import { encodeForm } from '../../src/signing/form-body.ts';
import { checkVector } from '../../src/vectors/check.ts';
import { parseVectorFile } from '../../src/vectors/load.ts';
import type { Vector } from '../../src/vectors/types.ts';
import { runCli } from '../support/cli.ts';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));
const ROOT = new URL('../../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-debugger-'));
const shots = join(ROOT, 'reports/debugger');
const vectorsOf = (file: string): Vector[] =>
  (JSON.parse(readFileSync(join(ROOT, 'vectors', file), 'utf8')) as { vectors: Vector[] }).vectors;

declare const window: { payconformDebugger: { runCase(i: DebuggerInput): DebuggerResult; lastRenderMs(): number } };

/** A vector's request as a partner pastes it: a logged raw request, or (every other one) a curl command. */
function pasted(v: Vector, asCurl: boolean): string {
  const params = [...v.request.params];
  const control = v.given?.control ?? (v.scheme === 'control' ? v.expected.control : undefined);
  if (control !== undefined && !params.some(([n]) => n === 'control')) params.push(['control', control]);
  const authorization = v.scheme === 'control' ? undefined : (v.given?.authorization ?? v.expected.authorization);
  const [, host = '', target = '/'] = /^https:\/\/([^/?#]+)(.*)$/i.exec(v.request.url) ?? [];
  const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
  if (asCurl)
    return [
      `curl -sS -X ${v.request.method} ${q(v.request.url)}`,
      ...(authorization ? [`-H ${q(`Authorization: ${authorization}`)}`] : []),
      `--data-raw ${q(encodeForm(params))}`,
    ].join(' \\\n  ');
  const head = [`${v.request.method} ${target} HTTP/1.1`, `Host: ${host}`];
  if (authorization) head.push(`Authorization: ${authorization}`);
  return `${head.join('\r\n')}\r\n\r\n${encodeForm(params)}`;
}

const inputOf = (v: Vector, asCurl: boolean): DebuggerInput => ({
  request: pasted(v, asCurl),
  login: v.credentials.login,
  controlKey: v.credentials.merchantControlKey,
  privateKeyPem: v.credentials.privateKeyPem,
  publicKeyPem: v.credentials.publicKeyPem,
  callback: v.message === 'callback',
});

/** What an attacker pastes: each piece runs code if the page ever writes it as markup, or moves what is shown. */
const HOSTILE = {
  img: '<img src=x onerror="window.__pwned=1">',
  script: '<script>window.__pwned=2</script>',
  svg: '"><svg onload=window.__pwned=3>',
  link: 'javascript:window.__pwned=4',
  controls: '\x1b[2J\u202e',
};
/** Elements that fetch, run or restyle: the page may hold only its own. */
const ACTIVE_ELEMENTS = 'img, svg, script, iframe, object, embed, style, link, meta, base, form';
const ALL_HOSTILE = Object.values(HOSTILE).join(' ');
const SALE_URL = 'https://sandbox.gateway.example/paynet/api/v2/sale/1001';
const PAYOUT_URL = 'https://sandbox.gateway.example/paynet/api/v2/payout/1001';
const RSA_PAYOUT_URL = 'https://sandbox.gateway.example/paynet/api/v4/payout/1001';
const hostileFields: Array<[string, string]> = [
  ['client_orderid', ALL_HOSTILE],
  ['amount', '0.29'],
  ['email', HOSTILE.img],
  ['redirect_url', HOSTILE.link],
  ['control', `${HOSTILE.svg}${HOSTILE.controls}`],
];
const shellQuoted = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
const asFields = (pairs: Array<[string, string]>): string =>
  ['SALE 1001', ...pairs.map(([n, v]) => `${n}=${v}`)].join('\n');

interface HostileCase {
  readonly name: string;
  readonly input: DebuggerInput;
  /** What the Verdict region must then say, and the hostile text the page must show as text. */
  readonly verdict: readonly string[];
  readonly shown: readonly string[];
}

/** One case per way text gets in: the three forms of the Request field, a refused line, a URL, a key, 1 MiB. */
function hostileCases(controlKey: string): HostileCase[] {
  const oauth = (method: string): string =>
    [
      'OAuth realm="payconform"',
      'oauth_consumer_key="payconform-test-merchant"',
      `oauth_nonce="${encodeURIComponent(HOSTILE.img)}"`,
      `oauth_signature="${encodeURIComponent(HOSTILE.svg)}"`,
      `oauth_signature_method="${method}"`,
      'oauth_timestamp="1700000000"',
      'oauth_version="1.0"',
    ].join(', ');
  const huge = HOSTILE.img.repeat(Math.ceil(2 ** 20 / HOSTILE.img.length));
  const control = { login: 'payconform-test-merchant', controlKey };
  const everyPiece = [HOSTILE.img, HOSTILE.script, HOSTILE.svg, HOSTILE.link, HOSTILE.controls];
  return [
    {
      name: 'a raw HTTP request',
      input: {
        ...control,
        request: [
          'POST /paynet/api/v2/sale/1001 HTTP/1.1',
          'Host: sandbox.gateway.example',
          `X-Note: ${ALL_HOSTILE}`,
          '',
          encodeForm(hostileFields),
        ].join('\r\n'),
      },
      verdict: ['invalid', `${HOSTILE.svg}${HOSTILE.controls}`],
      shown: everyPiece,
    },
    {
      name: 'a curl command',
      input: {
        ...control,
        request: [
          `curl -sS -X POST ${shellQuoted(SALE_URL)}`,
          `-H ${shellQuoted(`X-Note: ${ALL_HOSTILE}`)}`,
          `--data-raw ${shellQuoted(encodeForm(hostileFields))}`,
        ].join(' \\\n  '),
      },
      verdict: ['invalid', `${HOSTILE.svg}${HOSTILE.controls}`],
      shown: everyPiece,
    },
    {
      name: 'operation and fields, values as written, and the Login',
      input: { ...control, login: ALL_HOSTILE, request: asFields(hostileFields) },
      verdict: ['invalid', `${HOSTILE.svg}${HOSTILE.controls}`],
      shown: everyPiece,
    },
    {
      name: 'an OAuth curl command whose query, nonce and signature hold markup',
      input: {
        ...control,
        request: [
          `curl -X POST ${shellQuoted(`${PAYOUT_URL}?ref=${encodeURIComponent(HOSTILE.script)}`)}`,
          `-H ${shellQuoted(`Authorization: ${oauth('HMAC-SHA1')}`)}`,
          `--data-raw ${shellQuoted(encodeForm(hostileFields))}`,
        ].join(' '),
      },
      verdict: ['invalid', HOSTILE.svg],
      shown: ['<img src=x onerror=', HOSTILE.script, HOSTILE.svg],
    },
    {
      name: 'a line the page refuses, quoted in its message',
      input: { ...control, request: `SALE 1001\n=${HOSTILE.img}` },
      verdict: ['Request: line "=<img src=x onerror="window.__" is not name=value'],
      shown: ['<img src=x onerror="window.__'],
    },
    {
      name: 'a javascript: URL',
      input: { ...control, request: `curl ${shellQuoted(`${HOSTILE.link}//${SALE_URL}`)} -d a=b` },
      verdict: ['url: scheme must be http or https (got javascript)'],
      shown: [],
    },
    {
      name: 'a callback whose URL is markup',
      input: { ...control, callback: true, request: `curl ${shellQuoted(HOSTILE.img)}` },
      verdict: ['Request: a callback GET needs an absolute URL'],
      shown: [],
    },
    {
      name: 'a public key that is markup',
      input: {
        request: `${RSA_PAYOUT_URL}\namount=1\nAuthorization: ${oauth('RSA-SHA256')}`,
        publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${HOSTILE.img}\n-----END PUBLIC KEY-----`,
      },
      verdict: ['public key: is a malformed PUBLIC KEY PEM'],
      shown: [],
    },
    {
      name: `a field of ${huge.length} characters of markup`,
      input: { ...control, request: asFields([['client_orderid', huge], ...hostileFields.slice(1)]) },
      verdict: ['invalid', `${HOSTILE.svg}${HOSTILE.controls}`],
      shown: [huge],
    },
  ];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

describe(
  'the debugger page in headless chromium',
  { skip: CHROMIUM ? false : 'no chromium (apt-get install chromium): the page was not opened' },
  () => {
    let browser: Browser;
    let page: Page;
    const file = join(dir, 'page.html');
    const requests: string[] = [];
    const problems: string[] = [];
    const evaluate = (inputs: DebuggerInput[]): Promise<DebuggerResult[]> =>
      page.evaluate((all) => all.map((i) => window.payconformDebugger.runCase(i)), inputs);

    before(async () => {
      assert.ok(existsSync(PAGE_FILE), `${PAGE_FILE} is missing: run npm run build`);
      const wrote = await runCli(['debugger', '--out', file]);
      assert.equal(wrote.code, 0, wrote.err);
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // Every request is recorded; only the page file itself may load.
      await context.route('**', (route) => {
        requests.push(route.request().url());
        return route.request().url().split('#')[0] === pathToFileURL(file).href ? route.continue() : route.abort();
      });
      page = await context.newPage();
      page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
      page.on('pageerror', (e) => void problems.push(String(e)));
      page.on('requestfailed', (r) => void problems.push(`request failed: ${r.url()}`));
    });
    after(async () => {
      await browser?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('opens from disk in under 1 s (median of 5), makes no request beyond the file, breaks no CSP rule, ≤ 600 kB', async (t) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
        await page.waitForFunction(() => 'payconformDebugger' in window);
        times.push(performance.now() - started);
      }
      t.diagnostic(`opened in ${median(times).toFixed(0)} ms (median of 5)`);
      assert.ok(
        median(times) < 1000,
        `opened in ${median(times).toFixed(0)} ms (median of ${times.map(Math.round).join(', ')})`,
      );
      assert.ok(statSync(file).size <= 600 * 1024, `${statSync(file).size} bytes`);
      const html = readFileSync(file, 'utf8');
      assert.match(
        html,
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'none'/,
      );
      // The CSP's hash is the inline script's own: the browser ran it (payconformDebugger exists) and refused nothing.
      const script = /<script>([\s\S]*)<\/script>/.exec(html)?.[1] ?? '';
      assert.ok(html.includes(`'sha256-${createHash('sha256').update(script).digest('base64')}'`));
      assert.deepEqual(problems, []);
      assert.deepEqual(new Set(requests.map((u) => u.split('#')[0])), new Set([pathToFileURL(file).href]));
    });

    it('labels its fields and names its Verdict and Diagnosis regions', async () => {
      for (const label of ['Request', 'Control key', 'Public key', 'Private key', 'Login'])
        assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, label);
      for (const name of ['Verdict', 'Diagnosis'])
        assert.equal(await page.getByRole('region', { name }).count(), 1, name);
    });

    it('reaches the verdict and mistake of `payconform diagnose --json` for every diagnosis vector', async () => {
      const vectors = vectorsOf('diagnoses.json');
      const results = await evaluate(vectors.map((v, i) => inputOf(v, i % 2 === 1)));
      const keyFiles = new Map<string, string>();
      for (const [i, v] of vectors.entries()) {
        const r = results[i];
        const requestFile = join(dir, `${v.id}.http`);
        writeFileSync(requestFile, pasted(v, false));
        const pem = v.credentials.privateKeyPem;
        if (pem !== undefined && !keyFiles.has(pem)) {
          keyFiles.set(pem, join(dir, `key-${keyFiles.size}.pem`));
          writeFileSync(keyFiles.get(pem) ?? '', pem);
        }
        const cli = await runCli(
          ['diagnose', '--request-file', requestFile, '--json', ...(v.message === 'callback' ? ['--callback'] : [])],
          {
            PAYCONFORM_LOGIN: v.credentials.login,
            PAYCONFORM_CONTROL_KEY: v.credentials.merchantControlKey,
            PAYCONFORM_PRIVATE_KEY_FILE: pem === undefined ? undefined : keyFiles.get(pem),
          },
        );
        const d = JSON.parse(cli.out) as { verdict: string; defects: string[]; scheme: string; message: string };
        assert.equal(r?.error, undefined, `${v.id}: ${r?.error}`);
        assert.deepEqual(
          { verdict: r?.verdict, defects: r?.mistakes.map((m) => m.id), message: r?.message },
          { verdict: d.verdict, defects: d.defects, message: d.message },
          v.id,
        );
        // And the vector file's own answer, written when the vector was made.
        assert.equal(r?.verdict, v.expected.verdict, v.id);
        if (v.expected.defect)
          assert.ok(
            r?.mistakes.some((m) => m.id === v.expected.defect),
            v.id,
          );
        else assert.deepEqual(r?.mistakes, [], v.id);
      }
    });

    it("finds every vector of vectors/generated.json valid, with the vector's own values, as vectors check does", async () => {
      const vectors = vectorsOf('generated.json');
      const results = await evaluate(vectors.map((v, i) => inputOf(v, i % 2 === 0)));
      for (const [i, v] of vectors.entries()) {
        const r = results[i];
        assert.equal(checkVector(v).passed, true, `vectors check: ${v.id}`);
        assert.equal(r?.verdict, 'valid', `${v.id}: ${r?.error ?? r?.message}`);
        const want = v.scheme === 'control' ? v.expected.control : v.expected.signature;
        assert.equal(r?.value?.correct, want, v.id);
        if (v.expected.baseString)
          assert.equal(r?.steps.find((s) => s.step === 'base-string')?.value, v.expected.baseString);
        if (v.expected.authorization)
          assert.equal(r?.steps.find((s) => s.step === 'authorization')?.value, v.expected.authorization, v.id);
      }
    });

    it('answers a pasted request through the form in under 200 ms (median of 7) and exports a vector vectors check accepts', async (t) => {
      const cases = vectorsOf('diagnoses.json').filter((v) => v.expected.verdict === 'invalid');
      const pick = [
        cases.find((v) => v.scheme === 'control'),
        cases.find((v) => v.scheme === 'oauth-hmac-sha1'),
        cases.find((v) => v.scheme === 'oauth-rsa-sha256'),
      ];
      const times: number[] = [];
      for (let round = 0; round < 7; round++) {
        const v = pick[round % pick.length] as Vector;
        const input = inputOf(v, false);
        await page.getByLabel('Request', { exact: true }).fill('');
        await page.getByLabel('Login', { exact: true }).fill(input.login ?? '');
        await page.getByLabel('Control key', { exact: true }).fill(input.controlKey ?? '');
        await page.getByLabel('Private key', { exact: true }).fill(input.privateKeyPem ?? '');
        // The paste itself, timed in the page from the input event to the rendered answer.
        times.push(
          await page.evaluate<number>(
            `(() => {
            const field = document.getElementById('request');
            const started = performance.now();
            field.value = ${JSON.stringify(input.request)};
            field.dispatchEvent(new Event('input'));
            return performance.now() - started;
          })()`,
          ),
        );
        await page.getByRole('region', { name: 'Verdict' }).getByText('invalid', { exact: true }).waitFor();
        const diagnosis = await page.getByRole('region', { name: 'Diagnosis' }).innerText();
        assert.ok(diagnosis.includes(`${v.expected.defect}:`), `${v.id}: ${diagnosis}`);
        assert.equal((await page.locator('#verdict mark').count()) > 0, true, 'the first difference is marked');
        const exported = await page.getByLabel('Vector file', { exact: true }).inputValue();
        const secrets = { controlKey: v.credentials.merchantControlKey, privateKeyPem: v.credentials.privateKeyPem };
        const [vector] = parseVectorFile(exported, 'case.json', secrets).vectors;
        assert.equal(vector && checkVector(vector).passed, true, `${v.id}: the exported vector passes vectors check`);
      }
      t.diagnostic(`answered in ${median(times).toFixed(1)} ms (median of 7)`);
      assert.ok(
        median(times) < 200,
        `answered in ${median(times).toFixed(1)} ms (median of ${times.map((t) => t.toFixed(1)).join(', ')})`,
      );
      assert.deepEqual(problems, []);
    });

    it('shows the key only when asked, saves the vector file, and its link brings the request back without any key', async () => {
      const v = vectorsOf('diagnoses.json').find((x) => x.id === 'decimal-amount') as Vector;
      const key = v.credentials.merchantControlKey ?? '';
      await page.getByLabel('Control key', { exact: true }).fill(key);
      await page.getByLabel('Request', { exact: true }).fill(pasted(v, false));
      assert.ok(!(await page.locator('main').innerText()).includes(key), 'masked');
      await page.getByLabel('Show the key').check();
      assert.ok((await page.locator('#steps').innerText()).includes(key), 'shown on request');
      await page.getByLabel('Show the key').uncheck();
      // "Save vector file" hands over the text of the Vector file field, made in the page (a blob, no request).
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Save vector file' }).click(),
      ]);
      assert.equal(download.suggestedFilename(), 'case.json');
      const saved = readFileSync(await download.path(), 'utf8');
      assert.equal(saved, await page.getByLabel('Vector file', { exact: true }).inputValue());
      assert.match(saved, /"defect": "decimal-amount"/);
      const href = (await page.getByRole('link', { name: 'Link to this case' }).getAttribute('href')) ?? '';
      assert.ok(!decodeURIComponent(href.replaceAll('+', ' ')).includes(key));
      await page.goto(`${pathToFileURL(file).href}${href}`);
      await page.reload(); // a new fragment alone does not load the page again
      assert.equal(
        await page.getByLabel('Request', { exact: true }).inputValue(),
        pasted(v, false).replaceAll('\r\n', '\n'),
      );
      assert.equal(await page.getByLabel('Control key', { exact: true }).inputValue(), '');
    });

    it('reads a HAR file dropped on the Request field as if it were pasted', async () => {
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      await page.waitForFunction(() => 'payconformDebugger' in window);
      // A browser's export: a page entry, then the API request (its first POST).
      const har = JSON.stringify({
        log: {
          version: '1.2',
          entries: [
            { request: { method: 'GET', url: 'https://shop.example/', headers: [] }, response: { status: 200 } },
            {
              request: {
                method: 'POST',
                url: 'https://sandbox.gateway.example/paynet/api/v2/sale/1234',
                headers: [],
                postData: { mimeType: 'application/x-www-form-urlencoded', text: 'client_orderid=A-1&amount=10.00' },
              },
              response: { status: 200 },
            },
          ],
        },
      });
      const dropped = await page.evaluateHandle((text) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([text], 'session.har', { type: 'application/json' }));
        return transfer;
      }, har);
      await page.dispatchEvent('#request', 'drop', { dataTransfer: dropped });
      await page.waitForFunction(() => document.querySelector('#verdict')?.textContent?.includes('control: missing'));
      assert.equal(await page.getByLabel('Request', { exact: true }).inputValue(), har);
      // The case the page made from it: the SALE of the HAR's POST, with its fields.
      const vector = await page.getByLabel('Vector file', { exact: true }).inputValue();
      assert.match(vector, /"operation": "SALE"/);
      assert.match(vector, /"url": "https:\/\/sandbox\.gateway\.example\/paynet\/api\/v2\/sale\/1234"/);
    });

    it('keeps pasted hostile text inert: shown as text, no element or handler made, no script run', async (t) => {
      // A page of its own, so a listener for CSP refusals is in place before the page's script runs.
      const hostile = await page.context().newPage();
      const refused: string[] = [];
      hostile.on('console', (m) => void (m.type() === 'error' && refused.push(m.text())));
      hostile.on('pageerror', (e) => void refused.push(String(e)));
      await hostile.addInitScript(`window.__violations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sample));`);
      /** What the page holds now: code run, CSP refusals, active elements and handlers, and which texts it shows. */
      const state = (verdict: readonly string[], shown: readonly string[]): Promise<Record<string, unknown>> =>
        hostile.evaluate(`(() => {
          const text = (id) => document.getElementById(id).textContent;
          const regions = text('verdict') + text('diagnosis') + text('steps');
          return {
            pwned: typeof window.__pwned,
            violations: window.__violations,
            elements: [...document.querySelectorAll(${JSON.stringify(ACTIVE_ELEMENTS)})].map((e) => e.localName),
            handlers: [...document.querySelectorAll('*')]
              .flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)).map((a) => e.tagName + a.name)),
            links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href').slice(0, 9)),
            verdict: ${JSON.stringify(verdict)}.every((s) => text('verdict').includes(s)) || text('verdict'),
            notShown: ${JSON.stringify(shown)}.filter((s) => !regions.includes(s)).map((s) => s.slice(0, 40)),
          };
        })()`);
      const inert = (own: unknown): Record<string, unknown> => ({
        pwned: 'undefined',
        violations: [],
        elements: own,
        handlers: [],
        links: ['#request='],
        verdict: true,
        notShown: [],
      });
      await hostile.goto(pathToFileURL(file).href);
      const own = (await state([], []))['elements'];
      const key = vectorsOf('diagnoses.json').find((x) => x.id === 'decimal-amount')?.credentials.merchantControlKey;
      for (const c of hostileCases(key ?? '')) {
        await hostile.getByLabel('Request', { exact: true }).fill('');
        assert.equal((await state(['Request: is empty'], [])).verdict, true, `${c.name}: the verdict starts over`);
        await hostile.getByLabel('Login', { exact: true }).fill(c.input.login ?? '');
        await hostile.getByLabel('Control key', { exact: true }).fill(c.input.controlKey ?? '');
        await hostile.getByLabel('Public key', { exact: true }).fill(c.input.publicKeyPem ?? '');
        await hostile.locator('#callback').setChecked(c.input.callback === true);
        const started = performance.now();
        await hostile.getByLabel('Request', { exact: true }).fill(c.input.request);
        const answered = await state(c.verdict, c.shown);
        const inPage = await hostile.evaluate<number>('window.payconformDebugger.lastRenderMs()');
        const filled = (performance.now() - started).toFixed(0);
        t.diagnostic(
          `${c.name}: filled and answered in ${filled} ms, of which the page's render ${inPage.toFixed(0)} ms`,
        );
        assert.deepEqual(answered, inert(own), c.name);
      }
      // A link a partner sends: the fragment fills the Request and Login fields when the page opens.
      const fragment = new URLSearchParams({ request: asFields(hostileFields), login: ALL_HOSTILE });
      await hostile.goto(`${pathToFileURL(file).href}#${fragment}`);
      await hostile.reload();
      assert.equal(await hostile.getByLabel('Request', { exact: true }).inputValue(), asFields(hostileFields));
      assert.equal(await hostile.getByLabel('Login', { exact: true }).inputValue(), ALL_HOSTILE);
      await hostile.getByLabel('Control key', { exact: true }).fill(key ?? ''); // never in a link: pasted after
      const linked = [HOSTILE.img, HOSTILE.script, HOSTILE.svg, HOSTILE.controls];
      assert.deepEqual(
        await state(['invalid', `${HOSTILE.svg}${HOSTILE.controls}`], linked),
        inert(own),
        'a hostile link',
      );
      await hostile.close();
      assert.deepEqual(refused, []);
    });

    it('fits 390 px and 1400 px without sideways scrolling, and Tab reaches every field in order', async () => {
      const v = vectorsOf('diagnoses.json').find((x) => x.scheme === 'oauth-rsa-sha256' && x.expected.defect) as Vector;
      mkdirSync(shots, { recursive: true });
      const noSidewaysScroll = async (width: number): Promise<void> => {
        const [scroll, client] = await page.evaluate<[number, number]>(
          '[document.documentElement.scrollWidth, document.documentElement.clientWidth]',
        );
        assert.ok(scroll <= client, `${width} px: the page is ${scroll} px wide`);
      };
      for (const width of [390, 1400]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(pathToFileURL(file).href);
        const input = inputOf(v, false);
        await page.getByLabel('Login', { exact: true }).fill(input.login ?? '');
        await page.getByLabel('Private key', { exact: true }).fill(input.privateKeyPem ?? '');
        await page.getByLabel('Request', { exact: true }).fill(input.request);
        await noSidewaysScroll(width);
        // The picture shows a control case: its key field is masked, and no private key is on it.
        const control = vectorsOf('diagnoses.json').find((x) => x.id === 'decimal-amount') as Vector;
        await page.getByLabel('Private key', { exact: true }).fill('');
        await page.getByLabel('Control key', { exact: true }).fill(control.credentials.merchantControlKey ?? '');
        await page.getByLabel('Request', { exact: true }).fill(pasted(control, true));
        await noSidewaysScroll(width);
        await page.evaluate('window.scrollTo(0, 0)');
        await page.screenshot({ path: join(shots, `debugger-${width}.png`), fullPage: width === 390 });
      }
      if (process.env.PAYCONFORM_DOCS_SCREENSHOT === '1')
        copyFileSync(join(shots, 'debugger-1400.png'), join(ROOT, 'docs/images/debugger.png'));
      // A click on the heading, which takes no focus, starts the Tab order at the top of the page.
      await page.locator('h1').click();
      const order: string[] = [];
      for (let i = 0; i < 14; i++) {
        await page.keyboard.press('Tab');
        order.push(await page.evaluate<string>("document.activeElement?.id ?? ''"));
      }
      const fields = [
        'request',
        'callback',
        'login',
        'control-key',
        'show-key',
        'public-key',
        'private-key',
        'case-link',
        'vector-file',
        'save-vector',
        'pack-readme',
      ];
      assert.deepEqual(order.slice(0, fields.length), fields);
      assert.deepEqual(problems, []);
    });
  },
);
