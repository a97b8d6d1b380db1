// Hostile and mistaken inputs of issue 27, through the built command line, each in a fresh folder:
// the exit code, one line naming the field and the rule, never an internal error or a stack, the
// class name never shown, and nothing left behind that the command did not mean to write.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = new URL('../bin/payconform.js', import.meta.url).pathname;
const keyFile = new URL('../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), 'payconform-hostile-'));
after(() => rmSync(root, { recursive: true, force: true }));

interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  /** Makes what the case needs inside its folder (the command runs there). */
  readonly setup?: (cwd: string) => void;
  readonly exit: number;
  /** Matched against the one line the command prints (stderr for exit 2, else stdout's last line). */
  readonly says: RegExp;
}

const gateway = { PAYCONFORM_LOGIN: 'l', PAYCONFORM_CONTROL_KEY: 'k', PAYCONFORM_PRIVATE_KEY_FILE: keyFile };
const project = (cwd: string): void => {
  mkdirSync(join(cwd, 'src'));
  writeFileSync(join(cwd, 'package.json'), '{}');
};
/** The four files an inspect run writes, in r/. */
const earlierInspect = (cwd: string): void => {
  mkdirSync(join(cwd, 'r'));
  for (const name of ['report.html', 'report.json', 'junit.xml', 'manifest.json'])
    writeFileSync(join(cwd, 'r', name), 'earlier');
};
const bundleWith = (cwd: string, make: (d: string) => void): void => {
  mkdirSync(join(cwd, 'b'));
  writeFileSync(join(cwd, 'b', 'summary.json'), '{"status":"failed"}');
  make(join(cwd, 'b'));
};

const CASES: readonly Case[] = [
  {
    name: 'vectors pack --force on a project folder',
    setup: project,
    args: ['vectors', 'pack', '--operation', 'STATUS', '--out', '.', '--force'],
    env: gateway,
    exit: 2,
    says: /--out: \. is not empty and holds no payconform pack/,
  },
  {
    name: 'certify --report-dir . in a project folder',
    setup: project,
    args: ['certify', '--report-dir', '.', '--force'],
    exit: 2,
    says: /--report-dir: \. is not empty and is not a certify bundle/,
  },
  {
    name: 'PAYCONFORM_ENDPOINT_ID=abc',
    args: ['certify', '--base-url', 'http://127.0.0.1:9/paynet'],
    env: { ...gateway, PAYCONFORM_ENDPOINT_ID: 'abc' },
    exit: 2,
    says: /^payconform certify: PAYCONFORM_ENDPOINT_ID: must be a positive int64/,
  },
  {
    name: 'every missing PAYCONFORM_* variable at once',
    args: ['certify', '--base-url', 'http://127.0.0.1:9/paynet'],
    exit: 2,
    says: /PAYCONFORM_ENDPOINT_ID, PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE: missing/,
  },
  {
    name: '--base-url http:/x',
    args: ['certify', '--base-url', 'http:/x'],
    exit: 2,
    says: /--base-url: http:\/x is a malformed URL/,
  },
  {
    name: 'send --timeout-ms 1e20',
    args: ['send', 'STATUS', '--base-url', 'http://127.0.0.1:9/paynet', '--endpoint-id', '1', '--timeout-ms', '1e20'],
    exit: 2,
    says: /--timeout-ms: must be a whole number from 1 to 86400000/,
  },
  {
    name: "send --timeout-ms 99999999999 (past Node's timer limit)",
    args: [
      'send',
      'STATUS',
      '--base-url',
      'http://127.0.0.1:9/paynet',
      '--endpoint-id',
      '1',
      '--timeout-ms',
      '99999999999',
    ],
    exit: 2,
    says: /--timeout-ms: must be a whole number from 1 to 86400000/,
  },
  {
    name: 'verify --control with --authorization',
    args: [
      'verify',
      '--url',
      'https://s.example/paynet/api/v2/sale/1',
      '--param',
      'a=b',
      '--control',
      'ab',
      '--authorization',
      'OAuth x',
    ],
    exit: 2,
    says: /^payconform verify: --control: give either --control or --authorization, not both$/m,
  },
  {
    name: 'diagnose --control with --authorization',
    args: [
      'diagnose',
      '--url',
      'https://s.example/paynet/api/v2/sale/1',
      '--control',
      'ab',
      '--authorization',
      'OAuth x',
    ],
    exit: 2,
    says: /--control: give either --control or --authorization, not both/,
  },
  {
    name: 'diagnose --request-file with --url',
    args: ['diagnose', '--request-file', 'req.txt', '--url', 'https://s.example/paynet/api/v2/sale/1'],
    exit: 2,
    says: /--request-file: give either --request-file or --url, not both/,
  },
  {
    name: 'diagnose --request-file with --param',
    args: ['diagnose', '--request-file', 'req.txt', '--param', 'amount=1'],
    exit: 2,
    says: /--request-file: give either --request-file or --param, not both/,
  },
  {
    name: "keygen --out ''",
    args: ['keygen', '--out', ''],
    exit: 2,
    says: /--out: must name a file prefix or a folder, not be empty/,
  },
  {
    name: 'vectors check of a binary file',
    setup: (cwd) => writeFileSync(join(cwd, 'bin.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x80])),
    args: ['vectors', 'check', 'bin.dat'],
    exit: 2,
    says: /bin\.dat: is not UTF-8 text \(first at byte 0\)/,
  },
  {
    name: 'bundle verify of a folder that is no bundle',
    setup: project,
    args: ['bundle', 'verify', '.'],
    exit: 2,
    says: /DIR: \. has no manifest\.json: not a payconform bundle/,
  },
  {
    name: 'bundle verify: a FIFO in place of the manifest',
    setup: (cwd) => bundleWith(cwd, (d) => execFileSync('mkfifo', [join(d, 'manifest.json')])),
    args: ['bundle', 'verify', 'b', '--integrity-only'],
    exit: 1,
    says: /^NOT INTACT: b: manifest\.json: not a manifest/,
  },
  {
    name: 'bundle verify: the manifest a link to /dev/zero',
    setup: (cwd) => bundleWith(cwd, (d) => symlinkSync('/dev/zero', join(d, 'manifest.json'))),
    args: ['bundle', 'verify', 'b', '--integrity-only'],
    exit: 1,
    says: /^NOT INTACT: b: manifest\.json: not a manifest/,
  },
  {
    name: 'bundle verify: an unreadable trusted-keys variable',
    setup: (cwd) => bundleWith(cwd, (d) => writeFileSync(join(d, 'manifest.json'), '{"files":[]}')),
    args: ['bundle', 'verify', 'b'],
    env: { PAYCONFORM_TRUSTED_KEYS: 'nowhere.pem' },
    exit: 2,
    says: /PAYCONFORM_TRUSTED_KEYS: cannot read nowhere\.pem \(ENOENT\)/,
  },
  {
    name: 'inspect --upstream where nothing listens',
    args: ['inspect', '--upstream', 'http://127.0.0.1:9', '--duration', '60'],
    exit: 2,
    says: /^payconform inspect: --upstream http:\/\/127\.0\.0\.1:9: not reachable \(ECONNREFUSED\); start the sandbox or fix the URL$/m,
  },
  {
    name: 'inspect --report-dir . in a project folder',
    setup: project,
    args: ['inspect', '--report-dir', '.', '--duration', '60'],
    exit: 2,
    says: /--report-dir: \. is not empty and is not an inspect report \(it holds package\.json\)/,
  },
  {
    name: 'inspect --report-dir . --force in a project folder',
    setup: project,
    args: ['inspect', '--report-dir', '.', '--force', '--duration', '60'],
    exit: 2,
    says: /--report-dir: \. is not empty and is not an inspect report/,
  },
  {
    name: 'inspect --report-dir of an earlier inspect run, no --force',
    setup: earlierInspect,
    args: ['inspect', '--report-dir', 'r', '--duration', '60'],
    exit: 2,
    says: /^payconform inspect: --report-dir: r holds an earlier run; choose another --report-dir or pass --force to replace its files$/m,
  },
  {
    name: 'bundle merge of one folder that is no shard',
    setup: project,
    args: ['bundle', 'merge', '.', '--out', 'merged'],
    exit: 2,
    says: /DIR: \. has no manifest\.json: not a payconform bundle/,
  },
];

describe('hostile and mistaken inputs', () => {
  for (const c of CASES) {
    it(`${c.name}: exit ${c.exit}, one line, nothing left behind`, () => {
      const cwd = mkdtempSync(join(root, 'case-'));
      c.setup?.(cwd);
      const before = readdirSync(cwd, { recursive: true }).sort();
      const r = spawnSync(process.execPath, [bin, ...c.args], {
        cwd,
        encoding: 'utf8',
        timeout: 20_000,
        env: { PATH: process.env.PATH ?? '', CI: 'true', ...c.env },
      });
      assert.notEqual(r.status, null, 'killed by the timeout: it hung');
      assert.equal(r.status, c.exit, r.stdout + r.stderr);
      const line = c.exit === 2 ? r.stderr : r.stdout;
      assert.equal(line.trim().split('\n').length, 1, line);
      assert.match(line, c.says);
      assert.doesNotMatch(r.stdout + r.stderr, /internal error|PayconformError|\n\s+at /);
      // Refused input is refused before anything starts: a listener never says it listens.
      if (c.exit === 2) assert.doesNotMatch(r.stdout, /listening on/);
      assert.deepEqual(readdirSync(cwd, { recursive: true }).sort(), before, 'nothing written, nothing removed');
    });
  }

  it('--param with a byte that is not UTF-8 (a Latin-1 é from the shell): refused as --body-file refuses it, exit 2, one line', () => {
    const cwd = mkdtempSync(join(root, 'latin1-'));
    writeFileSync(join(cwd, 'key.txt'), 'K');
    // printf writes the raw byte 0xE9; Node would read it as U+FFFD and sign that in its place.
    const r = spawnSync(
      'sh',
      [
        '-c',
        'exec "$0" "$1" sign --url https://s.example/paynet/api/v2/sale/1 --param client_orderid=A --param amount=1.00 --param "$(printf \'email=a\\351\')" --control-key-file key.txt',
        process.execPath,
        bin,
      ],
      { cwd, encoding: 'utf8', timeout: 20_000 },
    );
    assert.equal(r.status, 2, r.stdout + r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /^payconform sign: --param: email has bytes that are not UTF-8/);
    assert.equal(r.stdout, '');
  });

  it('explain of a request with 200,000 fields works (it overflowed the stack) and signs what a hand computation gives', () => {
    const cwd = mkdtempSync(join(root, 'big-'));
    const fields = Array.from({ length: 200_000 }, (_, i) => `p${i}=1`).join('&');
    writeFileSync(join(cwd, 'body.txt'), `client_orderid=A&amount=1.00&email=a@b.c&${fields}`);
    writeFileSync(join(cwd, 'key.txt'), 'K');
    const r = spawnSync(
      process.execPath,
      [
        bin,
        'explain',
        '--url',
        'https://s.example/paynet/api/v2/sale/1',
        '--body-file',
        'body.txt',
        '--control-key-file',
        'key.txt',
      ],
      { cwd, encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 },
    );
    assert.equal(r.status, 0, r.stderr);
    // SALE: SHA-1(endpointId + client_orderid + amount in cents + email + key), by hand.
    assert.ok(r.stdout.includes(createHash('sha1').update('1A100a@b.cK').digest('hex')), r.stdout.slice(-500));
  });
});
