// `payconform mock` and `payconform inspect` share --port, --host, --merchants and --window-seconds:
// the same words in --help, the same checks.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { cannotListen } from '../src/cli/listener-options.ts';
import { runCli } from './support/cli.ts';
import { startListening } from './support/listening.ts';

const shared = ['--port', '--host', '--merchants', '--window-seconds'];
const optionLines = (help: string): string[] =>
  help
    .split('\n')
    .filter((l) => shared.some((o) => l.trimStart().startsWith(`${o} `)))
    .map((l) => l.trim().replace(/\s{2,}/, '  '));

describe('listener options of mock and inspect', () => {
  it('are described in the same words by both commands', async () => {
    const mock = optionLines((await runCli(['mock', '--help'])).out);
    const inspect = optionLines((await runCli(['inspect', '--help'])).out);
    assert.equal(mock.length, 4, mock.join('\n'));
    assert.deepEqual(mock, inspect);
  });

  it('are checked the same way by both commands', async () => {
    for (const [args, message] of [
      [['--port', '70000'], /^payconform \w+: --port: must be a whole number from 0 to 65535\n$/],
      [['--window-seconds', '0'], /^payconform \w+: --window-seconds: must be a whole number from 1 to 86400\n$/],
      [
        ['--merchants', '/nonexistent/merchants.json'],
        /^payconform \w+: \/nonexistent\/merchants\.json: cannot read \(ENOENT\)\n$/,
      ],
    ] as const) {
      for (const command of ['mock', 'inspect']) {
        const r = await runCli([command, ...args]);
        assert.equal(r.code, 2, `${command} ${args.join(' ')}`);
        assert.match(r.err, message);
      }
    }
  });

  it("blame --port or --host only for the listener's own failure, never for a file read while starting", async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => busy.once('listening', r));
    const { port } = busy.address() as { port: number };
    const inUse = await new Promise<NodeJS.ErrnoException>((resolve) =>
      createServer().once('error', resolve).listen(port, '127.0.0.1'),
    );
    busy.close();
    assert.match(cannotListen(inUse, { port, host: '127.0.0.1' }).message, /^--port: \d+ is in use on 127\.0\.0\.1/);
    // What startMock throws when a key file it reads is missing: ENOENT from open, not from listen.
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open '/x/key.pem'"), {
      code: 'ENOENT',
      syscall: 'open',
    });
    assert.equal(cannotListen(missing, { port: 0, host: '127.0.0.1' }), missing);
  });

  it('--host 0.0.0.0: both warn that the listener is reachable from the network and print a URL a client can use', async () => {
    for (const command of ['mock', 'inspect']) {
      const listening = await startListening([command, '--host', '0.0.0.0']);
      try {
        assert.match(listening.url, /^http:\/\/127\.0\.0\.1:\d+$/, command);
        await new Promise((r) => setTimeout(r, 100));
        assert.match(
          listening.out(),
          /warning: --host 0\.0\.0\.0: the listener is reachable from the network/,
          command,
        );
        // The printed URL answers (any HTTP status will do: the point is that a client can connect).
        assert.ok((await fetch(listening.url)).status > 0);
      } finally {
        listening.child.kill('SIGKILL');
        await listening.exit;
      }
    }
  });
});
