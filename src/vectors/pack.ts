/**
 * Partner packs: for the operations a partner integrates, signed with the partner's own test
 * credentials, a vector file and a readable README per operation with every intermediate value, so
 * their code can be compared step by step. Secrets are placeholders unless asked for, and then every
 * file says so first.
 */
import { endpointByOperation } from '../catalogue/index.ts';
import { fieldError } from '../errors.ts';
import { resolveEndpoint } from '../signing/request.ts';
import { signableScheme } from '../signing/sign.ts';
import { join } from 'node:path';
import { generateVectors } from './generate.ts';
import { installPack, PACK_FORMAT, PACK_MARKER, previousPack } from './pack-folder.ts';
import { operationReadme } from './pack-readme.ts';
import { hideSecrets } from './placeholders.ts';
import type { VectorFile } from './types.ts';

export interface PackOptions {
  readonly operations: readonly string[];
  readonly outDir: string;
  readonly login?: string | undefined;
  readonly controlKey?: string | undefined;
  readonly privateKeyPem?: string | undefined;
  readonly baseUrl?: string | undefined;
  readonly endpointId?: string | undefined;
  readonly includeSecrets: boolean;
  readonly force: boolean;
}

export const SECRETS_BANNER =
  'TEST-ONLY SECRETS INCLUDED: this pack contains the credentials given to ' +
  '`payconform vectors pack --include-secrets`. Use it only with test keys.';

function indexReadme(operations: readonly string[], banner: string[], secretsIncluded: boolean): string {
  return [
    ...banner,
    '# Signature vectors for your integration',
    '',
    'Made by `payconform vectors pack` with your test credentials. One folder per operation, each with a README that',
    'walks through every intermediate value; all vectors are in `vectors.json` (format `payconform-vectors/1`).',
    '',
    ...operations.map((op) => `- [${op}](${op}/README.md)`),
    '',
    secretsIncluded
      ? 'Check them with `npx payconform vectors check vectors.json`.'
      : 'Secrets are shown as `<merchant_control_key>` and `<PRIVATE_KEY>`. To check the vectors, set ' +
        '`PAYCONFORM_CONTROL_KEY` and/or\n`PAYCONFORM_PRIVATE_KEY_FILE` to your test credentials and run `npx ' +
        'payconform vectors check vectors.json`.',
    '',
  ].join('\n');
}

export function writePack(options: PackOptions): string[] {
  if (options.operations.length === 0)
    throw fieldError('ERR_NO_OPERATION', '--operation', 'give at least one operation');
  const schemes = new Set(options.operations.map((op) => signableScheme(endpointByOperation(op))));
  const need = (value: string | undefined, field: string, variable: string): void => {
    if (value === undefined || value === '')
      throw fieldError('ERR_CREDENTIALS', field, `missing (set ${variable} to your ` + `test credentials)`);
  };
  need(options.login, 'login', 'PAYCONFORM_LOGIN');
  if (schemes.has('control') || schemes.has('oauth-hmac-sha1'))
    need(options.controlKey, 'control key', 'PAYCONFORM_CONTROL_KEY');
  if (schemes.has('oauth-rsa-sha256')) need(options.privateKeyPem, 'private key', 'PAYCONFORM_PRIVATE_KEY_FILE');
  const previous = previousPack(options.outDir, options.force);
  const operations = options.operations.map((op) => endpointByOperation(op).operation);
  const generated = generateVectors({
    operations,
    login: options.login,
    controlKey: options.controlKey,
    privateKeyPem: options.privateKeyPem,
    baseUrl: options.baseUrl,
    endpointId: options.endpointId,
  });
  const banner = options.includeSecrets ? [SECRETS_BANNER, ''] : [];
  const shared: VectorFile = {
    format: generated.format,
    description:
      `${options.includeSecrets ? `${SECRETS_BANNER} ` : ''}Partner pack for ${operations.join(', ')}, ` +
      `made by payconform vectors pack.`,
    vectors: options.includeSecrets ? generated.vectors : generated.vectors.map(hideSecrets),
  };
  const files = new Map<string, string>([
    ['vectors.json', `${JSON.stringify(shared, null, 2)}\n`],
    ['README.md', indexReadme(operations, banner, options.includeSecrets)],
  ]);
  for (const op of operations) {
    const mine = generated.vectors.filter((v) => resolveEndpoint(v.request.url).endpoint.operation === op);
    files.set(join(op, 'README.md'), operationReadme(op, mine, banner));
  }
  files.set(
    PACK_MARKER,
    `${JSON.stringify({ format: PACK_FORMAT, files: [...files.keys(), PACK_MARKER].sort() }, null, 2)}\n`,
  );
  // Secrets are for the partner alone: with them, every file is readable by its owner only.
  const mode = options.includeSecrets ? 0o600 : 0o644;
  installPack(options.outDir, files, previous, mode);
  return [...files.keys()].map((name) => join(options.outDir, name));
}
