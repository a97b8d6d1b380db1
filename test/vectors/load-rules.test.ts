// The loader's own rules and messages beyond the schema cases of validation.test.ts: the cap on the
// number of lines, root-level and non-object files, credentials each scheme needs, verification
// vectors that carry only a public key, and the format-schema test. Each rejection is checked by
// its JSON pointer and the key words of the rule.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import {
  isFormatSchema,
  parseVectorFile,
  readVectorFile,
  readVectorText,
  SCHEMA_PATH,
  VectorFileError,
} from '../../src/vectors/load.ts';

const pem = readFileSync(new URL('../../vectors/keys/test-only-merchant-rsa-2048.pem', import.meta.url), 'utf8');
const publicPem = createPublicKey(pem).export({ type: 'spki', format: 'pem' }) as string;
const sale = (id = 'sale-1') => ({
  id,
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
const payout = () => ({
  id: 'hmac-1',
  scheme: 'oauth-hmac-sha1',
  request: { method: 'POST', url: 'https://h.example/api/v2/payout/1', params: [['amount', '1']] },
  credentials: { login: 'm', merchantControlKey: 'k' },
  oauth: { nonce: 'n', timestamp: '1' },
  expected: { signature: 'x' },
});
const payoutV4 = () => ({
  id: 'v4-1',
  scheme: 'oauth-rsa-sha256',
  request: { method: 'POST', url: 'https://h.example/api/v4/payout/1', params: [['amount', '1']] },
  credentials: { login: 'm', privateKeyPem: pem } as Record<string, string>,
  oauth: { nonce: 'n', timestamp: '1' },
  expected: { signature: 'x' },
});
/** An RSA verification vector: a received Authorization header and the verdict. */
const verifyV4 = (credentials: Record<string, string>) => ({
  id: 'v4-verify',
  scheme: 'oauth-rsa-sha256',
  request: { method: 'POST', url: 'https://h.example/api/v4/payout/1', params: [['amount', '1']] },
  credentials,
  given: { authorization: 'OAuth oauth_signature="x"' },
  expected: { verdict: 'invalid', defect: 'bad-signature' },
});
const file = (...vectors: unknown[]) => JSON.stringify({ format: 'payconform-vectors/1', vectors });

function problems(text: string): string[] {
  try {
    parseVectorFile(text, 'f.json');
  } catch (err) {
    assert.ok(err instanceof VectorFileError, String(err));
    return err.lines;
  }
  return assert.fail('accepted');
}

describe('vector file errors', () => {
  it('is a VectorFileError about the file, with code, field and rule', () => {
    assert.throws(
      () => parseVectorFile('[', 'my.json'),
      (err: unknown) => {
        assert.ok(err instanceof VectorFileError);
        assert.equal(err.name, 'VectorFileError');
        assert.equal(err.code, 'ERR_VECTOR_INVALID');
        assert.equal(err.field, 'my.json');
        assert.match(err.rule ?? '', /valid payconform-vectors\/1 file/);
        return true;
      },
    );
  });

  it('puts each problem on a line of its own in the message', () => {
    assert.throws(
      () => parseVectorFile(file(sale('same'), sale('same'), sale('same')), 'f.json'),
      (err: unknown) => {
        assert.ok(err instanceof VectorFileError);
        const shown = err.message.split('\n');
        assert.equal(shown.length, 2);
        assert.match(shown[0]!, /^f\.json: \/vectors\/1\/id: duplicate id "same"/);
        assert.match(shown[1]!, /^f\.json: \/vectors\/2\/id: duplicate id "same"/);
        return true;
      },
    );
  });

  it('shows at most 20 problem lines, then how many more there are', () => {
    // 23 vectors with one id: 22 duplicate-id problems.
    const lines = problems(file(...Array.from({ length: 23 }, () => sale('same'))));
    assert.equal(lines.length, 21);
    assert.ok(lines.slice(0, 20).every((l) => /^f\.json: \/vectors\/\d+\/id: duplicate id "same"/.test(l)));
    assert.match(lines[20]!, /^f\.json: .*\band 2 more problems$/);
    // Exactly 20: no extra line.
    assert.equal(problems(file(...Array.from({ length: 21 }, () => sale('same')))).length, 20);
  });

  it('quotes the first line of the JSON parser message', () => {
    assert.match(problems('{"format":')[0]!, /^f\.json: not JSON \(.*end of JSON input\)$/);
  });

  it('names the root as / and says what the top level must be', () => {
    assert.ok(
      problems(JSON.stringify({ format: 'payconform-vectors/1' })).includes(
        "f.json: /: must have required property 'vectors'",
      ),
    );
    for (const text of ['null', '5', '"text"', '[]', '[{"format":"payconform-vectors/1"}]']) {
      const lines = problems(text);
      assert.ok(lines.includes('f.json: /: must be object'), `${text}: ${lines.join('; ')}`);
      assert.ok(!lines.some((l) => l.includes('/format')), `${text}: no format line`);
    }
  });

  it('says a missing format is missing', () => {
    assert.deepEqual(problems(JSON.stringify({ vectors: [] })), [
      'f.json: /format: must be "payconform-vectors/1" (got nothing)',
    ]);
  });

  it('leaves out the if/then bookkeeping errors of the schema', () => {
    const { oauth: _o, ...noOauth } = payoutV4();
    const lines = problems(file(noOauth));
    assert.ok(lines.includes("f.json: /vectors/0: must have required property 'oauth'"), lines.join('\n'));
    assert.ok(!lines.some((l) => /must match "(then|else)" schema/.test(l)), lines.join('\n'));
  });

  it('reads a vector file as UTF-8 text', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-load-'));
    try {
      writeFileSync(join(dir, 'v.json'), Buffer.from([0x7b, 0x22, 0xc3, 0xb6, 0x22, 0x7d])); // {"ö"} in UTF-8
      assert.equal(readVectorText(join(dir, 'v.json')), '{"ö"}');
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('says a file that is not UTF-8 is not, and at which byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'payconform-load-'));
    try {
      const bad = join(dir, 'v.json');
      // `{"vectors":[` is 12 bytes (offsets 0-11), so the 0xff after it is byte 12.
      writeFileSync(bad, Buffer.concat([Buffer.from('{"vectors":[', 'utf8'), Buffer.from([0xff, 0x5d, 0x7d])]));
      assert.throws(
        () => readVectorText(bad),
        (err: unknown) => {
          assert.ok(err instanceof VectorFileError, String(err));
          assert.deepEqual(err.lines, [`${bad}: is not UTF-8 text (first at byte 12)`]);
          return true;
        },
      );
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('says a file that cannot be read cannot be read, with the error code', () => {
    const missing = new URL('./no-such-vectors.json', import.meta.url).pathname;
    assert.throws(
      () => readVectorFile(missing),
      (err: unknown) =>
        err instanceof VectorFileError && err.lines.length === 1 && err.lines[0] === `${missing}: cannot read (ENOENT)`,
    );
    const folder = new URL('.', import.meta.url).pathname;
    assert.throws(
      () => readVectorText(folder),
      (err: unknown) =>
        err instanceof VectorFileError && err.lines.length === 1 && err.lines[0] === `${folder}: cannot read (EISDIR)`,
    );
  });
});

describe('credentials each scheme needs', () => {
  it("a callback vector needs the merchant control key, the key of the callback's control", () => {
    const callback = {
      id: 'cb-1',
      scheme: 'control',
      message: 'callback',
      request: {
        method: 'POST',
        url: 'https://merchant.example/callback',
        params: [
          ['status', 'approved'],
          ['orderid', '1'],
          ['client_orderid', 'A'],
        ],
      },
      credentials: {},
      expected: { control: '0'.repeat(40) },
    };
    assert.deepEqual(problems(file(callback)), [
      'f.json: /vectors/0/credentials: merchantControlKey is required for a callback',
    ]);
  });

  it('control and HMAC-SHA1 vectors need the merchant control key', () => {
    assert.ok(
      problems(file({ ...sale(), credentials: {} })).includes(
        'f.json: /vectors/0/credentials: merchantControlKey is required for control',
      ),
    );
    assert.ok(
      problems(file({ ...payout(), credentials: { login: 'm' } })).includes(
        'f.json: /vectors/0/credentials: merchantControlKey is required for oauth-hmac-sha1',
      ),
    );
  });

  it('an OAuth signing vector needs the login; a control vector does not', () => {
    assert.ok(
      problems(file({ ...payout(), credentials: { merchantControlKey: 'k' } })).some((l) =>
        /^f\.json: \/vectors\/0\/credentials: login \(the oauth_consumer_key\) is required for oauth-hmac-sha1$/.test(
          l,
        ),
      ),
    );
    assert.equal(parseVectorFile(file(sale(), payout()), 'f.json').vectors.length, 2);
  });

  it('an RSA verification vector may carry only a public key, and no login; a signing one may not', () => {
    assert.equal(parseVectorFile(file(verifyV4({ publicKeyPem: publicPem })), 'f.json').vectors.length, 1);
    const bad = problems(file(verifyV4({ publicKeyPem: 'not a key' })));
    assert.ok(
      bad.some((l) => /^f\.json: \/vectors\/0\/credentials\/publicKeyPem: .*not PEM/.test(l)),
      bad.join('\n'),
    );
    assert.ok(
      problems(file(verifyV4({}))).includes(
        'f.json: /vectors/0/credentials: an RSA-SHA256 vector needs privateKeyPem (or publicKeyPem)',
      ),
    );
    const signing = problems(file({ ...payoutV4(), credentials: { login: 'm', publicKeyPem: publicPem } }));
    assert.ok(
      signing.includes('f.json: /vectors/0/credentials: an RSA-SHA256 vector needs privateKeyPem'),
      signing.join('\n'),
    );
  });
});

describe('vectors/schema.json', () => {
  it('compiles under ajv strict mode, so the loader (ajv defaults) never logs a strict-mode warning', () => {
    assert.doesNotThrow(() =>
      new Ajv({ strict: true, strictRequired: false }).compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'))),
    );
  });
});

describe('isFormatSchema', () => {
  it('is true for the format schema only, false for other JSON and for text that is not JSON', () => {
    assert.equal(isFormatSchema(readFileSync(SCHEMA_PATH, 'utf8')), true);
    assert.equal(isFormatSchema(file(sale())), false);
    assert.equal(isFormatSchema('{ not json'), false);
  });
});
