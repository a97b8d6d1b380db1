/**
 * `payconform bundle verify DIR`: is this certify bundle what the run wrote, and who vouches for it?
 * Every file is checked against the signed digests (manifest.jws) or, unsigned, manifest.json.
 * `payconform bundle merge`: one bundle and one report from the shards of a sharded run.
 */
import { coverageLines, verdictNote } from '../../report/coverage-verdict.ts';
import { bundleSigningKey, MANIFEST_FILE, SIGNATURE_FILE, verifyBundle } from '../../report/bundle-signature.ts';
import { endpointTable, warningsLine, type RunStatus } from '../../report/bundle.ts';
import { causesLines } from '../../report/causes.ts';
import { mergeBundles } from '../../suite/merge.ts';
import { readUserFile } from '../../read-file.ts';
import { parseTrustedKeys, publicKeyOf, trustAll, trustKey, type TrustedKeys } from '../../report/bundle-trust.ts';
import { fieldError } from '../../errors.ts';
import { present } from '../../present.ts';
import { list, onePositional, str, type Parsed } from '../args.ts';
import type { Command, ExitCode, Io } from '../command.ts';
import { oneLine, shown } from '../terminal-text.ts';

export const TRUSTED_KEYS_VARIABLE = 'PAYCONFORM_TRUSTED_KEYS';

export const bundleVerifyCommand: Command = {
  spec: {
    name: 'bundle verify',
    summary:
      'Checks a certify bundle: every file against its signed SHA-256 (manifest.jws), the signature, and that you ' +
      'trust the key that made it.',
    usage: 'payconform bundle verify DIR [--public-key PEM …] [--trusted-keys FILE] [--integrity-only]',
    options: {
      'public-key': {
        type: 'string',
        multiple: true,
        valueName: 'PEM',
        description: "a public key you trust (the merchant's .pub.pem; repeatable)",
      },
      'trusted-keys': {
        type: 'string',
        valueName: 'FILE',
        description:
          `a file of trusted PEM public keys and SHA-256 fingerprints, # comments (default ` +
          `$${TRUSTED_KEYS_VARIABLE})`,
      },
      'integrity-only': {
        type: 'boolean',
        description: 'accept an intact bundle with no proof of origin (unsigned, or signed by a key you did not name)',
      },
    },
    positionals: true,
    epilog: [
      'Exit 0 only for a bundle that is intact and signed by a key you trust (or, with --integrity-only, intact);',
      '1 when a file changed, the signature fails, the key is not one you named (its fingerprint and how to trust it',
      "are printed) or the bundle is unsigned; 2 bad input. Every answer names the run's verdict (PASSED, FAILED …).",
    ].join('\n'),
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const dir = onePositional(positionals, 'DIR', 'give exactly one bundle folder');
    const check = await verifyBundle(dir, trustedKeys(values, io.env));
    // Only a key the user trusts vouches for the verdict; else it is the bundle's word, and says so.
    const verdict = verdictText(check.verdict);
    const claimed = `the bundle claims ${verdict}`;
    const integrityOnly = values['integrity-only'] === true;
    // Each answer one line: a path or a file name from the bundle cannot start a line of its own.
    const print = (line: string): void => io.stdout(oneLine(line));
    if (check.problems.length > 0) {
      print(`NOT INTACT: ${dir}: ${check.problems.join('; ')}; ${claimed}, which cannot be relied on`);
      return 1;
    }
    if (!check.signed) {
      if (integrityOnly) {
        print(`INTACT, no proof of origin: ${dir}: every file matches ${MANIFEST_FILE}, unsigned; ${claimed}`);
        return 0;
      }
      print(
        `UNSIGNED: ${dir}: every file matches ${MANIFEST_FILE}, but nothing proves who made it; ${claimed}, ` +
          `unproven. --integrity-only accepts integrity alone; certify --sign-key signs a bundle`,
      );
      return 1;
    }
    const { keyFingerprint: fingerprint } = check;
    const payload = present(check.payload, 'the payload of an intact signed bundle');
    const made = `${payload.files.length} files match ${SIGNATURE_FILE}`;
    if (check.trusted) {
      print(
        `VERIFIED: ${dir}: ${made}, signed by a key you trust ` +
          `(SHA-256 ${fingerprint}); ${verdict}; ${payload.target}, signed ${payload.signedAt}`,
      );
      return 0;
    }
    if (integrityOnly) {
      print(
        `INTACT, no proof of origin: ${dir}: ${made}, signed by a key you did not name ` +
          `(SHA-256 ${fingerprint}); ${claimed}`,
      );
      return 0;
    }
    print(
      `UNTRUSTED KEY: ${dir}: ${made}, but signed by a key you did not name, SHA-256 ${fingerprint}; ${claimed}, ` +
        `unproven. ` +
        (`If the signer confirms that fingerprint (payconform keygen printed it), trust it with --public-key ` +
          `THEIR.pub.pem or the line "${fingerprint}" in the file of --trusted-keys or ${TRUSTED_KEYS_VARIABLE}`),
    );
    return 1;
  },
};

const RUN_VERDICTS: ReadonlySet<string> = new Set<RunStatus>([
  'passed',
  'passed-with-warnings',
  'partial',
  'partial-with-warnings',
  'failed',
  'interrupted',
]);

/** A verdict word payconform writes, as certify prints it; any other text of the bundle's shown, never obeyed. */
function verdictText(status: string | undefined): string {
  if (status === undefined) return 'no run verdict';
  if (RUN_VERDICTS.has(status)) return `run verdict ${status.toUpperCase().replaceAll('-', ' ')}`;
  return `a run verdict payconform never writes, "${shown(status)}"`;
}

/** Every key the user trusts: each --public-key, and the trusted-keys file of the flag, else of the variable. */
function trustedKeys(values: Parsed['values'], env: Io['env']): TrustedKeys {
  const keys = list(values['public-key']).map((file) =>
    trustKey(publicKeyOf(readUserFile(file, '--public-key'), '--public-key')),
  );
  const flag = str(values['trusted-keys']);
  const variable = env[TRUSTED_KEYS_VARIABLE];
  const [file, field] =
    flag !== undefined ? [flag, '--trusted-keys'] : variable ? [variable, TRUSTED_KEYS_VARIABLE] : [undefined, ''];
  return trustAll([...keys, ...(file === undefined ? [] : [parseTrustedKeys(readUserFile(file, field), field)])]);
}

export const bundleMergeCommand: Command = {
  spec: {
    name: 'bundle merge',
    summary: 'Merges the bundles of a sharded certify run into one bundle and one report.',
    usage: 'payconform bundle merge DIR DIR... --out DIR [--sign-key PEM]',
    options: {
      out: { type: 'string', valueName: 'DIR', description: 'the merged bundle (a new or empty folder)' },
      'sign-key': {
        type: 'string',
        valueName: 'PEM',
        description: 'sign the merged bundle with this RSA private key (as certify --sign-key)',
      },
    },
    positionals: true,
    epilog: [
      'Merges only a whole run: every shard 1..N exactly once, each intact (its manifest, and its signature when ' +
        'signed,',
      'all by one key), finished, of the same target, version, spec, selection and profile. Otherwise exit 1 ' +
        'naming the',
      'missing shard, the odd one out or the changed file, and nothing is written. Exit 0 if the merged run ' +
        'passed, 1 if it failed.',
    ].join('\n'),
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const out = str(values.out);
    if (out === undefined) throw fieldError('ERR_USAGE', '--out', 'required: the folder of the merged bundle');
    const keyFile = str(values['sign-key']);
    const signKey =
      keyFile === undefined ? undefined : bundleSigningKey(readUserFile(keyFile, '--sign-key'), '--sign-key');
    const merged = await mergeBundles(positionals, out, { signKey });
    if ('refused' in merged) {
      io.stdout(oneLine(`NOT MERGED: ${merged.refused}`));
      return 1;
    }
    const { summary } = merged;
    for (const line of causesLines(summary.causes)) io.stdout(oneLine(line));
    io.stdout(endpointTable(summary));
    io.stdout(warningsLine(summary));
    if (summary.coverage) for (const line of coverageLines(summary.coverage)) io.stdout(oneLine(line));
    const { totals } = summary;
    // The verdict word as certify prints it.
    io.stdout(
      `${summary.status.toUpperCase().replaceAll('-', ' ')}: ${totals.passed} passed, ${totals.failed} failed ` +
        `of ${positionals.length} shards${verdictNote(summary.coverage)}; bundle: ${out}${signKey ? ' (signed)' : ''}`,
    );
    return summary.status === 'failed' ? 1 : 0;
  },
};
