// The admin route (/_payconform/, src/mock/admin.ts; A-52): loopback peers with the run's token only, bounded
// JSON bodies read within a time limit, each refusal its status and one line; the token never in the request log.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { request } from 'undici';
import { bearerMatches, isLoopbackPeer } from '../../src/mock/admin.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';

/** A raw HTTP exchange, so the test controls what is sent and from which local address. */
function raw(port: number, text: string, localAddress?: string, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host, ...(localAddress ? { localAddress } : {}) }, () => socket.write(text));
    let got = '';
    socket.on('data', (chunk) => (got += chunk.toString('utf8')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
  });
}

const statusLine = (answer: string): string => answer.split('\r\n')[0] ?? '';
const bodyOf = (answer: string): unknown => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('the admin route', () => {
  let mock: RunningMock;
  const log: string[] = [];
  const post = (body: string, headers: Record<string, string> = {}) =>
    request(`${mock.url}/_payconform/events`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}`, 'content-type': 'application/json', ...headers },
      body,
    }).then(async (r) => ({ status: r.statusCode, body: (await r.body.json()) as { error?: string } }));
  before(async () => {
    mock = await startMock({ host: '0.0.0.0', log: (line) => log.push(line) });
  });
  after(() => mock.close());

  it('takes loopback peers only: 127.0.0.0/8, ::1, IPv4 loopback written as IPv6; nothing else', () => {
    for (const peer of ['127.0.0.1', '127.3.4.5', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.2'])
      assert.equal(isLoopbackPeer(peer), true, peer);
    for (const peer of [undefined, '', '10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', '128.0.0.1', '::'])
      assert.equal(isLoopbackPeer(peer), false, String(peer));
  });

  it('compares the bearer token whole', () => {
    assert.equal(bearerMatches('Bearer abc', 'abc'), true);
    for (const header of [undefined, '', 'abc', 'Bearer ab', 'Bearer abcd', 'Basic abc', 'Bearer abc extra'])
      assert.equal(bearerMatches(header, 'abc'), false, String(header));
  });

  it('refuses a peer that is not loopback even when the server listens on 0.0.0.0', async (t) => {
    const local = Object.values(networkInterfaces())
      .flat()
      .find((i) => i !== undefined && !i.internal && i.family === 'IPv4')?.address;
    if (local === undefined) return t.skip('no address but loopback on this machine');
    const port = new URL(mock.url).port;
    const answer = await raw(
      Number(port),
      `POST /_payconform/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${mock.adminToken}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      local,
      local,
    );
    assert.equal(statusLine(answer), 'HTTP/1.1 403 Forbidden');
    assert.deepEqual(bodyOf(answer), { error: 'the admin route answers loopback peers only' });
  });

  it('refuses no token or a wrong one (401), a bad route (404), GET (405), bad JSON (400), each one line', async () => {
    const noToken = await request(`${mock.url}/_payconform/events`, { method: 'POST', body: '{}' });
    assert.equal(noToken.statusCode, 401);
    assert.deepEqual(await noToken.body.json(), {
      error: "no or wrong token: send 'Authorization: Bearer TOKEN' with the run's admin token",
    });
    assert.equal((await post('{}', { authorization: `Bearer ${mock.adminToken}x` })).status, 401);
    const route = await request(`${mock.url}/_payconform/nope`, {
      method: 'POST',
      headers: { authorization: `Bearer ${mock.adminToken}` },
    });
    assert.deepEqual(
      [route.statusCode, await route.body.json()],
      [404, { error: 'no such admin route: events, clock only' }],
    );
    const get = await request(`${mock.url}/_payconform/events`, {
      headers: { authorization: `Bearer ${mock.adminToken}` },
    });
    assert.deepEqual([get.statusCode, await get.body.json()], [405, { error: 'POST only' }]);
    assert.deepEqual(await post('{"event":'), { status: 400, body: { error: 'the body is not JSON' } });
    assert.deepEqual(await post('{"event":"refund","order":"A"}'), {
      status: 400,
      body: { error: 'event: must be one of chargeback, reversal, repeat, late, duplicate' },
    });
    assert.deepEqual(await post('{"event":"repeat","order":"A"}'), {
      status: 404,
      body: { error: 'no order with client_orderid A' },
    });
  });

  it('refuses a body over 4 KiB (413), declared or streamed, and closes the connection', async () => {
    const huge = `{"event":"repeat","order":"${'A'.repeat(5000)}"}`;
    assert.deepEqual(await post(huge), { status: 413, body: { error: 'the body is over 4096 bytes' } });
    const port = Number(new URL(mock.url).port);
    const streamed = await raw(
      port,
      `POST /_payconform/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${mock.adminToken}\r\n` +
        `Transfer-Encoding: chunked\r\n\r\n1400\r\n${'A'.repeat(0x1400)}\r\n`,
    );
    assert.equal(statusLine(streamed), 'HTTP/1.1 413 Payload Too Large');
  });

  it('gives a slow body 5 s, then answers 408 and closes', async () => {
    const port = Number(new URL(mock.url).port);
    const started = Date.now();
    const slow = await raw(
      port,
      `POST /_payconform/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${mock.adminToken}\r\n` +
        'Content-Length: 100\r\n\r\n{"event":',
    );
    assert.equal(statusLine(slow), 'HTTP/1.1 408 Request Timeout');
    const waited = Date.now() - started;
    assert.ok(waited >= 4900 && waited < 7000, `answered after ${waited} ms`);
  });

  it('names the route in the request log, never the token', () => {
    assert.ok(
      log.some((line) => / POST \/_payconform\/events 401 admin - /.test(line)),
      log.join('\n'),
    );
    assert.ok(!log.some((line) => line.includes(mock.adminToken)));
  });
});
