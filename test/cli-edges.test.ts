// The command line's rough edges (issue 17), each as a user met it: the command, what it said, and
// what it says now. Runs the CLI in-process (test/support/cli.ts) except where a process is the point.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readMerchants, testMerchant } from '../src/gateway/merchants.ts';
import { startMock } from '../src/mock/server.ts';
import { checkRequestFields } from '../src/schemas/index.ts';
import { runCli } from './support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-edges-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const key = join(dir, 'key.txt');
writeFileSync(key, 'TEST-edge-key');
const SALE = [
  '--operation',
  'SALE',
  '--base-url',
  'https://sandbox.example/paynet',
  '--endpoint-id',
  '9876',
  '--control-key-file',
  key,
];
const FIELDS = ['--param', 'client_orderid=A-7', '--param', 'amount=123.45', '--param', 'email=jane@example.com'];

/** Exit 2 with exactly this one line. */
async function refuses(args: string[], line: string | RegExp): Promise<void> {
  const r = await runCli(args);
  assert.equal(r.code, 2, `${args.join(' ')}\n${r.out}${r.err}`);
  assert.equal(r.err.trim().split('\n').length, 1, r.err);
  if (typeof line === 'string') assert.equal(r.err.trim(), line);
  else assert.match(r.err.trim(), line);
}

describe('CLI rough edges', () => {
  it('a body file with raw non-UTF-8 bytes is refused as a malformed %-escape is, not signed as U+FFFD', async () => {
    const raw = join(dir, 'raw.txt');
    const escaped = join(dir, 'escaped.txt');
    writeFileSync(
      raw,
      Buffer.concat([Buffer.from('client_orderid=A-7&amount=1.00&email=a%40b.c&order_desc=caf'), Buffer.from([0xe9])]),
    );
    writeFileSync(escaped, 'client_orderid=A-7&amount=1.00&email=a%40b.c&order_desc=caf%E9');
    await refuses(
      ['sign', ...SALE, '--body-file', raw],
      `payconform sign: --body-file: ${raw} has bytes that are not UTF-8 (first at byte 59)`,
    );
    await refuses(
      ['sign', ...SALE, '--body-file', escaped],
      'payconform sign: --body-file (parameter 4): has a malformed percent-escape or bytes that are not UTF-8',
    );
  });

  it('signs an endpoint-group URL with the group id where the formula names the endpointId (hand-computed SHA-1)', async () => {
    const r = await runCli([
      'sign',
      '--url',
      'https://sandbox.example/paynet/api/v2/sale/group/4343',
      ...FIELDS,
      '--control-key-file',
      key,
    ]);
    assert.equal(r.code, 0, r.err);
    const byHand = createHash('sha1')
      .update('4343' + 'A-7' + '12345' + 'jane@example.com' + 'TEST-edge-key')
      .digest('hex');
    assert.match(r.out, new RegExp(`control\\s+${byHand}`));
  });

  it('an unknown operation suggests the nearest name and points at the catalogue', async () => {
    await refuses(
      ['sign', ...SALE.slice(2), '--operation', 'SALES', ...FIELDS],
      'payconform sign: operation: "SALES" is not in the catalogue; did you mean SALE? (`payconform catalogue` lists every operation)',
    );
    await refuses(['explain', ...SALE.slice(2), '--operation', 'payout-v4'], /did you mean PAYOUT_V4\?/);
    await refuses(
      ['sign', ...SALE.slice(2), '--operation', 'REFUND'],
      'payconform sign: operation: "REFUND" is not in the catalogue (`payconform catalogue` lists every operation)',
    );
  });

  it('negative numbers are values that the option\'s rule refuses, not "ambiguous" options', async () => {
    await refuses(
      ['inspect', '--duration', '-5'],
      'payconform inspect: --duration: must be a whole number from 1 to 86400',
    );
    await refuses(
      ['certify', '--parallel', '-1'],
      'payconform certify: --parallel: must be a whole number from 0 to 99',
    );
    await refuses(
      ['mock', '--window-seconds', '-3'],
      'payconform mock: --window-seconds: must be a whole number from 1 to 86400',
    );
  });

  it('`payconform vectors` alone lists its commands', async () => {
    await refuses(
      ['vectors'],
      'payconform vectors: give one of its commands: generate, check, explain, pack (payconform vectors <command> --help)',
    );
  });

  it('diagnose of a control that is no SHA-1 digest says it is malformed, as verify does', async () => {
    const r = await runCli(['diagnose', ...SALE, ...FIELDS, '--control', 'nothex']);
    assert.equal(r.code, 1);
    // The control-format rule's words, the same line verify prints.
    assert.match(r.out, /control: must appear once, as 40 lowercase hex digits \(SHA-1\)/);
    const verified = await runCli(['verify', ...SALE, ...FIELDS, '--control', 'nothex']);
    assert.match(verified.out + verified.err, /control: must appear once, as 40 lowercase hex digits \(SHA-1\)/);
    // A digest in another encoding is still diagnosed (its mistake has an id).
    const upper = createHash('sha1').update('9876A-712345jane@example.comTEST-edge-key').digest('hex').toUpperCase();
    assert.match((await runCli(['diagnose', ...SALE, ...FIELDS, '--control', upper])).out, /uppercase-hex/);
  });

  it('an empty --control-key-file is said to be empty, not missing', async () => {
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, '\n');
    await refuses(
      ['sign', ...SALE.slice(0, -1), empty, ...FIELDS],
      `payconform sign: --control-key-file: ${empty} is empty; it must hold the merchant control key`,
    );
  });

  it('--method must be an HTTP token; a timestamp in milliseconds is signed with a warning', async () => {
    await refuses(
      ['sign', ...SALE, ...FIELDS, '--method', 'P OST'],
      'payconform sign: --method: "P OST" is not an HTTP method (a token such as POST)',
    );
    const ms = await runCli([
      'sign',
      '--operation',
      'PAYOUT',
      '--base-url',
      'https://sandbox.example/paynet',
      '--endpoint-id',
      '77',
      '--login',
      'm',
      '--control-key-file',
      key,
      '--nonce',
      'n',
      '--timestamp',
      '1700000000000',
    ]);
    assert.equal(ms.code, 0);
    assert.match(
      ms.err,
      /^warning: --timestamp 1700000000000 looks like milliseconds; oauth_timestamp is in seconds \(1700000000\?\)/,
    );
    assert.equal(
      (
        await runCli([
          'sign',
          '--operation',
          'PAYOUT',
          '--base-url',
          'https://sandbox.example/paynet',
          '--endpoint-id',
          '77',
          '--login',
          'm',
          '--control-key-file',
          key,
          '--timestamp',
          '1700000000',
        ])
      ).err,
      '',
    );
  });

  it('keygen --out naming a folder writes payconform-key.pem in it, not hidden files', async () => {
    const keys = join(dir, 'keys');
    mkdirSync(keys);
    assert.equal((await runCli(['keygen', '--out', `${keys}/`])).code, 0);
    assert.deepEqual(readdirSync(keys).sort(), ['payconform-key.pem', 'payconform-key.pub.pem']);
    await refuses(
      ['keygen', '--out', keys],
      `payconform keygen: --out: ${join(keys, 'payconform-key.pem')} exists; choose another --out or pass --force`,
    );
  });

  it("verify's and explain's help show their own examples; inspect's usage names --window-seconds", async () => {
    for (const command of ['sign', 'verify', 'explain']) {
      const help = (await runCli([command, '--help'])).out;
      const examples = help.slice(help.indexOf('Examples:'));
      assert.equal(
        (examples.match(/payconform \w+/g) ?? []).every((m) => m === `payconform ${command}`),
        true,
        `${command}: ${examples}`,
      );
    }
    assert.match((await runCli(['verify', '--help'])).out, /--control [0-9a-f]{40}/);
    assert.match((await runCli(['inspect', '--help'])).out, /^Usage: payconform inspect .*\[--window-seconds S\]/m);
  });

  it('every missing field is named at once', () => {
    const problem = checkRequestFields('SaleRequest', [
      ['client_orderid', 'A-7'],
      ['amount', '1.00'],
    ]);
    assert.equal(problem?.code, 'FIELD_MISSING');
    assert.match(
      problem.message,
      /^currency, [a-z_0-9, ]+, credit_card_number, [a-z_0-9, ]+: are required by SaleRequest$/,
    );
    assert.equal(
      checkRequestFields('CreateCardRefRequest', [
        ['client_orderid', 'A-7'],
        ['login', 'm'],
      ])?.message,
      'orderid: is required by CreateCardRefRequest',
    );
    // A status may name its order by client_orderid alone.
    assert.equal(
      checkRequestFields('StatusRequest', [
        ['client_orderid', 'A-7'],
        ['login', 'm'],
      ]),
      undefined,
    );
  });

  it('a control-only merchant needs no publicKeyPem; one without a key cannot pass an RSA signature', () => {
    const file = join(dir, 'merchants.json');
    writeFileSync(
      file,
      JSON.stringify([{ login: 'control-only', merchantControlKey: 'k', endpointIds: [4321], endpointGroupIds: [] }]),
    );
    const [merchant] = readMerchants(file);
    assert.equal(merchant!.publicKeyPem, undefined);
    writeFileSync(
      file,
      JSON.stringify([
        { login: 'bad', merchantControlKey: 'k', publicKeyPem: '', endpointIds: [1], endpointGroupIds: [] },
      ]),
    );
    assert.throws(() => readMerchants(file), {
      code: 'ERR_MERCHANTS',
      message: new RegExp(`/0/publicKeyPem: must be a PEM public key, or left out`),
    });
    assert.ok(testMerchant().publicKeyPem);
  });

  it('send says a refusal with a status the spec does not list is not a breach of the spec', async () => {
    const mock = await startMock({ prefix: '/paynet' });
    try {
      const m = testMerchant();
      writeFileSync(key, m.merchantControlKey);
      const r = await runCli([
        'send',
        'STATUS',
        '--base-url',
        `${mock.url}/elsewhere`,
        '--endpoint-id',
        m.endpointIds[0]!,
        '--login',
        m.login,
        '--control-key-file',
        key,
        '--param',
        'client_orderid=A-1',
        '--param',
        'orderid=1',
      ]);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /^HTTP 404 /m);
      assert.match(
        r.out,
        /the answer breaks nothing the spec states; HTTP 404 is not among the statuses the spec lists for this endpoint \(200, 400, 500\): a refusal it does not describe \(A-21\)$/m,
      );
      assert.doesNotMatch(r.out, /problem \(spec\)/);
    } finally {
      writeFileSync(key, 'TEST-edge-key');
      await mock.close();
    }
  });
});
