// Run hygiene of certify: what a person can get wrong is one line and exit 2 before anything is
// made or sent; an interrupted run says so and leaves a bundle that cannot pass for a complete one.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../src/gateway/merchants.ts';

const bin = new URL('../../bin/payconform.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'payconform-hygiene-'));
const merchant = testMerchant();
const gateway = {
  PAYCONFORM_ENDPOINT_ID: merchant.endpointIds[0],
  PAYCONFORM_LOGIN: merchant.login,
  PAYCONFORM_CONTROL_KEY: merchant.merchantControlKey,
  PAYCONFORM_PRIVATE_KEY_FILE: TEST_MERCHANT_PRIVATE_KEY_FILE,
};
let garbage: Server;
let garbagePort = 0;

before(async () => {
  // A peer that does not speak HTTP: it answers any connection with a line of noise.
  garbage = createServer((socket) => socket.end('220 smtp.example ESMTP ready\r\n'));
  await new Promise<void>((resolve) => garbage.listen(0, '127.0.0.1', resolve));
  garbagePort = (garbage.address() as AddressInfo).port;
});
after(() => {
  garbage.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/** certify as a child process (async: some tests answer it from this one); `onOut` sees stdout as it comes. */
function certify(
  args: string[],
  env: Record<string, string | undefined> = { CI: 'true' },
  onOut?: (out: string, child: ReturnType<typeof spawn>) => void,
): Promise<Ran> {
  const child = spawn(process.execPath, [bin, 'certify', ...args], {
    env: { ...process.env, CI: undefined, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
    onOut?.(out, child);
  });
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out, err })));
}

/** Exit 2, one line naming `field`, no stack, and no report folder left. */
function refused(r: Ran, field: string, report: string): void {
  assert.equal(r.code, 2, r.err + r.out);
  const lines = r.err
    .trim()
    .split('\n')
    .filter((l) => !l.startsWith('certify: LIVE run'));
  assert.equal(lines.length, 1, r.err);
  assert.match(lines[0]!, new RegExp(`^payconform certify: ${field.replace(/[-]/g, '\\-')}`));
  assert.doesNotMatch(r.err, /\n\s+at /);
  assert.equal(existsSync(report), false, `${report} was made`);
}

describe('certify refuses before anything runs', () => {
  it('a selection of no scenario', async () => {
    const report = join(dir, 'nothing');
    refused(
      await certify(['--tags', '@nothing', '--report-dir', report]),
      '--tags: "@nothing" selects no scenario',
      report,
    );
    refused(
      await certify(['--tags', '@endpoint:CARDINFO and @positive', '--shard', '2/2', '--report-dir', report]),
      '--shard: shard 2/2 of the 1 selected scenarios is empty',
      report,
    );
  });

  it('a malformed tag expression', async () => {
    const report = join(dir, 'malformed');
    refused(
      await certify(['--tags', '@a and', '--report-dir', report]),
      '--tags: "@a and" is not a tag expression',
      report,
    );
  });

  it('a report folder that is a file, or inside one', async () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const r = await certify(['--tags', '@endpoint:SALE and @positive', '--report-dir', file]);
    assert.equal(r.code, 2);
    assert.equal(r.err.trim(), `payconform certify: --report-dir: ${file} is a file; give a folder`);
    refused(
      await certify(['--tags', '@endpoint:SALE and @positive', '--report-dir', join(file, 'sub')]),
      '--report-dir: cannot use',
      join(file, 'sub'),
    );
  });

  it('a base URL that refuses connections, or does not speak HTTP', async () => {
    const report = join(dir, 'unreachable');
    const closed = await certify(['--base-url', 'http://127.0.0.1:9/paynet', '--report-dir', report], {
      CI: 'true',
      ...gateway,
    });
    refused(
      closed,
      '--base-url http://127.0.0.1:9/paynet: not reachable \\(ECONNREFUSED\\); no scenario was run',
      report,
    );
    const noise = await certify(['--base-url', `http://127.0.0.1:${garbagePort}`, '--report-dir', report], {
      CI: 'true',
      ...gateway,
    });
    refused(noise, `--base-url http://127.0.0.1:${garbagePort}: does not answer HTTP`, report);
  });

  it('a live run with no terminal to confirm on, unless --yes or CI=true', async () => {
    const report = join(dir, 'live');
    const r = await certify(['--base-url', 'http://127.0.0.1:9', '--live', '--report-dir', report], { ...gateway });
    refused(r, '--live: no terminal to confirm on: add --yes', report);
    // With --yes it goes on, to the next check (here: nothing answers).
    refused(
      await certify(['--base-url', 'http://127.0.0.1:9', '--live', '--yes', '--report-dir', report], { ...gateway }),
      '--base-url http://127.0.0.1:9: not reachable',
      report,
    );
  });
});

describe('an interrupted run', () => {
  for (const [signal, parallel] of [
    ['SIGINT', '0'],
    ['SIGTERM', '2'],
  ] as const) {
    it(`${signal} (--parallel ${parallel}): says so, exits 130, and leaves a bundle that says interrupted`, async () => {
      const report = join(dir, `interrupted-${signal}`);
      let sent = false;
      const r = await certify(['--report-dir', report, '--parallel', parallel], { CI: 'true' }, (out, child) => {
        // Some scenarios in: outside a terminal the progress is a line at every tenth of the run.
        if (!sent && /certify: \d+\/\d+ scenarios/.test(out)) {
          sent = true;
          child.kill(signal);
        }
      });
      assert.equal(r.code, 130, r.err);
      const line = /interrupted after (\d+) of (\d+) scenarios/.exec(r.err);
      assert.ok(line, r.err);
      assert.ok(Number(line[1]) < Number(line[2]), r.err);
      const summary = JSON.parse(readFileSync(join(report, 'summary.json'), 'utf8'));
      assert.equal(summary.status, 'interrupted');
      assert.equal(summary.totals.passed + summary.totals.failed + summary.totals.other, Number(line[1]));
      const files = readdirSync(report).sort();
      // The certification page says INTERRUPTED; cucumber's page and junit.xml, written only at the end, are not there.
      assert.deepEqual(files, ['manifest.json', 'messages.ndjson', 'report.html', 'summary.json']);
      assert.match(
        readFileSync(join(report, 'report.html'), 'utf8'),
        /<p id="verdict" class="v-interrupted">INTERRUPTED — /,
      );
      for (const f of files) assert.ok(readFileSync(join(report, f)).length > 0, `${f} is empty`);
      const manifest = JSON.parse(readFileSync(join(report, 'manifest.json'), 'utf8'));
      assert.deepEqual(
        manifest.files.map((f: { path: string }) => f.path),
        ['messages.ndjson', 'report.html', 'summary.json'],
      );
      for (const l of readFileSync(join(report, 'messages.ndjson'), 'utf8').trim().split('\n')) JSON.parse(l);
    });
  }
});
