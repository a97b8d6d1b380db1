/**
 * A request as the rules see it: what came over the wire, and the facts rules derive from it (the
 * catalogue row, the form fields, the merchant, the Authorization header), each derived once and
 * kept. A fact that cannot be derived is undefined; the rule that judges it says why.
 */
import { matchPath, type PathMatch } from '../catalogue/index.ts';
import { isPayconformError, type PayconformError } from '../errors.ts';
import { getParam, parseAuthorizationHeader, type ParsedAuthorization } from '../signing/authorization-header.ts';
import { toCents } from '../signing/cents.ts';
import { decodeForm, type Pair } from '../signing/form-body.ts';
import { ownerOf, type Merchant } from './merchant.ts';
import type { NonceStore } from './nonces.ts';
import type { OrderHistory } from './history.ts';
import type { Fact, Outcome } from './rule.ts';

export interface SeenRequest {
  readonly method: string;
  /** The URL a signature must cover: the origin the client addressed, the path and query as sent. */
  readonly url: string;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Undefined until it is read (the mock judges the head of a request before reading its body). */
  readonly body?: Buffer | undefined;
  /** Bytes of body received, where reading stopped early because the body was too large. */
  readonly bodyBytes?: number | undefined;
  /**
   * The URL an OAuth signature must cover where it is not `url`: behind inspect --upstream, the
   * sandbox's, which is what the sandbox verifies against.
   */
  readonly signedFor?: string | undefined;
}

export interface RuleContext {
  readonly merchants: readonly Merchant[];
  /** Accepted oauth_timestamp skew either way, in seconds. */
  readonly windowSeconds: number;
  /** Clock in milliseconds. */
  readonly now: () => number;
  readonly nonces: NonceStore;
  /** The path prefix endpoints are served under (`/paynet`, or '' for none); undefined: any prefix. */
  readonly prefix?: string | undefined;
  readonly maxBodyBytes: number;
  /**
   * Whether a failed signature's evidence carries its diagnosis and explanation (inspect), or not (the mock, for
   * speed).
   */
  readonly explain: boolean;
  /** Client order ids seen so far, for the habits only inspect judges. */
  readonly history?: OrderHistory | undefined;
}

/**
 * Facts a caller has already derived (verify's one request: its URL matched and its form given as pairs), handed
 * over so the request value does not derive them a second time.
 */
export interface KnownFacts {
  readonly match?: PathMatch | undefined;
  readonly params?: Pair[] | undefined;
}

/** The amount field in cents, derived once: `cents` where it reads, `problem` (the signer's one line) where not. */
export type AmountFact =
  { readonly cents: string; readonly problem?: undefined } | { readonly cents?: undefined; readonly problem: string };

/** The characters of a host and port (RFC 3986 reg-name, IP literal, `:port`): no `/`, `?`, `#`, `@` or space. */
const HOST = /^[A-Za-z0-9\-._~%!$&'()*+,;=:[\]]+$/;

/**
 * The origin a request addressed, from its Host header; http://localhost where there is none or it is no host
 * (RFC 9112 §3.2). The path is the request line's alone: `Host: a/b` made the rules read /b/api/… for /api/….
 */
export const addressedOrigin = (host: string | undefined): string =>
  host !== undefined && HOST.test(host) ? `http://${host}` : 'http://localhost';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const NOT_YET = Symbol('not derived yet');
const NO_MATCH_ERROR = { message: '', code: '' } as const;
type Derived<T> = T | undefined | typeof NOT_YET;

export class RequestUnderTest {
  private matchFact: Derived<PathMatch> = NOT_YET;
  private matchError: { readonly message: string; readonly code: string } = NO_MATCH_ERROR;
  private paramsFact: Derived<Pair[]> = NOT_YET;
  private paramsError = '';
  private ownerFact: Derived<Merchant | ReturnType<typeof ownerOf>> = NOT_YET;
  private headerFact: Derived<ParsedAuthorization> = NOT_YET;
  private headerError = '';
  private amountFact: Derived<AmountFact> = NOT_YET;
  private controlsFact: Derived<readonly string[]> = NOT_YET;

  private body: Buffer | undefined;
  private bodyBytesSeen: number | undefined;

  constructor(
    readonly seen: SeenRequest,
    readonly context: RuleContext,
    known: KnownFacts = {},
  ) {
    this.body = seen.body;
    this.bodyBytesSeen = seen.bodyBytes;
    if (known.match !== undefined) this.matchFact = known.match;
    if (known.params !== undefined) this.paramsFact = known.params;
  }

  /** The body, once read (the head rules are judged before it is). */
  withBody(body: Buffer | undefined, bodyBytes?: number): this {
    this.body = body;
    this.bodyBytesSeen = bodyBytes;
    this.paramsFact = NOT_YET;
    this.amountFact = NOT_YET;
    this.controlsFact = NOT_YET;
    return this;
  }

  /** The body as received, undefined until read: what a deliberately broken gateway reads its own way (mock). */
  get receivedBody(): Buffer | undefined {
    return this.body;
  }

  /** Bytes of body received: all of it, or as far as reading went before it was found too large. */
  get bodyBytes(): number | undefined {
    return this.bodyBytesSeen ?? this.body?.length;
  }

  /** The path of the URL as sent (no query), without parsing the whole URL: the mock reads it per request. */
  get pathname(): string {
    const url = this.seen.url;
    const start = url.indexOf('/', url.indexOf('//') + 2);
    if (start === -1) return '/';
    const query = url.indexOf('?', start);
    const fragment = url.indexOf('#', start);
    const end = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
    return url.slice(start, end === -1 ? undefined : end);
  }

  /** The catalogue row the path names, or undefined (`matchError` says why). */
  get match(): PathMatch | undefined {
    if (this.matchFact === NOT_YET) {
      try {
        this.matchFact = matchPath(this.pathname);
      } catch (err) {
        // matchPath throws only payconform errors, each with its code (ERR_UNKNOWN_ENDPOINT, ERR_ENDPOINT_ID).
        const { message, code } = err as PayconformError<string>;
        this.matchFact = undefined;
        this.matchError = { message, code };
      }
    }
    return this.matchFact;
  }

  /** Why the path names no endpoint: ERR_ENDPOINT_ID for a catalogue path with a malformed endpointId. */
  get whyNoMatch(): { readonly message: string; readonly code: string } {
    return this.matchError;
  }

  /** The form fields, decoded as UTF-8 form encoding, or undefined (`whyNoParams` says why). */
  get params(): Pair[] | undefined {
    if (this.paramsFact === NOT_YET) {
      if (this.body === undefined) return undefined;
      try {
        this.paramsFact = decodeForm(utf8.decode(this.body));
      } catch (err) {
        this.paramsFact = undefined;
        this.paramsError = err instanceof TypeError ? 'is not UTF-8' : (err as Error).message;
      }
    }
    return this.paramsFact;
  }

  /** Every `control` field's value, in order (three rules judge them: present, shaped, signed); none without a form. */
  get controls(): readonly string[] | undefined {
    if (this.controlsFact === NOT_YET) {
      const params = this.params;
      if (params === undefined) return undefined;
      const values: string[] = [];
      for (const [name, value] of params) if (name === 'control') values.push(value);
      this.controlsFact = values;
    }
    return this.controlsFact;
  }

  get whyNoParams(): string {
    return this.paramsError;
  }

  /** The merchant the endpoint id belongs to, or the failure saying why there is none. */
  get owner(): Merchant | ReturnType<typeof ownerOf> | undefined {
    if (this.ownerFact === NOT_YET) {
      const match = this.match;
      this.ownerFact =
        match === undefined
          ? undefined
          : ownerOf(match.endpoint, match.endpointId, this.context.merchants, match.group === true);
    }
    return this.ownerFact;
  }

  get merchant(): Merchant | undefined {
    const owner = this.owner;
    return owner !== undefined && 'login' in owner ? owner : undefined;
  }

  get authorization(): string | undefined {
    return this.seen.headers.authorization;
  }

  /** The parsed Authorization header, or undefined (none sent, or `whyNoHeader` says why it is malformed). */
  get header(): ParsedAuthorization | undefined {
    if (this.headerFact === NOT_YET) {
      const text = this.authorization;
      try {
        this.headerFact = text === undefined ? undefined : parseAuthorizationHeader(text);
      } catch (err) {
        if (!isPayconformError(err)) throw err; // not a header problem: a bug, or a caller that passed no text
        this.headerFact = undefined;
        this.headerError = err.message;
      }
    }
    return this.headerFact;
  }

  get whyNoHeader(): string {
    return this.headerError;
  }

  oauthParam(name: string): string | undefined {
    const header = this.header;
    return header === undefined ? undefined : getParam(header, name);
  }

  /** The first value of a field; a loop, not `find`: the mock asks for about ten fields of each SALE. */
  field(name: string): string | undefined {
    const params = this.params;
    if (params !== undefined) for (const [n, value] of params) if (n === name) return value;
    return undefined;
  }

  /** The amount in cents, or its problem; undefined where the request has no amount, a blank one, or no form. */
  get amount(): AmountFact | undefined {
    if (this.amountFact === NOT_YET) {
      const text = this.field('amount');
      // No form yet, no amount, or a blank one (an optional field sent empty is not sent, A-36): nothing to keep.
      if (text === undefined || text.trim() === '') return undefined;
      try {
        this.amountFact = { cents: toCents(text) };
      } catch (err) {
        // toCents throws only its one-line field errors for a string (signing/cents.ts).
        this.amountFact = { problem: (err as Error).message };
      }
    }
    return this.amountFact;
  }

  /** The client order id, spelled `client-order-id` on the v4 and 3-D Secure operations. */
  get clientOrderId(): string | undefined {
    return this.field('client_orderid') ?? this.field('client-order-id');
  }
}

/** What each fact guarantees once the runner has found it there (rules/run.ts). */
interface FactValues {
  readonly endpoint: { readonly match: PathMatch; readonly owner: Merchant | Outcome };
  readonly form: { readonly params: Pair[]; readonly controls: readonly string[] };
  readonly merchant: { readonly merchant: Merchant };
}

/** The request with the facts F derived: what a rule that `needs` F receives, so its check asserts nothing. */
export type With<F extends Fact> = RequestUnderTest &
  ('endpoint' extends F ? FactValues['endpoint'] : unknown) &
  ('form' extends F ? FactValues['form'] : unknown) &
  ('merchant' extends F ? FactValues['merchant'] : unknown);

/** Whether the fact can be derived from this request (an earlier rule says why where not). */
export function hasFact(req: RequestUnderTest, fact: Fact): boolean {
  // Each fact by name, none by default: a fact this does not know is never there.
  switch (fact) {
    case 'endpoint':
      return req.match !== undefined;
    case 'form':
      return req.params !== undefined;
    case 'merchant':
      return req.merchant !== undefined;
    default:
      return false;
  }
}

/** Narrows the request to the facts named, all of which are there. */
export function hasFacts<F extends Fact>(req: RequestUnderTest, facts: readonly F[]): req is With<F> {
  // A loop, not `every`: the mock asks this of each rule of each request.
  for (const fact of facts) if (!hasFact(req, fact)) return false;
  return true;
}
