/** `payconform vectors generate | check | explain`: the vector interchange format at the command line. */
import { packageFile } from '../../package-root.ts';
import { readFileSync } from 'node:fs';
import { fieldError, PayconformError } from '../../errors.ts';
import { readUserFile } from '../../read-file.ts';
import { redactPairsInText } from '../../report/redact.ts';
import { explanationText } from '../../signing/explain.ts';
import { checkVector, type VectorResult } from '../../vectors/check.ts';
import { explainVector } from '../../vectors/compute.ts';
import { firstDifference } from '../../signing/first-difference.ts';
import { DEFAULT_SEED, generateVectors } from '../../vectors/generate.ts';
import { isFormatSchema, parseVectorFile, readVectorFile, readVectorText } from '../../vectors/load.ts';
import { SECRETS_BANNER, writePack } from '../../vectors/pack.ts';
import type { Vector } from '../../vectors/types.ts';
import { readTextFile } from '../request-options.ts';
import { DOCUMENT_OUT_OPTIONS, emitDocument } from '../output-file.ts';
import { list, onePositional, str } from '../args.ts';
import type { Command, Io } from '../command.ts';
import { shownExplanation } from '../output.ts';
import { oneLine, shown } from '../terminal-text.ts';

export const TEST_KEY_FILE = packageFile('vectors/keys/test-only-merchant-rsa-2048.pem');

export const vectorsGenerateCommand: Command = {
  spec: {
    name: 'vectors generate',
    summary:
      'Writes a deterministic vector file: every catalogue endpoint with a known scheme (3 vectors each) plus ' +
      'edge cases.',
    usage: 'payconform vectors generate [--out FILE [--force]] [--seed N] [--private-key-file FILE]',
    options: {
      ...DOCUMENT_OUT_OPTIONS,
      seed: {
        type: 'string',
        valueName: 'N',
        description: `seed of the test data, nonces and timestamps (default ${DEFAULT_SEED})`,
      },
      'private-key-file': {
        type: 'string',
        valueName: 'FILE',
        description: 'RSA key for the v4 vectors (default: the TEST-ONLY key in vectors/keys/)',
      },
    },
    epilog: 'The same seed and key give the same bytes. vectors/generated.json is this command with the defaults.',
  },
  run({ values }, io) {
    const seedText = str(values.seed) ?? String(DEFAULT_SEED);
    if (!/^[0-9]{1,10}$/.test(seedText) || Number(seedText) > 0xffffffff)
      throw fieldError('ERR_USAGE', '--seed', 'must be a whole number from 0 to 4294967295');
    const keyFile = str(values['private-key-file']);
    const privateKeyPem =
      keyFile === undefined ? readFileSync(TEST_KEY_FILE, 'utf8') : readUserFile(keyFile, '--private-key-file');
    return emitDocument(
      `${JSON.stringify(generateVectors({ seed: Number(seedText), privateKeyPem }), null, 2)}\n`,
      values,
      io,
    );
  },
};

function reportFailure(io: Io, file: string, v: Vector, result: VectorResult): void {
  // The file's values, masked first, then shown: a vector is a partner's file.
  const show = (text: string): string => shown(redactPairsInText(text, v.request.params));
  const failed = `FAIL ${shown(file)} ${shown(result.id)}`;
  if (result.error) {
    io.stdout(oneLine(`${failed}: cannot compute: ${result.error}`));
    return;
  }
  for (const m of result.mismatches) {
    const diff = firstDifference(m.expected, m.actual);
    if (m.field === 'baseString' && diff) {
      io.stdout(`${failed}: baseString differs at position ${diff.position}`);
      const caret = ' '.repeat(show(diff.expected.slice(0, diff.caret.length)).length);
      io.stdout(`     expected: ${show(diff.expected)}\n     actual:   ${show(diff.actual)}\n               ${caret}^`);
    } else {
      io.stdout(`${failed}: ${shown(m.field)}: expected ${show(m.expected)}, got ${show(m.actual)}`);
    }
  }
}

export const vectorsCheckCommand: Command = {
  spec: {
    name: 'vectors check',
    summary:
      'Recomputes every expected field of every vector (and the verdict and defect of verification vectors). Ends ' +
      'with "N passed, N failed".',
    usage: 'payconform vectors check FILE... [--verbose]',
    options: { verbose: { type: 'boolean', description: 'also list the vectors that pass' } },
    positionals: true,
    epilog:
      'Exit 0 if every vector passed, 1 if any failed, 2 if a file is not a valid payconform-vectors/1 ' +
      'file.\nPlaceholder secrets (<merchant_control_key>, <PRIVATE_KEY>) are filled from ' +
      'PAYCONFORM_CONTROL_KEY and PAYCONFORM_PRIVATE_KEY_FILE.',
  },
  run({ values, positionals }, io) {
    if (positionals.length === 0) throw fieldError('ERR_USAGE', 'FILE', 'give at least one vector file');
    // Validate every file before checking any, so a bad file costs no partial run.
    const keyFile = io.env.PAYCONFORM_PRIVATE_KEY_FILE;
    const secrets = {
      controlKey: io.env.PAYCONFORM_CONTROL_KEY,
      privateKeyPem: keyFile === undefined ? undefined : readTextFile(keyFile, 'PAYCONFORM_PRIVATE_KEY_FILE'),
    };
    // `vectors check vectors/*.json` also names the format's schema: skip it, and say so.
    // Each file is read once; an unreadable one stops the run before any vector is checked.
    const named = positionals
      .map((file) => ({ file, text: readVectorText(file) }))
      .filter(({ file, text }) => {
        const schema = isFormatSchema(text);
        if (schema) io.stderr(`skipping ${file}: the format's JSON Schema, not a vector file`);
        return !schema;
      });
    const files = named.map(({ file, text }) => ({ file, vectors: parseVectorFile(text, file, secrets).vectors }));
    let passed = 0;
    let failed = 0;
    for (const { file, vectors } of files) {
      for (const v of vectors) {
        const result = checkVector(v);
        if (result.passed) {
          passed++;
          if (values.verbose) io.stdout(`ok   ${shown(file)} ${shown(v.id)}`);
        } else {
          failed++;
          reportFailure(io, file, v, result);
        }
      }
    }
    io.stdout(`${passed} passed, ${failed} failed`);
    return failed === 0 ? 0 : 1;
  },
};

export const vectorsExplainCommand: Command = {
  spec: {
    name: 'vectors explain',
    summary: 'Shows the step-by-step computation of one vector (and, for a verification vector, what was sent).',
    usage: 'payconform vectors explain FILE --id ID [--json]',
    options: {
      id: { type: 'string', valueName: 'ID', description: 'the vector id' },
      json: { type: 'boolean', description: 'print one JSON object instead of text' },
    },
    positionals: true,
  },
  run({ values, positionals }, io) {
    const file = onePositional(positionals, 'FILE', 'give exactly one vector file');
    const id = str(values.id);
    if (id === undefined) throw fieldError('ERR_USAGE', '--id', 'required');
    const v = readVectorFile(file).vectors.find((x) => x.id === id);
    if (!v)
      throw new PayconformError('ERR_USAGE', `--id: no vector "${id}" in ${file}`, {
        field: '--id',
        rule: 'must name a vector',
      });
    const explanation = explainVector(v);
    const text = values.json
      ? JSON.stringify({ id: v.id, description: v.description, ...explanation, given: v.given }, null, 2)
      : [
          `${shown(v.id)}: ${shown(v.description ?? '')}`,
          explanationText(shownExplanation(explanation, v.request, false)),
          ...(v.given ? [oneLine(`sent: ${JSON.stringify(v.given)}`)] : []),
        ].join('\n');
    io.stdout(redactPairsInText(text, v.request.params));
    return 0;
  },
};

export const vectorsPackCommand: Command = {
  spec: {
    name: 'vectors pack',
    summary:
      "Writes a partner pack: vectors for the partner's operations, signed with their test credentials, and a " +
      'README per operation with every intermediate value.',
    usage:
      'payconform vectors pack --operation NAME [--operation NAME …] --out DIR [--base-url URL] [--endpoint-id N] ' +
      '[--include-secrets] [--force]',
    options: {
      operation: {
        type: 'string',
        multiple: true,
        valueName: 'NAME',
        description: 'an operation the partner integrates (repeatable)',
      },
      out: {
        type: 'string',
        valueName: 'DIR',
        description: 'folder to write (new or empty; an earlier pack only with --force)',
      },
      'base-url': {
        type: 'string',
        valueName: 'URL',
        description: 'the base URL in the vectors (default https://sandbox.gateway.example/paynet)',
      },
      'endpoint-id': {
        type: 'string',
        valueName: 'N',
        description: 'the endpointId in the vectors (default $PAYCONFORM_ENDPOINT_ID, else varied)',
      },
      'include-secrets': {
        type: 'boolean',
        description: 'write the control key and private key into the pack (test keys only; every file says so first)',
      },
      force: {
        type: 'boolean',
        description:
          "replace an earlier pack's own files (listed in its .payconform-pack.json); nothing else is touched",
      },
    },
    epilog:
      'Credentials come from PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY and PAYCONFORM_PRIVATE_KEY_FILE.\nWithout ' +
      '--include-secrets they appear as <merchant_control_key> and <PRIVATE_KEY>; with it every file is mode ' +
      '0600.',
  },
  run({ values }, io) {
    const out = str(values.out);
    if (out === undefined) throw fieldError('ERR_USAGE', '--out', 'required');
    const keyFile = io.env.PAYCONFORM_PRIVATE_KEY_FILE;
    const files = writePack({
      operations: list(values.operation),
      outDir: out,
      login: io.env.PAYCONFORM_LOGIN,
      controlKey: io.env.PAYCONFORM_CONTROL_KEY,
      privateKeyPem: keyFile === undefined ? undefined : readTextFile(keyFile, 'PAYCONFORM_PRIVATE_KEY_FILE'),
      baseUrl: str(values['base-url']),
      endpointId: str(values['endpoint-id']) ?? io.env.PAYCONFORM_ENDPOINT_ID,
      includeSecrets: values['include-secrets'] === true,
      force: values.force === true,
    });
    if (values['include-secrets'] === true) io.stderr(SECRETS_BANNER);
    io.stdout(files.map((f) => `wrote ${f}`).join('\n'));
    return 0;
  },
};
