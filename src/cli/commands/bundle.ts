/**
 * `payconform bundle verify DIR`: is this certify bundle what the run wrote, and who vouches for it?
 * Every file is checked against the signed digests (manifest.jws) or, unsigned, manifest.json.
 * `payconform bundle merge`: one bundle and one report from the shards of a sharded run.
 */
import { MANIFEST_FILE, SIGNATURE_FILE, verifyBundle } from '../../report/bundle-signature.ts';
import { endpointTable, warningsLine } from '../../report/bundle.ts';
import { mergeBundles } from '../../suite/merge.ts';
import { readUserFile } from '../../read-file.ts';
import { fieldError } from '../../errors.ts';
import { str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';

export const bundleVerifyCommand: Command = {
  spec: {
    name: 'bundle verify',
    summary: 'Checks a certify bundle: every file against its signed SHA-256 (manifest.jws) or manifest.json, and the signature.',
    usage: 'payconform bundle verify DIR [--public-key PEM]',
    options: {
      'public-key': { type: 'string', valueName: 'PEM', description: 'the public key the bundle must be signed with (the merchant\'s .pub.pem); without it, the key in the bundle is used and its fingerprint printed' },
    },
    positionals: true,
    epilog: 'Exit 0 intact (and validly signed, if signed), 1 tampered or wrongly signed (one line naming the file or the reason), 2 bad input.',
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    if (positionals.length !== 1) throw fieldError('ERR_USAGE', 'DIR', 'give exactly one bundle folder');
    const dir = positionals[0]!;
    const keyFile = str(values['public-key']);
    const check = await verifyBundle(dir, keyFile === undefined ? undefined : readUserFile(keyFile, '--public-key'));
    if (check.problems.length > 0) {
      io.stdout(`FAILED: ${dir}: ${check.problems.join('; ')}`);
      return 1;
    }
    const files = check.payload?.files.length;
    if (!check.signed) {
      io.stdout(`INTACT, UNSIGNED: every file matches ${MANIFEST_FILE}; nobody vouches for it (certify --sign-key signs a bundle): ${dir}`);
      return 0;
    }
    const whose = check.keyGiven ? 'the key of --public-key' : `the key in the bundle, SHA-256 ${check.keyFingerprint}: compare it with the merchant's (keygen prints it) or give --public-key`;
    io.stdout(`INTACT, SIGNED: ${files} files match ${SIGNATURE_FILE}, signed by ${whose}; ${check.payload!.target}, ${check.payload!.status}, signed ${check.payload!.signedAt}`);
    return 0;
  },
};

export const bundleMergeCommand: Command = {
  spec: {
    name: 'bundle merge',
    summary: 'Merges the bundles of a sharded certify run into one bundle and one report.',
    usage: 'payconform bundle merge DIR DIR... --out DIR',
    options: { out: { type: 'string', valueName: 'DIR', description: 'the merged bundle (a new or empty folder)' } },
    positionals: true,
    epilog: 'Refuses shards of different targets or payconform versions, a shard given twice and an interrupted one (exit 2). Exit 0 if no scenario of any shard failed, 1 otherwise.',
  },
  async run({ values, positionals }, io): Promise<ExitCode> {
    const out = str(values.out);
    if (out === undefined) throw fieldError('ERR_USAGE', '--out', 'required: the folder of the merged bundle');
    const summary = await mergeBundles(positionals, out);
    io.stdout(endpointTable(summary));
    io.stdout(warningsLine(summary));
    const { totals } = summary;
    // The verdict word as certify prints it.
    io.stdout(`${summary.status.toUpperCase().replaceAll('-', ' ')}: ${totals.passed} passed, ${totals.failed} failed of ${positionals.length} shards; bundle: ${out}`);
    return summary.status === 'failed' ? 1 : 0;
  },
};
