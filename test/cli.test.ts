// The command line as a user meets it. Known answers come from the same independent sources as the
// signer's tests (sha1sum, openssl, the oauth-sign package); secrets are scanned for in every output.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createHmac, createPrivateKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oauthSign from 'oauth-sign';
import { ENDPOINTS } from '../src/catalogue/index.ts';
import { run } from '../src/cli/main.ts';

const root = new URL('..', import.meta.url).pathname;
const privateKeyFile = join(root, 'vectors/keys/test-only-merchant-rsa-2048.pem');
const publicKeyFile = join(root, 'vectors/keys/test-only-merchant-rsa-2048.pub.pem');
const CONTROL_KEY = 'SECRET-ck-7f3a';
const PAN = '4111111111111111';

let dir: string;
let keyFile: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'payconform-cli-'));
  keyFile = join(dir, 'control.key');
  writeFileSync(keyFile, `${CONTROL_KEY}\n`);
});
after(() => rmSync(dir, { recursive: true, force: true }));

interface Outcome {
  code: number;
  out: string;
  err: string;
}
async function cli(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(args, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env });
  const outcome = { code, out: out.join('\n'), err: err.join('\n') };
  assertNoSecrets(outcome);
  return outcome;
}

function assertNoSecrets({ out, err }: { out: string; err: string }): void {
  const text = out + err;
  assert.ok(!text.includes(CONTROL_KEY), 'the control key must never be printed');
  assert.ok(!text.includes('MIIE'), 'no private key material may be printed');
  assert.ok(!/\n\s+at /.test(text), 'no stack trace');
}

const SALE = [
  '--url',
  'https://sandbox.gateway.example/paynet/api/v2/sale/9876',
  '--param',
  'client_orderid=A-7',
  '--param',
  'amount=123.45',
  '--param',
  'email=jane@example.com',
];
const PAYOUT = [
  '--operation',
  'PAYOUT',
  '--base-url',
  'https://sandbox.gateway.example/paynet',
  '--endpoint-id',
  '77',
  '--param',
  'client_orderid=P 1',
  '--param',
  'amount=100.00',
  '--param',
  `credit_card_number=${PAN}`,
  '--param',
  'cvv2=987',
  '--login',
  'merchant-test',
];
const PAYOUT_SIGN = [...PAYOUT, '--nonce', 'n-1', '--timestamp', '1700000000'];

describe('payconform sign', () => {
  it('signs a control endpoint: the digest sha1sum gives for the hand-written concatenation', async () => {
    // printf '%s' '9876A-712345jane@example.comTESTKEY-123' | sha1sum
    const r = await cli(['sign', ...SALE, '--json'], { PAYCONFORM_CONTROL_KEY: 'TESTKEY-123' });
    assert.equal(r.code, 0);
    const json = JSON.parse(r.out);
    assert.equal(json.control, '7bdd7979a5aed21b747e2c3084cb874ef842ed5d');
    assert.equal(json.controlInput, '9876A-712345jane@example.com<merchant_control_key>');
  });

  it('signs the HMAC-SHA1 payout as the oauth-sign package does', async () => {
    const r = await cli(['sign', ...PAYOUT_SIGN, '--control-key-file', keyFile, '--json', '--reveal-card-data']);
    assert.equal(r.code, 0, r.err);
    const peer = oauthSign.hmacsign(
      'POST',
      'https://sandbox.gateway.example/paynet/api/v2/payout/77',
      {
        client_orderid: 'P 1',
        amount: '100.00',
        credit_card_number: PAN,
        cvv2: '987',
        oauth_consumer_key: 'merchant-test',
        oauth_nonce: 'n-1',
        oauth_signature_method: 'HMAC-SHA1',
        oauth_timestamp: '1700000000',
        oauth_version: '1.0',
      },
      CONTROL_KEY,
      '',
    );
    assert.equal(JSON.parse(r.out).signature, peer);
  });

  it('masks card numbers and CVVs by default, everywhere they appear', async () => {
    const r = await cli(['sign', ...PAYOUT_SIGN, '--control-key-file', keyFile]);
    assert.equal(r.code, 0);
    assert.ok(!r.out.includes(PAN) && !r.out.includes('987'), r.out);
    assert.match(r.out, /411111%252A%252A%252A%252A%252A%252A1111/);
    assert.match(r.err, /masked/);
  });

  it('signs an RSA v4 endpoint exactly as openssl did (see test/signing/rsa.test.ts)', async () => {
    const r = await cli(
      [
        'sign',
        '--url',
        'https://Sandbox.Gateway.Example:443/paynet/api/v4/payout/1234',
        '--param',
        'client-order-id=PO-7',
        '--param',
        'amount=100',
        '--param',
        'currency=EUR',
        '--param',
        'order_desc=Payout #7 für Jörg',
        '--nonce',
        'n0nce/7',
        '--timestamp',
        '1700000000',
        '--json',
      ],
      { PAYCONFORM_LOGIN: 'merchant-test', PAYCONFORM_PRIVATE_KEY_FILE: privateKeyFile },
    );
    assert.equal(r.code, 0, r.err);
    assert.match(JSON.parse(r.out).signature, /^WD020CMzHzcLEbVhF4\/j73doW4Vzr8YF72H\+Fjqk87cVukvGVX29R/);
  });

  it('reads the body from a urlencoded file and uses endpoint group ids where allowed', async () => {
    const body = join(dir, 'body.txt');
    writeFileSync(body, 'client_orderid=A-7&amount=123.45&email=jane%40example.com\n');
    const r = await cli(
      [
        'sign',
        '--operation',
        'SALE',
        '--base-url',
        'https://sandbox.gateway.example/paynet',
        '--body-file',
        body,
        '--json',
      ],
      { PAYCONFORM_CONTROL_KEY: 'TESTKEY-123', PAYCONFORM_ENDPOINT_GROUP_ID: '9876' },
    );
    assert.equal(JSON.parse(r.out).control, '7bdd7979a5aed21b747e2c3084cb874ef842ed5d');
    // pan-eligibility/send: its public page lists …/ENDPOINTID only (A-3).
    const refused = await cli(
      [
        'sign',
        '--operation',
        'PAN_ELIGIBILITY_SEND',
        '--base-url',
        'https://h.example',
        '--endpoint-group-id',
        '5',
        '--param',
        'a=b',
      ],
      { PAYCONFORM_CONTROL_KEY: 'k' },
    );
    assert.equal(refused.code, 2);
    assert.match(
      refused.err,
      /^payconform sign: --endpoint-group-id: PAN_ELIGIBILITY_SEND does not accept an endpoint group id \(A-3: its public page lists no group URL\)$/,
    );
    // status: its public page lists …/status/group/ENDPOINTGROUPID; the group id is not in its formula (login + client_orderid + orderid).
    const status = await cli(
      [
        'sign',
        '--operation',
        'STATUS',
        '--base-url',
        'https://h.example',
        '--endpoint-group-id',
        '5',
        '--login',
        'L',
        '--param',
        'client_orderid=C',
        '--param',
        'orderid=9',
        '--json',
      ],
      { PAYCONFORM_CONTROL_KEY: 'k' },
    );
    assert.equal(status.code, 0, status.err);
    assert.equal(JSON.parse(status.out).control, createHash('sha1').update('LC9k').digest('hex'));
  });
});

describe('payconform verify', () => {
  it('exits 0 for a valid signature, 1 for a corrupted one', async () => {
    const signed = JSON.parse((await cli(['sign', ...PAYOUT_SIGN, '--control-key-file', keyFile, '--json'])).out);
    const ok = await cli(['verify', ...PAYOUT, '--control-key-file', keyFile, '--authorization', signed.authorization]);
    assert.equal(ok.code, 0, ok.out + ok.err);
    assert.match(ok.out, /verdict\s+valid/);
    const sig = Buffer.from(Buffer.from(signed.signature, 'base64').map((b) => b ^ 0x5a)).toString('base64');
    const broken = signed.authorization.replace(
      /oauth_signature="[^"]*"/,
      `oauth_signature="${encodeURIComponent(sig)}"`,
    );
    const bad = await cli(['verify', ...PAYOUT, '--control-key-file', keyFile, '--authorization', broken]);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /invalid \(mismatch\)/);
    assert.match(bad.out, /baseString\s+POST&/);
  });

  it('verifies RSA with the public key and a control from the form body', async () => {
    const args = ['--url', 'https://h.example/api/v4/create-card-ref/3', '--param', 'x=1', '--login', 'm'];
    const signed = JSON.parse((await cli(['sign', ...args, '--private-key-file', privateKeyFile, '--json'])).out);
    const ok = await cli([
      'verify',
      ...args,
      '--public-key-file',
      publicKeyFile,
      '--authorization',
      signed.authorization,
      '--json',
    ]);
    assert.equal(ok.code, 0);
    assert.equal(JSON.parse(ok.out).valid, true);
    const control = await cli(['verify', ...SALE, '--param', 'control=7bdd7979a5aed21b747e2c3084cb874ef842ed5d'], {
      PAYCONFORM_CONTROL_KEY: 'TESTKEY-123',
    });
    assert.equal(control.code, 0);
    const wrong = await cli(['verify', ...SALE, '--control', '7bdd7979a5aed21b747e2c3084cb874ef842ed5e'], {
      PAYCONFORM_CONTROL_KEY: 'TESTKEY-123',
    });
    assert.equal(wrong.code, 1);
  });
});

describe('payconform explain', () => {
  it('shows every step with the key as a placeholder, as text and JSON', async () => {
    const text = await cli(['explain', ...SALE, '--control-key-file', keyFile]);
    assert.equal(text.code, 0);
    for (const step of [
      'Control formula',
      'integer cents',
      '"123.45" → 12345',
      'concatenation',
      '<merchant_control_key>',
      'SHA-1',
    ])
      assert.ok(text.out.includes(step), step);
    const json = JSON.parse((await cli(['explain', ...PAYOUT_SIGN, '--control-key-file', keyFile, '--json'])).out);
    assert.deepEqual(
      json.steps.map((s: { step: string }) => s.step),
      [
        'endpoint',
        'url',
        'protocol-params',
        'body-params',
        'sorted-pairs',
        'normalized-params',
        'base-string',
        'key',
        'signature',
        'authorization',
      ],
    );
    assert.equal(json.steps.find((s: { step: string }) => s.step === 'key').value, 'enc(<merchant_control_key>)&');
  });
});

describe('payconform keygen', () => {
  it('writes a 2048-bit pair, private key mode 600, and never overwrites without --force', async () => {
    const prefix = join(dir, 'k');
    const r = await cli(['keygen', '--out', prefix]);
    assert.equal(r.code, 0, r.err);
    const key = createPrivateKey(readFileSync(`${prefix}.pem`, 'utf8'));
    assert.equal(key.asymmetricKeyDetails?.modulusLength, 2048);
    assert.equal(statSync(`${prefix}.pem`).mode & 0o777, 0o600);
    assert.match(readFileSync(`${prefix}.pub.pem`, 'utf8'), /BEGIN PUBLIC KEY/);
    const again = await cli(['keygen', '--out', prefix]);
    assert.equal(again.code, 2);
    assert.match(again.err, /exists; choose another --out or pass --force/);
    assert.equal((await cli(['keygen', '--bits', '1024', '--out', join(dir, 'small')])).code, 2);
  });
});

describe('bad input: one line naming the problem, exit 2', () => {
  const cases: Array<[string, string[], Record<string, string>, RegExp]> = [
    ['unknown option', ['sign', '--bogus'], {}, /Unknown option '--bogus'/],
    ['no request', ['sign'], {}, /--url: required/],
    ['both --url and --operation', ['sign', ...SALE, '--operation', 'SALE'], {}, /give either --url or --operation/],
    [
      'unknown operation',
      ['sign', '--operation', 'REFUND', '--base-url', 'https://h'],
      {},
      /operation: "REFUND" is not in the catalogue/,
    ],
    [
      'bad amount',
      ['sign', ...SALE.slice(0, 4), '--param', 'amount=1,000.00', '--param', 'email=e'],
      { PAYCONFORM_CONTROL_KEY: 'k' },
      /amount: thousands separators/,
    ],
    ['bad endpoint id', ['sign', '--url', 'https://h/api/v2/sale/-4'], {}, /endpointId: must be a positive int64/],
    ['unknown path', ['sign', '--url', 'https://h/api/v2/refund/4'], {}, /matches no catalogue endpoint/],
    ['missing control key', ['sign', ...SALE], {}, /control key: missing \(give --control-key-file/],
    [
      'unreadable key file',
      ['sign', ...SALE, '--control-key-file', '/nonexistent/k'],
      {},
      /--control-key-file: cannot read \/nonexistent\/k \(ENOENT\)/,
    ],
    [
      'public key given as private',
      ['sign', '--url', 'https://h/api/v4/payout/1', '--login', 'm', '--private-key-file', publicKeyFile],
      {},
      /private key: is a public key/,
    ],
    [
      'unstated scheme',
      ['sign', '--url', 'https://h/api/v2/payment-form/1'],
      {},
      /PAYMENTFORM has no authentication stated/,
    ],
    ['param without =', ['sign', ...SALE, '--param', 'oops'], {}, /--param: "oops" must be written name=value/],
    [
      'bad timestamp',
      ['sign', ...PAYOUT, '--timestamp', 'soon'],
      { PAYCONFORM_CONTROL_KEY: 'k' },
      /timestamp: must be whole seconds/,
    ],
    ['unknown command', ['frobnicate'], {}, /unknown command "frobnicate"/],
  ];
  for (const [what, args, env, message] of cases) {
    it(what, async () => {
      const r = await cli(args, env);
      assert.equal(r.code, 2, `${r.out}${r.err}`);
      assert.match(r.err, message);
      assert.equal(r.err.split('\n').length, 1, r.err);
    });
  }
});

describe('the installed command (bin/payconform.js)', () => {
  const bin = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(root, 'bin/payconform.js'), ...args], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', ...env },
    });

  it('prints help for every command and exits 0', () => {
    for (const command of ['sign', 'verify', 'explain', 'keygen', 'catalogue']) {
      const r = bin([command, '--help']);
      assert.equal(r.status, 0, command);
      assert.match(r.stdout, new RegExp(`^Usage: payconform ${command}`));
    }
    assert.match(bin(['--help']).stdout, /Commands:/);
  });

  it('exits 2 with one line and no stack trace on bad input, and 1 on an invalid signature', () => {
    const r = bin(['sign', '--url', 'https://h/api/v2/sale/1', '--param', 'amount=1e3'], {
      PAYCONFORM_CONTROL_KEY: CONTROL_KEY,
    });
    assert.equal(r.status, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.equal(r.stdout, '');
    const v = bin(['verify', ...SALE, '--control', 'f'.repeat(40)], { PAYCONFORM_CONTROL_KEY: CONTROL_KEY });
    assert.equal(v.status, 1);
    assertNoSecrets({ out: r.stdout + v.stdout, err: r.stderr + v.stderr });
  });

  it('prints the catalogue', () => {
    const r = bin(['catalogue', '--json']);
    assert.equal(JSON.parse(r.stdout).length, ENDPOINTS.length);
  });
});

// Keep the import of createHmac honest: the HMAC key form is enc(key)&, checked against node:crypto directly.
describe('HMAC key form', () => {
  it('is the control key followed by & when the key needs no encoding', async () => {
    const r = JSON.parse(
      (await cli(['explain', ...PAYOUT_SIGN, '--control-key-file', keyFile, '--json', '--reveal-card-data'])).out,
    );
    const base = r.steps.find((s: { step: string }) => s.step === 'base-string').value;
    assert.equal(r.expected.signature, createHmac('sha1', `${CONTROL_KEY}&`).update(base).digest('base64'));
  });
});

describe('the command list: each command loaded when it runs', () => {
  it("every command the overview lists answers --help under that name, and --version prints package.json's", async () => {
    const overview = await cli(['--help']);
    const names = overview.out
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim().split(/\s{2,}/)[0]);
    assert.ok(names.length >= 14, overview.out);
    for (const name of names) {
      const help = await cli([...name!.split(' '), '--help']);
      assert.equal(help.code, 0, name);
      assert.match(help.out, new RegExp(`^Usage: payconform ${name}( |$)`, 'm'), name);
    }
    const version = await cli(['--version']);
    assert.deepEqual(
      [version.code, version.out.trim()],
      [0, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version],
    );
  });
});
