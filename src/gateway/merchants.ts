/**
 * Merchants of the mock gateway: the design's merchants file
 * `[{"login","merchantControlKey","publicKeyPem","endpointIds":[…],"endpointGroupIds":[…]}]`, or the
 * built-in TEST-ONLY merchant. A merchant is found by an endpoint id it owns (control) or by its
 * login (OAuth consumer key).
 */
import { join } from 'node:path';
import { packageFile } from '../package-root.ts';
import { readFileSync } from 'node:fs';
import { checkEndpointId } from '../catalogue/index.ts';
import { fieldError, isPayconformError } from '../errors.ts';
import { readUserFile } from '../read-file.ts';
import { loadPublicKey } from '../signing/keys.ts';

import type { Merchant } from '../rules/merchant.ts';

export type { Merchant };

const TEST_KEY_DIR = packageFile('vectors/keys');

/** The built-in merchant: TEST-ONLY credentials, public on purpose (`payconform mock --show-test-merchant`). */
export function testMerchant(): Merchant {
  return {
    login: 'payconform-test-merchant',
    merchantControlKey: 'TEST-ONLY-mock-control-key-4c1e',
    publicKeyPem: readFileSync(join(TEST_KEY_DIR, 'test-only-merchant-rsa-2048.pub.pem'), 'utf8'),
    endpointIds: ['1001'],
    endpointGroupIds: ['2001'],
  };
}

export const TEST_MERCHANT_PRIVATE_KEY_FILE = join(TEST_KEY_DIR, 'test-only-merchant-rsa-2048.pem');

/** Validates a parsed merchants file; every problem names its JSON pointer. */
export function parseMerchants(data: unknown, file: string): Merchant[] {
  if (!Array.isArray(data) || data.length === 0)
    throw fieldError('ERR_MERCHANTS', file, 'must be a non-empty JSON array of merchants');
  const seen = new Set<string>();
  return data.map((m: unknown, i) => {
    const at = `${file}: /${i}`;
    const o = (m ?? {}) as Record<string, unknown>;
    for (const key of ['login', 'merchantControlKey']) {
      if (typeof o[key] !== 'string' || o[key] === '')
        throw fieldError('ERR_MERCHANTS', `${at}/${key}`, 'must be a non-empty string');
    }
    for (const key of ['endpointIds', 'endpointGroupIds']) {
      if (!Array.isArray(o[key])) throw fieldError('ERR_MERCHANTS', `${at}/${key}`, 'must be an array of endpoint ids');
      (o[key] as unknown[]).forEach((id, j) => {
        const text = typeof id === 'number' ? String(id) : id;
        if (typeof text !== 'string') throw fieldError('ERR_MERCHANTS', `${at}/${key}/${j}`, 'must be an id');
        checkEndpointId(text, `${at}/${key}/${j}`);
        if (seen.has(text))
          throw fieldError('ERR_MERCHANTS', `${at}/${key}/${j}`, `id ${text} belongs to two merchants`);
        seen.add(text);
      });
    }
    // Optional: a merchant that only uses control-signed endpoints has no RSA key.
    if (o.publicKeyPem !== undefined) {
      if (typeof o.publicKeyPem !== 'string' || o.publicKeyPem === '')
        throw fieldError(
          'ERR_MERCHANTS',
          `${at}/publicKeyPem`,
          'must be a PEM public key, or left out for a merchant without RSA-SHA256 endpoints',
        );
      try {
        loadPublicKey(o.publicKeyPem, `${at}/publicKeyPem`);
      } catch (err) {
        if (isPayconformError(err)) throw fieldError('ERR_MERCHANTS', `${at}/publicKeyPem`, err.rule ?? err.message);
        throw err;
      }
    }
    const ids = (key: string) => (o[key] as Array<string | number>).map(String);
    return {
      login: o.login as string,
      merchantControlKey: o.merchantControlKey as string,
      ...(o.publicKeyPem === undefined ? {} : { publicKeyPem: o.publicKeyPem }),
      endpointIds: ids('endpointIds'),
      endpointGroupIds: ids('endpointGroupIds'),
    };
  });
}

export function readMerchants(file: string): Merchant[] {
  const text = readUserFile(file, file);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw fieldError('ERR_MERCHANTS', file, 'is not JSON');
  }
  return parseMerchants(data, file);
}
