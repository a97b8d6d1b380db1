// The client against a real loopback server that records what arrives and checks the signatures
// with the reference verifier, as a gateway would.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { PayClient } from '../../src/client/client.ts';
import { decodeForm } from '../../src/signing/form-body.ts';
import { verifyRequest } from '../../src/rules/verify.ts';
import { runCli } from '../support/cli.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const KEY = 'client-TEST-key';
const credentials = { login: 'm', controlKey: KEY, privateKeyPem: pem };

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let base: string;
let seen: Seen[] = [];
let reply: (req: Seen, res: ServerResponse) => void = () => {};

const asyncResponse = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type: 'async-response',
    status: 'processing',
    'paynet-order-id': '123',
    'merchant-order-id': 'A-1',
    'serial-number': 's-1',
    ...extra,
  });
const answer = (res: ServerResponse, status: number, body: string, type = 'application/vnd.pay+json') => {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
};

before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req
      .on('data', (c) => (body += c))
      .on('end', () => {
        const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
        seen.push(s);
        reply(s, res);
      });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/paynet`;
});
after(() => new Promise<void>((r) => server.close(() => r())));

const verifyAtServer = (s: Seen) =>
  verifyRequest(
    { url: `http://${s.headers.host}${s.url}`, params: decodeForm(s.body) },
    { login: 'm', controlKey: KEY, privateKeyPem: pem },
    { authorization: s.headers.authorization },
  );

describe('client', () => {
  it('sends a control-signed sale with the spec headers to the prefixed URL, and accepts a conforming answer', async () => {
    seen = [];
    reply = (_s, res) => answer(res, 200, asyncResponse());
    const client = new PayClient({ baseUrl: base, credentials, endpointId: '1001' });
    const x = await client.send('SALE', [
      ['client_orderid', 'A-1'],
      ['amount', '10.00'],
      ['email', 'a b@example.com'],
    ]);
    await client.close();
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.method, 'POST');
    assert.equal(seen[0]!.url, '/paynet/api/v2/sale/1001');
    assert.equal(seen[0]!.headers.accept, 'application/vnd.pay+json');
    assert.equal(seen[0]!.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.match(seen[0]!.body, /email=a%20b%40example\.com&control=[0-9a-f]{40}$/);
    assert.equal(verifyAtServer(seen[0]!).reason, 'valid');
    assert.deepEqual(x.problems, []);
    assert.equal((x.body as { status: string }).status, 'processing');
  });

  it('signs HMAC payouts and RSA v4 payouts in the Authorization header, which verify at the server', async () => {
    seen = [];
    reply = (_s, res) => answer(res, 200, asyncResponse());
    const client = new PayClient({ baseUrl: base, credentials, endpointId: '7' });
    await client.send('PAYOUT', [
      ['amount', '1.00'],
      ['order_desc', "it's (1*2)!"],
    ]);
    await client.send('PAYOUT_V4', [
      ['amount', '1'],
      ['order_desc', 'für'],
    ]);
    await client.close();
    assert.match(seen[0]!.headers.authorization ?? '', /oauth_signature_method="HMAC-SHA1"/);
    assert.match(seen[1]!.headers.authorization ?? '', /oauth_signature_method="RSA-SHA256"/);
    for (const s of seen) assert.equal(verifyAtServer(s).reason, 'valid');
  });

  it('reports what breaks the spec apart from what differs from an assumption', async () => {
    const client = new PayClient({ baseUrl: base, credentials, endpointId: '7' });
    const problems = async (operation: string): Promise<Array<[string | undefined, string]>> =>
      (
        await client.send(operation, [
          ['client_orderid', 'A'],
          ['orderid', '1'],
        ])
      ).problems.map((p) => [p.assumption, p.message]);
    // The spec: a 200 (and a 400 or 500) is application/vnd.pay+json.
    reply = (_s, res) => answer(res, 200, '<html></html>', 'text/html');
    assert.deepEqual(await problems('STATUS'), [
      [undefined, 'content-type: must be application/vnd.pay+json (got text/html)'],
    ]);
    reply = (_s, res) => answer(res, 500, 'oops', 'text/plain');
    assert.deepEqual(await problems('VOID'), [
      [undefined, 'content-type: must be application/vnd.pay+json (got text/plain)'],
    ]);
    // Assumptions: our fields and their values, an unknown field, the body of a status the spec does not list.
    reply = (_s, res) => answer(res, 200, asyncResponse({ status: 'done' }));
    assert.match((await problems('VOID')).map(([a, m]) => `${a} ${m}`).join(), /^A-17 AsyncResponse\/status/);
    reply = (_s, res) => answer(res, 200, asyncResponse({ 'x-trace': '1' }));
    assert.deepEqual(await problems('VOID'), [
      ['A-18', 'AsyncResponse/: must NOT have additional properties "x-trace"'],
    ]);
    reply = (_s, res) => answer(res, 401, 'no', 'text/plain');
    assert.deepEqual(await problems('VOID'), [
      ['A-21', 'content-type: must be application/vnd.pay+json (got text/plain)'],
    ]);
    // A charset parameter is the same media type; a profile's field names are checked under ours.
    reply = (_s, res) => answer(res, 200, asyncResponse(), 'application/vnd.pay+json; charset=utf-8');
    assert.deepEqual(await problems('VOID'), []);
    const renamed = new PayClient({
      baseUrl: base,
      credentials,
      endpointId: '7',
      answerFields: { 'paynet-order-id': 'orderid' },
    });
    const { 'paynet-order-id': id, ...rest } = JSON.parse(asyncResponse()) as Record<string, string>;
    reply = (_s, res) => answer(res, 200, JSON.stringify({ ...rest, orderid: id }));
    assert.deepEqual(
      (
        await renamed.send('VOID', [
          ['client_orderid', 'A'],
          ['orderid', '1'],
        ])
      ).problems,
      [],
    );
    await renamed.close();
    reply = (_s, res) =>
      answer(
        res,
        400,
        JSON.stringify({
          type: 'validation-error',
          'error-code': 'CONTROL_INVALID',
          'error-message': 'control: wrong',
          'serial-number': 's',
        }),
      );
    assert.deepEqual(
      (
        await client.send('VOID', [
          ['client_orderid', 'A'],
          ['orderid', '1'],
        ])
      ).problems,
      [],
    );
    await client.close();
  });

  it('never retries a POST: a response timeout is reported once, with advice', async () => {
    seen = [];
    reply = () => {}; // never answers
    const client = new PayClient({ baseUrl: base, credentials, endpointId: '7', timeoutMs: 200 });
    await assert.rejects(
      client.send('PAYOUT', [['amount', '1.00']]),
      (err: Error & { code: string }) =>
        err.code === 'ERR_IO' && /not retried, check the order's status/.test(err.message),
    );
    await client.close();
    assert.equal(seen.length, 1);
  });

  it('can leave out the signature or change headers for negative tests', async () => {
    seen = [];
    reply = (_s, res) => answer(res, 200, asyncResponse());
    const client = new PayClient({ baseUrl: base, credentials, endpointId: '7' });
    await client.send(
      'SALE',
      [
        ['client_orderid', 'A'],
        ['amount', '1'],
        ['email', 'e'],
      ],
      { unsigned: true, headers: { accept: null, 'x-test': '1' } },
    );
    await client.close();
    assert.ok(!seen[0]!.body.includes('control='));
    assert.equal(seen[0]!.headers.accept, undefined);
    assert.equal(seen[0]!.headers['x-test'], '1');
  });
});

describe('payconform send', () => {
  it('prints the request redacted (no control, no signature, masked card data) and the answer', async () => {
    reply = (_s, res) => answer(res, 200, asyncResponse());
    const env = { PAYCONFORM_CONTROL_KEY: KEY, PAYCONFORM_LOGIN: 'm' };
    const r = await runCli(
      [
        'send',
        'PAYOUT',
        '--base-url',
        base,
        '--endpoint-id',
        '7',
        '--param',
        'amount=1.00',
        '--param',
        'credit_card_number=4111111111111111',
        '--param',
        'cvv2=123',
      ],
      env,
    );
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /oauth_signature="<redacted>"/);
    assert.match(r.out, /credit_card_number=411111%2A%2A%2A%2A%2A%2A1111&cvv2=%2A%2A%2A/);
    assert.ok(!r.out.includes('4111111111111111') && !r.out.includes(KEY));
    assert.match(r.out, /the answer follows the spec/);
    const sale = await runCli(
      [
        'send',
        'SALE',
        '--base-url',
        base,
        '--endpoint-id',
        '7',
        '--param',
        'client_orderid=A',
        '--param',
        'amount=1',
        '--param',
        'email=e',
        '--json',
      ],
      env,
    );
    const json = JSON.parse(sale.out);
    assert.deepEqual(json.request.params.at(-1), ['control', '<redacted>']);
    assert.equal((await runCli(['send', 'SALE', '--base-url', base], env)).code, 2);
    assert.equal((await runCli(['send', '--base-url', base], env)).code, 2);
  });
});

// A full card number in an answer is a leak whatever the status: the schema check covers 200, 400 and 500
// only, and a failed OAuth check is answered 403, so the rule itself must run on every answer.
describe('answerProblems: a full card number in any answer (A-19)', async () => {
  const { answerProblems } = await import('../../src/client/client.ts');
  const { endpointByOperation } = await import('../../src/catalogue/index.ts');
  const payout = endpointByOperation('PAYOUT');
  // 4111111111111111 passes the Luhn check (the usual Visa test number); 4111111111111112 does not.
  const refusal = (pan: string) =>
    JSON.stringify({
      type: 'validation-error',
      'error-code': 'SIGNATURE_INVALID',
      'error-message': `credit_card_number=${pan}`,
      'serial-number': 's-1',
    });

  it('names a full card number in a 403 refusal, and nothing in the same answer with a number that is no card', () => {
    const leaked = answerProblems(
      payout,
      403,
      'application/vnd.pay+json',
      refusal('4111111111111111'),
      undefined,
    ).found;
    assert.deepEqual(
      leaked.map((p) => [p.assumption, p.message.includes('full card number')]),
      [['A-19', true]],
    );
    assert.deepEqual(
      answerProblems(payout, 403, 'application/vnd.pay+json', refusal('4111111111111112'), undefined).found,
      [],
    );
  });

  it('says it once in a 400, where the schema would say it again, and leaves a 13-digit order id alone', () => {
    const leaked = answerProblems(
      payout,
      400,
      'application/vnd.pay+json',
      refusal('4111111111111111'),
      undefined,
    ).found;
    assert.equal(leaked.filter((p) => p.message.includes('full card number')).length, 1);
    const id = JSON.stringify({
      type: 'async-response',
      status: 'processing',
      'paynet-order-id': '4111111111111111',
      'merchant-order-id': 'A-1',
      'serial-number': 's-2',
    });
    assert.deepEqual(
      answerProblems(payout, 200, 'application/vnd.pay+json', id, undefined).found.filter(
        (p) => p.assumption === 'A-19',
      ),
      [],
    );
  });
});
