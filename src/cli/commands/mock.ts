/** `payconform mock`: the embedded gateway as a stand-alone sandbox, until SIGINT or SIGTERM. */
import { fieldError } from '../../errors.ts';
import { DEFAULT_CALLBACK_TIME_SCALE, DEFECTS, defectNamed, startMock } from '../../mock/index.ts';
import { TEST_MERCHANT_PRIVATE_KEY_FILE, testMerchant } from '../../gateway/merchants.ts';
import { readProfile } from '../../suite/profile.ts';
import { faultsLine, readFaults } from '../../gateway/fault-settings.ts';
import { str } from '../args.ts';
import type { Command, ExitCode } from '../command.ts';
import {
  announceListening,
  CALLBACK_METHOD_OPTION,
  callbackHosts,
  callbackMethod,
  cannotListen,
  LISTENER_OPTIONS,
  listenerSettings,
} from '../listener-options.ts';
import { wholeNumber } from '../../whole-number.ts';
import { oneLine } from '../terminal-text.ts';
import { clockOffset } from '../../mock/index.ts';
import { ADMIN_TOKEN_FILE_OPTION, announceAdminToken } from '../admin-token.ts';

export const mockCommand: Command = {
  spec: {
    name: 'mock',
    summary:
      'Serves the embedded mock gateway, which verifies every signature for real, and prints "listening on URL" ' +
      'once ready.',
    usage:
      'payconform mock [--port N] [--host ADDRESS] [--merchants FILE] [--prefix /paynet] [--public-url URL] ' +
      '[--window-seconds S] [--quiet] [--callback-hosts LIST] [--callback-method GET|POST] ' +
      '[--callback-time-scale N] [--profile FILE] [--faults FILE] [--defect NAME] [--list-defects] ' +
      '[--show-test-merchant] [--clock WHEN] [--admin-token-file FILE]',
    options: {
      port: LISTENER_OPTIONS.port,
      host: LISTENER_OPTIONS.host,
      merchants: LISTENER_OPTIONS.merchants,
      prefix: {
        type: 'string',
        valueName: 'PATH',
        description: 'path prefix before /api/, e.g. /paynet (default none)',
      },
      'public-url': {
        type: 'string',
        valueName: 'URL',
        description: 'the origin clients use, for the OAuth base string, when a proxy rewrites Host',
      },
      'window-seconds': LISTENER_OPTIONS['window-seconds'],
      quiet: {
        type: 'boolean',
        description: 'no request log (by default one line per request on stderr, with no field values)',
      },
      'callback-hosts': {
        type: 'string',
        valueName: 'LIST',
        description:
          'comma-separated host names the mock may send callbacks to besides loopback (default: loopback only; ' +
          'docs/callbacks.md)',
      },
      'callback-method': CALLBACK_METHOD_OPTION,
      'callback-time-scale': {
        type: 'string',
        valueName: 'N',
        description:
          `how many times faster than the public gateways' timeline (30 attempts over about 14 days) ` +
          `callbacks are retried: 1 is real time (default ${DEFAULT_CALLBACK_TIME_SCALE}: a minute lasts a ` +
          `millisecond)`,
      },
      profile: {
        type: 'string',
        valueName: 'FILE',
        description:
          'answer as a gateway profile says its gateway does: answers (JSON or form text, media type), ' +
          'answerFields, request.acceptRequired, callbacks.method (docs/mock.md; profiles/family-text.json: ' +
          "the public gateways' text answers)",
      },
      faults: {
        type: 'string',
        valueName: 'FILE',
        description:
          'faults and latency for the whole run, seeded and reproducible: JSON {"seed", "latencyMs", "rates"} ' +
          '(wins over a profile\'s faults; docs/mock.md, "Faults for a whole run")',
      },
      defect: {
        type: 'string',
        valueName: 'NAME',
        description:
          'start a deliberately broken variant, to see the suite catch it (see --list-defects; docs/prove.md)',
      },
      'list-defects': {
        type: 'boolean',
        description:
          'list the defects --defect can start, one line each with the rules it breaks (docs/rules.md), and exit',
      },
      'show-test-merchant': {
        type: 'boolean',
        description: 'print the built-in TEST-ONLY merchant credentials and exit',
      },
      clock: {
        type: 'string',
        valueName: 'WHEN',
        description:
          "start the mock's clock (OAuth timestamp window, callback retries) at an ISO time " +
          '(2030-01-01T12:00:00Z) or an offset (+2h, -10m); payconform trigger clock --advance 2h moves it on ' +
          '(docs/mock.md)',
      },
      'admin-token-file': ADMIN_TOKEN_FILE_OPTION,
    },
    epilog:
      'Stops cleanly on SIGINT or SIGTERM. Error codes and statuses: docs/assumptions.md (A-21 …). An order that ' +
      'carried notify_url or server_callback_url gets its signed callback when it is final, by GET unless ' +
      '--callback-method POST, retried until answered 200 (docs/callbacks.md).',
  },
  async run({ values }, io): Promise<ExitCode> {
    if (values['show-test-merchant']) {
      const m = testMerchant();
      io.stdout(
        JSON.stringify(
          {
            note: 'TEST-ONLY credentials of the built-in mock merchant: public, never for real money',
            login: m.login,
            merchantControlKey: m.merchantControlKey,
            endpointIds: m.endpointIds,
            endpointGroupIds: m.endpointGroupIds,
            privateKeyFile: TEST_MERCHANT_PRIVATE_KEY_FILE,
            publicKeyPem: m.publicKeyPem,
          },
          null,
          2,
        ),
      );
      return 0;
    }
    if (values['list-defects']) {
      const width = Math.max(...Object.keys(DEFECTS).map((name) => name.length));
      for (const [name, { description, breaks }] of Object.entries(DEFECTS))
        io.stdout(`${name.padEnd(width)}  ${description} (breaks ${breaks.join(', ')})`);
      return 0;
    }
    const defectName = str(values.defect);
    const defect = defectName === undefined ? undefined : defectNamed(defectName);
    const publicUrl = str(values['public-url']);
    if (publicUrl !== undefined && !/^https?:\/\/[^/]+$/.test(publicUrl.replace(/\/+$/, '')))
      throw fieldError('ERR_USAGE', '--public-url', 'must be an origin such as https://sandbox.example (no path)');
    const prefix = str(values.prefix);
    if (prefix !== undefined && !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix))
      throw fieldError('ERR_USAGE', '--prefix', 'must be a path such as /paynet');
    // The CLI reads the profile (the mock may not import the suite) and hands the mock plain options.
    const profileFile = str(values.profile);
    const profile = profileFile === undefined ? undefined : readProfile(profileFile);
    const faultsFile = str(values.faults);
    const faults = faultsFile === undefined ? profile?.faults : readFaults(faultsFile);
    const listen = listenerSettings(values);
    const allowedHosts = callbackHosts(str(values['callback-hosts']));
    // --callback-method wins; otherwise the profile's callbacks.method; otherwise GET, as the public gateways send
    // them.
    const method =
      str(values['callback-method']) === undefined && profile !== undefined
        ? profile.callbacks.method
        : callbackMethod(str(values['callback-method']));
    const clock = str(values.clock);
    const clockOffsetMs = clock === undefined ? 0 : clockOffset(clock, Date.now());
    if (typeof clockOffsetMs === 'string') throw fieldError('ERR_USAGE', '--clock', clockOffsetMs);
    const timeScale =
      wholeNumber(str(values['callback-time-scale']), '--callback-time-scale', 1, 1_000_000_000) ??
      DEFAULT_CALLBACK_TIME_SCALE;
    // V8's default heap, not --optimize-for-size: since orders keep their repeated values once (orders.ts), RSS
    // after 100,000 more sales stays near 130 MB without it (target ≤ 150 MB, npm run bench), and the size-optimised
    // mode cost each SALE 10-100 µs of CPU time (docs/bench.md).
    const mock = await startMock({
      ...listen,
      ...(prefix === undefined ? {} : { prefix }),
      ...(publicUrl === undefined ? {} : { publicUrl }),
      ...(values.quiet ? {} : { log: (line: string) => io.stderr(oneLine(line)) }),
      defect,
      callbacks: { allowedHosts, method, timeScale },
      clockOffsetMs,
      ...(faults === undefined ? {} : { faults }),
      ...(profile === undefined
        ? {}
        : {
            answers: profile.answers,
            answerFields: profile.answerFields,
            acceptRequired: profile.request.acceptRequired,
          }),
    }).catch((err: NodeJS.ErrnoException) => {
      throw cannotListen(err, listen);
    });
    if (defect) io.stderr(`mock: DELIBERATELY BROKEN (--defect ${defect}): ${DEFECTS[defect].description}`);
    if (profile)
      io.stderr(
        oneLine(
          `mock: answering as the profile "${profile.name}" says (${profile.answers.format} ` +
            `answers, ${profile.answers.mediaType}${profile.request.acceptRequired ? '' : ', Accept not required'})`,
        ),
      );
    try {
      announceAdminToken(io, mock.adminToken, str(values['admin-token-file']));
    } catch (err) {
      await mock.close();
      throw err;
    }
    if (clock !== undefined) io.stderr(`mock: clock at ${new Date(mock.clock.now()).toISOString()} (--clock)`);
    if (faults) io.stderr(`mock: ${faultsLine(faults)}`);
    announceListening(io, mock.url, listen.host);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await mock.close();
    return 0;
  },
};
