// The path the mock judges is the request line's, whatever the Host header holds: the URL a request
// is judged by was built as origin plus path, so `Host: a/b` made the rules read /b/paynet/api/….
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { endpointByOperation } from '../../src/catalogue/index.ts';
import { buildRequest } from '../../src/client/client.ts';
import { testMerchant } from '../../src/gateway/merchants.ts';
import { startMock, type RunningMock } from '../../src/mock/server.ts';
import { sampleRequest } from '../../src/schemas/index.ts';

let mock: RunningMock;
before(async () => {
  mock = await startMock({ prefix: '/paynet' });
});
after(() => mock.close());

/** A control-signed SALE sent over a raw socket with the Host header given; the answer's status line and body. */
function saleWithHost(host: string): Promise<string> {
  const m = testMerchant();
  const sale = endpointByOperation('SALE');
  const signed = buildRequest(
    sale,
    {
      baseUrl: `${mock.url}/paynet`,
      credentials: { login: m.login, controlKey: m.merchantControlKey },
      endpointId: '1001',
    },
    sampleRequest(sale, []),
  );
  const head =
    `POST ${new URL(signed.url).pathname} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n` +
    Object.entries(signed.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('') +
    `Content-Length: ${Buffer.byteLength(signed.body)}\r\n\r\n`;
  const { port, hostname } = new URL(mock.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(head + signed.body));
    let answer = '';
    socket.on('data', (d) => (answer += d.toString('utf8')));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('mock: the Host header does not move the path', () => {
  for (const host of ['a/b', 'a/b/c', 'a b', 'user@h', 'h#x']) {
    it(`Host: ${host}: the SALE is judged at its own path and accepted`, async () => {
      const answer = await saleWithHost(host);
      assert.match(answer, /^HTTP\/1\.1 200 /, answer);
      assert.match(answer, /"status":"processing"/);
    });
  }
});
