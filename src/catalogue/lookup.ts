/** Finding catalogue rows by operation name or by request URL path. */
import { PayconformError, fieldError } from '../errors.ts';
import { ownString } from '../own-string.ts';
import { ENDPOINTS, type Endpoint, type Operation } from './endpoints.ts';

const byOperation = new Map<string, Endpoint>(ENDPOINTS.map((e) => [e.operation, e]));
/** Path template without the trailing `/{endpointId}` → row. */
const byPathStem = new Map(ENDPOINTS.map((e) => [e.path.slice(0, -'/{endpointId}'.length), e]));

const INT64_MAX = 9223372036854775807n;
const GROUP_SEGMENT = '/group';

/** Whether some catalogue path stem ends this path (a stem that itself ends in /group would win). */
const byPathStemAnywhere = (stem: string): boolean => [...byPathStem.keys()].some((s) => stem.endsWith(s));

export function operationNames(): Operation[] {
  return ENDPOINTS.map((e) => e.operation);
}

export function endpointByOperation(operation: string): Endpoint {
  const found = byOperation.get(operation) ?? byOperation.get(operation.toUpperCase());
  if (!found) {
    const closest = closestOperation(operation);
    throw fieldError(
      'ERR_UNKNOWN_OPERATION',
      'operation',
      `"${operation}" is not in the catalogue${closest ? `; did you mean ${closest}?` : ''} (\`payconform ` +
        `catalogue\` lists every operation)`,
    );
  }
  return found;
}

/** The operation name nearest to a mistyped one (edit distance, case and - or _ ignored), if one is near enough. */
function closestOperation(name: string): Operation | undefined {
  const plain = (s: string): string => s.toUpperCase().replace(/[-_ ]/g, '');
  const wanted = plain(name);
  let best: { operation: Operation; distance: number } | undefined;
  for (const { operation } of ENDPOINTS) {
    const distance = editDistance(wanted, plain(operation));
    if (best === undefined || distance < best.distance) best = { operation, distance };
  }
  return best !== undefined && wanted.length > 0 && best.distance <= Math.max(1, Math.floor(wanted.length / 3))
    ? best.operation
    : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions of one character each. */
function editDistance(a: string, b: string): number {
  // A cell outside the table is never the cheapest way: Infinity keeps it out of Math.min.
  const cell = (row: readonly number[], j: number): number => row[j] ?? Number.POSITIVE_INFINITY;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(cell(row, j) + 1, cell(next, j - 1) + 1, cell(row, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return cell(row, b.length);
}

/** Whether a user-given name is an operation of the catalogue (exactly as written). */
export function isOperation(name: string): name is Operation {
  return byOperation.has(name);
}

/**
 * Validates an endpointId (or endpoint group id): the spec types it as integer int64; ids are
 * positive, written in decimal without sign or leading zeros. Kept as a string: int64 exceeds
 * JavaScript's safe integers.
 */
export function checkEndpointId(value: string, field = 'endpointId'): string {
  // Below 19 digits an id is within int64 without BigInt (the mock reads one per request).
  if (!/^[1-9][0-9]{0,18}$/.test(value) || (value.length === 19 && BigInt(value) > INT64_MAX)) {
    throw fieldError(
      'ERR_ENDPOINT_ID',
      field,
      'must be a positive int64 in decimal (1 to 9223372036854775807, no sign or leading zeros)',
    );
  }
  return value;
}

export interface PathMatch {
  readonly endpoint: Endpoint;
  readonly endpointId: string;
  /** Anything before `/api/` (for example `/paynet`); empty when none. */
  readonly prefix: string;
  /**
   * The vendor's endpoint-group form `…/{operation}/group/{groupId}` (api-family-notes, GatewayClient
   * getUrl): `endpointId` is then an endpoint group id (A-3).
   */
  readonly group?: boolean;
}

/**
 * The last path matched and its match: a merchant sends one path request after request, and the mock matches every
 * request's. A match is immutable, so the same one serves again; one entry bounds it, and the path is a copy.
 */
let lastMatched: { readonly pathname: string; readonly match: PathMatch } | undefined;

/**
 * Resolves a URL path such as `/paynet/api/v2/sale/1234` to its catalogue row and endpointId, or the
 * endpoint-group form `/paynet/api/v2/sale/group/4343` to the row and the group id.
 */
export function matchPath(pathname: string): PathMatch {
  if (lastMatched?.pathname === pathname) return lastMatched.match;
  const match = Object.freeze(resolvePath(pathname));
  lastMatched = { pathname: ownString(pathname), match };
  return match;
}

function resolvePath(pathname: string): PathMatch {
  const lastSlash = pathname.lastIndexOf('/');
  const rawId = pathname.slice(lastSlash + 1);
  const stemWithId = pathname.slice(0, lastSlash);
  const group = stemWithId.endsWith(GROUP_SEGMENT) && !byPathStemAnywhere(stemWithId);
  const stemWithPrefix = group ? stemWithId.slice(0, -GROUP_SEGMENT.length) : stemWithId;
  for (let at = stemWithPrefix.indexOf('/api/'); at !== -1; at = stemWithPrefix.indexOf('/api/', at + 1)) {
    const endpoint = byPathStem.get(stemWithPrefix.slice(at));
    if (endpoint) {
      const endpointId = checkEndpointId(rawId);
      const prefix = stemWithPrefix.slice(0, at);
      return group ? { endpoint, endpointId, prefix, group: true } : { endpoint, endpointId, prefix };
    }
  }
  throw new PayconformError(
    'ERR_UNKNOWN_ENDPOINT',
    `url: path "${pathname}" matches no catalogue endpoint (expected [prefix]/api/<version>/<operation>/<endpointId>)`,
    { field: 'url', rule: 'path must match a catalogue endpoint' },
  );
}

/**
 * matchPath for URLs that may be no catalogue endpoint (generic RFC 5849 requests): undefined then.
 * A catalogue path with a bad endpointId is still an error.
 */
export function findPath(pathname: string): PathMatch | undefined {
  try {
    return matchPath(pathname);
  } catch (err) {
    if (err instanceof PayconformError && err.code === 'ERR_UNKNOWN_ENDPOINT') return undefined;
    throw err;
  }
}
