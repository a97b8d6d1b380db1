/**
 * The options `payconform mock` and `payconform inspect` share: where to listen, whose keys verify
 * the signatures, and the oauth_timestamp window. Defined once, so both commands say and check the same.
 */
import { CALLBACK_METHODS, DEFAULT_CALLBACK_METHOD, merchantUrl, type CallbackMethod } from '../catalogue/index.ts';
import { callbackHostAllowed } from '../gateway/callback-delivery.ts';
import { fieldError, type PayconformError } from '../errors.ts';
import { readMerchants, type Merchant } from '../gateway/merchants.ts';
import { wholeNumber } from '../whole-number.ts';
import type { Io } from './command.ts';
import { str, type OptionSpecs, type Parsed } from './args.ts';

export const LISTENER_OPTIONS = {
  port: {
    type: 'string',
    valueName: 'N',
    description: 'port to listen on (default 0: a free one; the line printed shows it)',
  },
  host: { type: 'string', valueName: 'ADDRESS', description: 'address to listen on (default 127.0.0.1)' },
  merchants: {
    type: 'string',
    valueName: 'FILE',
    description:
      'merchants JSON [{"login","merchantControlKey","publicKeyPem","endpointIds","endpointGroupIds"}] whose keys ' +
      'verify the signatures; publicKeyPem only for RSA-SHA256 (/api/v4/) (default: the built-in TEST-ONLY ' +
      'merchant)',
  },
  'window-seconds': {
    type: 'string',
    valueName: 'S',
    description: 'accepted oauth_timestamp skew either way (default 300)',
  },
} as const satisfies OptionSpecs;

export interface ListenerSettings {
  readonly port: number;
  readonly host: string;
  /** undefined: the built-in TEST-ONLY merchant. */
  readonly merchants: Merchant[] | undefined;
  /** undefined: the default window of the mock and inspect (300 s). */
  readonly windowSeconds: number | undefined;
}

export function listenerSettings(values: Parsed['values']): ListenerSettings {
  const file = str(values.merchants);
  return {
    port: wholeNumber(str(values.port), '--port', 0, 65535) ?? 0,
    host: str(values.host) ?? '127.0.0.1',
    merchants: file === undefined ? undefined : readMerchants(file),
    windowSeconds: wholeNumber(str(values['window-seconds']), '--window-seconds', 1, 86_400),
  };
}

/** Addresses that mean "every interface": not one a client can connect to, so loopback is printed instead. */
const EVERY_INTERFACE = new Map([
  ['0.0.0.0', '127.0.0.1'],
  ['[::]', '[::1]'],
]);

/** The listener's URL as a client on this machine can use it (http://127.0.0.1:PORT for 0.0.0.0). */
export function clientUrl(url: string): string {
  const u = new URL(url);
  const loopback = EVERY_INTERFACE.get(u.hostname);
  return loopback === undefined ? url : `${u.protocol}//${loopback}:${u.port}`;
}

/** A warning for a --host other machines can reach (anything but loopback), or undefined. */
export function exposureWarning(host: string): string | undefined {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h)) return undefined;
  return (
    `warning: --host ${host}: the listener is reachable from the network; anyone who can reach this machine ` +
    `can send it requests (127.0.0.1 keeps it to this machine)`
  );
}

/** The hosts of --callback-hosts: names or addresses, comma-separated, never a URL. */
export function callbackHosts(value: string | undefined): string[] {
  if (value === undefined) return [];
  const hosts = value
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  const bad = hosts.find((h) => !/^[A-Za-z0-9.:-]+$/.test(h));
  if (bad !== undefined || hosts.length === 0)
    throw fieldError(
      'ERR_USAGE',
      '--callback-hosts',
      `must be host names separated by commas, such as shop.test,10.0.0.5 (got "${(bad ?? value).slice(0, 40)}")`,
    );
  return hosts;
}

/** --callback-method, which mock and inspect share: how the callbacks go to the merchant's handler. */
export const CALLBACK_METHOD_OPTION = {
  type: 'string',
  valueName: 'GET|POST',
  description:
    "how callbacks go to the handler: GET with the fields added to the URL's query, as the public gateways send " +
    'them (default), or a form-encoded POST; docs/callbacks.md',
} as const;

export function callbackMethod(value: string | undefined): CallbackMethod {
  if (value === undefined) return DEFAULT_CALLBACK_METHOD;
  const method = value.toUpperCase();
  if (!(CALLBACK_METHODS as readonly string[]).includes(method))
    throw fieldError('ERR_USAGE', '--callback-method', `must be GET or POST (got "${value.slice(0, 20)}")`);
  return method as CallbackMethod;
}

/** Says where the listener is, as a client can reach it, with the warning for a host the network can reach. */
export function announceListening(io: Io, url: string, host: string): string {
  const warning = exposureWarning(host);
  if (warning !== undefined) io.stderr(warning);
  const usable = clientUrl(url);
  io.stdout(`listening on ${usable}`);
  return usable;
}

/** Errors of listen() that say the address is wrong, not the port. */
const HOST_ERRORS = new Set([
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EAFNOSUPPORT',
  'EINVAL',
]);

/** The system calls a listener's own failures come from: anything else (a file the server reads) is not the flags'. */
const LISTEN_CALLS: ReadonlySet<string | undefined> = new Set(['listen', 'bind', 'getaddrinfo']);

/**
 * A listener that could not start, said as a problem of the flag behind it: --host (no such address here) or --port (in
 * use, not allowed). Any other failure while starting is passed on as it is, not blamed on a flag.
 */
export function cannotListen(
  err: NodeJS.ErrnoException,
  settings: { port: number; host: string },
): PayconformError | NodeJS.ErrnoException {
  if (!LISTEN_CALLS.has(err.syscall)) return err;
  const code = err.code ?? err.message;
  if (HOST_ERRORS.has(code))
    return fieldError(
      'ERR_USAGE',
      '--host',
      `cannot listen on ${settings.host} (${code}): give an address of this machine, such as 127.0.0.1 or 0.0.0.0`,
      err,
    );
  if (code === 'EADDRINUSE')
    return fieldError(
      'ERR_USAGE',
      '--port',
      `${settings.port} is in use on ${settings.host} (EADDRINUSE): give another port, or 0 for a free one`,
      err,
    );
  return fieldError('ERR_USAGE', '--port', `cannot listen on ${settings.host}:${settings.port} (${code})`, err);
}

/** --callback-state as given: an http(s) URL on loopback or a host of --callback-hosts, with --callback-checks. */
export function callbackStateUrl(
  value: string | undefined,
  callbackChecks: boolean,
  allowedHosts: readonly string[],
): URL | undefined {
  if (value === undefined) return undefined;
  if (!callbackChecks) throw fieldError('ERR_USAGE', '--callback-state', 'needs --callback-checks');
  const url = merchantUrl(value);
  if (!(url instanceof URL))
    throw fieldError(
      'ERR_USAGE',
      '--callback-state',
      'must be an absolute http(s) URL such as http://127.0.0.1:8080/state',
    );
  if (!callbackHostAllowed(url, allowedHosts))
    throw fieldError(
      'ERR_USAGE',
      '--callback-state',
      'must be on a loopback host (127.0.0.1, ::1, localhost) or a host of --callback-hosts ' +
        `(got ${url.hostname.slice(0, 60)})`,
    );
  return url;
}
