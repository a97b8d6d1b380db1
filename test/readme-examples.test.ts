// Every ```sh example of the README runs as written, in a fresh folder, one block after the other (as
// a reader pastes them): no command may be bad input (exit 2), an example that says "exit 1" must
// exit 1 and every other 0, and a "# → control X" line must match what the command before it printed.
// A block that cannot run here (set-up, a real sandbox) says so in an HTML comment just above it.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'payconform-readme-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Block {
  readonly line: number;
  readonly text: string;
  readonly skipReason?: string;
}

function shBlocks(): Block[] {
  const lines = readme.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const end = lines.indexOf('```', i + 1);
    const skip = /^<!-- not run by test\/readme-examples\.test\.ts: (.+) -->$/.exec(lines[i - 1] ?? '');
    blocks.push({ line: i + 1, text: lines.slice(i + 1, end).join('\n'), ...(skip ? { skipReason: skip[1] } : {}) });
    i = end;
  }
  return blocks;
}

/** The block's commands: continuation lines joined, each with the comment lines just above it. */
function commands(text: string): Array<{ command: string; notes: string[] }> {
  const out: Array<{ command: string; notes: string[] }> = [];
  let notes: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.startsWith('#')) {
      notes.push(line);
      continue;
    }
    if (line.trim() === '') continue;
    let command = line;
    while (command.endsWith('\\')) command = `${command}\n${lines[++i] ?? ''}`;
    out.push({ command, notes });
    notes = [];
  }
  return out;
}

// `npx payconform` is this checkout's command, as it is for a reader inside the clone: an npx first
// on PATH that runs bin/payconform.js (a real program, so `VAR=x npx …` passes VAR on).
const shims = join(dir, '.bin');
mkdirSync(shims);
writeFileSync(
  join(shims, 'npx'),
  `#!/bin/sh\n[ "$1" = payconform ] || { echo "npx $1: not an example of this README" >&2; exit 127; }\nshift\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(root, 'bin/payconform.js'))} "$@"\n`,
  { mode: 0o755 },
);

// A reader's shell: none of payconform's variables set unless the example sets them.
const readerEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PAYCONFORM_'))),
  PATH: `${shims}:${process.env.PATH}`,
};

describe('README examples', () => {
  const blocks = shBlocks();
  cpSync(join(root, 'vectors'), join(dir, 'vectors'), { recursive: true });

  it('has examples, and says why for each one it does not run', () => {
    assert.ok(blocks.length >= 4);
    assert.ok(blocks.filter((b) => b.skipReason === undefined).length >= 2);
    for (const b of blocks)
      if (b.skipReason === undefined)
        assert.doesNotMatch(b.text, /…/, `README.md:${b.line}: a literal … cannot be pasted`);
  });

  for (const block of blocks.filter((b) => b.skipReason === undefined)) {
    it(`the block at README.md:${block.line} runs as written`, { timeout: 120_000 }, () => {
      let previous = '';
      for (const { command, notes } of commands(block.text)) {
        for (const note of notes) {
          const expected = /^# → control ([0-9a-f]{40})$/.exec(note);
          if (expected)
            assert.match(previous, new RegExp(`control\\s+${expected[1]}`), `README.md:${block.line}: ${note}`);
        }
        const r = spawnSync('bash', ['-c', command], { cwd: dir, encoding: 'utf8', env: readerEnv });
        const wanted = notes.some((n) => /exit 1\b/.test(n)) ? 1 : 0;
        assert.equal(
          r.status,
          wanted,
          `README.md:${block.line}: ${command}\n${r.stdout.slice(-500)}${r.stderr.slice(-500)}`,
        );
        previous = r.stdout;
      }
    });
  }
});
