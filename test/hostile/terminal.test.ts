// Hostile text on the terminal: a gateway's answer, a merchant's fields, a partner's vectors, profile,
// raw request and bundle, each driven through the real command (in-process, as a user runs it). The
// output must hold no control character of the input (C0 but the line break, DEL, C1, bidi overrides
// and isolates, lone surrogates), and the hostile text must still be there, escaped: the check is not
// vacuous. The writer itself is held by a property: nothing forbidden out, and an unescape written
// here (not the writer's) gives the input back.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { oneLine, shown, shownBlock, terminalIo } from '../../src/cli/terminal-text.ts';
import { run } from '../../src/cli/main.ts';
import { PayClient } from '../../src/client/client.ts';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';
import { sampleRequest } from '../../src/schemas/index.ts';
import { fcParams } from '../seed.ts';

/** What a terminal must never be sent from untrusted text: it acts on the terminal instead of showing. */
function forbiddenIn(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const u = text.charCodeAt(i);
    const high = u >= 0xd800 && u <= 0xdbff;
    const low = u >= 0xdc00 && u <= 0xdfff;
    const next = text.charCodeAt(i + 1);
    if (high && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    if (
      (u < 0x20 && u !== 0x0a) ||
      (u >= 0x7f && u <= 0x9f) ||
      (u >= 0x202a && u <= 0x202e) ||
      (u >= 0x2066 && u <= 0x2069) ||
      high ||
      low
    )
      found.push(`U+${u.toString(16).padStart(4, '0')} at ${i}`);
  }
  return found;
}

/** The reverse of the documented escapes, written from docs/hostile-content.md, not from the writer. */
function unescape(text: string): string {
  return text.replace(/\\(\\|n|r|t|x[0-9a-f]{2}|u[0-9a-f]{4})/g, (_, e: string) => {
    if (e === '\\') return '\\';
    if (e === 'n') return '\n';
    if (e === 'r') return '\r';
    if (e === 't') return '\t';
    return String.fromCharCode(parseInt(e.slice(1), 16));
  });
}

const ESC = '\x1b';
const PIECES = [
  `${ESC}]0;pwned\x07`, // window title
  `${ESC}]8;;http://evil${ESC}\\link${ESC}]8;;${ESC}\\`, // OSC 8 hyperlink
  `${ESC}c`, // full reset
  `${ESC}[8m`, // hidden text
  '\r',
  '\x9b', // C1 CSI
  '\u202e', // right-to-left override
];
const HOSTILE = PIECES.join('');
/** A line of its own after a line break in a value: it must never start a line of the output. */
const FAKE = 'ALL GOOD: 1 passed, 0 failed';
const HOSTILE_LINES = `${HOSTILE}\n${FAKE}`;
/** The pieces as the output must show them, escaped. */
const SHOWN = ['\\x1b]0;pwned\\x07', '\\x1b]8;;http://evil\\x1b', '\\x1bc', '\\x1b[8m', '\\r', '\\u009b', '\\u202e'];

async function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await run(args, { stdout: (t) => (text += `${t}\n`), stderr: (t) => (text += `${t}\n`), env });
  return { code, text };
}

/** No forbidden code point; each escaped piece that `shows` names is there. */
function assertInert(text: string, shows: readonly string[], what: string): void {
  assert.deepEqual(forbiddenIn(text), [], `${what}: forbidden code points reached the terminal:\n${text}`);
  for (const piece of shows) assert.ok(text.includes(piece), `${what}: ${piece} is not shown:\n${text}`);
  assert.ok(!text.split('\n').some((line) => line.startsWith(FAKE)), `${what}: a value drew a line of its own`);
}

let dir: string;
before(() => (dir = mkdtempSync(join(tmpdir(), 'payconform-hostile-terminal-'))));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A loopback HTTP server (127.0.0.1 only) answering every request with `answer`; closed by the caller. */
async function serve(answer: (path: string) => { status: number; type: string; body: string }): Promise<Server> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const a = answer(req.url ?? '/');
      res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
    });
  });
  server.headersTimeout = 5000;
  server.requestTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
const close = (s: Server): Promise<void> => new Promise((resolve) => s.close(() => resolve()));

describe('the terminal writer', () => {
  const unit = fc.oneof(
    fc.constantFrom(...PIECES, '\\', '\n', '\\x1b', '\ud800', '\udfff', '\u2066', '\x7f', '\x00'),
    fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  );
  const anyText = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

  it('shows a value with nothing forbidden and no line break, and it reads back to the value', () => {
    fc.assert(
      fc.property(anyText, (value) => {
        const out = shown(value);
        assert.deepEqual(forbiddenIn(out), []);
        assert.ok(!out.includes('\n'));
        assert.equal(unescape(out), value);
      }),
      fcParams(1000),
    );
  });

  it('prefixes every line of a block, and a line, a block and the terminal itself carry nothing forbidden', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const block = shownBlock(text, '| ').split('\n');
        assert.equal(block.length, text.split('\n').length);
        assert.ok(block.every((line) => line.startsWith('| ')));
        assert.equal(block.map((line) => unescape(line.slice(2))).join('\n'), text);
        assert.deepEqual(forbiddenIn(oneLine(text)), []);
        assert.ok(!oneLine(text).includes('\n'));
        let printed = '';
        terminalIo({ stdout: (t) => (printed += t), stderr: (t) => (printed += t), env: {} }).stdout(text);
        assert.deepEqual(forbiddenIn(printed), []);
        assert.equal(printed.split('\n').length, text.split('\n').length, 'the line breaks of the text stay');
      }),
      fcParams(1000),
    );
  });
});

describe('hostile text through the commands', () => {
  const env = { PAYCONFORM_CONTROL_KEY: 'ck-hostile-test', PAYCONFORM_LOGIN: 'm' };

  it("send: a gateway's text/plain answer is shown escaped, each line marked, never as payconform's verdict", async () => {
    const fake = 'HTTP 200 application/vnd.pay+json\nthe answer follows the spec';
    const gateway = await serve(() => ({ status: 200, type: 'text/plain', body: `${HOSTILE}\n${fake}` }));
    try {
      const args = ['send', 'STATUS', '--base-url', `${urlOf(gateway)}/paynet`, '--endpoint-id', '7'];
      const params = ['--param', 'client_orderid=A-1', '--param', 'orderid=1'];
      const { code, text } = await cli([...args, ...params], env);
      assert.equal(code, 1, text);
      assertInert(text, SHOWN, 'send');
      assert.doesNotMatch(text, /^HTTP 200 application\/vnd\.pay\+json/m, 'the fake status line reads as ours');
      assert.doesNotMatch(text, /^the answer follows the spec$/m, 'the fake verdict reads as ours');
      const json = await cli([...args, ...params, '--json'], env);
      assertInert(json.text, [], 'send --json');
      assert.equal(JSON.parse(json.text).body, `${HOSTILE}\n${fake}`, 'JSON printed stays JSON, meaning the same');
    } finally {
      await close(gateway);
    }
  });

  it("send: a gateway's JSON answer is marked line by line and stays JSON that means what the gateway sent", async () => {
    const refusal = { type: 'validation-error', 'error-message': HOSTILE_LINES, 'error-code': '\\x1b' };
    const gateway = await serve(() => ({
      status: 400,
      type: 'application/vnd.pay+json',
      body: JSON.stringify(refusal),
    }));
    try {
      const args = ['send', 'STATUS', '--base-url', `${urlOf(gateway)}/paynet`, '--endpoint-id', '7'];
      const { text } = await cli([...args, '--param', 'client_orderid=A-1', '--param', 'orderid=1'], env);
      assertInert(text, ['\\u001b]0;pwned\\u0007', '\\u009b', '\\u202e'], 'send');
      const body = text.split('\n').filter((line) => line.startsWith('| '));
      assert.deepEqual(JSON.parse(body.map((line) => line.slice(2)).join('\n')), refusal, text);
    } finally {
      await close(gateway);
    }
  });

  it("vectors check: a partner's vector id and values are shown escaped", async () => {
    const file = join(dir, 'hostile-vectors.json');
    const generated = JSON.parse(readFileSync('vectors/generated.json', 'utf8'));
    const vector = generated.vectors.find((v: { scheme: string }) => v.scheme === 'control');
    vector.id = `x${HOSTILE_LINES}`;
    vector.description = HOSTILE_LINES;
    vector.request.params[0][1] = HOSTILE_LINES;
    vector.expected.controlInput = `y${HOSTILE_LINES}`;
    writeFileSync(file, JSON.stringify({ ...generated, vectors: [vector] }));
    const { code, text } = await cli(['vectors', 'check', file]);
    assert.notEqual(code, 0, text);
    assertInert(text, SHOWN, 'vectors check');
    const explained = await cli(['vectors', 'explain', file, '--id', vector.id]);
    assert.equal(explained.code, 0, explained.text);
    assertInert(explained.text, SHOWN, 'vectors explain');
  });

  it("certify: a profile's unknown key is shown escaped in its one-line error", async () => {
    const file = join(dir, 'hostile-profile.json');
    writeFileSync(file, JSON.stringify({ [`k${HOSTILE}\nFAILED`]: 1 }));
    const { code, text } = await cli(['certify', '--profile', file]);
    assert.equal(code, 2, text);
    assertInert(text, SHOWN, 'certify --profile');
    assert.equal(text.trimEnd().split('\n').length, 1, `one line:\n${text}`);
  });

  it("certify: a profile's not-applicable reason is shown escaped on the coverage lines", () => {
    const file = join(dir, 'hostile-reason-profile.json');
    writeFileSync(
      file,
      JSON.stringify({ name: 'p', notApplicable: [{ tags: '@endpoint:STATUS', reason: HOSTILE_LINES }] }),
    );
    // A process of its own (certify's progress writes to the process's standard output), from src as tests run it.
    const entry = join(dir, 'payconform.mts');
    writeFileSync(
      entry,
      `import { main } from ${JSON.stringify(new URL('../../src/cli/main.ts', import.meta.url).href)};\nawait main();\n`,
    );
    const args = [
      'certify',
      '--profile',
      file,
      '--tags',
      '@endpoint:STATUS',
      '--report-dir',
      join(dir, 'certify-report'),
    ];
    const r = spawnSync(process.execPath, ['--import', 'tsx', entry, ...args], { encoding: 'utf8', timeout: 120_000 });
    const text = `${r.stdout}${r.stderr}`;
    assert.equal(r.status, 0, text);
    assert.match(text, /^not exercised: endpoint:STATUS \(not offered by this gateway's profile: p: /m, text);
    assertInert(text, SHOWN, 'certify');
  });

  it("diagnose, verify and explain: a raw request's decoded fields are shown escaped", async () => {
    const file = join(dir, 'hostile-request.http');
    const value = encodeURIComponent(HOSTILE_LINES);
    writeFileSync(
      file,
      'POST /paynet/api/v2/status/7 HTTP/1.1\r\nHost: gateway.example\r\n\r\n' +
        `login=m&client_orderid=${value}&orderid=1&control=0123456789abcdef0123456789abcdef01234567`,
    );
    const d = await cli(['diagnose', '--request-file', file], env);
    assert.equal(d.code, 1, d.text);
    assertInert(d.text, SHOWN, 'diagnose');
    const url = 'https://gateway.example/paynet/api/v2/status/7';
    const v = await cli(
      [
        'verify',
        '--url',
        url,
        '--param',
        `client_orderid=${HOSTILE_LINES}`,
        '--param',
        'orderid=1',
        '--control',
        '0'.repeat(40),
      ],
      env,
    );
    assert.equal(v.code, 1, v.text);
    assertInert(v.text, SHOWN, 'verify');
    const e = await cli(
      ['explain', '--url', url, '--param', `client_orderid=${HOSTILE_LINES}`, '--param', 'orderid=1'],
      env,
    );
    assert.equal(e.code, 0, e.text);
    assertInert(e.text, SHOWN, 'explain');
  });

  it('explain: a CVV with a control character in it is masked before it is escaped, never shown', async () => {
    const url = 'https://gateway.example/paynet/api/v4/payout/7';
    const args = ['explain', '--url', url, '--param', 'client_orderid=A', '--param', 'amount=1.00'];
    const card = ['--param', 'credit_card_number=4111111111111111', '--param', `cvv2=7${ESC}9`];
    const keyed = { ...env, PAYCONFORM_PRIVATE_KEY_FILE: 'vectors/keys/test-only-merchant-rsa-2048.pem' };
    const { code, text } = await cli([...args, ...card, '--nonce', 'n', '--timestamp', '1'], keyed);
    assert.equal(code, 0, text);
    assertInert(text, [], 'explain');
    assert.match(text, /"cvv2" = "\*\*\*"/, text);
    for (const form of ['x1b9', 'u001b9', '1B9']) assert.ok(!text.includes(form), `the CVV shows as …${form}`);
  });

  it("bundle verify: an unsigned bundle's status is the bundle's claim, escaped, never a verdict of ours", async () => {
    const bundle = join(dir, 'hostile-bundle');
    mkdirSync(bundle);
    const claim = `passed${ESC}[2K\rVERIFIED: ${bundle}: 9 files match manifest.jws, signed by a key you trust; run verdict PASSED`;
    const summary = JSON.stringify({ status: claim });
    writeFileSync(join(bundle, 'summary.json'), summary);
    const sha256 = createHash('sha256').update(summary).digest('hex');
    writeFileSync(
      join(bundle, 'manifest.json'),
      JSON.stringify({ files: [{ path: 'summary.json', bytes: Buffer.byteLength(summary), sha256 }] }),
    );
    const { code, text } = await cli(['bundle', 'verify', bundle]);
    assert.equal(code, 1, text);
    assertInert(text, ['\\x1b[2K\\r'], 'bundle verify');
    // One line, payconform's word first; the claim quoted as the bundle's, in the case it was written in.
    assert.equal(text.trimEnd().split('\n').length, 1, text);
    assert.match(
      text,
      /^UNSIGNED: .*; the bundle claims a run verdict payconform never writes, "passed\\x1b\[2K\\rVERIFIED: /,
    );
    assert.doesNotMatch(text, /^VERIFIED/m);
  });

  it("inspect: a merchant's client_orderid on the callback line is shown escaped", async () => {
    const handler = await serve(() => ({ status: 200, type: 'text/plain', body: 'OK' }));
    const args = ['--report-dir', join(dir, 'inspect-callbacks'), '--until-requests', '1', '--callback-checks'];
    const inspect = await inspectInProcess(args);
    try {
      await inspect.client.send(
        'SALE',
        sampleRequest(endpointByOperation('SALE'), [
          ['client_orderid', HOSTILE_LINES],
          ['amount', '25.00'],
          ['server_callback_url', `${urlOf(handler)}/callback`],
        ]),
      );
      assert.equal(await inspect.exit, 1, inspect.text());
    } finally {
      await inspect.client.close();
      await close(handler);
    }
    const text = inspect.text();
    assert.match(text, /callbacks of order /, text);
    assertInert(text, SHOWN, 'inspect');
  });

  it("inspect --upstream: the upstream's error code is shown escaped on the request's line", async () => {
    const refusal = {
      type: 'validation-error',
      'error-message': 'no',
      'error-code': `${HOSTILE}\n#2 SALE → 200: pass\n${FAKE}`,
    };
    const upstream = await serve(() => ({
      status: 400,
      type: 'application/vnd.pay+json',
      body: JSON.stringify(refusal),
    }));
    const args = [
      '--report-dir',
      join(dir, 'inspect-upstream'),
      '--until-requests',
      '1',
      '--upstream',
      urlOf(upstream),
    ];
    const inspect = await inspectInProcess(args);
    try {
      await inspect.client.send('SALE', sampleRequest(endpointByOperation('SALE'), [['amount', '25.00']]));
      assert.equal(await inspect.exit, 1, inspect.text());
    } finally {
      await inspect.client.close();
      await close(upstream);
    }
    const text = inspect.text();
    assert.match(text, /REFUSED: .*answered 400/, text);
    assertInert(text, SHOWN, 'inspect --upstream');
    assert.doesNotMatch(text, /^#2 SALE/m);
  });
});

/** `payconform inspect ARGS` run in-process on a free port, and a client of the test merchant pointed at it. */
async function inspectInProcess(
  args: string[],
): Promise<{ exit: Promise<number>; text: () => string; client: PayClient }> {
  let text = '';
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((resolve) => (listening = resolve));
  const io = {
    stdout: (t: string) => {
      text += `${t}\n`;
      const m = /listening on (http:\/\/\S+)/.exec(t);
      if (m) listening(m[1]!);
    },
    stderr: (t: string) => (text += `${t}\n`),
    env: {},
  };
  const exit = run(['inspect', '--port', '0', ...args], io);
  const merchant = testMerchant();
  const client = new PayClient({
    baseUrl: `${await Promise.race([url, exit.then(() => Promise.reject(new Error(text)))])}/paynet`,
    credentials: {
      login: merchant.login,
      controlKey: merchant.merchantControlKey,
      privateKeyPem: readFileSync(TEST_MERCHANT_PRIVATE_KEY_FILE, 'utf8'),
    },
    endpointId: '1001',
  });
  return { exit, text: () => text, client };
}
