/**
 * The suite runner: checks that the target is safe to run against, runs the conformance features
 * through cucumber's JavaScript API with the target in cucumber's worldParameters (the steps read it
 * there, docs/certify.md), and writes the evidence bundle in the report directory: cucumber's files
 * (messages.ndjson, cucumber.html, junit.xml) made from its messages in a worker thread
 * (report/cucumber-files.ts), then summary.json, report.html and manifest.json.
 * `payconform certify` and `npm run prove` are argument parsing around one call of `runSuite`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import type { IConfiguration, ILoadSupportOptions, IRunEnvironment, ISupportCodeLibrary } from '@cucumber/cucumber/api';
import { PayconformError } from '../errors.ts';
import { COMPILED, PACKAGE_ROOT, packageFile, packageVersion } from '../package-root.ts';
import { manifestOf, reportStamp, summarize, type Summary } from '../report/bundle.ts';
import { withWarnings } from '../report/junit-warnings.ts';
import { coverageOf } from '../report/coverage.ts';
import { selectedTags, withCoverage } from '../report/coverage-verdict.ts';
import { signBundle } from '../report/bundle-signature.ts';
import type { KeyObject } from 'node:crypto';
import { RunRecord } from '../report/run-record.ts';
import { CucumberFiles } from '../report/cucumber-files.ts';
import { claimReportDir, type ClaimedDir } from '../report/report-dir.ts';
import { writeRecordedHar } from '../report/har-file.ts';
import { writeInterruptedBundle } from './interrupt.ts';
import { reportNotWritten, writeFailureOf } from './write-failure.ts';
import { checkTargetChoice } from './live-safety.ts';
import { checkAnswersHttp } from '../answers-http.ts';
import { CAUSE_FACTS } from '../report/causes.ts';
import { certificateProof, specSha256, writeCertificationPage, type RunFacts } from './certificate.ts';
import { deviationLine, profileDeviations } from './profile.ts';
import { maskLogin } from '../report/certification-page.ts';
import { progressReporter } from './progress.ts';
import { checkSelected, checkTagExpression, shardSize } from './selection.ts';
import { targetParameters, type Target } from './target.ts';
import { EXPLORE_PARAMETER, exploreSettings, type ExploreSettings } from '../explore/settings.ts';

/** One run of the suite: the target carries the gateway profile and whether assumption misses fail (--strict). */
export interface SuiteRun {
  readonly target: Target;
  /** A cucumber tag expression (default: every scenario); a live run also leaves out @mock-only. */
  readonly tags?: string | undefined;
  /** Files the caller keeps in reportDir beside the bundle (prove's console.log). */
  readonly callersFiles?: readonly string[] | undefined;
  /** Replace an earlier run's files in reportDir (never anything else). */
  readonly force?: boolean | undefined;
  /** Only shard I of N, written `I/N` (1-based), for CI matrices. */
  readonly shard?: string | undefined;
  /** Worker processes; 0 (the default) runs the steps in this process. */
  readonly parallel?: number | undefined;
  /** Where the bundle goes (default reports/<UTC timestamp>); made if missing. */
  readonly reportDir?: string | undefined;
  /** Aborted on SIGINT or SIGTERM: the run stops and leaves a bundle that says it was interrupted. */
  readonly signal?: AbortSignal | undefined;
  /** Signs the bundle (manifest.jws, RS256) with this RSA key (bundleSigningKey). */
  readonly signKey?: KeyObject | undefined;
  /** Capabilities that fail the run when not exercised (--require), besides the profile's `require`. */
  readonly require?: readonly string[] | undefined;
  /** The generated checks' seed and runs per property (--seed, --explore); a fresh seed when none is given. */
  readonly explore?: Partial<ExploreSettings> | undefined;
  /** Write every exchange of the run, redacted, to this new HAR file (certify --record). */
  readonly record?: string | undefined;
}

export interface RunIo {
  /** A line for the person running: what is certified, where the bundle goes. */
  readonly log: (line: string) => void;
  /** Where cucumber's progress goes (default this process's standard output). */
  readonly progress?: Writable | undefined;
  /** Asked before a live run, after the line saying what it will do; without it a live run is refused. */
  readonly confirmLive?: (() => Promise<boolean>) | undefined;
}

export interface RunOutcome {
  /** No selected scenario failed (warnings allowed), and the run was not interrupted. */
  readonly passed: boolean;
  /** Scenarios selected, and finished before the end (all of them unless interrupted). */
  readonly selected: number;
  readonly finished: number;
  readonly summary: Summary;
  /** The bundle's directory. */
  readonly dir: string;
}

export async function runSuite(run: SuiteRun, io: RunIo): Promise<RunOutcome> {
  // Everything a person can get wrong is checked before anything is made or sent.
  checkTargetChoice(run.target);
  checkTagExpression(run.tags);
  // Reports belong to the user's folder, not to wherever payconform is installed; each run has its own.
  const claim = claimReportDir(run.reportDir, run.force === true, reportStamp(), { callersFiles: run.callersFiles });
  const state = { started: false };
  // Each process writes its exchanges here; the HAR is made of them once the run is over, interrupted or not.
  const recordDir = run.record === undefined ? undefined : mkdtempSync(join(tmpdir(), 'payconform-record-'));
  let outcome: RunOutcome | undefined;
  try {
    outcome = await runInto(
      claim,
      recordDir === undefined ? run : { ...run, target: { ...run.target, recordDir } },
      io,
      state,
    );
    return outcome;
  } finally {
    if (recordDir !== undefined && run.record !== undefined) {
      if (state.started) {
        const whole = outcome !== undefined && outcome.summary.status !== 'interrupted';
        const note = whole ? undefined : 'the run was interrupted: not every exchange of its selection is here';
        const n = writeRecordedHar(recordDir, run.record, packageVersion(), note);
        io.log(`${n} exchanges recorded in ${run.record}`);
      }
      rmSync(recordDir, { recursive: true, force: true });
    }
    // A run that never started leaves no folder of its own behind; one that did keeps its bundle.
    if (state.started) claim.release();
    else claim.abandon();
  }
}

async function runInto(claim: ClaimedDir, run: SuiteRun, io: RunIo, state: { started: boolean }): Promise<RunOutcome> {
  const { target } = run;
  const { dir } = claim;
  const described = describeTarget(target);
  const tags = [target.live ? 'not @mock-only' : undefined, run.tags]
    .filter((t) => t !== undefined)
    .map((t) => `(${t})`)
    .join(' and ');
  const progress = io.progress ?? process.stdout;
  const explore = exploreSettings(run.explore?.seed, run.explore?.runs);
  // Loaded here, not at the top: cucumber-js costs ~0.3 s of start-up that no other command needs.
  const { loadConfiguration, loadSources } = await import('@cucumber/cucumber/api');
  // Cucumber's own console output (progress dots, its summary) goes nowhere: progressReporter and
  // certify's table say it better.
  const environment: IRunEnvironment = {
    cwd: PACKAGE_ROOT,
    env: process.env,
    stdout: new PassThrough().resume(),
    stderr: process.stderr,
  };
  const { runConfiguration } = await loadConfiguration(
    {
      // cucumber.json's profiles are for plain `npx cucumber-js`; the runner sets the same options itself.
      file: false,
      provided: {
        strict: true,
        paths: [packageFile('features/**/*.feature')],
        // The step code of the kind this process runs: compiled (installed) or TypeScript through tsx.
        import: COMPILED
          ? [packageFile('dist/steps/**/*.js')]
          : [packageFile('steps/tsx.mjs'), packageFile('steps/**/*.ts')],
        // Progress is ours (progressReporter): scenarios, failures and warnings, which cucumber's own formatters cannot
        // count. cucumber's files (messages.ndjson, cucumber.html, junit.xml) are made off this thread from the same
        // messages (report/cucumber-files.ts); report.html is the certification page (certificate.ts).
        // Cucumber always runs a formatter on stdout (progress, if none is named), here into a stream that is
        // thrown away: rerun is the one that does nothing until the end, and then writes a line per failure.
        format: ['rerun'],
        ...(tags ? { tags } : {}),
        parallel: run.parallel ?? 0,
        ...(run.shard ? { shard: run.shard } : {}),
        // As JSON, exactly what a worker process receives.
        worldParameters: JSON.parse(
          JSON.stringify({ ...targetParameters(target), [EXPLORE_PARAMETER]: explore }),
        ) as IConfiguration['worldParameters'],
      },
    },
    environment,
  );
  const tagged = (await loadSources(runConfiguration.sources, environment)).plan.length;
  checkSelected(tagged, run.tags, run.shard);
  const selected = shardSize(tagged, run.shard);
  if (target.live) {
    io.log(
      `LIVE run against ${described} as endpoint ${target.endpointId}: only test cards, amounts up ` +
        `to ${Number(target.maxAmountCents) / 100}, no retries, @mock-only scenarios left out.`,
    );
    if (!(await io.confirmLive?.()))
      throw new PayconformError('ERR_LIVE_RUN', 'live run: not confirmed; nothing was sent', {
        field: '--live',
        rule: 'confirmed',
      });
  }
  if (target.baseUrl !== undefined) await checkAnswersHttp(target.baseUrl, '--base-url', 'no scenario was run');
  state.started = true;
  io.log(`${described}; ${selected} scenario${selected === 1 ? '' : 's'}; reports in ${dir}`);
  io.log(
    `generated checks: seed ${explore.seed} (replay: --seed ${explore.seed}), ` +
      `${explore.runs === undefined ? "each family's default runs" : `${explore.runs} runs`} per property`,
  );
  try {
    return await runAndWrite(
      claim,
      { ...run, explore },
      {
        runConfiguration,
        environment,
        selected,
        described,
        tags,
        progress,
      },
    );
  } catch (err) {
    const cause = writeFailureOf(err);
    throw cause === undefined ? err : reportNotWritten(dir, cause);
  }
}

interface Prepared {
  readonly runConfiguration: Awaited<
    ReturnType<typeof import('@cucumber/cucumber/api').loadConfiguration>
  >['runConfiguration'];
  readonly environment: IRunEnvironment;
  readonly selected: number;
  readonly described: string;
  readonly tags: string;
  readonly progress: Writable;
}

/**
 * Runs the selected scenarios and writes the bundle (summary, JUnit warnings, certification page, manifest, signature).
 */
async function runAndWrite(claim: ClaimedDir, run: SuiteRun, prepared: Prepared): Promise<RunOutcome> {
  // Started first: the thread loads its formatters while this one loads the steps.
  const files = new CucumberFiles(claim.dir);
  try {
    return await runWithFiles(claim, run, prepared, files);
  } finally {
    await files.stop(); // a failed run's thread writes nothing after the failure is handled
  }
}

async function runWithFiles(
  claim: ClaimedDir,
  run: SuiteRun,
  prepared: Prepared,
  files: CucumberFiles,
): Promise<RunOutcome> {
  const { target } = run;
  const { dir } = claim;
  const { runConfiguration, environment, selected, described, tags, progress } = prepared;
  const { runCucumber } = await import('@cucumber/cucumber/api');
  const support = await supportCode(runConfiguration, environment);
  // Every message goes into one record as it comes: progress, the summary and the page all read it.
  const record = new RunRecord();
  const reporter = progressReporter(selected, progress);
  const execute = () =>
    runCucumber({ ...runConfiguration, support }, environment, (e) => {
      record.add(e);
      files.add(e);
      reporter.update(record);
    });
  const running = runConfiguration.runtime.parallel === 0 ? oneAtATime(execute) : execute();
  const stopped = await Promise.race([running.then(({ success }) => ({ success })), aborted(run.signal)]);
  reporter.end();
  claim.release(); // before the manifest lists the folder's files

  const versions = { payconform: packageVersion() };
  const extra: RunFacts = {
    live: target.live,
    strict: target.strict,
    profile: target.profile.name,
    deviations: profileDeviations(target.profile).map(deviationLine),
    selection: tags || 'all',
    shard: run.shard ?? null,
    merchant: target.credentials.login ? maskLogin(target.credentials.login) : undefined,
    endpointIds: [target.endpointId],
    specSha256: specSha256(),
  };
  if (stopped === 'aborted') {
    running.catch(() => undefined);
    await files.stop(); // before the interrupted bundle removes what the thread had begun
    const summary = writeInterruptedBundle(dir, record, described, versions, extra, (s) =>
      writeCertificationPage(dir, record, s, extra, true, target.credentials.login),
    );
    await signIfAsked(run.signKey, dir, summary);
    return { passed: false, selected, finished: record.finished, summary, dir };
  }
  // The thread finishes cucumber's files while this one makes the summary and the page.
  const junit = files.finish();
  junit.catch(() => undefined); // awaited below; a summary that cannot be written fails first
  const summary = withCoverage(
    summarize(record, described, versions, CAUSE_FACTS),
    coverageOf(record.results, {
      selection: selectedTags(record.envelopes, tags),
      tags: tags || 'all',
      shard: run.shard ?? null,
      profile: target.profile.name,
      live: target.live,
      required: [...new Set([...(run.require ?? []), ...target.profile.require])],
    }),
  );
  const proof = certificateProof(record.results);
  writeFileSync(
    join(dir, 'summary.json'),
    `${JSON.stringify({ ...summary, ...extra, explore: run.explore, proof, tags: summary.tags }, null, 2)}
`,
  );
  writeCertificationPage(dir, record, summary, extra, false, target.credentials.login);
  writeFileSync(join(dir, 'junit.xml'), withWarnings(await junit, summary));
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifestOf(dir), null, 2)}\n`);
  await signIfAsked(run.signKey, dir, summary);
  return {
    passed: stopped.success && summary.status !== 'failed',
    selected,
    finished: record.finished,
    summary,
    dir,
  };
}

/** manifest.jws over the finished bundle, when a signing key was given. */
async function signIfAsked(key: KeyObject | undefined, dir: string, summary: Summary): Promise<void> {
  if (key === undefined) return;
  await signBundle(dir, key, {
    payconform: packageVersion(),
    target: summary.target,
    status: summary.status,
    startedAt: summary.startedAt ?? '',
    finishedAt: summary.finishedAt ?? '',
  });
}

/** Resolves 'aborted' when the signal fires (never, without one). */
function aborted(signal: AbortSignal | undefined): Promise<'aborted'> {
  return new Promise((resolve) => {
    if (signal?.aborted) resolve('aborted');
    signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
  });
}

/** The target as the bundle and the console name it: never a credential. */
function describeTarget(target: Target): string {
  if (target.baseUrl === undefined)
    return (
      `the embedded mock gateway (TEST-ONLY ` +
      `merchant)${target.defect ? `, deliberately broken: ${target.defect}` : ''}`
    );
  const url = new URL(target.baseUrl);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

// The step files are ES modules: a process imports them once, so every run of the process shares
// the support code loaded by the first (cucumber-js docs/javascript_api.md, "Preloading and reusing
// support code").
let support: Promise<ISupportCodeLibrary> | undefined;
async function supportCode(
  configuration: ILoadSupportOptions,
  environment: IRunEnvironment,
): Promise<ISupportCodeLibrary> {
  const { loadSupport } = await import('@cucumber/cucumber/api');
  support ??= loadSupport(configuration, environment);
  return support;
}

// Steps that run in this process keep per-process state (the client, the embedded mock): two such
// runs at once would share it, so they take turns. Runs with workers have a process each.
let inProcess: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(task: () => Promise<T>): Promise<T> {
  const result = inProcess.then(task);
  inProcess = result.catch(() => undefined);
  return result;
}
