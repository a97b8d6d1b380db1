/**
 * Base string URI, RFC 5849 §3.4.1.2: scheme and host in lowercase, the port only when it is not
 * the scheme's default (80 for http, 443 for https), then the path (kept whole, including any prefix
 * before `/api/`); no query and no fragment. The query's parameters go into the parameter list
 * (§3.4.1.3.1), so they are returned decoded.
 */
import { fieldError } from '../errors.ts';
import { decodeForm, type Pair } from './form-body.ts';

export interface NormalizedUrl {
  /** The URL as given. */
  readonly input: string;
  /** scheme://host[:port]/path, as it enters the base string (before percent-encoding). */
  readonly normalized: string;
  /** The explicit port written in the input, if any (even a default one that was dropped). */
  readonly explicitPort: string | null;
  readonly defaultPortDropped: boolean;
  /** Decoded query parameters, in order. */
  readonly queryPairs: Pair[];
  readonly pathname: string;
}

const EXPLICIT_PORT = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(?:\[[^\]]*\]|[^:/?#]*):([0-9]+)/i;

export function normalizeUrl(input: string, field = 'url'): NormalizedUrl {
  // WHATWG URL would silently strip or rewrite these; a request line cannot carry them.
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses
  if (/[\u0000-\u0020\u007f\\]/.test(input)) {
    throw fieldError('ERR_URL', field, 'must not contain spaces, control characters or backslashes');
  }
  let url: URL;
  try {
    url = new URL(input);
  } catch (cause) {
    throw fieldError(
      'ERR_URL',
      field,
      'must be an absolute URL such as https://gateway.example/api/v2/sale/1234',
      cause,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw fieldError('ERR_URL', field, `scheme must be http or https (got ${url.protocol.slice(0, -1)})`);
  }
  // User info would be a credential in a log line; the base string never contains it anyway.
  if (url.username !== '' || url.password !== '') {
    throw fieldError('ERR_URL', field, 'must not contain user:password@');
  }
  const explicitPort = EXPLICIT_PORT.exec(input)?.[1] ?? null;
  // WHATWG URL already lowercases scheme and host and drops the default port.
  const normalized = `${url.protocol}//${url.host}${url.pathname}`;
  return {
    input,
    normalized,
    explicitPort,
    defaultPortDropped: explicitPort !== null && url.port === '',
    queryPairs: decodeForm(url.search.slice(1), `${field} query`),
    pathname: url.pathname,
  };
}
