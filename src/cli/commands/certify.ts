/**
 * `payconform certify`: runs the conformance features through cucumber's JavaScript API against the
 * embedded mock (default) or a gateway, and writes the evidence bundle in reports/<UTC>/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline/promises';
import { join, resolve } from 'node:path';
import { fieldError, PayconformError } from '../../errors.ts';
import { defectNamed } from '../../mock/defects.ts';
import { endpointTable, manifestOf, reportStamp, summarize } from '../../report/bundle.ts';
import { targetFromEnv } from '../../suite/target.ts';
import { str } from '../args.ts';
import type { Command, ExitCode, Io } from '../command.ts';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);


function checkBaseUrl(baseUrl: string, live: boolean): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw fieldError('ERR_URL', '--base-url', 'must be an absolute http(s) URL such as https://sandbox.example/paynet');
  }
  if (!/^https?:$/.test(url.protocol)) throw fieldError('ERR_URL', '--base-url', 'must be an http or https URL');
  if (!LOOPBACK.has(url.hostname) && !live) throw fieldError('ERR_USAGE', '--live', `required for a base URL that is not loopback (${url.origin}): a live run sends real requests`);
}

async function confirmLive(io: Io, what: string): Promise<void> {
  io.stderr(what);
  if (io.env.CI === 'true' || !process.stdin.isTTY) return;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  const answer = await rl.question('Proceed? [y/N] ');
  rl.close();
  if (!/^y(es)?$/i.test(answer.trim())) throw new PayconformError('ERR_USAGE', 'live run: not confirmed; nothing was sent', { field: '--live', rule: 'confirmed' });
}

export const certifyCommand: Command = {
  spec: {
    name: 'certify',
    summary: 'Runs the conformance features against the embedded mock (default) or a gateway and writes a redacted evidence bundle.',
    usage: 'payconform certify [--base-url URL] [--tags EXPR] [--parallel N] [--shard I/N] [--report-dir DIR] [--live] [--defect NAME]',
    options: {
      'base-url': { type: 'string', valueName: 'URL', description: 'gateway to certify, including any prefix before /api/ (default: start the embedded mock); credentials come from PAYCONFORM_ENDPOINT_ID, PAYCONFORM_LOGIN, PAYCONFORM_CONTROL_KEY, PAYCONFORM_PRIVATE_KEY_FILE' },
      tags: { type: 'string', valueName: 'EXPR', description: 'cucumber tag expression, e.g. "@endpoint:SALE and not @money"' },
      parallel: { type: 'string', valueName: 'N', description: 'worker processes (default 0: one process, the fastest here for the mock)' },
      shard: { type: 'string', valueName: 'I/N', description: 'run only shard I of N (1-based), for CI matrices' },
      'report-dir': { type: 'string', valueName: 'DIR', description: 'where the bundle goes (default reports/<UTC timestamp>)' },
      defect: { type: 'string', valueName: 'NAME', description: 'run against a deliberately broken embedded mock (payconform mock --list-defects): scenarios are expected to fail; npm run prove runs them all' },
      live: { type: 'boolean', description: 'allow a non-loopback base URL: leaves out @mock-only scenarios, sends only test cards and amounts up to PAYCONFORM_MAX_AMOUNT (default 10.00), asks to confirm unless CI=true' },
    },
    epilog: 'Exit 0 only if every selected scenario passed, 1 if any failed, 2 on bad input. The bundle: report.html, junit.xml, messages.ndjson, summary.json, manifest.json (SHA-256 of each file).',
  },
  async run({ values }, io): Promise<ExitCode> {
    const baseUrl = str(values['base-url']);
    const defect = str(values.defect) === undefined ? undefined : defectNamed(str(values.defect)!);
    if (defect && baseUrl !== undefined) throw fieldError('ERR_USAGE', '--defect', 'applies to the embedded mock only: leave out --base-url');
    const live = values.live === true;
    if (baseUrl !== undefined) checkBaseUrl(baseUrl, live);
    const parallel = str(values.parallel) ?? '0';
    if (!/^[0-9]{1,2}$/.test(parallel)) throw fieldError('ERR_USAGE', '--parallel', 'must be a whole number from 0 to 99');
    const shard = str(values.shard);
    if (shard !== undefined && !(/^([1-9][0-9]*)\/([1-9][0-9]*)$/.test(shard) && Number(shard.split('/')[0]) <= Number(shard.split('/')[1]))) throw fieldError('ERR_USAGE', '--shard', 'must be I/N with 1 ≤ I ≤ N, e.g. 2/4');
    // The steps read the target from the environment: check it here, before anything is sent.
    const env = { ...io.env, ...(baseUrl === undefined ? { PAYCONFORM_BASE_URL: '' } : { PAYCONFORM_BASE_URL: baseUrl }), PAYCONFORM_LIVE: live ? '1' : '', PAYCONFORM_MOCK_DEFECT: defect ?? '' };
    const target = targetFromEnv(env);
    const dir = resolve(str(values['report-dir']) ?? join(ROOT, 'reports', reportStamp()));
    const targetText = baseUrl === undefined ? `the embedded mock gateway (TEST-ONLY merchant)${defect ? `, deliberately broken: ${defect}` : ''}` : new URL(baseUrl).origin + new URL(baseUrl).pathname.replace(/\/+$/, '');
    if (live) await confirmLive(io, `certify: LIVE run against ${targetText} as endpoint ${target.endpointId}: only test cards, amounts up to ${Number(target.maxAmountCents) / 100}, no retries, @mock-only scenarios left out.`);
    mkdirSync(dir, { recursive: true });
    Object.assign(process.env, env);

    const tags = [live ? 'not @mock-only' : undefined, str(values.tags)].filter((t) => t !== undefined).map((t) => `(${t})`).join(' and ');
    // Loaded here, not at the top: cucumber-js costs ~0.3 s of start-up that no other command needs.
    const { loadConfiguration, runCucumber } = await import('@cucumber/cucumber/api');
    const { runConfiguration } = await loadConfiguration({
      // cucumber.json's profiles are for plain `npx cucumber-js`; certify sets the same options itself.
      file: false,
      provided: {
        strict: true,
        paths: [join(ROOT, 'features/**/*.feature')],
        import: [join(ROOT, 'steps/tsx.mjs'), join(ROOT, 'steps/**/*.ts')],
        format: [process.stdout.isTTY ? 'progress-bar' : 'progress', ['html', join(dir, 'report.html')], ['junit', join(dir, 'junit.xml')], ['message', join(dir, 'messages.ndjson')]],
        ...(tags ? { tags } : {}),
        parallel: Number(parallel),
        ...(shard ? { shard } : {}),
      },
    }, { cwd: ROOT, env: process.env });
    io.stderr(`certify: ${targetText}; reports in ${dir}`);
    const { success } = await runCucumber(runConfiguration, { cwd: ROOT, env: process.env });

    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const summary = summarize(readFileSync(join(dir, 'messages.ndjson'), 'utf8'), targetText, { payconform: pkg.version });
    writeFileSync(join(dir, 'summary.json'), `${JSON.stringify({ ...summary, live, tags: summary.tags, selection: tags || 'all', shard: shard ?? null }, null, 2)}\n`);
    writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifestOf(dir), null, 2)}\n`);
    io.stdout(endpointTable(summary));
    io.stdout(`${summary.totals.passed} passed, ${summary.totals.failed} failed, ${summary.totals.other} skipped; bundle: ${dir}`);
    return success && summary.totals.failed === 0 ? 0 : 1;
  },
};
