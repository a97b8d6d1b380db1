/**
 * `payconform certify`: the suite runner (src/suite/run.ts) on the command line. Runs the conformance
 * features against the embedded mock (default) or a gateway and writes the evidence bundle in
 * reports/<UTC>/.
 */
import { bundleSigningKey } from '../../report/bundle-signature.ts';
import { readUserFile } from '../../read-file.ts';
import { createInterface } from 'node:readline/promises';
import { fieldError } from '../../errors.ts';
import { RECORD_OPTION, recordFile } from '../record-option.ts';
import { defectNamed } from '../../mock/index.ts';
import { endpointTable, warningsLine } from '../../report/bundle.ts';
import { requiredCapabilities } from '../../report/coverage.ts';
import { coverageLines, verdictNote } from '../../report/coverage-verdict.ts';
import { causesLines } from '../../report/causes.ts';
import { deviationLine, profileDeviations, readProfile } from '../../suite/profile.ts';
import { MAX_SEED } from '../../explore/settings.ts';
import { runSuite } from '../../suite/run.ts';
import { resolveTarget } from '../../suite/target.ts';
import { wholeNumber } from '../../whole-number.ts';
import { maxAnswerBytes } from '../../capped-answer.ts';
import { list, str } from '../args.ts';
import { MAX_ANSWER_BYTES_OPTION } from '../request-options.ts';
import type { Command, ExitCode, Io } from '../command.ts';
import { oneLine } from '../terminal-text.ts';

/**
 * A live run is confirmed by --yes or CI=true, else asked on the terminal; without a terminal to ask
 * on, it is refused (a script that forgot --yes must not send real requests).
 */
async function confirmOnTerminal(io: Io, yes: boolean): Promise<boolean> {
  if (yes || io.env.CI === 'true') return true;
  if (!process.stdin.isTTY)
    throw fieldError(
      'ERR_USAGE',
      '--live',
      'no terminal to confirm on: add --yes (or set CI=true) to run without asking',
    );
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question('Proceed? [y/N] ');
  rl.close();
  return /^y(es)?$/i.test(answer.trim());
}

/** The suite's step timeout (steps/support/hooks.ts): a request's deadline must end before it, to be the cause told. */
const stepTimeoutMs = (env: Io['env']): number =>
  wholeNumber(env.PAYCONFORM_STEP_TIMEOUT_MS || undefined, 'PAYCONFORM_STEP_TIMEOUT_MS', 2, 86_400_000) ?? 30_000;

export const certifyCommand: Command = {
  spec: {
    name: 'certify',
    summary:
      'Runs the conformance features against the embedded mock (default) or a gateway and writes a redacted ' +
      'evidence bundle.',
    usage:
      'payconform certify [--base-url URL] [--profile FILE] [--strict] [--tags EXPR] [--parallel N] [--shard I/N] ' +
      '[--report-dir DIR [--force]] [--live [--yes]] [--sign-key PEM] [--defect NAME] [--require CAPABILITY …] ' +
      '[--timeout-ms MS] [--max-answer-bytes N] [--explore N] [--seed S] [--record FILE.har]',
    options: {
      'base-url': {
        type: 'string',
        valueName: 'URL',
        description:
          'gateway to certify, including any prefix before /api/ (default: start the embedded mock); credentials ' +
          'come from PAYCONFORM_ENDPOINT_ID, PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, ' +
          'PAYCONFORM_PRIVATE_KEY_FILE',
      },
      profile: {
        type: 'string',
        valueName: 'FILE',
        description:
          'a gateway profile (JSON): its error codes, answer field names, final statuses, poll timing, test cards ' +
          'and amounts, scenarios that do not apply (docs/certify.md; profiles/mock.json is the embedded ' +
          "mock's)",
      },
      strict: {
        type: 'boolean',
        description:
          'fail, not warn, where the gateway differs from an assumption of docs/assumptions.md (always so against ' +
          'the embedded mock)',
      },
      tags: {
        type: 'string',
        valueName: 'EXPR',
        description: 'cucumber tag expression, e.g. "@endpoint:SALE and not @money"',
      },
      parallel: {
        type: 'string',
        valueName: 'N',
        description: 'worker processes (default 0: one process, the fastest here for the mock)',
      },
      shard: { type: 'string', valueName: 'I/N', description: 'run only shard I of N (1-based), for CI matrices' },
      'report-dir': {
        type: 'string',
        valueName: 'DIR',
        description: 'where the bundle goes: a new or empty folder (default reports/<UTC timestamp>, its own per run)',
      },
      force: {
        type: 'boolean',
        description: "replace an earlier run's files in --report-dir (a folder holding anything else is refused)",
      },
      ...RECORD_OPTION,
      defect: {
        type: 'string',
        valueName: 'NAME',
        description:
          'run against a deliberately broken embedded mock (payconform mock --list-defects): scenarios are ' +
          'expected to fail; npm run prove runs them all',
      },
      live: {
        type: 'boolean',
        description:
          'allow a non-loopback base URL: leaves out @mock-only scenarios, sends only test cards and amounts up ' +
          'to PAYCONFORM_MAX_AMOUNT (default 10.00), asks to confirm on the terminal; without one it refuses ' +
          'unless --yes or CI=true',
      },
      yes: { type: 'boolean', description: 'confirm a --live run without asking' },
      require: {
        type: 'string',
        multiple: true,
        valueName: 'CAPABILITY',
        description:
          'fail the run (exit 1) when this capability was not exercised, e.g. callbacks, endpoint-groups, ' +
          'endpoint:SALE, scheme:oauth-rsa-sha256, flow:PREAUTH+CAPTURE (repeat it or separate by commas; a ' +
          "profile's require adds to it); without it a run that misses one is PARTIAL, exit 0",
      },
      'timeout-ms': {
        type: 'string',
        valueName: 'MS',
        description:
          "deadline of each request, from sending to the answer's last byte (default 20000; below the step " +
          'timeout $PAYCONFORM_STEP_TIMEOUT_MS): a gateway that trickles its answer fails there',
      },
      ...MAX_ANSWER_BYTES_OPTION,
      explore: {
        type: 'string',
        valueName: 'N',
        description:
          'runs per property of the generated checks (features/generated; default: a small budget per family, ' +
          'docs/certify.md "Generated checks")',
      },
      seed: {
        type: 'string',
        valueName: 'S',
        description:
          `the generated checks' seed (0 to ${MAX_SEED}): replays a run's requests (default: a fresh one, ` +
          'printed and kept in summary.json)',
      },
      'sign-key': {
        type: 'string',
        valueName: 'PEM',
        description:
          "sign the bundle with this RSA private key (≥ 2048 bits; the merchant's v4 key serves): manifest.jws, " +
          'checked by payconform bundle verify',
      },
    },
    epilog:
      'Checked before anything runs: the options, the tag expression (a selection of no scenario is an error), ' +
      'the report folder and, with --base-url, that the gateway answers HTTP. Exit 0 if no selected scenario ' +
      'failed (warnings, where a gateway differs from an assumption, do not fail a run unless --strict; a run ' +
      'that missed a capability of its selection is PARTIAL), 1 if any failed or a --require capability was ' +
      'not exercised, 2 on bad input, 130 when interrupted (SIGINT, SIGTERM). The bundle: report.html (the ' +
      'certification page), cucumber.html, junit.xml, messages.ndjson, summary.json, manifest.json (SHA-256 ' +
      'of each file), and with --sign-key manifest.jws.',
  },
  async run({ values }, io): Promise<ExitCode> {
    const defectName = str(values.defect);
    const defect = defectName === undefined ? undefined : defectNamed(defectName);
    const profileFile = str(values.profile);
    const profile = profileFile === undefined ? undefined : readProfile(profileFile);
    const step = stepTimeoutMs(io.env);
    const choice = {
      baseUrl: str(values['base-url']),
      live: values.live === true,
      defect,
      strict: values.strict === true,
      profile,
      // By default the deadline ends a second before the step would, so the deadline is the cause the run names.
      timeoutMs:
        wholeNumber(str(values['timeout-ms']), '--timeout-ms', 1, step - 1) ??
        Math.max(1, Math.min(20_000, step - 1_000)),
      maxAnswerBytes: maxAnswerBytes(str(values['max-answer-bytes'])),
    };
    const parallel = wholeNumber(str(values.parallel), '--parallel', 0, 99) ?? 0;
    const shard = str(values.shard);
    const record = recordFile(str(values.record));
    if (
      shard !== undefined &&
      !(/^([1-9][0-9]*)\/([1-9][0-9]*)$/.test(shard) && Number(shard.split('/')[0]) <= Number(shard.split('/')[1]))
    )
      throw fieldError('ERR_USAGE', '--shard', 'must be I/N with 1 ≤ I ≤ N, e.g. 2/4');
    const require = requiredCapabilities(list(values.require), '--require');
    const signKeyFile = str(values['sign-key']);
    const signKey =
      signKeyFile === undefined ? undefined : bundleSigningKey(readUserFile(signKeyFile, '--sign-key'), '--sign-key');
    const explore = {
      runs: wholeNumber(str(values.explore), '--explore', 1, 100_000),
      seed: wholeNumber(str(values.seed), '--seed', 0, MAX_SEED),
    };
    const interrupt = new AbortController();
    const stop = (): void => interrupt.abort();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    const target = resolveTarget(choice, io.env);
    const outcome = await runSuite(
      {
        target,
        tags: str(values.tags),
        shard,
        parallel,
        reportDir: str(values['report-dir']),
        force: values.force === true,
        signal: interrupt.signal,
        signKey,
        require,
        explore,
        record,
      },
      {
        log: (line) => io.stderr(oneLine(`certify: ${line}`)),
        confirmLive: () => confirmOnTerminal(io, values.yes === true),
      },
    ).finally(() => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    });
    const { totals, status } = outcome.summary;
    if (status === 'interrupted') {
      io.stderr(
        `certify: interrupted after ${outcome.finished} of ${outcome.selected} scenarios; the bundle says so ` +
          `(summary.json "status": "interrupted"): ${outcome.dir}`,
      );
      return 130;
    }
    for (const line of causesLines(outcome.summary.causes)) io.stdout(oneLine(line));
    io.stdout(endpointTable(outcome.summary));
    io.stdout(warningsLine(outcome.summary));
    // What was exercised comes before the verdict it bears on.
    if (outcome.summary.coverage) for (const line of coverageLines(outcome.summary.coverage)) io.stdout(oneLine(line));
    const deviations = profileDeviations(target.profile);
    for (const d of deviations) io.stdout(oneLine(`deviation declared by the profile: ${deviationLine(d)}`));
    const declared = deviations.length ? ', with deviations declared by the profile' : '';
    io.stdout(
      `${status.toUpperCase().replaceAll('-', ' ')}: ${totals.passed} passed, ${totals.failed} ` +
        `failed, ${totals.warned} with warnings, ${totals.notApplicable} not applicable, ${totals.other} ` +
        `skipped${declared}${verdictNote(outcome.summary.coverage)}; bundle: ${outcome.dir}`,
    );
    return outcome.passed ? 0 : 1;
  },
};
