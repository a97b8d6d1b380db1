/**
 * Near-misses: a correctly signed request changed in one small way a gateway must notice (docs/certify.md,
 * "Generated checks"). Each kind is drawn with its own parameters (which hex digit, how much is cut), and every
 * run of a property sends one of each kind, so a gateway that lets one kind through fails whatever the seed.
 */
import fc from 'fast-check';
import { textArb } from './arbitraries.ts';

const HEX = '0123456789abcdef';

/** A control value changed: one hex digit at a position, cut, padded, or written in uppercase. */
export type ControlNearMiss =
  | { readonly kind: 'hex-digit'; readonly position: number; readonly by: number }
  | { readonly kind: 'truncated'; readonly length: number }
  | { readonly kind: 'padded'; readonly extra: string; readonly before: boolean }
  | { readonly kind: 'uppercased' };

/** One near-miss of each kind, drawn. */
export const controlNearMissesArb: fc.Arbitrary<ControlNearMiss[]> = fc
  .tuple(
    fc.record({ position: fc.nat({ max: 39 }), by: fc.integer({ min: 1, max: 15 }) }),
    // Cut to 8 hex digits at least: a shorter value would be redacted wherever its few characters stand in the report.
    fc.integer({ min: 8, max: 39 }),
    fc.record({
      extra: fc.string({ unit: fc.constantFrom(...HEX), minLength: 1, maxLength: 4 }),
      before: fc.boolean(),
    }),
  )
  .map(([digit, length, pad]) => [
    { kind: 'hex-digit', ...digit },
    { kind: 'truncated', length },
    { kind: 'padded', ...pad },
    { kind: 'uppercased' },
  ]);

/** The control sent for a near-miss of `control`; undefined where the kind changes nothing (no letter to raise). */
export function nearMissControl(control: string, miss: ControlNearMiss): string | undefined {
  switch (miss.kind) {
    case 'hex-digit': {
      const at = miss.position % control.length;
      const digit = HEX[(HEX.indexOf(control[at] ?? '0') + miss.by) % 16] ?? '0';
      return control.slice(0, at) + digit + control.slice(at + 1);
    }
    case 'truncated':
      return control.slice(0, Math.min(miss.length, control.length - 1));
    case 'padded':
      return miss.before ? miss.extra + control : control + miss.extra;
    case 'uppercased':
      return /[a-f]/.test(control) ? control.toUpperCase() : undefined;
  }
}

/** What a control near-miss is, in words for a finding. */
export function controlNearMissWords(miss: ControlNearMiss): string {
  switch (miss.kind) {
    case 'hex-digit':
      return `the hex digit at position ${miss.position} changed by ${miss.by}`;
    case 'truncated':
      return `the control cut to ${miss.length} characters`;
    case 'padded':
      return `the control padded with "${miss.extra}" ${miss.before ? 'before' : 'after'} it`;
    case 'uppercased':
      return 'the control in uppercase';
  }
}

/**
 * An OAuth near-miss: the signature made over another URL (scheme, host, port, path, a query not sent) or method
 * than the request sent, with lowercase percent-escapes, or a query sent that the signature left out.
 */
export type OAuthNearMiss =
  | { readonly kind: 'scheme' }
  | { readonly kind: 'host'; readonly host: string }
  | { readonly kind: 'port'; readonly port: number }
  | { readonly kind: 'path'; readonly change: 'endpoint-id' | 'prefix' | 'trailing-slash' | 'case' }
  | { readonly kind: 'query-signed'; readonly name: string; readonly value: string }
  | { readonly kind: 'query-left-out'; readonly name: string; readonly value: string }
  | { readonly kind: 'method'; readonly method: string }
  | { readonly kind: 'lowercase-escapes' };

const queryPair = fc.record({ name: textArb(['%']).map((n) => `q${n}`), value: textArb() });

/** One near-miss of each kind, drawn. */
export const oauthNearMissesArb: fc.Arbitrary<OAuthNearMiss[]> = fc
  .tuple(
    fc.constantFrom('gateway.example', '127.0.0.2', 'example.com'),
    fc.integer({ min: 1, max: 65535 }),
    fc.constantFrom('endpoint-id', 'prefix', 'trailing-slash', 'case'),
    queryPair,
    queryPair,
    fc.constantFrom('GET', 'PUT', 'PATCH', 'DELETE'),
  )
  .map(([host, port, change, signed, leftOut, method]) => [
    { kind: 'scheme' },
    { kind: 'host', host },
    { kind: 'port', port },
    { kind: 'path', change },
    { kind: 'query-signed', ...signed },
    { kind: 'query-left-out', ...leftOut },
    { kind: 'method', method },
    { kind: 'lowercase-escapes' },
  ]);

/** The URL the signature is made over for a URL near-miss (the request still goes to `url`). */
export function signedUrlOf(url: string, miss: OAuthNearMiss): string {
  const u = new URL(url);
  switch (miss.kind) {
    case 'scheme':
      u.protocol = u.protocol === 'https:' ? 'http:' : 'https:';
      return u.href;
    case 'host':
      u.hostname = u.hostname === miss.host ? `x${miss.host}` : miss.host;
      return u.href;
    case 'port': {
      const port = String(miss.port);
      u.port = u.port === port || (u.port === '' && ['80', '443'].includes(port)) ? '8' : port;
      return u.href;
    }
    case 'path':
      return pathChanged(u, miss.change);
    case 'query-signed':
      u.searchParams.append(miss.name, miss.value);
      return u.href;
    default:
      return url;
  }
}

function pathChanged(u: URL, change: 'endpoint-id' | 'prefix' | 'trailing-slash' | 'case'): string {
  const at = u.pathname.indexOf('/api/');
  if (change === 'endpoint-id') u.pathname = `${u.pathname}0`;
  else if (change === 'prefix') u.pathname = at > 0 ? u.pathname.slice(at) : `/paynet${u.pathname}`;
  else if (change === 'trailing-slash') u.pathname = `${u.pathname}/`;
  else u.pathname = u.pathname.replace('/api/', '/API/');
  return u.href;
}

/** What an OAuth near-miss is, in words for a finding. */
export function oauthNearMissWords(miss: OAuthNearMiss): string {
  switch (miss.kind) {
    case 'scheme':
      return 'signed over the other URL scheme';
    case 'host':
      return `signed over host ${miss.host}`;
    case 'port':
      return `signed over port ${miss.port}`;
    case 'path':
      return `signed over another path (${miss.change})`;
    case 'query-signed':
      return `signed over a query (${miss.name}=…) that was not sent`;
    case 'query-left-out':
      return `a query (${miss.name}=…) sent and left out of the signature`;
    case 'method':
      return `signed as ${miss.method}, sent as POST`;
    case 'lowercase-escapes':
      return 'signed with lowercase percent-escapes';
  }
}
