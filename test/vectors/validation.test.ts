// Every rejection the vector format promises, each seen failing with the line a user would read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseVectorFile, VectorFileError } from '../../src/vectors/load.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const sale = () => ({
  id: 'sale-1',
  scheme: 'control',
  operation: 'SALE',
  request: {
    method: 'POST',
    url: 'https://h.example/api/v2/sale/1',
    params: [
      ['client_orderid', 'A'],
      ['amount', '1.00'],
      ['email', 'e'],
    ],
  },
  credentials: { merchantControlKey: 'k' },
  expected: { control: '0'.repeat(40) },
});
const payoutV4 = () => ({
  id: 'v4-1',
  scheme: 'oauth-rsa-sha256',
  request: { method: 'POST', url: 'https://h.example/api/v4/payout/1', params: [['amount', '1']] },
  credentials: { login: 'm', privateKeyPem: pem },
  oauth: { nonce: 'n', timestamp: '1' },
  expected: { signature: 'x' },
});
const file = (...vectors: unknown[]) => JSON.stringify({ format: 'payconform-vectors/1', vectors });

function rejects(text: string, ...lines: Array<string | RegExp>): void {
  assert.throws(
    () => parseVectorFile(text, 'f.json'),
    (err: unknown) => {
      assert.ok(err instanceof VectorFileError);
      assert.equal(err.code, 'ERR_VECTOR_INVALID');
      for (const line of lines)
        assert.ok(
          err.lines.some((l) => (typeof line === 'string' ? l === line : line.test(l))),
          `${line} not in:\n${err.lines.join('\n')}`,
        );
      assert.ok(!err.message.includes('BEGIN PRIVATE KEY') && !/\n\s+at /.test(err.message));
      return true;
    },
  );
}

describe('vector file validation', () => {
  it('accepts a well-formed file', () =>
    assert.equal(parseVectorFile(file(sale(), payoutV4()), 'f.json').vectors.length, 2));
  it('rejects text that is not JSON', () => rejects('{"format":', /^f\.json: not JSON/));
  it('rejects an unknown format alone, without noise', () =>
    rejects(
      JSON.stringify({ format: 'payconform-vectors/2', vectors: [] }),
      'f.json: /format: must be "payconform-vectors/1" (got "payconform-vectors/2")',
    ));
  it('names the JSON pointer of a schema error', () => {
    const v = sale();
    (v.request as { url: unknown }).url = 5;
    rejects(file(v), 'f.json: /vectors/0/request/url: must be string');
  });
  it('rejects unknown properties and a param that is not a pair', () => {
    const v = { ...sale(), extra: 1 };
    v.request.params.push(['lonely']);
    rejects(
      file(v),
      'f.json: /vectors/0: unknown property "extra"',
      'f.json: /vectors/0/request/params/3: must NOT have fewer than 2 items',
    );
  });
  it('asks for the scheme first, without vacuous follow-on errors', () => {
    assert.throws(
      () => parseVectorFile(file({ id: 'a' }), 'f.json'),
      (err: VectorFileError) =>
        err.lines.includes("f.json: /vectors/0: must have required property 'scheme'") &&
        !err.lines.some((l) => /'operation'|'oauth'/.test(l)),
    );
  });
  it('rejects a catalogue path with a bad endpointId', () => {
    rejects(
      file({ ...payoutV4(), request: { ...payoutV4().request, url: 'https://h.example/api/v4/payout/0' } }),
      /\/vectors\/0\/request\/url: must be a positive int64/,
    );
  });
  it('rejects duplicate ids', () =>
    rejects(file(sale(), sale()), 'f.json: /vectors/1/id: duplicate id "sale-1" (first at /vectors/0)'));
  it('rejects a scheme that disagrees with the catalogue', () => {
    const v = { ...payoutV4(), scheme: 'oauth-hmac-sha1', credentials: { login: 'm', merchantControlKey: 'k' } };
    rejects(
      file(v),
      'f.json: /vectors/0/scheme: is oauth-hmac-sha1 but the catalogue signs PAYOUT_V4 with oauth-rsa-sha256',
    );
  });
  it('rejects a control vector whose operation is unknown or not the URL', () => {
    rejects(
      file({ ...sale(), operation: 'REFUND' }),
      /^f\.json: \/vectors\/0\/operation: .*"REFUND" is not in the catalogue/,
    );
    rejects(
      file({ ...sale(), operation: 'sale' }),
      'f.json: /vectors/0/operation: unknown operation "sale" (names are upper case, e.g. SALE)',
    );
    rejects(
      file({ ...sale(), operation: 'PREAUTH' }),
      'f.json: /vectors/0/operation: is PREAUTH but the URL is the SALE endpoint',
    );
  });
  it('rejects a control vector without an operation or a catalogue URL', () => {
    const { operation: _o, ...noOp } = sale();
    rejects(file(noOp), "f.json: /vectors/0: must have required property 'operation'");
    rejects(
      file({ ...sale(), request: { ...sale().request, url: 'https://h.example/pay' } }),
      /\/vectors\/0\/request\/url: a control vector needs a catalogue endpoint URL/,
    );
  });
  it('rejects an RSA vector without a private key, and a key under 2048 bits', () => {
    rejects(
      file({ ...payoutV4(), credentials: { login: 'm' } }),
      'f.json: /vectors/0/credentials: an RSA-SHA256 vector needs privateKeyPem',
    );
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    }) as string;
    rejects(
      file({ ...payoutV4(), credentials: { login: 'm', privateKeyPem: small } }),
      'f.json: /vectors/0/credentials/privateKeyPem: RSA key is 1024 bits; at least 2048 are required',
    );
  });
  it('rejects verification fields on a signing vector and a verification vector without them', () => {
    rejects(
      file({ ...sale(), expected: { verdict: 'valid', defect: null } }),
      /\/vectors\/0\/expected: must NOT be valid/,
    );
    rejects(
      file({ ...sale(), given: { control: 'x' }, expected: { control: 'x' } }),
      "f.json: /vectors/0/expected: must have required property 'verdict'",
    );
  });
  it('rejects an OAuth signing vector without nonce and timestamp, and a bad URL', () => {
    const { oauth: _x, ...noOauth } = payoutV4();
    rejects(file(noOauth), "f.json: /vectors/0: must have required property 'oauth'");
    rejects(
      file({ ...payoutV4(), request: { ...payoutV4().request, url: 'not-a-url' } }),
      /\/vectors\/0\/request\/url: must be an absolute URL/,
    );
  });
});
