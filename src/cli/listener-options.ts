/**
 * The options `payconform mock` and `payconform inspect` share: where to listen, whose keys verify
 * the signatures, and the oauth_timestamp window. Defined once, so both commands say and check the same.
 */
import { fieldError, type PayconformError } from '../errors.ts';
import { readMerchants, type Merchant } from '../mock/merchants.ts';
import { wholeNumber } from '../whole-number.ts';
import { str, type OptionSpecs, type Parsed } from './args.ts';

export const LISTENER_OPTIONS = {
  port: { type: 'string', valueName: 'N', description: 'port to listen on (default 0: a free one; the line printed shows it)' },
  host: { type: 'string', valueName: 'ADDRESS', description: 'address to listen on (default 127.0.0.1)' },
  merchants: { type: 'string', valueName: 'FILE', description: 'merchants JSON [{"login","merchantControlKey","publicKeyPem","endpointIds","endpointGroupIds"}] whose keys verify the signatures (default: the built-in TEST-ONLY merchant)' },
  'window-seconds': { type: 'string', valueName: 'S', description: 'accepted oauth_timestamp skew either way (default 300)' },
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

/** A listener that could not start (port in use, address not on this machine), said as a --port problem. */
export function cannotListen(err: NodeJS.ErrnoException): PayconformError {
  return fieldError('ERR_USAGE', '--port', `cannot listen (${err.code ?? err.message})`, err);
}
