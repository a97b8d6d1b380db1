// requestOf (src/rules/one-request.ts): a request given after the fact (verify, diagnose) becomes the rules'
// request value with the credentials as its one merchant. Each field of that merchant and of the request is
// read here: the rules find the merchant by endpoint id (or group id, A-3) and hold oauth_consumer_key to its
// login, so a field lost would change a verdict.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { matchPath } from '../../src/catalogue/index.ts';
import { requestOf } from '../../src/rules/one-request.ts';

type P = [string, string];
const SALE = 'https://gw.example/paynet/api/v2/sale/1234';
const GROUP = 'https://gw.example/paynet/api/v2/sale-form/group/55';
const params: P[] = [
  ['client_orderid', 'A-1'],
  ['control', 'from-the-form'],
  ['amount', '1.00'],
  ['amount', '2.00'],
];
const at = (url: string) => matchPath(new URL(url).pathname);

describe('requestOf', () => {
  it('makes the credentials the merchant that owns the endpoint id', () => {
    const req = requestOf(
      { url: SALE, params },
      { login: 'shop', controlKey: 'k', publicKeyPem: 'PUBLIC', privateKeyPem: 'PRIVATE' },
      {},
      at(SALE),
    );
    assert.deepEqual(req.context.merchants, [
      {
        login: 'shop',
        merchantControlKey: 'k',
        publicKeyPem: 'PUBLIC',
        endpointIds: ['1234'],
        endpointGroupIds: [],
      },
    ]);
    assert.equal(req.merchant, req.context.merchants[0]);
  });

  it('an endpoint group id is a group of that merchant, not an endpoint', () => {
    const req = requestOf({ url: GROUP, params }, { controlKey: 'k' }, {}, at(GROUP));
    const [merchant] = req.context.merchants;
    assert.deepEqual(merchant?.endpointIds, []);
    assert.deepEqual(merchant?.endpointGroupIds, ['55']);
    assert.equal(req.merchant, merchant);
  });

  it('without a catalogue row the merchant owns no id; missing credentials read as empty', () => {
    const req = requestOf({ url: 'https://photos.example.net/photos', params: [] }, {}, {}, undefined);
    assert.deepEqual(req.context.merchants, [
      { login: '', merchantControlKey: '', publicKeyPem: undefined, endpointIds: [], endpointGroupIds: [] },
    ]);
    assert.equal(req.match, undefined);
  });

  it('verifies RSA with the public half of the private key when no public key is given', () => {
    const req = requestOf({ url: SALE, params }, { privateKeyPem: 'PRIVATE' }, {}, at(SALE));
    assert.equal(req.context.merchants[0]?.publicKeyPem, 'PRIVATE');
  });

  it('keeps the form as given, or puts the control given in place of the form one', () => {
    const asGiven = requestOf({ url: SALE, params }, {}, {}, at(SALE));
    assert.deepEqual(asGiven.params, params);
    const replaced = requestOf({ url: SALE, params }, {}, { control: 'given' }, at(SALE));
    assert.deepEqual(replaced.params, [
      ['client_orderid', 'A-1'],
      ['amount', '1.00'],
      ['amount', '2.00'],
      ['control', 'given'],
    ]);
    assert.deepEqual(params[1], ['control', 'from-the-form'], "the caller's pairs are left alone");
  });

  it('the request as seen: POST unless another method is given, the URL, the header given', () => {
    const match = at(SALE);
    const post = requestOf({ url: SALE, params }, {}, { authorization: 'OAuth x="1"' }, match);
    assert.deepEqual(post.seen, { method: 'POST', url: SALE, headers: { authorization: 'OAuth x="1"' } });
    assert.equal(post.match, match);
    const get = requestOf({ method: 'GET', url: SALE, params }, {}, {}, match);
    assert.deepEqual(get.seen, { method: 'GET', url: SALE, headers: { authorization: undefined } });
  });

  it('judges after the fact: no clock window, no nonce memory, no body limit, one-line evidence', () => {
    const { context } = requestOf({ url: SALE, params }, {}, {}, at(SALE));
    assert.equal(context.windowSeconds, 0);
    assert.equal(context.now, Date.now);
    assert.equal(context.maxBodyBytes, Number.POSITIVE_INFINITY);
    assert.equal(context.explain, false);
  });
});
