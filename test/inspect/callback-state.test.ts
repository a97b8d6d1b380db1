// The shop's state URL (inspect --callback-state, A-57) is hostile input: whatever it answers, readPaid resolves
// with the paid cents or a reason, bounded in time and size, and never repeats what the shop sent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { paidCents, readPaid } from '../../src/inspect/callback-state.ts';

/** Each path answers one way; the query it was asked with is kept for the test to read. */
const asked: string[] = [];
let server: Server;
let origin = '';
before(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://state');
    asked.push(url.search);
    const json = (body: string, status = 200): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    switch (url.pathname) {
      case '/ok':
        return json('{"paid": "10.00"}');
      case '/negative':
        return json('{"paid": "-2.5"}');
      case '/number':
        return json('{"paid": 7}');
      case '/html':
        return json('<html>SECRET-PAGE</html>');
      case '/array':
        return json('[1]');
      case '/none':
        return json('{"amount": "10.00"}');
      case '/words':
        return json('{"paid": "ten SECRET"}');
      case '/float':
        return json('{"paid": 0.30000000000000004}');
      case '/error':
        return json('{"paid": "10.00"}', 500);
      case '/huge':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(`{"paid": "10.00", "x": "${'y'.repeat(200_000)}"}`);
      case '/slow':
        return void setTimeout(() => json('{"paid": "10.00"}'), 1000);
      default:
        return json('{}', 404);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const read = (path: string, more = {}) => readPaid(new URL(`${origin}${path}`), 'ORD 1&x', more);

describe('inspect --callback-state: reading what the shop holds as paid', () => {
  it('reads {"paid": "10.00"}, a negative amount and a JSON number; asks with client_orderid, its own query kept', async () => {
    assert.deepEqual(await read('/ok'), { cents: 1000n });
    assert.equal(asked.at(-1), '?client_orderid=ORD%201%26x');
    assert.deepEqual(await read('/negative'), { cents: -250n });
    assert.deepEqual(await read('/number'), { cents: 700n });
    assert.deepEqual(await read('/ok?shop=main'), { cents: 1000n });
    assert.equal(asked.at(-1), '?shop=main&client_orderid=ORD%201%26x');
  });

  const bad: Array<[string, string]> = [
    ['/html', 'the answer is not JSON'],
    ['/array', 'the answer is no JSON object'],
    ['/none', '"paid" is missing'],
    ['/words', '"paid" is no amount such as "10.00"'],
    ['/float', '"paid" is no amount such as "10.00"'],
    ['/error', 'answered 500, expected 200'],
    ['/missing', 'answered 404, expected 200'],
    ['/huge', 'an answer of more than 65536 bytes'],
  ];
  for (const [path, why] of bad)
    it(`${path}: unreadable, "${why}", nothing of the answer repeated`, async () => {
      const state = await read(path);
      assert.deepEqual(state, { unreadable: why });
      assert.doesNotMatch(JSON.stringify(state), /SECRET/);
    });

  it('a slow answer is a time-out, a closed port no answer, a host off loopback not asked', async () => {
    const started = Date.now();
    assert.deepEqual(await read('/slow', { timeoutMs: 200 }), { unreadable: 'no whole answer within 200 ms' });
    assert.ok(Date.now() - started < 900);
    const closed = await readPaid(new URL('http://127.0.0.1:1/state'), 'A');
    assert.deepEqual(closed, { unreadable: 'no answer (ECONNREFUSED)' });
    assert.deepEqual(await readPaid(new URL('http://shop.example/state'), 'A'), {
      unreadable: 'the state URL is not on a loopback host nor one of --callback-hosts',
    });
  });

  it('paid values: amounts with up to two decimals, signed; anything else is named by its type', () => {
    assert.deepEqual(paidCents('0.5'), { cents: 50n });
    assert.deepEqual(paidCents('-0.01'), { cents: -1n });
    assert.deepEqual(paidCents('1.234'), { unreadable: '"paid" is no amount such as "10.00"' });
    assert.deepEqual(paidCents(null), { unreadable: '"paid" is object' });
    assert.deepEqual(paidCents(true), { unreadable: '"paid" is boolean' });
  });
});
