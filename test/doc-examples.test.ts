// The copy-paste examples of docs/mock.md, docs/callbacks.md and docs/inspect.md run as written: each
// ```sh block just below the comment `<!-- runs in test/doc-examples.test.ts -->` is run whole by bash
// (-euo pipefail) in a fresh folder, with `npx payconform` this checkout's command, and must exit 0
// within its time. An example starts what it needs (a mock, inspect, a handler) in the background;
// whatever it leaves running is stopped with its process group when it ends, so none can outlive it.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const DOCS = ['docs/mock.md', 'docs/callbacks.md', 'docs/inspect.md'];
const MARK = '<!-- runs in test/doc-examples.test.ts -->';
const TIME_LIMIT_MS = 90_000;
const base = mkdtempSync(join(tmpdir(), 'payconform-doc-examples-'));
after(() => rmSync(base, { recursive: true, force: true }));

interface Example {
  readonly doc: string;
  readonly line: number;
  readonly script: string;
}

function examplesOf(doc: string): Example[] {
  const lines = readFileSync(join(root, doc), 'utf8').split('\n');
  const out: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== MARK) continue;
    assert.equal(lines[i + 1], '```sh', `${doc}:${i + 1}: the mark must stand just above a \`\`\`sh block`);
    const end = lines.indexOf('```', i + 2);
    out.push({ doc, line: i + 2, script: lines.slice(i + 2, end).join('\n') });
  }
  return out;
}

const shims = join(base, '.bin');
mkdirSync(shims);
writeFileSync(
  join(shims, 'npx'),
  `#!/bin/sh\n[ "$1" = payconform ] || { echo "npx $1: not a payconform example" >&2; exit 127; }\nshift\n` +
    `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin/payconform.js'))} "$@"\n`,
  { mode: 0o755 },
);
const readerEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYCONFORM_'))),
  PATH: `${shims}:${process.env.PATH}`,
};

/** Runs the script in its own process group; the group is killed when bash ends or the time is up. */
function run(script: string, cwd: string): Promise<{ code: number | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', script], { cwd, env: readerEnv, detached: true });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const killGroup = (): void => {
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        /* the group has ended */
      }
    };
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, TIME_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      killGroup();
      resolve({ code, output, timedOut });
    });
  });
}

describe('docs examples', () => {
  for (const doc of DOCS) {
    const examples = examplesOf(doc);
    it(`${doc} has runnable examples`, () => assert.ok(examples.length >= 1, `${doc}: no block marked ${MARK}`));
    for (const example of examples) {
      it(`the example at ${doc}:${example.line} runs as written`, { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
        const cwd = mkdtempSync(join(base, 'ex-'));
        cpSync(join(root, 'profiles'), join(cwd, 'profiles'), { recursive: true });
        const r = await run(example.script, cwd);
        assert.ok(!r.timedOut, `${doc}:${example.line}: still running after ${TIME_LIMIT_MS / 1000} s\n${r.output}`);
        assert.equal(r.code, 0, `${doc}:${example.line}: exit ${r.code}\n${r.output}`);
      });
    }
  }
});
