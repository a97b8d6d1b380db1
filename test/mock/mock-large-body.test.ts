// A body past the mock's limit is answered 413 and the connection closed: the mock does not read
// (and a client does not have to send) the rest of a body it has already refused.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startMock, type RunningMock } from '../../src/mock/server.ts';

let mock: RunningMock;
before(async () => {
  mock = await startMock({ prefix: '/paynet' });
});
after(() => mock.close());

/** Sends `head`, then body chunks for as long as the socket takes them (up to 256 MB); resolves with what came back and how long after the answer the socket closed. */
function sendHuge(head: string, chunk: (n: number) => Buffer): Promise<{ answer: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let answer = '';
    let answeredAt = 0;
    let sent = 0;
    const pump = (): void => {
      while (!socket.destroyed && sent < 256 << 20) {
        sent += 1 << 16;
        if (!socket.write(chunk(1 << 16))) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(head);
      pump();
    });
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      answeredAt ||= Date.now();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () =>
      answeredAt
        ? resolve({ answer, closedAfterMs: Date.now() - answeredAt })
        : reject(new Error('closed without an answer')),
    );
    setTimeout(() => socket.destroy(), 15_000).unref();
  });
}

const filler = (n: number): Buffer => Buffer.alloc(n, 0x78);
const chunked = (n: number): Buffer =>
  Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), filler(n), Buffer.from('\r\n')]);

describe('mock: a body larger than it takes', () => {
  for (const [name, head, chunk] of [
    [
      'declared by Content-Length',
      'POST /paynet/api/v2/sale/1001 HTTP/1.1\r\nHost: x\r\nAccept: application/vnd.pay+json\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 268435456\r\n\r\n',
      filler,
    ],
    [
      'chunked, no length given',
      'POST /paynet/api/v2/sale/1001 HTTP/1.1\r\nHost: x\r\nAccept: application/vnd.pay+json\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n',
      chunked,
    ],
  ] as const) {
    it(`${name}: answered 413 with Connection: close, and the socket closes promptly`, async () => {
      const { answer, closedAfterMs } = await sendHuge(head, chunk);
      assert.match(answer, /^HTTP\/1\.1 413 /);
      assert.match(answer, /\r\nconnection: close\r\n/i);
      assert.ok(closedAfterMs < 3000, `closed ${closedAfterMs} ms after the answer`);
    });
  }
});
