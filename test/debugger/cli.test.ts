// `payconform debugger`: --out writes the built page and replaces only a debugger page it wrote; without
// --out it serves the page on 127.0.0.1 and prints its URL. Needs `npm run build` (the page is built there).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../../src/cli/main.ts';
import { PAGE_FILE } from '../../src/debugger/page-file.ts';
import { runCli } from '../support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'payconform-debugger-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('payconform debugger', () => {
  let built = '';
  before(() => {
    built = readFileSync(PAGE_FILE, 'utf8'); // run npm run build first
  });

  it('--out writes the page, and replaces it only with --force', async () => {
    const out = join(dir, 'page.html');
    assert.deepEqual(await runCli(['debugger', '--out', out]), { code: 0, out: '', err: `wrote ${out}\n` });
    assert.equal(readFileSync(out, 'utf8'), built);
    const again = await runCli(['debugger', '--out', out]);
    assert.deepEqual(
      [again.code, again.err],
      [2, `payconform debugger: --out: ${out} exists; choose another --out or pass --force\n`],
    );
    writeFileSync(out, built.replace('<title>', '<title>old '));
    assert.equal((await runCli(['debugger', '--out', out, '--force'])).code, 0);
    assert.equal(readFileSync(out, 'utf8'), built);
  });

  it('--force leaves a file that is no debugger page alone', async () => {
    const mine = join(dir, 'notes.html');
    writeFileSync(mine, '<!doctype html><title>my notes</title>');
    const r = await runCli(['debugger', '--out', mine, '--force']);
    assert.equal(r.code, 2);
    assert.equal(
      r.err,
      `payconform debugger: --out: ${mine} is not a debugger page payconform wrote; --force replaces only one\n`,
    );
    assert.equal(readFileSync(mine, 'utf8'), '<!doctype html><title>my notes</title>');
  });

  it('refuses --port with --out in one line', async () => {
    const r = await runCli(['debugger', '--out', join(dir, 'x.html'), '--port', '0']);
    assert.deepEqual([r.code, r.err], [2, 'payconform debugger: --port: serves the page; --out writes it: give one\n']);
  });

  it('serves the page on 127.0.0.1, prints its URL and stops on SIGINT', async () => {
    let url = '';
    let listening: () => void = () => {};
    const ready = new Promise<void>((resolve) => (listening = resolve));
    const stopped = run(['debugger'], {
      stdout: (t) => {
        url = /^listening on (http:\/\/127\.0\.0\.1:\d+\/)$/.exec(t)?.[1] ?? url;
        listening();
      },
      stderr: () => {},
      env: {},
    });
    await ready;
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(await page.text(), built);
    assert.equal((await fetch(`${url}anything-else`)).status, 404);
    process.emit('SIGINT');
    assert.equal(await stopped, 0);
  });
});
