/**
 * `payconform keygen`: a new RSA key pair for RSA-SHA256 (PKCS#8 private key, mode 600; SPKI
 * public key to send to the gateway operator). Never overwrites a file unless --force, and writes
 * through temporary files so an interrupted run leaves nothing half-written.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fieldError } from '../../errors.ts';
import { generateRsaKeyPair, KEY_SIZES, type KeySize } from '../../signing/keys.ts';
import { str } from '../args.ts';
import type { Command } from '../command.ts';
import { writeOutputFiles } from '../output-file.ts';
import { fields } from '../output.ts';

/** The files' prefix: --out as given, or payconform-key inside it when it names a folder (`keys/`). */
function keyPrefix(out: string | undefined): string {
  if (out === undefined) return 'payconform-key';
  const isFolder = out.endsWith('/') || (existsSync(out) && statSync(out).isDirectory());
  return isFolder ? join(out, 'payconform-key') : out;
}

export const keygenCommand: Command = {
  spec: {
    name: 'keygen',
    summary:
      'Writes a new RSA key pair for the /api/v4/ endpoints (RSA-SHA256): PREFIX.pem (private) and PREFIX.pub.pem ' +
      '(public).',
    usage: 'payconform keygen [--bits 2048|3072|4096] [--out PREFIX] [--force]',
    options: {
      bits: { type: 'string', valueName: 'N', description: 'key size: 2048 (default), 3072 or 4096' },
      out: {
        type: 'string',
        valueName: 'PREFIX',
        description:
          'file name prefix (default payconform-key); a folder (keys/) puts payconform-key.pem and .pub.pem in it',
      },
      force: { type: 'boolean', description: 'overwrite existing files' },
      json: { type: 'boolean', description: 'print one JSON object instead of text' },
    },
    epilog:
      'Keep the private key secret; send the public key to the service operator. Use separate pairs for test and ' +
      'production.',
  },
  run({ values }, io) {
    const bits = Number(str(values.bits) ?? '2048');
    if (!KEY_SIZES.includes(bits as KeySize))
      throw fieldError('ERR_USAGE', '--bits', `must be one of ${KEY_SIZES.join(', ')}`);
    const out = str(values.out);
    // An empty prefix would write the hidden files .pem and .pub.pem.
    if (out !== undefined && out.trim() === '')
      throw fieldError('ERR_USAGE', '--out', 'must name a file prefix or a folder, not be empty');
    const prefix = keyPrefix(out);
    const privatePath = `${prefix}.pem`;
    const publicPath = `${prefix}.pub.pem`;
    const { privateKeyPem, publicKeyPem } = generateRsaKeyPair(bits as KeySize);
    writeOutputFiles(
      [
        { path: privatePath, text: privateKeyPem, mode: 0o600 },
        { path: publicPath, text: publicKeyPem, mode: 0o644 },
      ],
      { force: values.force === true, field: '--out' },
    );
    const der = createPublicKey(publicKeyPem).export({ type: 'spki', format: 'der' });
    const fingerprint = createHash('sha256').update(der).digest('base64');
    const report = { bits, privateKeyFile: privatePath, publicKeyFile: publicPath, publicKeySha256: fingerprint };
    io.stdout(
      values.json
        ? JSON.stringify(report, null, 2)
        : fields([
            ['private key', `${privatePath} (${bits}-bit RSA, PKCS#8 PEM, mode 600: keep it secret)`],
            ['public key', `${publicPath} (SPKI PEM: send it to the service operator)`],
            ['fingerprint', `SHA-256 of the public key (DER): ${fingerprint}`],
          ]),
    );
    return 0;
  },
};
