/**
 * `payconform inspect`: listens for the requests of a merchant's own integration, judges each one
 * check by check, answers as the embedded mock (or relays a sandbox's answer with --upstream), and
 * on exit writes a report in reports/inspect-<UTC>/ (docs/inspect.md).
 */
import { join } from 'node:path';
import { fieldError } from '../../errors.ts';
import { appendFileSync, rmSync } from 'node:fs';
import { harEntryOf, type RecordedExchange } from '../../report/har.ts';
import { writeRecordedHar } from '../../report/har-file.ts';
import { RECORD_OPTION, recordFile, recordLinesDir } from '../record-option.ts';
import { packageVersion } from '../../package-root.ts';
import { startListener } from '../../inspect/listener.ts';
import { INSPECT_RUN_FILES, noRequestLine, recordLine, writeInspectReport } from '../../inspect/report.ts';
import type { InspectMeta } from '../../inspect/report-model.ts';
import { causesLines } from '../../report/causes.ts';
import { checkAnswersHttp } from '../../answers-http.ts';
import { testMerchant } from '../../gateway/merchants.ts';
import { reportStamp } from '../../report/bundle.ts';
import { claimReportDir } from '../../report/report-dir.ts';
import { wholeNumber } from '../../whole-number.ts';
import { maxAnswerBytes } from '../../capped-answer.ts';
import { MAX_ANSWER_BYTES_OPTION } from '../request-options.ts';
import { ADMIN_TOKEN_FILE_OPTION, announceAdminToken } from '../admin-token.ts';
import { str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';
import {
  announceListening,
  CALLBACK_METHOD_OPTION,
  callbackHosts,
  callbackMethod,
  callbackStateUrl,
  cannotListen,
  LISTENER_OPTIONS,
  listenerSettings,
} from '../listener-options.ts';
import type { CallbackRecord } from '../../inspect/callback-checks.ts';
import { callbackLine, RETURN_KIND } from '../../inspect/callback-report.ts';
import type { ReturnRecord } from '../../inspect/return-checks.ts';
import { customerLine } from '../../inspect/customer-steps.ts';
import { oneLine } from '../terminal-text.ts';
import { faultsLine, readFaults } from '../../gateway/fault-settings.ts';

/** How long inspect waits, on stop, for callback and return checks under way before it writes the report. */
const CALLBACK_WAIT_MS = 30_000;
/** The same after SIGINT or SIGTERM, which must end inspect within 5 s. */
const SIGNAL_CALLBACK_WAIT_MS = 2_000;

type StopCause = NonNullable<InspectMeta['stoppedBy']>;

/** The callback checks not played or judged only by the answers: said beside the count, never read as passed. */
function callbackOpen(notPlayed: number, notJudged: number): string {
  const parts = [
    ...(notPlayed ? [`${notPlayed} checks not played`] : []),
    ...(notJudged ? [`${notJudged} judged by the answers alone (no --callback-state)`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

export const inspectCommand: Command = {
  spec: {
    name: 'inspect',
    summary:
      "Listens for your integration's requests, judges each against the spec check by check (signature mistakes " +
      'named), answers as the mock or relays a sandbox, and writes a report.',
    usage:
      'payconform inspect [--port N] [--host ADDRESS] [--merchants FILE] [--window-seconds S] [--upstream URL] ' +
      '[--report-dir DIR [--force]] [--until-requests N] [--duration S] [--callback-checks] ' +
      '[--callback-method GET|POST] [--callback-hosts LIST] [--callback-state URL] [--return-checks] ' +
      '[--timeout-ms MS] [--max-answer-bytes N] [--admin-token-file FILE] [--faults FILE] [--record FILE.har]',
    options: {
      port: LISTENER_OPTIONS.port,
      host: LISTENER_OPTIONS.host,
      merchants: LISTENER_OPTIONS.merchants,
      'admin-token-file': ADMIN_TOKEN_FILE_OPTION,
      ...RECORD_OPTION,
      upstream: {
        type: 'string',
        valueName: 'URL',
        description:
          'a sandbox origin to forward every request to, path unchanged, relaying its answer; OAuth signatures ' +
          "are judged for the sandbox's URL, which is what it verifies (default: answer as the embedded mock)",
      },
      'report-dir': {
        type: 'string',
        valueName: 'DIR',
        description: 'where the report goes, a new or empty folder (default reports/inspect-<UTC timestamp>)',
      },
      force: {
        type: 'boolean',
        description:
          "replace an earlier inspect run's files in --report-dir (a folder holding anything else is refused)",
      },
      'timeout-ms': {
        type: 'string',
        valueName: 'MS',
        description:
          "with --upstream: deadline of each relayed request, from sending to the answer's last byte (default " +
          '30000); past it the merchant gets the answer cut and the request counts as not answered',
      },
      ...MAX_ANSWER_BYTES_OPTION,
      'until-requests': { type: 'string', valueName: 'N', description: 'stop after N requests' },
      duration: { type: 'string', valueName: 'S', description: 'stop after S seconds' },
      'window-seconds': LISTENER_OPTIONS['window-seconds'],
      'callback-checks': {
        type: 'boolean',
        description:
          'for each order that reaches a final status with a notify_url or server_callback_url, play the ' +
          "gateway's callbacks against your handler: forged, another amount, an unknown order (none may get " +
          '2xx), then two identical ones at once, the genuine one twice, a late one with another status, a ' +
          'chargeback and one after the retry window (each must get 200); docs/callbacks.md',
      },
      'callback-method': CALLBACK_METHOD_OPTION,
      'callback-state': {
        type: 'string',
        valueName: 'URL',
        description:
          "with --callback-checks: your shop's state, asked GET URL?client_orderid=ID and answering " +
          '{"paid": "10.00"} (what it holds as paid for the order), so each check also judges what the callbacks ' +
          'did (booked once, nothing changed, a chargeback lowers it); without it only the answers are judged, ' +
          'and each check says what was not; loopback or --callback-hosts only',
      },
      'return-checks': {
        type: 'boolean',
        description:
          "for each order that reaches a final status with a redirect_url, play the payer's return (the final " +
          'redirect, a form POST) against your return page: forged control, a status changed, an unknown order ' +
          "(none may get 2xx or the genuine return's page), the genuine one twice (both a page or a redirect); " +
          'docs/callbacks.md',
      },
      'callback-hosts': {
        type: 'string',
        valueName: 'LIST',
        description:
          'comma-separated host names callbacks and returns may go to besides loopback (default: loopback only)',
      },
      faults: {
        type: 'string',
        valueName: 'FILE',
        description:
          "faults and latency for the whole run on the embedded mock's answers, seeded: JSON " +
          '{"seed", "latencyMs", "rates"} (not with --upstream; docs/mock.md, "Faults for a whole run")',
      },
    },
    epilog:
      'Stops on SIGINT/SIGTERM, --until-requests or --duration, then writes report.html, report.json, junit.xml ' +
      'and manifest.json. A request the gateway refused (4xx, 5xx, no answer) counts as failed even when ' +
      "every check passed. The customer's browser on the embedded mock's hosted pages (checkout, 3-D Secure) " +
      'is served and shown as context (customer: lines), never judged or counted. Exit 0 only if every ' +
      'request (and, with --callback-checks or --return-checks, every callback and return check) passed, 1 ' +
      'otherwise (a run no request reached says so), 2 on bad input (a dead --upstream included, found before ' +
      'listening). Before the report, inspect waits up to 30 s for callback and return checks under way (2 s ' +
      'after SIGINT or SIGTERM, which end inspect within 5 s; report.json then says "interrupted": true).',
  },
  async run({ values }, io): Promise<ExitCode> {
    const upstream = str(values.upstream);
    if (upstream !== undefined && !/^https?:\/\/[^/?#]+\/?$/.test(upstream))
      throw fieldError(
        'ERR_USAGE',
        '--upstream',
        'must be an origin such as https://sandbox.example (paths are forwarded unchanged)',
      );
    const untilRequests = wholeNumber(str(values['until-requests']), '--until-requests', 1, 1_000_000);
    const duration = wholeNumber(str(values.duration), '--duration', 1, 86_400);
    const answerCap = maxAnswerBytes(str(values['max-answer-bytes']));
    const relayBounds = {
      timeoutMs: wholeNumber(str(values['timeout-ms']), '--timeout-ms', 1, 86_400_000) ?? 30_000,
      maxAnswerBytes: answerCap,
    };
    const faultsFile = str(values.faults);
    if (faultsFile !== undefined && upstream !== undefined)
      throw fieldError('ERR_USAGE', '--faults', 'applies to the embedded mock only, not with --upstream');
    const faults = faultsFile === undefined ? undefined : readFaults(faultsFile);
    const startedAt = new Date().toISOString();
    let stop: (by: StopCause) => void = () => {};
    const stopped = new Promise<StopCause>((resolve) => (stop = resolve));
    const { merchants, windowSeconds, ...listen } = listenerSettings(values);
    const known = merchants ?? [testMerchant()];
    const callbackChecks = values['callback-checks'] === true;
    const returnChecks = values['return-checks'] === true;
    const callbackHostList = callbackHosts(str(values['callback-hosts']));
    const method = callbackMethod(str(values['callback-method']));
    const stateUrl = callbackStateUrl(str(values['callback-state']), callbackChecks, callbackHostList);
    const record = recordFile(str(values.record));
    // Every option is read before anything is made or probed.
    // A dead sandbox is found now, not as a session of requests that all failed with "no answer".
    if (upstream !== undefined) await checkAnswersHttp(upstream, '--upstream', 'start the sandbox or fix the URL');
    // The run's own folder, claimed now as certify's is (not found wanting at the end, with the session's findings in
    // hand).
    const claim = claimReportDir(str(values['report-dir']), values.force === true, `inspect-${reportStamp()}`, {
      runFiles: INSPECT_RUN_FILES,
      kind: 'inspect report',
    });
    const { dir } = claim;
    // Each exchange as a redacted HAR entry a line, with every merchant's key redacted wherever an answer echoed it.
    const recordDir = record === undefined ? undefined : recordLinesDir();
    const keys = known.map((m) => m.merchantControlKey);
    const listener = await startListener({
      ...(recordDir === undefined
        ? {}
        : {
            onExchange: (x: RecordedExchange) =>
              appendFileSync(join(recordDir, 'exchanges.ndjson'), `${JSON.stringify(harEntryOf(x, keys))}\n`),
          }),
      ...listen,
      merchants: known,
      ...(upstream === undefined ? {} : { upstream }),
      ...(windowSeconds === undefined ? {} : { windowSeconds }),
      callbackHosts: callbackHostList,
      relayBounds,
      ...(faults === undefined ? {} : { faults }),
      ...(callbackChecks
        ? {
            callbackChecks: {
              method,
              maxAnswerBytes: answerCap,
              ...(stateUrl === undefined ? {} : { stateUrl }),
              onRecord: (record: CallbackRecord) => io.stdout(oneLine(callbackLine(record))),
            },
          }
        : {}),
      ...(returnChecks
        ? {
            returnChecks: {
              maxAnswerBytes: answerCap,
              onRecord: (record: ReturnRecord) => io.stdout(oneLine(callbackLine(record, RETURN_KIND))),
            },
          }
        : {}),
      onCustomerStep: (step) => io.stdout(oneLine(customerLine(step))),
      onRecord: (record) => {
        io.stdout(oneLine(recordLine(record)));
        if (untilRequests !== undefined && record.seq >= untilRequests) stop('until-requests');
      },
    }).catch((err: NodeJS.ErrnoException) => {
      claim.abandon();
      throw cannotListen(err, listen);
    });
    // Events on demand and the clock are the embedded mock's: behind --upstream there is no token to give.
    if (listener.adminToken !== undefined)
      try {
        announceAdminToken(io, listener.adminToken, str(values['admin-token-file']));
      } catch (err) {
        claim.abandon();
        await listener.close();
        throw err;
      }
    if (faults) io.stderr(`inspect: ${faultsLine(faults)}`);
    const url = announceListening(io, listener.url, listen.host);
    // Whose keys judge the signatures: a request for another merchant's endpoint id fails every signature check.
    const whose = known
      .map((m) => {
        const ids = [...m.endpointIds, ...m.endpointGroupIds].join(', ') || 'none';
        return `${m.login} (endpoint ids ${ids}${m.publicKeyPem ? '' : ', no RSA key'})`;
      })
      .join('; ');
    io.stderr(
      merchants === undefined
        ? `inspect: signatures are checked with the built-in TEST-ONLY merchant ${whose} (payconform mock ` +
            `--show-test-merchant shows its keys); to check your own credentials give --merchants FILE`
        : oneLine(`inspect: signatures are checked with the merchants of --merchants: ${whose}`),
    );
    io.stderr(
      `inspect: point your integration at ${url} (with your prefix, e.g. ${url}/paynet); answers come ` +
        `from ${listener.target}. Ctrl-C writes the report.`,
    );
    const timer = duration === undefined ? undefined : setTimeout(() => stop('duration'), duration * 1000);
    const onSigint = (): void => stop('SIGINT');
    const onSigterm = (): void => stop('SIGTERM');
    process.once('SIGINT', onSigint);
    process.once('SIGTERM', onSigterm);
    const stoppedBy = await stopped;
    if (timer) clearTimeout(timer);
    process.removeListener('SIGINT', onSigint);
    process.removeListener('SIGTERM', onSigterm);
    // Callbacks under way belong in the report: waited for, within a bound (a second Ctrl-C still ends the process);
    // after a signal briefly, so that inspect ends within 5 s: what is still under way then is cut (listener.close).
    const wait = stoppedBy === 'SIGINT' || stoppedBy === 'SIGTERM' ? SIGNAL_CALLBACK_WAIT_MS : CALLBACK_WAIT_MS;
    // Both at once: the bound is the one wait, however many kinds of checks run.
    const under = await Promise.all([listener.callbackChecker?.idle(wait), listener.returnChecker?.idle(wait)]);
    const unfinished = under.reduce((n: number, u) => n + (u ?? 0), 0);
    if (unfinished > 0)
      io.stderr(
        `inspect: the callbacks or returns of ${unfinished} order(s) were still under way after ${wait / 1000} s; ` +
          'they are cut and not in the report',
      );
    await listener.close();
    const callbacks = listener.callbackChecker?.records ?? [];
    const returns = listener.returnChecker?.records ?? [];
    // The lock goes before the manifest lists the folder's files.
    claim.release();
    const meta = {
      target: listener.target,
      startedAt,
      finishedAt: new Date().toISOString(),
      version: packageVersion(),
      callbackChecks,
      ...(stateUrl === undefined ? {} : { callbackState: `${stateUrl.origin}${stateUrl.pathname}` }),
      returnChecks,
      url: listener.url,
      stoppedBy,
      ...(stoppedBy === 'SIGINT' || stoppedBy === 'SIGTERM' ? { interrupted: true } : {}),
    };
    const summary = writeInspectReport(dir, listener.records, meta, callbacks, listener.customerSteps, returns);
    if (record !== undefined && recordDir !== undefined) {
      const note = meta.interrupted ? `inspect was stopped by ${stoppedBy}` : undefined;
      const n = writeRecordedHar(recordDir, record, packageVersion(), note);
      rmSync(recordDir, { recursive: true, force: true });
      io.stderr(`inspect: ${n} exchanges recorded in ${record}`);
    }
    if (summary.requests === 0) {
      io.stdout(`${noRequestLine(meta)}; report: ${join(dir, 'report.html')}`);
      return 1;
    }
    for (const line of causesLines(summary.causes)) io.stdout(oneLine(line));
    const c = summary.coverage;
    io.stdout(
      `operations exercised: ${c.exercised.length} of ${c.exercised.length + c.never.length}; status polled ` +
        `after ${c.polled} of ${c.asyncAnswers} asynchronous answers`,
    );
    const refusedOnly =
      summary.refusedOnly === 0
        ? ''
        : ` (${summary.refusedOnly} of them passed every check but ${listener.target} ` +
          `refused ${summary.refusedOnly === 1 ? 'it' : 'them'})`;
    const played =
      (callbackChecks
        ? `; callbacks of ${summary.callbackOrders} orders played, ${summary.callbackOrdersFailed} failed` +
          callbackOpen(summary.callbackChecksNotPlayed, stateUrl === undefined ? summary.callbackChecksNotJudged : 0)
        : '') +
      (returnChecks
        ? `; customer returns of ${summary.returnOrders} orders played, ${summary.returnOrdersFailed} failed`
        : '');
    io.stdout(
      `${summary.passed} passed, ${summary.failed} failed${refusedOnly}${played}; report: ${join(dir, 'report.html')}`,
    );
    const handlersPassed = summary.callbackOrdersFailed === 0 && summary.returnOrdersFailed === 0;
    return summary.failed === 0 && summary.requests > 0 && handlersPassed ? 0 : 1;
  },
};
